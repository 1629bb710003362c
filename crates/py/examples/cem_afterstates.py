"""Learns to play NES Tetris at level 18 in minutes: the cross-entropy method over a linear value
of afterstate features.

What it is: ``playfield/NesTetris-v0`` with ``observation="afterstates"`` gives, for every
reachable placement (grouped by orientation and column), eight features of the board once the
piece locks (lines cleared, lock height, well cells, holes, column and row transitions,
bumpiness, highest column). The policy plays the placement whose features have the highest
value ``w · f``. The cross-entropy method (Szita and Lőrincz's noisy CEM for Tetris) learns
``w``: each generation draws weight vectors from a Gaussian, plays one game with each (the same
pieces for all, capped at ``--train-lines`` lines), and refits the Gaussian to the best quarter.
No neural network, no gradient: a search over eight numbers, which is why it takes minutes.

At the end the mean weights play ``--eval-games`` new games (capped at ``--eval-lines``, 300:
a good player at level 18 may play a thousand lines, which would take longer than the training)
and the script prints their mean lines per game.

    taskset -c 0 python crates/py/examples/cem_afterstates.py --minutes 5
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from playfield.envs import AFTERSTATE_FEATURES, NesTetrisEnv  # noqa: E402


def play(env: NesTetrisEnv, weights: np.ndarray, seed: int) -> int:
    """One game with the greedy afterstate policy; returns the lines cleared."""
    obs, _ = env.reset(seed=seed)
    while True:
        values = obs["afterstates"] @ weights
        values[obs["action_mask"] == 0] = -np.inf
        obs, _, terminated, truncated, _ = env.step(int(values.argmax()))
        if terminated or truncated:
            return env.nes().lines


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=5.0, help="total time, evaluation included")
    p.add_argument("--level", type=int, default=18)
    p.add_argument("--population", type=int, default=16)
    p.add_argument("--train-lines", type=int, default=130, help="line cap of training games")
    p.add_argument("--eval-games", type=int, default=5)
    p.add_argument("--eval-lines", type=int, default=300, help="line cap of evaluation games")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    start = time.perf_counter()
    budget = args.minutes * 60
    rng = np.random.default_rng(args.seed)
    train = NesTetrisEnv(observation="afterstates", level=args.level, max_lines=args.train_lines)
    n = len(AFTERSTATE_FEATURES)
    mean, std = np.zeros(n), np.full(n, 10.0)
    elite = max(2, args.population // 4)
    # The evaluation plays about as long as two generations of good players: keep time for it.
    reserve = 0.25 * budget
    generation = 0
    while time.perf_counter() - start < budget - reserve:
        candidates = mean + std * rng.standard_normal((args.population, n))
        game_seed = int(rng.integers(0, 2**62))
        scores = np.array([play(train, w, game_seed) for w in candidates])
        best = candidates[np.argsort(scores)[-elite:]]
        # Noise added to the refitted spread keeps the search from collapsing early.
        noise = max(0.0, 4.0 - 0.2 * generation)
        mean, std = best.mean(axis=0), best.std(axis=0) + noise
        generation += 1
        print(
            f"generation {generation}: lines mean {scores.mean():.1f} max {scores.max()} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    evaluate = NesTetrisEnv(
        observation="afterstates", level=args.level, max_lines=args.eval_lines
    )
    lines = [play(evaluate, mean, 1_000_000 + g) for g in range(args.eval_games)]
    weights = ", ".join(f"{name} {w:.2f}" for name, w in zip(AFTERSTATE_FEATURES, mean))
    print(f"weights: {weights}")
    print(
        f"evaluation: {np.mean(lines):.1f} lines per game at level {args.level} over "
        f"{len(lines)} games capped at {args.eval_lines} lines {lines} "
        f"({time.perf_counter() - start:.0f} s in all)"
    )
    return float(np.mean(lines))


if __name__ == "__main__":
    main()
