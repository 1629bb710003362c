"""Native vector environments: N games stepped in Rust on a thread pool, each writing its
observation, reward and flags straight into rows of preallocated numpy arrays.

They follow Gymnasium's ``VectorEnv`` API with next-step autoreset: a sub-environment that ended
is reset by the following ``step`` (its action is ignored; it returns reward 0 and both flags
false). Episode seeds: ``reset(seed=s)`` starts sub-environment ``i`` with ``s + i``; later
episodes follow each sub-environment's own seed chain (the same as a single environment's
``reset()`` without a seed), so sub-environment ``i`` plays exactly what a single environment
reset with ``s + i`` plays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import _playfield
from .envs import (
    NesFramesOptions,
    NesOptions,
    StandardOptions,
    _make_core,
    observation_space,
    parse_options,
)

try:  # Gymnasium >= 1.1
    from gymnasium.vector import AutoresetMode

    _NEXT_STEP = AutoresetMode.NEXT_STEP
except ImportError:  # pragma: no cover
    _NEXT_STEP = "NextStep"


_INT64 = np.dtype(np.int64)


class _CoreVectorEnv(VectorEnv):
    _kind = ""
    _options_class: type = NesOptions
    #: The Rust class stepping the games: a rayon pool for the placement games (a search each,
    #: uneven in cost), a lighter hand-off for the frame games (`FrameVectorCore`).
    _core_class: type = _playfield.VectorCore

    metadata = {"autoreset_mode": _NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        num_threads: int | None = None,
        copy: bool = True,
        **options: Any,
    ) -> None:
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = int(num_envs)
        self.copy = copy
        self.options = parse_options(self._options_class, options)
        template = _make_core(self._kind, self.options)
        self._vector = self._core_class(template, self.num_envs, num_threads)
        self.single_observation_space = observation_space(template)
        self.single_action_space = spaces.Discrete(template.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        rows, cols = template.board_shape
        n = self.num_envs
        self._masked = template.masked
        self._board = np.zeros((n, rows, cols), dtype=np.uint8)
        self._state = np.zeros((n, template.state_len), dtype=np.int32)
        width = template.num_actions if self._masked else 0
        self._mask = np.zeros((n, width), dtype=np.int8)
        self._reward = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._started = False
        self._actions_shape = (n,)
        # The arrays each call of the core writes (the frame core has no action mask).
        observation = (self._board, self._state)
        if self._core_class is not _playfield.FrameVectorCore:
            observation += (self._mask,)
        self._observation_arrays = observation
        self._step_arrays = observation + (self._reward, self._terminated, self._truncated)

    @property
    def num_threads(self) -> int:
        """Threads stepping the games."""
        return self._vector.num_threads

    def _obs(self) -> dict[str, np.ndarray]:
        obs = {"board": self._board, "state": self._state}
        if self._masked:
            obs["action_mask"] = self._mask
        if self.copy:
            obs = {k: v.copy() for k, v in obs.items()}
        return obs

    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options (got {sorted(options)})")
        n = self.num_envs
        if seed is None:
            seeds = self.np_random.integers(0, 2**63, size=n).astype(np.uint64)
        elif isinstance(seed, (int, np.integer)):
            seeds = np.array(
                [_playfield.VectorCore.sub_seed(int(seed) % 2**64, i) for i in range(n)],
                dtype=np.uint64,
            )
        else:
            seeds = np.asarray(seed, dtype=np.uint64)
            if seeds.shape != (n,):
                raise ValueError(f"seed must be an int or {n} ints, got shape {seeds.shape}")
        self._vector.reset(seeds, *self._observation_arrays)
        self._started = True
        return self._obs(), {}

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = actions
        # The common case first, in a few cheap tests (a frame step is a few microseconds).
        if (
            type(a) is not np.ndarray
            or a.dtype is not _INT64
            or a.shape != self._actions_shape
            or not a.flags.c_contiguous
        ):
            a = np.asarray(actions)
            if a.shape != (self.num_envs,):
                raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
            # `dtype.kind` rather than `np.issubdtype`, which costs a microsecond: signed or
            # unsigned integers.
            if a.dtype.kind not in "iu":
                raise TypeError(f"actions must be integers, got dtype {a.dtype}")
            a = np.ascontiguousarray(a, dtype=np.int64)
        self._vector.step(a, *self._step_arrays)
        if self.copy:
            return (
                self._obs(), self._reward.copy(), self._terminated.copy(),
                self._truncated.copy(), {},
            )
        return self._obs(), self._reward, self._terminated, self._truncated, {}

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) booleans: the reachable actions (MaskablePPO's convention)."""
        if not self._masked:
            return np.ones((self.num_envs, self.single_action_space.n), dtype=bool)
        return self._mask.astype(bool)

    def seeds(self) -> list[int]:
        """The seeds of the sub-environments' current episodes."""
        return self._vector.seeds()

    def close_extras(self, **kwargs: Any) -> None:
        self._vector = None


class NesTetrisVectorEnv(_CoreVectorEnv):
    """N games of ``playfield/NesTetris-v0`` (one placement per step)."""

    _kind = "placement"
    _options_class = NesOptions


class NesTetrisFramesVectorEnv(_CoreVectorEnv):
    """N games of ``playfield/NesTetrisFrames-v0`` (one frame per step).

    Besides ``step``, ``step_frames(actions)`` plays K frames in one call (``actions`` of shape
    ``(K, num_envs)``), for loops that choose K frames' buttons at once: the Python call and the
    hand-over to the threads are paid once per K frames, and each game runs its K frames while
    its state is in the cache.
    """

    _kind = "frames"
    _options_class = NesFramesOptions
    _core_class = _playfield.FrameVectorCore

    def step_frames(self, actions):
        """Plays ``actions[k]`` at frame ``k`` for ``k`` in ``0..K``: the same games as ``K``
        calls of ``step(actions[k])``, next-step autoresets included (a sub-environment that
        ended ignores the next frame's action and restarts), except that every action must be
        a buttons byte (0-255), the ignored ones too.

        Returns ``(obs, rewards, terminated, truncated, info)``: the observation after the last
        frame, and each frame's rewards and flags as ``(K, num_envs)`` arrays (row ``k`` is what
        ``step`` would have returned at frame ``k``).
        """
        if not self._started:
            raise RuntimeError("call reset() before step_frames()")
        a = np.asarray(actions)
        if a.ndim != 2 or a.shape[1] != self.num_envs or a.shape[0] < 1:
            raise ValueError(
                f"actions must have shape (K, {self.num_envs}) with K >= 1, got {a.shape}"
            )
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got dtype {a.dtype}")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            a = np.ascontiguousarray(a, dtype=np.int64)
        frames = a.shape[0]
        reward = np.empty((frames, self.num_envs), dtype=np.float64)
        terminated = np.empty((frames, self.num_envs), dtype=bool)
        truncated = np.empty((frames, self.num_envs), dtype=bool)
        self._vector.step_frames(a, self._board, self._state, reward, terminated, truncated)
        # The last frame's, as `step` keeps them.
        self._reward[:] = reward[-1]
        self._terminated[:] = terminated[-1]
        self._truncated[:] = truncated[-1]
        return self._obs(), reward, terminated, truncated, {}


class StandardTetrisVectorEnv(_CoreVectorEnv):
    """N games of ``playfield/StandardTetris-v0``."""

    _kind = "standard"
    _options_class = StandardOptions
