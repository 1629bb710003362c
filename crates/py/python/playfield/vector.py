"""Native vector environments: N games stepped in Rust on a thread pool, each writing its
observation, reward and flags straight into rows of preallocated numpy arrays.

They follow Gymnasium's ``VectorEnv`` API with next-step autoreset: a sub-environment that ended
is reset by the following ``step`` (its action is ignored; it returns reward 0 and both flags
false). Episode seeds: ``reset(seed=s)`` starts sub-environment ``i`` with ``s + i``; later
episodes follow each sub-environment's own seed chain (the same as a single environment's
``reset()`` without a seed), so sub-environment ``i`` plays exactly what a single environment
reset with ``s + i`` plays.

``illegal_action`` is the single environments' option: by default (``"end"``) an action outside
a sub-environment's mask ends that sub-environment's episode (reward ``game_over_reward``, 0 by
default, ``terminated``, ``info["illegal_action"]``, nothing played; it restarts on the next
step); ``"raise"`` raises ``ValueError`` and plays nothing. ``info_placements`` (variable-length
lists per step) is for the single environment only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import _playfield
from .envs import (
    AFTERSTATE_FEATURES,
    AFTERSTATE_SLOTS,
    SEED_LIMIT,
    NesFramesOptions,
    NesOptions,
    StandardOptions,
    _check_bool,
    _check_choice,
    _check_int,
    _make_core,
    action_count,
    check_seed,
    draw_piece,
    episode_options,
    features_batch,
    observation_space,
    parse_options,
)

try:  # Gymnasium >= 1.1
    from gymnasium.vector import AutoresetMode

    _NEXT_STEP = AutoresetMode.NEXT_STEP
except ImportError:  # pragma: no cover
    _NEXT_STEP = "NextStep"


_INT64 = np.dtype(np.int64)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _integer_array(actions) -> np.ndarray:
    """``actions`` as an array of integers: int or uint, or Python ints as objects (numpy keeps
    ints beyond 64 bits as objects, and makes a list with one beyond int64 float64)."""
    a = np.asarray(actions)
    if a.dtype.kind in "iu":
        return a
    if a.dtype.kind == "O" or (a.dtype.kind == "f" and not isinstance(actions, np.ndarray)):
        wide = np.asarray(actions, dtype=object)
        if all(
            isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
            for v in wide.flat
        ):
            return wide
    raise TypeError(f"actions must be integers, got dtype {a.dtype}")


class _CoreVectorEnv(VectorEnv):
    _kind = ""
    _options_class: type = NesOptions
    #: The Rust class stepping the games: a rayon pool for the placement games (a search each,
    #: uneven in cost), a lighter hand-off for the frame games (`FrameVectorCore`).
    _core_class: type = _playfield.VectorCore

    metadata = {"autoreset_mode": _NEXT_STEP, "render_modes": ["rgb_array", "ansi"]}

    def __init__(
        self,
        num_envs: int = 8,
        num_threads: int | None = None,
        copy: bool = True,
        render_mode: str | None = None,
        illegal_action: str = "end",
        **options: Any,
    ) -> None:
        _check_choice("illegal_action", illegal_action, ("end", "raise"))
        if options.get("info_placements", False) is not False:
            raise ValueError(
                "info_placements is for the single environment (its lists change length from "
                "step to step): the vector environments take info_placements=False only"
            )
        self.illegal_action = illegal_action
        _check_int("num_envs", num_envs, 1)
        _check_int("num_threads", num_threads, 1, _playfield.MAX_THREADS, none_ok=True)
        _check_bool("copy", copy)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            known = ", ".join(repr(m) for m in self.metadata["render_modes"])
            raise ValueError(f"render_mode must be one of {known} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.num_envs = int(num_envs)
        self.copy = copy
        self._num_threads_asked = num_threads
        self.options = parse_options(self._options_class, options)
        self._build(self.options)
        self._started = False

    def _build(self, options: Any) -> None:
        """Makes the Rust vector and the arrays it writes for `options`."""
        template = _make_core(self._kind, options)
        self._template_lag_modelled = bool(template.lag_modelled)
        self._episode_options = options
        self._vector = self._core_class(template, self.num_envs, self._num_threads_asked)
        self.single_observation_space = observation_space(template, options)
        self.single_action_space = spaces.Discrete(action_count(template, options))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        rows, cols = template.board_shape
        n = self.num_envs
        self._rows = rows
        self._masked = template.masked
        self._mode = options.observation
        self._board = np.zeros((n, rows, cols), dtype=np.uint8)
        self._state = np.zeros((n, template.state_len), dtype=np.int32)
        width = template.num_actions if self._masked else 0
        self._mask = np.zeros((n, width), dtype=np.int8)
        self._reward = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._actions_shape = (n,)
        # The arrays each call of the core writes (the frame core has no action mask).
        observation = (self._board, self._state)
        if self._core_class is not _playfield.FrameVectorCore:
            observation += (self._mask,)
        self._observation_arrays = observation
        self._step_arrays = observation + (self._reward, self._terminated, self._truncated)
        if self._mode == "afterstates":
            self._afterstates = np.zeros(
                (n, AFTERSTATE_SLOTS, len(AFTERSTATE_FEATURES)), dtype=np.float32
            )
            self._slot_actions = np.full((n, AFTERSTATE_SLOTS), -1, dtype=np.int64)
        # Reward terms added in Python (zero by default: nothing to do).
        self._extra_rewards = bool(options.survival_reward or options.game_over_reward)
        self._draw_piece = options.show_piece and self._kind != "standard"

    @property
    def num_threads(self) -> int:
        """Threads stepping the games."""
        return self._vector.num_threads

    def _obs(self) -> dict[str, np.ndarray]:
        mode = self._mode
        if mode == "board":
            board = self._board
            if self._draw_piece:
                board = board.copy()
                for i in range(self.num_envs):
                    draw_piece(board[i], self._state[i])
            obs = {"board": board, "state": self._state}
            if self._masked:
                obs["action_mask"] = self._mask
            if self.copy:
                obs = {k: v.copy() for k, v in obs.items()}
            return obs
        features = features_batch(self._board, self._state, self._kind == "standard")
        if mode == "features":
            obs = {"features": features}
            if self._masked:
                obs["action_mask"] = self._mask.copy() if self.copy else self._mask
            return obs
        self._vector.write_afterstates(self._afterstates, self._slot_actions)
        return {
            "afterstates": self._afterstates.copy() if self.copy else self._afterstates,
            "action_mask": (self._slot_actions >= 0).astype(np.int8),
            "features": features,
        }

    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        self._check_open()
        n = self.num_envs
        if seed is None:
            super().reset(seed=None)
            seeds = self.np_random.integers(0, SEED_LIMIT, size=n).astype(np.uint64)
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seed = check_seed(seed)
            super().reset(seed=seed)
            seeds = np.array(
                [self._core_class.sub_seed(seed, i) for i in range(n)], dtype=np.uint64
            )
        else:
            given = list(seed)
            if len(given) != n:
                raise ValueError(f"seed must be an int or {n} ints, got {len(given)}")
            seeds = np.array(
                [check_seed(s, f"seed[{i}]") for i, s in enumerate(given)], dtype=np.uint64
            )
        chosen = episode_options(self._episode_options, options)
        if chosen != self._episode_options:
            self._build(chosen)
        self._vector.reset(seeds, *self._observation_arrays)
        self._started = True
        self._terminated[:] = False
        self._truncated[:] = False
        seeds = np.array(self._vector.seeds(), dtype=np.int64)
        info = {"seed": seeds, "_seed": np.ones(n, dtype=bool)}
        if self._kind != "standard":
            info["lag_modelled"] = np.full(n, self._template_lag_modelled)
            info["_lag_modelled"] = np.ones(n, dtype=bool)
        return self._obs(), info

    def _check_open(self) -> None:
        if self._vector is None:
            raise RuntimeError("the environment is closed: make a new one")

    def step(self, actions):
        self._check_open()
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = actions
        # The previous step's flags: those sub-environments restart on this step.
        restarting = self._terminated | self._truncated
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
            # `dtype.kind` rather than `np.issubdtype`, which costs a microsecond: unsigned
            # integers, Python ints beyond int64 and anything else are looked at closer.
            if a.dtype.kind != "i":
                a = self._int64_actions(_integer_array(actions), restarting)
            a = np.ascontiguousarray(a, dtype=np.int64)
        illegal = None
        if self._mode == "afterstates":
            a, illegal = self._slot_placements(a, restarting)
        elif self._masked and self.illegal_action == "end":
            illegal = self._illegal(a, restarting)
        if illegal is not None and illegal.any():
            self._vector.step(a, *self._step_arrays, illegal)
        else:
            illegal = None
            self._vector.step(a, *self._step_arrays)
        if self._extra_rewards:
            o = self.options
            self._reward += np.where(self._terminated, o.game_over_reward, o.survival_reward)
            self._reward[restarting] = 0.0
        info = {}
        if illegal is not None:
            info = {"illegal_action": illegal, "_illegal_action": illegal.copy()}
        if self.copy:
            return (
                self._obs(), self._reward.copy(), self._terminated.copy(),
                self._truncated.copy(), info,
            )
        return self._obs(), self._reward, self._terminated, self._truncated, info

    def _int64_actions(self, a: np.ndarray, restarting: np.ndarray | None) -> np.ndarray:
        """``a`` (integers: one action per sub-environment, or ``(K, num_envs)`` for
        ``step_frames``, whose actions are all checked: ``restarting`` None) as int64. An action
        beyond int64 (a Python int, a large uint64) is outside the action space as in the
        single environment: ignored where the sub-environment restarts, ending its episode
        under ``illegal_action="end"`` with a mask, refused naming it otherwise."""
        if a.dtype.kind == "i" or (a.dtype.kind == "u" and (a.size == 0 or a.max() <= _INT64_MAX)):
            return a.astype(np.int64, copy=False)
        wide = a.astype(object)
        huge = np.array(
            [not _INT64_MIN <= int(v) <= _INT64_MAX for v in wide.flat], dtype=bool
        ).reshape(a.shape)
        if not huge.any():
            return a.astype(np.int64)
        # What the engine's check then does with an action outside the space (below: one that
        # stands for it), as for any other.
        if not (self._masked and self.illegal_action == "end"):
            refused = huge if restarting is None or self._mode == "afterstates" else (
                huge & ~restarting)
            if refused.any():
                if self._mode == "afterstates":
                    values = ", ".join(str(v) for v in wide)
                    raise ValueError(f"slots must be 0-{AFTERSTATE_SLOTS - 1}, got [{values}]")
                k = np.argwhere(refused)[0]
                i = int(k[-1])
                space = (
                    "0..256 (a buttons byte)" if self._kind == "frames"
                    else f"0..{self.single_action_space.n}"
                )
                raise ValueError(
                    f"sub-environment {i}: action {wide[tuple(k)]} is outside the action space "
                    f"{space}"
                )
        out = np.where(huge, 0, wide).astype(np.int64)
        # Outside every action space and not `VectorCore`'s marker of an ended game (int64 min).
        out[huge] = _INT64_MAX
        return out

    def _illegal(self, actions: np.ndarray, restarting: np.ndarray) -> np.ndarray:
        """The sub-environments whose action is outside their mask (those that restart on this
        step ignore theirs)."""
        width = self._mask.shape[1]
        inside = (actions >= 0) & (actions < width)
        allowed = np.zeros(self.num_envs, dtype=bool)
        rows = np.flatnonzero(inside)
        allowed[rows] = self._mask[rows, actions[rows]] != 0
        return ~allowed & ~restarting

    def _slot_placements(self, slots: np.ndarray, restarting: np.ndarray):
        """The placement actions of afterstate slots, and the sub-environments whose slot is
        not allowed (those that restart on this step ignore theirs)."""
        inside = (slots >= 0) & (slots < AFTERSTATE_SLOTS)
        if self.illegal_action == "raise" and not inside.all():
            raise ValueError(f"slots must be 0-{AFTERSTATE_SLOTS - 1}, got {slots}")
        a = np.full(self.num_envs, -1, dtype=np.int64)
        rows = np.flatnonzero(inside)
        a[rows] = self._slot_actions[rows, slots[rows]]
        bad = (a < 0) & ~restarting
        if bad.any() and self.illegal_action == "raise":
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"sub-environment {i}: slot {int(slots[i])} is not allowed now")
        # The ignored actions of restarting sub-environments must still be checkable.
        a[a < 0] = 0
        return a, bad

    def reset_done(self) -> list[int]:
        """Restarts now (with their next episode's seed) the sub-environments that ended on the
        last step, instead of on the next one, and returns their indices; the observation
        arrays then hold their first observations (``observations()``). For adapters to
        same-step autoreset (Stable-Baselines3)."""
        self._check_open()
        done = self._vector.reset_done(*self._observation_arrays)
        # They start afresh: nothing restarts on the next step.
        self._terminated[done] = False
        self._truncated[done] = False
        return done

    def observations(self) -> dict[str, np.ndarray]:
        """The current observations (as ``step`` returns them)."""
        return self._obs()

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) booleans: the allowed actions (MaskablePPO's convention)."""
        if self._mode == "afterstates":
            return self._slot_actions >= 0
        if not self._masked:
            return np.ones((self.num_envs, self.single_action_space.n), dtype=bool)
        return self._mask.astype(bool)

    def seeds(self) -> list[int]:
        """The seeds of the sub-environments' current episodes."""
        self._check_open()
        return self._vector.seeds()

    def render(self):
        """The sub-environments' pictures: a list of (240, 256, 3) uint8 arrays
        (``"rgb_array"``) or of texts (``"ansi"``)."""
        from . import render as draw
        from .envs import _PIECE_ORIENTATION, _X, _Y

        self._check_open()
        if self.render_mode is None or not self._started:
            return None
        out = []
        for i in range(self.num_envs):
            board, state = self._board[i], self._state[i]
            piece = None
            if self._kind != "standard" and state[_PIECE_ORIENTATION] < 19 and state[12] == 4:
                piece = (int(state[1]), int(state[_X]), int(state[_Y]))
            if self.render_mode == "ansi":
                cells = draw.piece_cells(*piece) if piece else []
                out.append(draw.ansi_board(board, cells))
                continue
            if self._kind == "standard":
                level, score, lines, nxt = int(state[2]), int(state[4]), int(state[3]), None
            else:
                level, score, lines = int(state[5]), int(state[7]), int(state[6])
                nxt = int(state[4]) if state[4] < 7 else None
            out.append(draw.nes_picture(board, level, score, lines, piece, nxt))
        return out

    def close_extras(self, **kwargs: Any) -> None:
        self._vector = None

    # -- pickle: the configuration and the current episodes' seeds -------------------------------

    def __getstate__(self):
        self._check_open()
        return {
            "illegal_action": self.illegal_action,
            "num_envs": self.num_envs,
            "num_threads": self._num_threads_asked,
            "copy": self.copy,
            "render_mode": self.render_mode,
            "options": dataclasses.asdict(self.options),
            "episode_options": dataclasses.asdict(self._episode_options),
            "seeds": self._vector.seeds() if self._started else None,
        }

    def __setstate__(self, state):
        _CoreVectorEnv.__init__(
            self, num_envs=state["num_envs"], num_threads=state["num_threads"],
            copy=state["copy"], render_mode=state["render_mode"],
            illegal_action=state.get("illegal_action", "end"), **state["options"],
        )
        chosen = self._options_class(**state["episode_options"])
        if chosen != self.options:
            self._build(chosen)
        if state["seeds"] is not None:
            # The episodes restart from their seeds: a copy plays the same pieces from the start
            # of each sub-environment's current episode.
            self.reset(seed=state["seeds"])


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
        self._check_open()
        if not self._started:
            raise RuntimeError("call reset() before step_frames()")
        a = np.asarray(actions)
        if a.ndim != 2 or a.shape[1] != self.num_envs or a.shape[0] < 1:
            raise ValueError(
                f"actions must have shape (K, {self.num_envs}) with K >= 1, got {a.shape}"
            )
        if a.dtype.kind != "i":
            a = self._int64_actions(_integer_array(actions), None)
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
