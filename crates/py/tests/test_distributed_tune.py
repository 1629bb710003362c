"""A tuning run continued on a local Ray cluster is the run the command line makes: the same
checkpoint, generation for generation, and either can resume the other's."""

import io
import json
import shutil
import subprocess

import pytest

ray = pytest.importorskip("ray")

from playfield import _playfield, distributed  # noqa: E402

TUNE = ["--format", "betatetris", "--linecap", "6", "--fixed", "surface"]


@pytest.fixture(scope="module")
def local_cluster():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def started_run(tmp_path_factory, playfield_bin):
    """Positions of two six-line games and a run's checkpoint after one generation, both made
    by the command line (the position file by its absolute path)."""
    d = tmp_path_factory.mktemp("tune")
    positions = d / "positions.json"
    subprocess.run(
        [playfield_bin, "nes", "tune", *TUNE, "--segments", str(positions), "--segment-games",
         "2", "--make-segments-only"],
        check=True, capture_output=True,
    )
    checkpoint = d / "start.json"
    subprocess.run(
        [playfield_bin, "nes", "tune", *TUNE, "--segments", str(positions), "--population", "4",
         "--per-band", "2", "--segment-lines", "3", "--seed", "1", "--generations", "1",
         "--checkpoint", str(checkpoint)],
        check=True, capture_output=True,
    )
    return d, checkpoint


def without_commands(path) -> dict:
    c = json.loads(path.read_text())
    del c["made_by"]
    return c


def test_a_ray_generation_equals_the_command_lines(local_cluster, started_run, playfield_bin):
    d, start = started_run
    by_cli, by_ray = d / "cli.json", d / "ray.json"
    shutil.copy(start, by_cli)
    shutil.copy(start, by_ray)
    cli = subprocess.run(
        [playfield_bin, "nes", "tune", "--resume", str(by_cli), "--generations", "2"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    argv = ["tune", "--resume", str(by_ray), "--generations", "2", "--out", str(d / "w.json")]
    out = io.StringIO()
    records = distributed.tune(distributed.parser().parse_args(argv), out=out, argv=argv)
    assert [r["generation"] for r in records] == [2, 3]
    # The same optimiser state, history and settings, to the bit (floats are written exactly).
    assert without_commands(by_ray) == without_commands(by_cli)
    # The same lines as the command line's, generation by generation.
    assert out.getvalue().splitlines()[:2] == cli[:2]
    made_by = json.loads(by_ray.read_text())["made_by"]
    assert made_by[-1].startswith("python -m playfield.distributed tune --resume")
    # The weights file is the command line's kind: the bench loads it.
    weights = json.loads((d / "w.json").read_text())
    assert weights["how_made"]["generations"] == 3
    subprocess.run(
        [playfield_bin, "nes", "bench", "--format", "betatetris", "--linecap", "2", "--games",
         "1", "--weights", str(d / "w.json")],
        check=True, capture_output=True,
    )
    # The command line resumes the run Ray continued.
    subprocess.run(
        [playfield_bin, "nes", "tune", "--resume", str(by_ray), "--generations", "1"],
        check=True, capture_output=True,
    )
    assert json.loads(by_ray.read_text())["es"]["generation"] == 4


def test_a_bad_checkpoint_or_plan_is_refused(started_run, tmp_path):
    with pytest.raises(ValueError, match="not a tuning checkpoint"):
        _playfield.TuneRun("{}", what="--resume x.json")
    _, start = started_run
    moved = json.loads(start.read_text())
    moved["setup"]["segments"]["file"] = str(tmp_path / "gone.json")
    with pytest.raises(ValueError, match="cannot read the position file"):
        _playfield.TuneRun(json.dumps(moved))
    run = _playfield.TuneRun(start.read_text())
    with pytest.raises(ValueError, match="no generation was planned"):
        run.conclude([])
    plan = run.plan()
    with pytest.raises(ValueError, match="the plan needs"):
        run.conclude([1.0])
    with pytest.raises(ValueError, match="not concluded"):
        run.plan()
    with pytest.raises(ValueError, match="positions"):
        run.evaluate(plan["players"][0], plan["generation"], 10_000)
    with pytest.raises(ValueError, match="bad weights"):
        run.evaluate("{}", plan["generation"], plan["tasks"][0])


def test_the_command_line_refuses_a_missing_checkpoint(tmp_path):
    err = io.StringIO()
    import contextlib

    with contextlib.redirect_stderr(err):
        code = distributed.main(["tune", "--resume", str(tmp_path / "none.json")])
    assert code == 1
    assert "--resume" in err.getvalue()
