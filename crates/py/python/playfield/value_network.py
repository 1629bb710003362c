"""A small network added to a learned board value, fitted outside the engine.

`playfield nes learn --samples-out boards.csv --out linear.json` plays games, fits the linear
value (per gravity) and writes every board with the points the game scored from it on. This
module fits, for the gravities asked, a network on what the linear value leaves unexplained (the
residuals), and writes the weights file again with the networks beside the coefficients
(`value.networks`) and the gravities the value rates (`value.rates`; the hand-set terms rate the
others). The engine evaluates the network itself (`Network::output` in
`crates/ai/src/nes/learned.rs`), so a file written here plays with `--weights` anywhere.

    python -m playfield.value_network boards.csv linear.json --gravities double_speed \\
        --out network.json

Needs PyTorch (``pip install torch``); fits on the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

GRAVITIES = ("level_18", "levels_19_28", "level_29", "double_speed")


@dataclass
class FitReport:
    """How one gravity's fit went: R² of the points to come, linear alone and with the network,
    on the boards of the games held back for validation."""

    gravity: str
    boards: int
    epochs: int
    r2_linear: float
    r2_network: float
    extra: dict = field(default_factory=dict)


def read_samples(path: str | os.PathLike) -> tuple[list[str], np.ndarray]:
    """The feature names and the rows (game, class, future, features...) of a samples file."""
    with open(path) as f:
        header = f.readline().strip().split(",")
    if header[:3] != ["game", "class", "future"]:
        raise ValueError(f"{path}: not a samples file of `nes learn --samples-out` (header {header[:3]})")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    if data.shape[1] != len(header):
        raise ValueError(f"{path}: {data.shape[1]} columns, the header names {len(header)}")
    return header[3:], data


def _r2(target: np.ndarray, predicted: np.ndarray) -> float:
    total = float(((target - target.mean()) ** 2).sum())
    return 1.0 - float(((target - predicted) ** 2).sum()) / total if total > 0 else float("nan")


def forward(network: dict, features: np.ndarray) -> np.ndarray:
    """The network's output for rows of features (bias first), as the engine computes it."""
    x = (features[:, 1:] - np.array(network["input_mean"])) / np.array(network["input_scale"])
    layers = network["layers"]
    for i, layer in enumerate(layers):
        x = x @ np.array(layer["weights"]).T + np.array(layer["bias"])
        if i + 1 < len(layers):
            x = np.maximum(x, 0.0)
    return x[:, 0] * network["output_scale"]


def fit(
    samples: str | os.PathLike,
    weights: str | os.PathLike,
    out: str | os.PathLike,
    gravities: list[str],
    rates: list[str] | None = None,
    hidden: int = 32,
    seed: int = 1,
    max_epochs: int = 300,
    patience: int = 20,
    validation: float = 0.2,
) -> list[FitReport]:
    """Fits a network per gravity in `gravities` on the linear value's residuals and writes the
    weights with them to `out` (atomically). `rates` (default: `gravities`) are the gravities the
    value rates. Games, not boards, are held back for validation (`validation` of them), so the
    early stopping sees boards of games it did not fit."""
    import torch

    for name, given in (("gravities", gravities), ("rates", rates or [])):
        unknown = [g for g in given if g not in GRAVITIES]
        if unknown:
            raise ValueError(f"{name}: unknown gravity {unknown[0]!r} (known: {', '.join(GRAVITIES)})")
    if not 1 <= hidden <= 128:
        raise ValueError(f"hidden must be 1-128 (the engine's widest layer), got {hidden}")
    if not 0 < validation < 1:
        raise ValueError(f"validation must be a share between 0 and 1, got {validation}")
    names, data = read_samples(samples)
    with open(weights) as f:
        file = json.load(f)
    value = file.get("value")
    if not isinstance(value, dict):
        raise ValueError(f"{weights}: no learned value (`value`): make it with `playfield nes learn`")
    if value.get("features") != names:
        raise ValueError(f"{weights}: its value's features are not the samples file's")
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    game, cls, future, features = data[:, 0].astype(int), data[:, 1].astype(int), data[:, 2], data[:, 3:]
    games = np.unique(game)
    held = set(rng.choice(games, size=max(1, round(len(games) * validation)), replace=False).tolist())
    networks = {}
    reports = []
    for gravity in gravities:
        rows = cls == GRAVITIES.index(gravity)
        x, y, g = features[rows], future[rows], game[rows]
        is_held = np.array([v in held for v in g], dtype=bool)
        train = ~is_held
        if train.sum() < 10 or is_held.sum() < 10:
            raise ValueError(f"{gravity}: {int(train.sum())} boards to fit and {int(is_held.sum())} to validate: play more games")
        linear = x @ np.array(value["by_gravity"][gravity])
        residual = y - linear
        inputs = x[:, 1:]
        mean = inputs[train].mean(0)
        scale = inputs[train].std(0)
        scale[scale < 1e-9] = 1.0
        out_scale = float(residual[train].std()) or 1.0
        xt = torch.tensor((inputs - mean) / scale, dtype=torch.float32)
        yt = torch.tensor(residual / out_scale, dtype=torch.float32)
        net = torch.nn.Sequential(
            torch.nn.Linear(inputs.shape[1], hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, 1),
        )
        # The output starts at 0: the value starts as the linear one.
        torch.nn.init.zeros_(net[4].weight)
        torch.nn.init.zeros_(net[4].bias)
        optimiser = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
        train_rows = np.flatnonzero(train)
        held_rows = torch.tensor(np.flatnonzero(is_held))
        best, best_state, waited, epochs = float("inf"), None, 0, 0
        for epochs in range(1, max_epochs + 1):
            net.train()
            order = rng.permutation(train_rows)
            for i in range(0, len(order), 256):
                batch = torch.tensor(order[i:i + 256])
                loss = ((net(xt[batch]).squeeze(1) - yt[batch]) ** 2).mean()
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
            net.eval()
            with torch.no_grad():
                held_loss = ((net(xt[held_rows]).squeeze(1) - yt[held_rows]) ** 2).mean().item()
            if held_loss < best - 1e-5:
                best, waited = held_loss, 0
                best_state = {k: v.clone() for k, v in net.state_dict().items()}
            else:
                waited += 1
                if waited >= patience:
                    break
        net.load_state_dict(best_state)
        network = {
            "input_mean": mean.tolist(),
            "input_scale": scale.tolist(),
            "layers": [
                {"weights": layer.weight.detach().double().tolist(), "bias": layer.bias.detach().double().tolist()}
                for layer in (net[0], net[2], net[4])
            ],
            "output_scale": out_scale,
        }
        networks[gravity] = network
        predicted = linear + forward(network, x)
        reports.append(FitReport(
            gravity=gravity, boards=int(rows.sum()), epochs=epochs,
            r2_linear=_r2(y[is_held], linear[is_held]), r2_network=_r2(y[is_held], predicted[is_held]),
        ))
    value["networks"] = networks
    value["rates"] = list(rates if rates is not None else gravities)
    file.setdefault("how_made", {})["network"] = {
        "fitter": "playfield.value_network: two hidden layers of ReLU units on the linear value's "
                  "residuals, Adam (learning rate 1e-3, weight decay 1e-4, batches of 256), early "
                  f"stopping on {validation:.0%} of the games",
        "samples": str(samples), "hidden": [hidden, hidden], "seed": seed,
        "held_out_r2": {r.gravity: {"linear": r.r2_linear, "network": r.r2_network} for r in reports},
    }
    out = Path(out)
    temporary = out.with_name(out.name + ".partial")
    temporary.write_text(json.dumps(file, indent=1) + "\n")
    temporary.replace(out)
    return reports


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m playfield.value_network", description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", help="the boards, from `playfield nes learn --samples-out`")
    parser.add_argument("weights", help="the weights with the linear value, from `playfield nes learn --out`")
    parser.add_argument("--gravities", required=True, help=f"comma-separated, of {', '.join(GRAVITIES)}")
    parser.add_argument("--rates", help="the gravities the value rates (default: --gravities)")
    parser.add_argument("--hidden", type=int, default=32, help="units per hidden layer, 1-128")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        reports = fit(
            args.samples, args.weights, args.out, args.gravities.split(","),
            args.rates.split(",") if args.rates else None, args.hidden, args.seed,
        )
    except (ValueError, OSError) as e:
        parser.exit(1, f"error: {e}\n")
    for r in reports:
        print(f"{r.gravity}: {r.boards} boards, {r.epochs} epochs; R² on held-back games: linear "
              f"{r.r2_linear:.3f}, with the network {r.r2_network:.3f}")


if __name__ == "__main__":
    main()
