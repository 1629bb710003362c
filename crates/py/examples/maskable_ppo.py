"""MaskablePPO (sb3-contrib) on NES Tetris's afterstate observation, through the native vector
environment and ``playfield.sb3.SB3VecEnv``.

The action is an afterstate slot (orientation × column, ``observation="afterstates"``); the
policy sees every slot's eight afterstate features and the mask. Each slot's features go
through one small network shared by all slots (``SlotScorer``), so the policy learns how good a
placement is once and applies it everywhere, as the value of an afterstate should be. The reward
is the lines cleared plus 0.1 per piece placed, and -2 for the game's end. The script prints the mean lines per
finished episode after each rollout: it rises from random play's few lines within minutes of
CPU. It does not reach the cross-entropy method's level in that time (cem_afterstates.py): a
policy gradient needs many more games than a search over eight weights.

    taskset -c 0 python crates/py/examples/maskable_ppo.py --minutes 5
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor  # noqa: E402

from playfield.envs import AFTERSTATE_FEATURES, AFTERSTATE_SLOTS  # noqa: E402
from playfield.sb3 import SB3VecEnv  # noqa: E402

# Rough scales of the afterstate features, so that the network sees numbers near 1.
SCALE = torch.tensor([4.0, 20.0, 20.0, 20.0, 40.0, 60.0, 40.0, 20.0])


class SlotScorer(BaseFeaturesExtractor):
    """One score per afterstate slot, from that slot's features by a network shared by all."""

    def __init__(self, observation_space, hidden: int = 32):
        super().__init__(observation_space, features_dim=AFTERSTATE_SLOTS)
        self.net = torch.nn.Sequential(
            torch.nn.Linear(len(AFTERSTATE_FEATURES), hidden), torch.nn.Tanh(),
            torch.nn.Linear(hidden, 1),
        )

    def forward(self, obs):
        slots = obs["afterstates"] / SCALE.to(obs["afterstates"].device)
        return self.net(slots).squeeze(-1)


class LinesPerEpisode(BaseCallback):
    """Prints the mean lines per finished episode of every rollout, and stops at the deadline."""

    def __init__(self, deadline: float):
        super().__init__()
        self.deadline = deadline
        self.lines: list[float] = []
        self.pieces: list[int] = []
        self.history: list[float] = []
        self._running = None

    def _on_step(self) -> bool:
        rewards = self.locals["rewards"]
        dones = self.locals["dones"]
        if self._running is None:
            self._running = np.zeros(len(rewards))
        # The lines, without the survival bonus and the game-over term.
        self._running += np.floor(np.maximum(rewards, 0))
        for i in np.flatnonzero(dones):
            self.lines.append(float(self._running[i]))
            self.pieces.append(self.locals["infos"][i]["episode"]["l"])
            self._running[i] = 0
        return time.perf_counter() < self.deadline

    def _on_rollout_end(self) -> None:
        if self.lines:
            self.history.append(float(np.mean(self.lines)))
            print(
                f"{self.num_timesteps} steps: {np.mean(self.lines):.2f} lines and "
                f"{np.mean(self.pieces):.1f} pieces per episode over {len(self.lines)} episodes",
                flush=True,
            )
        self.lines = []
        self.pieces = []


def main(argv: list[str] | None = None) -> list[float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=5.0)
    p.add_argument("--level", type=int, default=18)
    p.add_argument("--envs", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    env = SB3VecEnv.make(
        "playfield/NesTetris-v0", num_envs=args.envs, num_threads=1, level=args.level,
        observation="afterstates", reward="lines", survival_reward=0.1,
        game_over_reward=-2.0,
    )
    model = MaskablePPO(
        "MultiInputPolicy", env, n_steps=256, batch_size=256, n_epochs=10, learning_rate=3e-3,
        gamma=0.99, ent_coef=0.0, seed=args.seed, device="cpu",
        policy_kwargs={
            "features_extractor_class": SlotScorer, "net_arch": [],
            "share_features_extractor": False,
        },
    )
    # The slots' scores are the action logits as they are (the default would mix them through
    # a dense layer, which has to learn the identity first).
    model.policy.action_net = torch.nn.Identity()
    model.policy.optimizer = model.policy.optimizer_class(
        model.policy.parameters(), lr=3e-3, **model.policy.optimizer_kwargs
    )
    callback = LinesPerEpisode(time.perf_counter() + args.minutes * 60)
    model.learn(10**9, callback=callback)
    return callback.history


if __name__ == "__main__":
    main()
