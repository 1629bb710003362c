"""Speed of playfield's environments, for the README's side-by-side figures.

    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py frames
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py engine
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py vector-frames --threads 1
    taskset -c 0,1 .venv/bin/python crates/py/bench/bench_envs.py vector-frames --threads 2
    taskset -c 0,1 .venv/bin/python crates/py/bench/bench_envs.py vector-frames --threads 2 \
        --frames-per-call 16
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py placement --level 18 --input X.
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py placement --no-soft-drop --no-das
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py vector-placement --threads 1
    taskset -c 0,1 .venv/bin/python crates/py/bench/bench_envs.py vector-placement --threads 2
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py breakdown  # where a step's time goes
    taskset -c 0 .venv/bin/python crates/py/bench/bench_envs.py standard

Actions are random (placement environments: uniform over the action mask, drawn with one
uniform number per step on the mask's boolean view, which costs a few microseconds: numpy's
`Generator.choice`, or `flatnonzero` on the int8 mask, would cost more than some environments'
steps); episodes that end are reset, the resets' time is counted and
their frames are not counted as steps.
"""

import argparse
import os
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
    k = args.frames_per_call
    if k == 1:
        batches = [rng.integers(0, 256, size=args.envs) for _ in range(64)]
        call = env.step
    else:
        batches = [rng.integers(0, 256, size=(k, args.envs)) for _ in range(max(1, 64 // k))]
        call = env.step_frames
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < args.seconds:
        for a in batches:
            call(a)
        steps += len(batches) * k
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    THREADS[:] = thread_cpu_seconds()  # while the pool's threads are alive
    how = "step" if k == 1 else f"step_frames, {k} frames per call"
    return (
        f"NesTetrisFramesVectorEnv {args.envs} envs, {args.threads} thread(s), {how}: "
        f"{steps * args.envs / elapsed:,.0f} frames/s ({steps * args.envs / cpu:,.0f} per CPU "
        f"second)"
    )


def random_action(rng, mask):
    """A uniform action among those `mask` allows (read as booleans: numpy's `flatnonzero` on
    the int8 mask itself takes about 20 microseconds, on its boolean view 3)."""
    allowed = np.flatnonzero(mask.view(bool))
    return int(allowed[int(rng.random() * len(allowed))])


def random_actions(rng, masks):
    """A uniform allowed action for each row of `masks` (0 for a row that allows none: a
    sub-environment about to be reset ignores its action)."""
    rows, cols = np.nonzero(masks.view(bool))
    counts = np.bincount(rows, minlength=len(masks))
    if len(cols) == 0:
        return np.zeros(len(masks), dtype=np.int64)
    starts = np.cumsum(counts) - counts
    pick = np.minimum(starts + (rng.random(len(masks)) * counts).astype(np.int64), len(cols) - 1)
    return np.where(counts > 0, cols[pick], 0)


def model_text(args):
    return f"input {args.input} das={args.das} soft_drop={args.soft_drop}"


def placement(args):
    env = gym.make(
        "playfield/NesTetris-v0", level=args.level, input=args.input, das=args.das,
        soft_drop=args.soft_drop, info_buttons=args.info_buttons,
    )
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = resets = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < args.seconds:
        action = random_action(rng, obs["action_mask"])
        obs, _, terminated, truncated, _ = env.step(action)
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset()
            resets += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return (
        f"NesTetris-v0 level {args.level} {model_text(args)} info_buttons={args.info_buttons}: "
        f"{steps / cpu:,.0f} steps per CPU second ({steps / elapsed:,.0f} steps/s of wall time; "
        f"{resets} episodes)"
    )


def breakdown(args):
    """Where a `NesTetris-v0` step's time goes: the Rust `step` alone (the search of the next
    piece and the frames played), the resets, and the rest (Python: `gymnasium.make`'s wrappers,
    the observation's arrays, the random choice), from two runs of as many steps from the same
    seed (their random actions differ, so the split is approximate)."""
    make = dict(
        level=args.level, input=args.input, das=args.das, soft_drop=args.soft_drop,
        info_buttons=False,
    )
    core = gym.make("playfield/NesTetris-v0", **make).unwrapped._core
    rng = np.random.default_rng(0)
    core.reset(0)
    in_step = in_reset = 0.0
    steps = 0
    while steps < args.steps:
        placements = core.placements()
        action = int(placements[int(rng.random() * len(placements)), 0])
        t = time.perf_counter()
        _, terminated, truncated = core.step(action)
        in_step += time.perf_counter() - t
        steps += 1
        if terminated or truncated:
            t = time.perf_counter()
            core.reset(core.next_seed)
            in_reset += time.perf_counter() - t
    env = gym.make("playfield/NesTetris-v0", **make)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(args.steps):
        obs, _, terminated, truncated, _ = env.step(random_action(rng, obs["action_mask"]))
        if terminated or truncated:
            obs, _ = env.reset()
    total = time.perf_counter() - start
    per = 1e6 / args.steps
    return (
        f"NesTetris-v0 level {args.level} {model_text(args)}: {total * per:.1f} µs per step "
        f"through gymnasium.make; Rust step {in_step * per:.1f} µs ({in_step / total:.0%}), "
        f"resets {in_reset * per:.1f} µs per step ({in_reset / total:.0%}), the rest "
        f"{(total - in_step - in_reset) * per:.1f} µs"
    )


def vector_placement(args):
    env = NesTetrisVectorEnv(
        num_envs=args.envs, num_threads=args.threads, copy=False, level=args.level,
        input=args.input, das=args.das, soft_drop=args.soft_drop,
    )
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    choosing = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        t = time.perf_counter()
        actions = random_actions(rng, obs["action_mask"])
        choosing += time.perf_counter() - t
        obs, *_ = env.step(actions)
        steps += 1
    elapsed = time.perf_counter() - start
    THREADS[:] = thread_cpu_seconds()  # while the pool's threads are alive
    return (
        f"NesTetrisVectorEnv {args.envs} envs level {args.level} {model_text(args)}, "
        f"{args.threads} thread(s): {steps * args.envs / elapsed:,.0f} steps/s "
        f"(autoreset steps included; {choosing / elapsed:.0%} of the time choosing actions)"
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


#: The threads' CPU seconds, taken by a vector benchmark before its environment (and the pool's
#: threads) go away.
THREADS: list[float] = []


def thread_cpu_seconds():
    """CPU seconds of each thread of this process that ran at least a tenth of a second (Linux:
    /proc), to tell whether a vector environment's threads shared the work."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = []
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / ticks
            if seconds >= 0.1:
                out.append(seconds)
    except OSError:
        return []
    return sorted(out, reverse=True)


KINDS = {
    "frames": frames, "engine": engine, "vector-frames": vector_frames,
    "placement": placement, "vector-placement": vector_placement, "standard": standard,
    "breakdown": breakdown,
}

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--level", type=int, default=18)
    p.add_argument("--input", default="X.")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument(
        "--frames-per-call", type=int, default=1,
        help="vector-frames: frames per call (1: step; more: step_frames)",
    )
    p.add_argument("--info-buttons", action="store_true")
    p.add_argument("--steps", type=int, default=3000, help="breakdown: steps per run")
    p.add_argument("--das", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--soft-drop", action=argparse.BooleanOptionalAction, default=True)
    args = p.parse_args()
    load = os.getloadavg()
    wall, cpu = time.perf_counter(), time.process_time()
    result = KINDS[args.kind](args)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # The machine may be shared: the CPU time this process got, and the load average before and
    # after, say how far the wall-clock figure is to be trusted.
    print(
        f"{result}; this process ran {cpu:.1f} CPU s in {wall:.1f} s "
        f"({cpu / wall:.2f} cores), load average {load[0]:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after"
        + ("; threads' CPU s: " + ", ".join(f"{t:.1f}" for t in THREADS) if THREADS else "")
    )
