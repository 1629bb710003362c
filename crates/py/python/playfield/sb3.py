"""Stable-Baselines3 on the native vector environments.

``SB3VecEnv`` is a ``stable_baselines3.common.vec_env.VecEnv`` over one of
``playfield.vector``'s environments: the games are stepped in Rust (N at once), and the adapter
gives Stable-Baselines3 what it expects: same-step autoreset with
``info["terminal_observation"]``, ``info["TimeLimit.truncated"]``, the episode statistics
``info["episode"] = {"r", "l", "t"}`` (as ``Monitor`` writes them), ``action_masks()`` for
sb3-contrib's ``MaskablePPO``, and pickling (the configuration and the current episodes'
seeds).

    from sb3_contrib import MaskablePPO
    from playfield.sb3 import SB3VecEnv

    env = SB3VecEnv.make("playfield/NesTetris-v0", num_envs=8, observation="features")
    MaskablePPO("MultiInputPolicy", env).learn(10_000)

The single environments need no adapter: ``stable_baselines3.common.env_util.make_vec_env``
takes their ids.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from . import vector

_VECTOR_CLASSES = {
    "playfield/NesTetris-v0": vector.NesTetrisVectorEnv,
    "playfield/NesTetrisFrames-v0": vector.NesTetrisFramesVectorEnv,
    "playfield/StandardTetris-v0": vector.StandardTetrisVectorEnv,
}


class SB3VecEnv(VecEnv):
    """Stable-Baselines3's ``VecEnv`` over a native vector environment (``venv``)."""

    def __init__(self, venv: vector._CoreVectorEnv) -> None:
        if not isinstance(venv, vector._CoreVectorEnv):
            raise TypeError(
                f"venv must be one of playfield.vector's environments, got {type(venv).__name__}"
            )
        self.venv = venv
        self.render_mode = venv.render_mode
        super().__init__(
            venv.num_envs, venv.single_observation_space, venv.single_action_space
        )
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(self.num_envs)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)
        self._start = time.time()

    @classmethod
    def make(cls, env_id: str, num_envs: int = 8, **kwargs: Any) -> SB3VecEnv:
        """The adapter over ``num_envs`` games of a registered id (options as keywords)."""
        if env_id not in _VECTOR_CLASSES:
            raise ValueError(f"env_id must be one of {sorted(_VECTOR_CLASSES)}, got {env_id!r}")
        return cls(_VECTOR_CLASSES[env_id](num_envs=num_envs, **kwargs))

    def reset(self):
        seeds = self._seeds
        if all(s is not None for s in seeds):
            obs, _ = self.venv.reset(seed=[int(s) % vector.SEED_LIMIT for s in seeds])
        else:
            obs, _ = self.venv.reset(seed=None if seeds[0] is None else int(seeds[0]))
        self._reset_seeds()
        self._reset_options()
        self._returns[:] = 0
        self._lengths[:] = 0
        return _copy(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        obs, reward, terminated, truncated, _ = self.venv.step(self._actions)
        reward = np.asarray(reward, dtype=np.float32).copy()
        dones = np.logical_or(terminated, truncated)
        self._returns += reward
        self._lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = {k: np.array(v[i]) for k, v in obs.items()}
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                infos[i]["episode"] = {
                    "r": float(self._returns[i]), "l": int(self._lengths[i]),
                    "t": round(time.time() - self._start, 6),
                }
                self._returns[i] = 0
                self._lengths[i] = 0
            self.venv.reset_done()
            obs = self.venv.observations()
        return _copy(obs), reward, dones, infos

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) booleans (sb3-contrib's MaskablePPO convention)."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def get_images(self):
        return self.venv.render() or [None] * self.num_envs

    # -- SB3's attribute plumbing: every sub-environment shares the vector's attributes --------

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [self.render_mode for _ in self._indices(indices)]
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        which = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in which]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in which]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.venv, attr_name)

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_actions"] = None
        return state


def _copy(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {k: np.array(v) for k, v in obs.items()}
