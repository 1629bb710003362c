"""playfield.value_network: a network fitted on the residuals of `nes learn`'s linear value."""

import json
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the network is fitted with PyTorch")

from playfield import value_network  # noqa: E402


def write_samples(path, names, rows):
    with open(path, "w") as f:
        f.write(",".join(["game", "class", "future", *names]) + "\n")
        for row in rows:
            f.write(",".join(str(v) for v in row) + "\n")


def test_the_network_learns_what_the_linear_value_cannot(tmp_path):
    # Double speed's boards: the points to come are linear in a, plus a kink in b that no
    # linear value has.
    rng = np.random.default_rng(0)
    names = ["bias", "a", "b"]
    rows = []
    for game in range(40):
        for _ in range(60):
            a, b = rng.uniform(0, 1, 2)
            future = 2 + 3 * a + 10 * max(b - 0.5, 0) + rng.normal(0, 0.05)
            rows.append((game, 3, future, 1.0, a, b))
    write_samples(tmp_path / "s.csv", names, rows)
    linear = {"value": {"features": names, "by_gravity": {g: [2.0, 3.0, 0.0] for g in value_network.GRAVITIES}}}
    (tmp_path / "lin.json").write_text(json.dumps(linear))
    reports = value_network.fit(
        tmp_path / "s.csv", tmp_path / "lin.json", tmp_path / "net.json", ["double_speed"], hidden=16,
    )
    (r,) = reports
    assert r.gravity == "double_speed" and r.boards == 2400
    assert r.r2_network > 0.95 and r.r2_network > r.r2_linear + 0.2, r
    written = json.loads((tmp_path / "net.json").read_text())
    assert written["value"]["rates"] == ["double_speed"]
    assert list(written["value"]["networks"]) == ["double_speed"]
    assert written["how_made"]["network"]["held_out_r2"]["double_speed"]["network"] == r.r2_network
    assert not list(tmp_path.glob("*.partial"))
    # Asking for an unknown gravity, or a file without a value, names what is wrong.
    with pytest.raises(ValueError, match="gravities: unknown gravity 'level_30'"):
        value_network.fit(tmp_path / "s.csv", tmp_path / "lin.json", tmp_path / "x.json", ["level_30"])
    (tmp_path / "plain.json").write_text("{}")
    with pytest.raises(ValueError, match="no learned value"):
        value_network.fit(tmp_path / "s.csv", tmp_path / "plain.json", tmp_path / "x.json", ["double_speed"])


def test_forward_is_the_engines_formula():
    # The network of the engine's own test (`small_network` in crates/ai/src/nes/learned.rs):
    # relu(x1 - 1) and relu(1 - x1), weighted 2 and 3, plus 0.5, times 10.
    inputs = 23
    up, down = [0.0] * inputs, [0.0] * inputs
    up[0], down[0] = 1.0, -1.0
    network = {
        "input_mean": [0.0] * inputs,
        "input_scale": [1.0] * inputs,
        "layers": [{"weights": [up, down], "bias": [-1.0, 1.0]}, {"weights": [[2.0, 3.0]], "bias": [0.5]}],
        "output_scale": 10.0,
    }
    features = np.zeros((2, inputs + 1))
    features[:, 0] = 1.0
    features[:, 1] = [3.0, -1.0]
    assert value_network.forward(network, features).tolist() == [45.0, 65.0]


def test_a_fitted_network_plays_in_the_engine(tmp_path, playfield_bin):
    learn = subprocess.run(
        [playfield_bin, "nes", "learn", "--games", "6", "--linecap", "8", "--seed", "1",
         "--out", str(tmp_path / "lin.json"), "--samples-out", str(tmp_path / "s.csv")],
        capture_output=True, text=True,
    )
    assert learn.returncode == 0, learn.stderr
    reports = value_network.fit(
        tmp_path / "s.csv", tmp_path / "lin.json", tmp_path / "net.json", ["level_18"],
        hidden=8, max_epochs=5, validation=0.34,
    )
    assert reports[0].boards > 20
    bench = subprocess.run(
        [playfield_bin, "nes", "bench", "--format", "betatetris", "--linecap", "8", "--games", "1",
         "--weights", str(tmp_path / "net.json"), "--json"],
        capture_output=True, text=True,
    )
    assert bench.returncode == 0, bench.stderr
    summary = json.loads(bench.stdout.strip().splitlines()[-1])["summary"]
    assert summary["games"] == 1
    # A network the engine cannot use is refused with the file's name.
    broken = json.loads((tmp_path / "net.json").read_text())
    broken["value"]["networks"]["level_18"]["layers"][0]["bias"].pop()
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    bad = subprocess.run(
        [playfield_bin, "nes", "bench", "--format", "betatetris", "--linecap", "8", "--games", "1",
         "--weights", str(tmp_path / "broken.json")],
        capture_output=True, text=True,
    )
    assert bad.returncode != 0 and "broken.json" in bad.stderr and "layer 0" in bad.stderr, bad.stderr
