"""Speed of playfield's environments, for the README's side-by-side figures.

    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py frames
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py engine
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py vector-frames --threads 1
    taskset -c 0,1 .venv/bin/python crates/py/bench/bench_envs.py vector-frames --threads 2
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py placement --level 18 --input X.
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py standard

Actions are random (placement environments: uniform over the action mask); episodes that end
are reset and the reset's frames are not counted as steps.
"""

import argparse
import time

import gymnasium as gym
import numpy as np

import playfield  # noqa: F401
from playfield.nes import Nes
from playfield.vector import NesTetrisFramesVectorEnv, NesTetrisVectorEnv


def frames(args):
    env = gym.make("playfield/NesTetrisFrames-v0", level=args.level)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 256, size=1 << 20).tolist()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for a in actions[steps & 0xFFFFF : (steps & 0xFFFFF) + 10_000]:
            _, _, terminated, truncated, _ = env.step(a)
            steps += 1
            if terminated or truncated:
                env.reset()
    elapsed = time.perf_counter() - start
    return f"NesTetrisFrames-v0 (gymnasium.make, one env): {steps / elapsed:,.0f} steps/s"


def engine(args):
    """The engine alone, from the first piece of a game, frames counted from its own counter
    (a game that ends goes to the menus and, left alone, the demo, where the engine stops
    without the ROM's demo tables: it is then restarted from the saved first piece)."""
    env = gym.make("playfield/NesTetrisFrames-v0", level=args.level)
    env.reset(seed=0)
    start_state = env.unwrapped.nes()
    n = start_state.copy()
    rng = np.random.default_rng(0)
    buttons = (rng.integers(0, 256, size=1_000_000) & ~0x30).astype(np.uint8)  # no Start/Select
    frames_run = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        before = n.frame
        n.step_many(buttons)
        frames_run += n.frame - before
        if n.unsupported is not None:
            n = start_state.copy()
    elapsed = time.perf_counter() - start
    return f"Nes.step_many (numpy buttons): {frames_run / elapsed:,.0f} frames/s"


def vector_frames(args):
    env = NesTetrisFramesVectorEnv(
        num_envs=args.envs, num_threads=args.threads, copy=False, level=args.level
    )
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, 256, size=args.envs) for _ in range(64)]
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for a in batches:
            env.step(a)
        steps += len(batches)
    elapsed = time.perf_counter() - start
    return (
        f"NesTetrisFramesVectorEnv {args.envs} envs, {args.threads} thread(s): "
        f"{steps * args.envs / elapsed:,.0f} frames/s"
    )


def placement(args):
    env = gym.make(
        "playfield/NesTetris-v0", level=args.level, input=args.input,
        info_buttons=args.info_buttons,
    )
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = resets = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, _, terminated, truncated, _ = env.step(action)
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset()
            resets += 1
    elapsed = time.perf_counter() - start
    return (
        f"NesTetris-v0 level {args.level} input {args.input} info_buttons={args.info_buttons}: "
        f"{steps / elapsed:,.0f} steps/s ({resets} episodes)"
    )


def vector_placement(args):
    env = NesTetrisVectorEnv(
        num_envs=args.envs, num_threads=args.threads, copy=False, level=args.level,
        input=args.input,
    )
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        mask = obs["action_mask"]
        actions = np.array([
            rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask
        ])
        obs, *_ = env.step(actions)
        steps += 1
    elapsed = time.perf_counter() - start
    return (
        f"NesTetrisVectorEnv {args.envs} envs level {args.level} input {args.input}, "
        f"{args.threads} thread(s): {steps * args.envs / elapsed:,.0f} steps/s"
    )


def standard(args):
    env = gym.make("playfield/StandardTetris-v0")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        obs, _, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset()
    elapsed = time.perf_counter() - start
    return f"StandardTetris-v0: {steps / elapsed:,.0f} steps/s"


KINDS = {
    "frames": frames, "engine": engine, "vector-frames": vector_frames,
    "placement": placement, "vector-placement": vector_placement, "standard": standard,
}

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--level", type=int, default=18)
    p.add_argument("--input", default="X.")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--info-buttons", action="store_true")
    args = p.parse_args()
    print(KINDS[args.kind](args))
