"""Gymnasium environments on playfield's engines.

``playfield/NesTetris-v0``
    One action = one placement of the active piece among those reachable with real gamepad input
    under the input model (timeline, DAS, soft drop), found by the AI's exact search. Actions are
    ``(orientation * 20 + y) * 10 + x`` (orientation = the ROM's id 0-18, x/y = ``tetriminoX``/
    ``tetriminoY`` at lock); ``observation["action_mask"]`` and ``env.action_masks()`` (the
    MaskablePPO convention) mark the reachable ones. With ``info_placements=True``,
    ``info["placements"]`` lists them (action, x, y, orientation, frames) and
    ``info["buttons"]``/``info["buttons_length"]`` give each one's per-frame buttons, in the same
    order (their length varies from step to step, so vectorisers cannot stack them: off by
    default). The game starts from power-on through the menus (the seed picks how long the level
    menu waits, and so the pieces) and runs at the ROM's exact timing; a step plays the buttons
    frame by frame and runs the game to the next piece. The search is most of a step's time:
    DAS and soft drop (the defaults) make it the slowest, ``soft_drop=False`` about four times
    faster, ``das=False, soft_drop=False`` (the community's 30 Hz model) about eighteen.
``playfield/NesTetrisFrames-v0``
    One action = the buttons of one frame (a byte, ``playfield.nes.RIGHT | ...``).
``playfield/StandardTetris-v0``
    Fahey's Standard Tetris, one action = one placement, ``orientation * 16 + x + 3``.

An action outside the mask ends the episode by default (``illegal_action="end"``: reward 0,
``terminated``, ``info["illegal_action"]``, nothing played), as board-game environments treat
illegal moves and as Gymnasium's ``check_env`` needs; ``illegal_action="raise"`` raises
``ValueError`` instead.

Observations (option ``observation``):

``"board"`` (default)
    A dict: ``board`` (rows × 10 uint8, 1 = block; 2 = the falling piece with
    ``show_piece=True``), ``state`` (int32, fields ``NES_STATE_FIELDS`` /
    ``STANDARD_STATE_FIELDS``) and, for placement environments, ``action_mask``.
``"features"``
    A dict: ``features`` (float32, ``FEATURE_NAMES``: column heights, holes, bumpiness, deepest
    well, total height, the piece and the preview one-hot, level, lines, the piece's position;
    each scaled to about 0-1) and, for placement environments, ``action_mask``.
``"afterstates"`` (``NesTetris-v0`` only)
    Grouped actions, as Tetris-Gymnasium's wrapper groups them: the action is a slot
    ``orientation * 10 + x`` (``AFTERSTATE_SLOTS`` of them), played as the deepest reachable
    placement of that orientation and column. A dict: ``afterstates`` (slots ×
    ``AFTERSTATE_FEATURES`` float32: the features of the board once the slot's placement locks,
    zero for an empty slot), ``action_mask`` (slots, int8) and ``features`` (as above).

Rewards (option ``reward``): ``"score"`` (points gained, push-down points included),
``"score_no_pushdown"`` (the points of line clears only), ``"lines"``; plus
``survival_reward`` on every step that does not end the game and ``game_over_reward`` on the
step that ends it.

Per-episode options: ``reset(options={"level": 19, "game_type": "B", "height": 3})`` (NES) or
``reset(options={"level": 5})`` (Standard) start that episode (and the next ones, until changed)
with them, for curricula.
"""

from __future__ import annotations

import dataclasses
import os
import typing
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _playfield, render

#: The state vector of the NES environments. ``piece``/``next``: 0-6 = T J Z O S L I, 7 = none or
#: hidden (``next`` is hidden at the decision while the input model's reaction time has not
#: passed); ``orientation``: the ROM's id, 19 = none; ``autorepeat_y`` is signed (negative during
#: the opening delay); ``controllable``: 1 when the next frame moves the active piece.
NES_STATE_FIELDS = (
    "piece", "orientation", "x", "y", "next", "level", "lines", "score", "play_state",
    "fall_timer", "autorepeat_x", "autorepeat_y", "game_mode", "controllable",
)
#: The state vector of Standard Tetris: pieces 0-6 = O I S Z L J T (7 = none).
STANDARD_STATE_FIELDS = ("piece", "next", "level", "lines", "score", "pieces")

#: The feature observation, in order (``observation="features"``).
FEATURE_NAMES = (
    tuple(f"height_{c}" for c in range(10))
    + ("holes", "bumpiness", "deepest_well", "total_height")
    + tuple(f"piece_{p}" for p in range(8))
    + tuple(f"next_{p}" for p in range(8))
    + ("level", "lines", "x", "y", "orientation")
)
#: The features of one afterstate (``observation="afterstates"``): lines cleared, lock height
#: (rows between the piece's lowest mino and the floor), well cells (empty cells above a column's
#: surface with both sides filled), holes, column transitions, row transitions, bumpiness, the
#: highest column.
AFTERSTATE_FEATURES = (
    "lines_cleared", "lock_height", "well_cells", "holes", "column_transitions",
    "row_transitions", "bumpiness", "max_height",
)
#: Afterstate slots of ``NesTetris-v0``: ``orientation * 10 + x``.
AFTERSTATE_SLOTS = _playfield.AFTERSTATE_SLOTS
assert len(AFTERSTATE_FEATURES) == _playfield.AFTERSTATE_FEATURES

_INT32_MAX = np.iinfo(np.int32).max
# The engine's counters: lines are 32-bit, frames and Standard Tetris lines 64-bit.
_U32_MAX = 2**32 - 1
_U64_MAX = 2**64 - 1
#: Seeds are non-negative int64 values.
SEED_LIMIT = 2**63
_OBSERVATIONS = ("board", "features", "afterstates")


# -- option checks: every bad option is a TypeError or ValueError that names it -----------------


def _check_int(name: str, value: Any, low: int, high: int | None = None, none_ok=False) -> None:
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        want = "an int or None" if none_ok else "an int"
        raise TypeError(f"{name} must be {want}, got {type(value).__name__} {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}-{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value}")


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")


def _check_choice(name: str, value: Any, choices: tuple) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__} {value!r}")
    if value not in choices:
        known = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {known}, got {value!r}")


def _check_float(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")


def check_seed(seed: Any, name: str = "seed") -> int:
    """A seed as an int in 0..2**63-1 (a non-negative int64), or the error that says why not."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be an int or None, got {type(seed).__name__} {seed!r}")
    if not 0 <= int(seed) < SEED_LIMIT:
        raise ValueError(f"{name} must be in 0..2**63-1 (a non-negative int64), got {seed}")
    return int(seed)


_NES_REWARDS = ("score", "score_no_pushdown", "lines")


@dataclasses.dataclass(frozen=True)
class NesOptions:
    """Options of ``playfield/NesTetris-v0`` (every one is a keyword of the constructor and of
    ``gymnasium.make``; ``level``, ``game_type`` and ``height`` may also be given per episode
    to ``reset(options=...)``)."""

    level: int = 18
    """Start level 0-19 (chosen on the level menu as a player does)."""
    game_type: str = "A"
    """``"A"`` (play until top-out) or ``"B"`` (25 lines from a start height)."""
    height: int = 0
    """B-type start height 0-5 (A-type games take 0 only)."""
    music: int = 3
    """Music 0-3 (3 = off); it changes nothing in play, only the menu path."""
    input: str = "X."
    """Input timeline: frames that may carry a new press (``X`` 60 Hz, ``X.`` 30 Hz, ``X...``)."""
    das: bool = True
    """Whether Left/Right may be held long enough to autorepeat."""
    reaction: int = 0
    """Frames after spawn before the preview piece is known. The placement environment decides
    at spawn, so with ``reaction > 0`` the ``next`` field is hidden (7) at every decision but an
    episode's first: that one comes after the opening delay (``decision_frame`` frames under
    control, about 90), and shows the preview unless ``reaction`` is longer than that."""
    soft_drop: bool = True
    """Whether Down may be used."""
    reward: str = "score"
    """``"score"`` (points gained), ``"score_no_pushdown"`` (line-clear points) or ``"lines"``."""
    max_lines: int | None = None
    """Truncate once this many lines are cleared (A-type)."""
    max_frames: int | None = None
    """Truncate after this many frames from power-on."""
    observation: str = "board"
    """``"board"``, ``"features"`` or ``"afterstates"`` (see the module's documentation)."""
    show_piece: bool = False
    """Draw the falling piece into ``board`` as 2s."""
    survival_reward: float = 0.0
    """Added to the reward of every step that does not end the game."""
    game_over_reward: float = 0.0
    """Added to the reward of the step that ends the game (top-out, B-type goal, illegal action)."""
    info_placements: bool = False
    """Put ``placements``, ``buttons`` and ``buttons_length`` in ``info`` (variable length)."""
    rom: str | None = None
    """Path of the Tetris (USA) ROM (SHA-1 checked), whose program the engine's lag model runs
    from level 100 (default: ``$PLAYFIELD_ROM`` when set; ``""`` for none). Without it lag
    frames and crashes are not modelled (``info["lag_modelled"]`` on reset says which)."""

    _kind = "placement"

    def __post_init__(self) -> None:
        _check_int("level", self.level, 0, 19)
        _check_choice("game_type", self.game_type, ("A", "B"))
        _check_int("height", self.height, 0, 5)
        if self.game_type == "A" and self.height != 0:
            raise ValueError(
                f"height applies to B-type games only (game_type='B'); got height={self.height} "
                "with game_type='A'"
            )
        _check_int("music", self.music, 0, 3)
        if hasattr(self, "input"):
            if not isinstance(self.input, str):
                raise TypeError(f"input must be a str such as 'X.', got {self.input!r}")
            _check_bool("das", self.das)
            _check_int("reaction", self.reaction, 0, 10_000)
            _check_bool("soft_drop", self.soft_drop)
        _check_choice("reward", self.reward, _NES_REWARDS)
        _check_int("max_lines", self.max_lines, 1, _U32_MAX, none_ok=True)
        _check_int("max_frames", self.max_frames, 1, _U64_MAX, none_ok=True)
        allowed = _OBSERVATIONS if self._kind == "placement" else ("board", "features")
        _check_choice("observation", self.observation, allowed)
        _check_bool("show_piece", self.show_piece)
        _check_float("survival_reward", self.survival_reward)
        _check_float("game_over_reward", self.game_over_reward)
        if hasattr(self, "info_placements"):
            _check_bool("info_placements", self.info_placements)
        if self.rom is None:
            # Resolved once, so a pickled environment reads the same file where it is unpickled.
            object.__setattr__(self, "rom", os.environ.get("PLAYFIELD_ROM", ""))
        elif not isinstance(self.rom, (str, os.PathLike)):
            raise TypeError(f"rom must be a path (str), got {self.rom!r}")
        else:
            object.__setattr__(self, "rom", os.fspath(self.rom))

    def core_kwargs(self) -> dict[str, Any]:
        kw = {
            "level": int(self.level), "game_type": 0 if self.game_type == "A" else 1,
            "height": int(self.height), "music": int(self.music), "reward": self.reward,
            "max_lines": self.max_lines, "max_frames": self.max_frames, "rom": self.rom,
        }
        if self._kind == "placement":
            kw.update(input=self.input, das=bool(self.das), reaction=int(self.reaction),
                      soft_drop=bool(self.soft_drop))
        else:
            kw["start_select"] = bool(self.start_select)
        return kw


@dataclasses.dataclass(frozen=True)
class NesFramesOptions:
    """Options of ``playfield/NesTetrisFrames-v0`` (as ``NesOptions`` where they share a name)."""

    level: int = 18
    """Start level 0-19."""
    game_type: str = "A"
    """``"A"`` or ``"B"``."""
    height: int = 0
    """B-type start height 0-5 (A-type games take 0 only)."""
    music: int = 3
    """Music 0-3 (3 = off)."""
    reward: str = "score"
    """``"score"``, ``"score_no_pushdown"`` or ``"lines"``."""
    max_lines: int | None = None
    """Truncate once this many lines are cleared (A-type)."""
    max_frames: int | None = None
    """Truncate after this many frames from power-on."""
    start_select: bool = False
    """Whether Start and Select reach the game (pause, and the A+B+Select+Start reset combo).
    Off by default: random agents would pause all the time."""
    observation: str = "board"
    """``"board"`` or ``"features"``."""
    show_piece: bool = False
    """Draw the falling piece into ``board`` as 2s."""
    survival_reward: float = 0.0
    """Added to the reward of every step that does not end the game."""
    game_over_reward: float = 0.0
    """Added to the reward of the step that ends the game."""
    rom: str | None = None
    """Path of the Tetris (USA) ROM (SHA-1 checked), whose program the engine's lag model runs
    from level 100 (default: ``$PLAYFIELD_ROM`` when set; ``""`` for none). Without it lag
    frames and crashes are not modelled (``info["lag_modelled"]`` on reset says which)."""

    _kind = "frames"

    def __post_init__(self) -> None:
        _check_bool("start_select", self.start_select)
        NesOptions.__post_init__(self)  # type: ignore[arg-type]

    def core_kwargs(self) -> dict[str, Any]:
        return NesOptions.core_kwargs(self)  # type: ignore[arg-type]


@dataclasses.dataclass(frozen=True)
class StandardOptions:
    """Options of ``playfield/StandardTetris-v0`` (``level`` may also be given per episode to
    ``reset(options=...)``)."""

    height: int = 20
    """Board rows 4-32 (20 is Fahey's)."""
    level: int = 1
    """Initial level 1-10."""
    model: str = "standard"
    """Move model: ``"standard"`` (Fahey's inputs) or ``"simplified"`` (any column, dropped)."""
    end_rule: str = "spawn-blocked"
    """``"spawn-blocked"`` (Fahey's: the game ends when a new piece's spawn position is blocked)
    or ``"no-placement"`` (the research benchmarks': it ends when the new piece fits nowhere at
    the top; needs ``model="simplified"``, as the standard model moves pieces from the spawn
    position)."""
    reward: str = "lines"
    """``"lines"`` or ``"score"``."""
    max_lines: int | None = None
    """Truncate once this many lines are cleared."""
    observation: str = "board"
    """``"board"`` or ``"features"``."""
    survival_reward: float = 0.0
    """Added to the reward of every step that does not end the game."""
    game_over_reward: float = 0.0
    """Added to the reward of the step that ends the game."""

    _kind = "standard"

    def __post_init__(self) -> None:
        _check_int("height", self.height, 4, 32)
        _check_int("level", self.level, 1, 10)
        _check_choice("model", self.model, ("standard", "simplified"))
        _check_choice("end_rule", self.end_rule, ("spawn-blocked", "no-placement"))
        if self.end_rule == "no-placement" and self.model != "simplified":
            raise ValueError(
                "end_rule='no-placement' needs model='simplified' (the standard model moves "
                f"pieces from the spawn position, which no-placement lets be blocked); got "
                f"model={self.model!r}"
            )
        _check_choice("reward", self.reward, ("lines", "score"))
        _check_int("max_lines", self.max_lines, 1, _U64_MAX, none_ok=True)
        _check_choice("observation", self.observation, ("board", "features"))
        _check_float("survival_reward", self.survival_reward)
        _check_float("game_over_reward", self.game_over_reward)

    @property
    def show_piece(self) -> bool:
        return False

    def core_kwargs(self) -> dict[str, Any]:
        return {
            "height": int(self.height), "level": int(self.level), "model": self.model,
            "end_rule": self.end_rule, "reward": self.reward, "max_lines": self.max_lines,
        }


#: Options ``reset(options=...)`` takes, by options class.
EPISODE_OPTIONS = {
    NesOptions: ("level", "game_type", "height"),
    NesFramesOptions: ("level", "game_type", "height"),
    StandardOptions: ("level",),
}


def parse_options(cls: type, given: dict[str, Any]) -> Any:
    """Builds an options dataclass, with a clear error for unknown names."""
    known = [f.name for f in dataclasses.fields(cls)]
    for name in given:
        if name not in known:
            raise ValueError(f"unknown option {name!r} (known: {', '.join(known)})")
    return cls(**given)


def episode_options(options: Any, given: dict | None) -> Any:
    """``options`` with the per-episode ones of ``reset(options=given)`` applied."""
    if not given:
        return options
    if not isinstance(given, dict):
        raise TypeError(f"options must be a dict, got {type(given).__name__}")
    allowed = EPISODE_OPTIONS[type(options)]
    for name in given:
        if name not in allowed:
            raise ValueError(
                f"reset(options=...) takes {', '.join(allowed)} (per episode); {name!r} is an "
                "option of the constructor or gymnasium.make"
            )
    changes = dict(given)
    # A B-type height does not carry over to an A-type episode.
    if changes.get("game_type") == "A" and "height" not in changes:
        changes["height"] = 0
    return dataclasses.replace(options, **changes)


def _make_core(kind: str, options: Any) -> Any:
    kw = options.core_kwargs()
    if kind == "placement":
        return _playfield.EnvCore.nes_placement(**kw)
    if kind == "frames":
        return _playfield.EnvCore.nes_frames(**kw)
    if kind == "standard":
        return _playfield.EnvCore.standard(**kw)
    raise ValueError(f"unknown environment kind {kind!r}")


def observation_space(core: Any, options: Any) -> spaces.Dict:
    """The single environment's observation space for ``options.observation``."""
    rows, cols = core.board_shape
    mode = options.observation
    features = spaces.Box(0.0, 4.0, (len(FEATURE_NAMES),), np.float32)
    if mode == "afterstates":
        return spaces.Dict({
            "afterstates": spaces.Box(
                0.0, 255.0, (AFTERSTATE_SLOTS, len(AFTERSTATE_FEATURES)), np.float32
            ),
            "action_mask": spaces.MultiBinary(AFTERSTATE_SLOTS),
            "features": features,
        })
    parts: dict[str, spaces.Space] = {}
    if mode == "features":
        parts["features"] = features
    else:
        high = 2 if options.show_piece else 1
        parts["board"] = spaces.Box(0, high, (rows, cols), np.uint8)
        parts["state"] = spaces.Box(-128, _INT32_MAX, (core.state_len,), np.int32)
    if core.masked:
        parts["action_mask"] = spaces.MultiBinary(core.num_actions)
    return spaces.Dict(parts)


def action_count(core: Any, options: Any) -> int:
    return AFTERSTATE_SLOTS if options.observation == "afterstates" else core.num_actions


# -- observations computed from the board and the state ----------------------------------------

_PIECE_ORIENTATION = 1  # the state's fields used below, by index
_X, _Y = 2, 3


def features_batch(boards: np.ndarray, states: np.ndarray, standard: bool) -> np.ndarray:
    """The feature observation of a batch: ``boards`` (n, rows, 10) of 0/1, ``states`` (n, k)
    the state vectors; returns (n, len(FEATURE_NAMES)) float32."""
    n, rows, _ = boards.shape
    filled = boards == 1
    any_filled = filled.any(axis=1)
    top = filled.argmax(axis=1)
    heights = np.where(any_filled, rows - top, 0).astype(np.float32)
    below_top = np.maximum.accumulate(filled, axis=1)
    holes = (below_top & ~filled).sum(axis=(1, 2)).astype(np.float32)
    bumpiness = np.abs(np.diff(heights, axis=1)).sum(axis=1)
    walled = np.pad(heights, ((0, 0), (1, 1)), constant_values=rows)
    wells = np.minimum(walled[:, :-2], walled[:, 2:]) - heights
    deepest = np.maximum(wells, 0).max(axis=1)
    out = np.zeros((n, len(FEATURE_NAMES)), np.float32)
    out[:, :10] = heights / rows
    out[:, 10] = holes / (rows * 10 / 2)
    out[:, 11] = bumpiness / (rows * 9)
    out[:, 12] = deepest / rows
    out[:, 13] = heights.sum(axis=1) / (rows * 10)
    if standard:
        piece, nxt, level, lines = states[:, 0], states[:, 1], states[:, 2], states[:, 3]
        x = y = orientation = np.zeros(n)
    else:
        piece, nxt, level, lines = states[:, 0], states[:, 4], states[:, 5], states[:, 6]
        x, y, orientation = states[:, _X], states[:, _Y], states[:, _PIECE_ORIENTATION]
    index = np.arange(n)
    out[index, 14 + np.clip(piece, 0, 7)] = 1.0
    out[index, 22 + np.clip(nxt, 0, 7)] = 1.0
    out[:, 30] = np.minimum(level, 29) / 29
    out[:, 31] = np.minimum(lines, 999) / 300
    out[:, 32] = np.clip(x, 0, 9) / 9
    out[:, 33] = np.clip(y, 0, rows - 1) / (rows - 1)
    out[:, 34] = np.clip(orientation, 0, 19) / 19
    return out


def draw_piece(board: np.ndarray, state: np.ndarray) -> None:
    """Marks the falling piece of a NES state on ``board`` as 2s (in place)."""
    if state[_PIECE_ORIENTATION] >= 19 or state[12] != 4:  # no piece, or not in play
        return
    for y, x in render.piece_cells(int(state[1]), int(state[_X]), int(state[_Y])):
        if 0 <= y < board.shape[0] and 0 <= x < board.shape[1]:
            board[y, x] = 2


# -- the single environments --------------------------------------------------------------------


def _human_available() -> bool:
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import pygame  # noqa: F401
    except ImportError:
        return False
    return True


#: ``"human"`` is listed where it can open a window (a display and pygame), so that checkers
#: that try every listed mode pass headless; asked for without one, it raises a clear error.
RENDER_MODES = ["ansi", "rgb_array"] + (["human"] if _human_available() else [])


class _SavedEnv(typing.NamedTuple):
    """What ``save()`` returns: the state and what it fits (``key``, checked by ``restore``)."""

    key: tuple
    core: Any
    episode_options: Any
    started: bool
    ended_by_illegal_action: bool


class _CoreEnv(gym.Env):
    """A Gymnasium environment over an ``EnvCore`` (the game stepped in Rust)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 30}
    _kind = ""
    _options_class: type = NesOptions

    def __init__(
        self, render_mode: str | None = None, illegal_action: str = "end", **options: Any
    ) -> None:
        _check_choice("illegal_action", illegal_action, ("end", "raise"))
        self.illegal_action = illegal_action
        self._ended_by_illegal_action = False
        if render_mode == "human":
            _human_display_check()
        elif render_mode is not None:
            _check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.render_mode = render_mode
        self._window = None
        self.options = parse_options(self._options_class, options)
        self._episode_options = self.options
        self._cores = {self.options: _make_core(self._kind, self.options)}
        self._core = self._cores[self.options]
        self.observation_space = observation_space(self._core, self.options)
        self.action_space = spaces.Discrete(action_count(self._core, self.options))
        self._masked = self._core.masked
        self._mode = self.options.observation
        self._slot_actions = None
        # Looked up once: a frame step is about a microsecond.
        self._extra_rewards = bool(self.options.survival_reward or self.options.game_over_reward)
        self._human = render_mode == "human"
        self._draw_piece = self.options.show_piece and self._kind != "standard"
        self._fast_step = self._kind == "frames" and self._mode == "board" and not (
            self._extra_rewards or self._human or self._draw_piece
        )

    # -- Gymnasium API -------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            seed = check_seed(seed)
        # Per-episode options stay until changed.
        chosen = episode_options(self._episode_options, options)
        super().reset(seed=seed)
        chained = self._core.next_seed if self._core_started() else None
        if chosen != self._episode_options:
            if chosen not in self._cores:
                if len(self._cores) >= 8:
                    self._cores.pop(next(iter(self._cores)))
                self._cores[chosen] = _make_core(self._kind, chosen)
            self._core = self._cores[chosen]
            self._episode_options = chosen
        if seed is not None:
            episode_seed = seed
        elif chained is None:
            episode_seed = int(self.np_random.integers(0, SEED_LIMIT))
        else:
            episode_seed = chained
        self._started = True
        self._ended_by_illegal_action = False
        self._core.reset(episode_seed)
        info = self._info()
        if self._kind != "standard":
            info["lag_modelled"] = self._core.lag_modelled
        return self._observation(), info

    def step(self, action):
        a = _action_int(action)
        if self._ended_by_illegal_action:
            raise ValueError("the episode is over (it ended on an illegal action): call reset()")
        if self._mode == "afterstates":
            a = self._slot_action(a)
            if a < 0 and self.illegal_action == "raise":
                raise ValueError(f"slot {_action_int(action)} is not allowed now (see the mask)")
        if (
            self.illegal_action == "end"
            and self._masked
            and self._core_started()
            and not self._core.done
            and not self._core_allows(a)
        ):
            # The option's documented behaviour: an action outside the mask ends the episode
            # with no reward and nothing played (as board-game environments treat illegal moves).
            self._ended_by_illegal_action = True
            info = self._info()
            info["illegal_action"] = True
            reward = float(self.options.game_over_reward)
            return self._observation(), reward, True, False, info
        try:
            reward, terminated, truncated = self._core.step(a)
        except OverflowError:
            raise _outside(a, self._core.num_actions) from None
        if self._extra_rewards:
            o = self.options
            reward += o.game_over_reward if terminated else o.survival_reward
        if self._human:
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: pass render_mode= to the constructor")
            return None
        if self.render_mode == "ansi":
            return self._ansi()
        picture = self._picture()
        if self.render_mode == "rgb_array":
            return picture
        self._show(picture)
        return None

    def close(self):
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None

    # -- state: save and restore ----------------------------------------------------------------

    def save(self) -> Any:
        """The environment's whole state (game, episode options, flags), for ``restore``."""
        return _SavedEnv(
            self._save_key(), self._core.copy(), self._episode_options, self._core_started(),
            self._ended_by_illegal_action,
        )

    def _save_key(self) -> tuple:
        """What a save must share with the environment restoring it: the kind of environment
        and what shapes its observations and actions."""
        return (type(self).__name__, self.options.observation, self.options.show_piece,
                tuple(self._core.board_shape), self._core.num_actions)

    def restore(self, saved: Any) -> None:
        """Returns to a state ``save()`` of an environment of the same kind and observation
        returned (a ``ValueError`` otherwise)."""
        key = self._save_key()
        want = (
            f"what save() of a {key[0]} with observation={key[1]!r}, show_piece={key[2]} and a "
            f"{key[3][0]}-row board returned"
        )
        if not isinstance(saved, _SavedEnv):
            raise ValueError(f"restore() takes {want}, got {type(saved).__name__} {saved!r:.80}")
        if saved.key != key:
            kind, observation, show_piece, shape, _ = saved.key
            raise ValueError(
                f"restore() takes {want}; this save is of a {kind} with "
                f"observation={observation!r}, show_piece={show_piece} and a {shape[0]}-row board"
            )
        _, core, episode_options, started, ended = saved
        self._core = core.copy()
        self._slot_actions = None
        self._episode_options = episode_options
        self._started = started
        self._ended_by_illegal_action = ended

    # -- helpers -------------------------------------------------------------------------------

    def _core_started(self) -> bool:
        return getattr(self, "_started", False)

    def _core_allows(self, action: int) -> bool:
        if not 0 <= action < self._core.num_actions:
            return False
        _, _, mask = self._core.observe()
        return bool(mask[action])

    def _slot_action(self, slot: int) -> int:
        """The placement action of an afterstate slot, -1 when the slot is empty or outside."""
        if not self._core_started() or self._core.done or not 0 <= slot < AFTERSTATE_SLOTS:
            return -1
        if self._slot_actions is None:
            self._slot_actions = self._core.afterstates()[1]
        return int(self._slot_actions[slot])

    def _observation(self) -> dict[str, np.ndarray]:
        board, state, mask = self._core.observe()
        mode = self._mode
        if mode == "board":
            if self._draw_piece:
                draw_piece(board, state)
            obs = {"board": board, "state": state}
            if mask is not None:
                obs["action_mask"] = mask
            return obs
        features = features_batch(board[None], state[None], self._kind == "standard")[0]
        if mode == "features":
            obs = {"features": features}
            if mask is not None:
                obs["action_mask"] = mask
            return obs
        afterstates, actions = self._core.afterstates()
        self._slot_actions = actions
        return {
            "afterstates": afterstates,
            "action_mask": (actions >= 0).astype(np.int8),
            "features": features,
        }

    def _info(self) -> dict[str, Any]:
        return {"seed": self._core.seed}

    def _state_text(self, state) -> str:
        return " ".join(f"{k}={int(v)}" for k, v in zip(NES_STATE_FIELDS, state))

    def _ansi(self) -> str:
        board, state, _ = self._core.observe()
        cells = []
        if self._kind != "standard" and state[1] < 19 and state[12] == 4:
            cells = render.piece_cells(int(state[1]), int(state[_X]), int(state[_Y]))
        return render.ansi_board(board, cells) + "\n" + self._state_text(state) + "\n"

    def _picture(self) -> np.ndarray:
        board, state, _ = self._core.observe()
        if self._kind == "standard":
            return render.nes_picture(
                board.astype(np.uint8), level=int(state[2]), score=int(state[4]),
                lines=int(state[3]), piece=None, next_piece=None,
                game_over=self._core.done,
            )
        nes = self._core.nes() if self._core_started() else None
        if nes is None:
            kinds = board
        else:
            tiles = nes.tiles()
            kinds = np.select([tiles == 0x7B, tiles == 0x7C, tiles == 0x7D], [1, 2, 3], 0)
        piece = None
        if state[1] < 19 and state[12] == 4:
            piece = (int(state[1]), int(state[_X]), int(state[_Y]))
        nxt = int(state[4])
        return render.nes_picture(
            kinds, level=int(state[5]), score=int(state[7]), lines=int(state[6]), piece=piece,
            next_piece=nxt if nxt < 7 else None, game_over=self._core.done,
        )

    def _show(self, picture: np.ndarray) -> None:
        import pygame

        if self._window is None:
            pygame.display.init()
            self._window = pygame.display.set_mode((render.WIDTH * 2, render.HEIGHT * 2))
        surface = pygame.surfarray.make_surface(picture.swapaxes(0, 1))
        self._window.blit(pygame.transform.scale(surface, self._window.get_size()), (0, 0))
        pygame.event.pump()
        pygame.display.flip()

    def action_masks(self) -> np.ndarray:
        """The allowed actions as booleans (the MaskablePPO convention)."""
        if self._mode == "afterstates":
            return self._observation()["action_mask"].astype(bool)
        if not self._masked:
            return np.ones(self._core.num_actions, dtype=bool)
        _, _, mask = self._core.observe()
        return mask.astype(bool)

    @property
    def seed_of_episode(self) -> int:
        """The seed the current episode started from (it picks the pieces)."""
        return self._core.seed

    # -- pickle: options + the episode's seed and actions, replayed exactly --------------------

    def __getstate__(self):
        return {
            "render_mode": self.render_mode,
            "options": dataclasses.asdict(self.options),
            "episode_options": dataclasses.asdict(self._episode_options),
            "snapshot": self._core.snapshot(),
            "np_random": None if self._np_random is None else self._np_random.bit_generator.state,
            "started": self._core_started(),
            "illegal_action": self.illegal_action,
            "ended_by_illegal_action": self._ended_by_illegal_action,
        }

    def __setstate__(self, state):
        _CoreEnv.__init__(
            self,
            render_mode=state["render_mode"], illegal_action=state["illegal_action"],
            **state["options"],
        )
        chosen = self._options_class(**state.get("episode_options", state["options"]))
        if chosen != self.options:
            self._cores[chosen] = _make_core(self._kind, chosen)
            self._core = self._cores[chosen]
            self._episode_options = chosen
        self._core.load_snapshot(state["snapshot"])
        self._ended_by_illegal_action = state["ended_by_illegal_action"]
        self._started = state["started"]
        if state["np_random"] is not None:
            rng = np.random.Generator(np.random.PCG64())
            rng.bit_generator.state = state["np_random"]
            self._np_random = rng


def _human_display_check() -> None:
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise gym.error.DependencyNotInstalled(
            "render_mode='human' needs a display (DISPLAY or WAYLAND_DISPLAY is not set); use "
            "render_mode='rgb_array' (with gymnasium.wrappers.RecordVideo) without one"
        )
    try:
        import pygame  # noqa: F401
    except ImportError as e:
        raise gym.error.DependencyNotInstalled(
            "render_mode='human' draws with pygame: pip install pygame"
        ) from e


def _action_int(action) -> int:
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise TypeError(f"an action is one integer, got {type(action).__name__} {action!r}")


def _outside(action, size: int) -> ValueError:
    """The error of an action too large for the engine's 64-bit actions."""
    return ValueError(f"action {action} is outside the action space 0..{size}")


class NesTetrisEnv(_CoreEnv):
    """``playfield/NesTetris-v0``: one placement per step (see ``playfield.envs``).

    Options (keywords of the constructor and of ``gymnasium.make``): ``render_mode``
    (``"ansi"``, ``"rgb_array"``, ``"human"``), ``illegal_action`` (``"end"``, ``"raise"``),
    ``info_buttons`` (with ``info_placements``: the buttons too), and every field of
    :class:`NesOptions`: level, game_type, height, music, input, das, reaction, soft_drop, reward,
    max_lines, max_frames, observation, show_piece, survival_reward, game_over_reward,
    info_placements.
    """

    _kind = "placement"
    _options_class = NesOptions

    def __init__(
        self,
        render_mode: str | None = None,
        info_buttons: bool = True,
        illegal_action: str = "end",
        **options,
    ):
        _check_bool("info_buttons", info_buttons)
        self.info_buttons = info_buttons
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, **options)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seed": self._core.seed}
        if self.options.info_placements and self._core_started():
            info["placements"] = self._core.placements()
            if self.info_buttons:
                buttons, lengths = self._core.all_buttons()
                info["buttons"] = buttons
                info["buttons_length"] = lengths
        return info

    def placements(self) -> np.ndarray:
        """The active piece's placements: rows of (action, x, y, orientation, frames)."""
        return self._core.placements()

    def buttons(self, action: int) -> np.ndarray:
        """The buttons of every frame that play ``action`` now (its last frame locks)."""
        return self._core.buttons(_action_int(action))

    def nes(self):
        """A copy of the engine at the decision (for ``Player.best`` or inspection)."""
        return self._core.nes()

    @property
    def decision_frame(self) -> int:
        """Frames the active piece has been under control at the decision: the ``frame`` to
        give ``Player.best`` for this decision."""
        return self._core.decision_frame

    def __getstate__(self):
        state = super().__getstate__()
        state["info_buttons"] = self.info_buttons
        return state

    def __setstate__(self, state):
        self.info_buttons = state.get("info_buttons", True)
        super().__setstate__(state)


class NesTetrisFramesEnv(_CoreEnv):
    """``playfield/NesTetrisFrames-v0``: one frame per step, the action is its buttons byte.

    Options: ``render_mode``, and every field of :class:`NesFramesOptions`: level, game_type,
    height, music, reward, max_lines, max_frames, start_select, observation, show_piece,
    survival_reward, game_over_reward.
    """

    _kind = "frames"
    _options_class = NesFramesOptions
    metadata = {"render_modes": RENDER_MODES, "render_fps": 60}

    def step(self, action):
        # A frame is about a microsecond: the plain case skips every optional step.
        if not self._fast_step:
            return super().step(action)
        core = self._core
        try:
            reward, terminated, truncated = core.step(
                action if type(action) is int else _action_int(action)
            )
        except OverflowError:
            raise _outside(action, 256) from None
        board, state, _ = core.observe()
        return {"board": board, "state": state}, reward, terminated, truncated, {"seed": core.seed}

    def nes(self):
        """A copy of the engine."""
        return self._core.nes()


class StandardTetrisEnv(_CoreEnv):
    """``playfield/StandardTetris-v0``: Fahey's Standard Tetris, one placement per step.

    Options: ``render_mode``, ``illegal_action``, and every field of :class:`StandardOptions`:
    height, level, model, end_rule, reward, max_lines, observation, survival_reward,
    game_over_reward.
    """

    _kind = "standard"
    _options_class = StandardOptions

    def __init__(self, render_mode: str | None = None, illegal_action: str = "end", **options):
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, **options)

    def _state_text(self, state) -> str:
        return " ".join(f"{k}={int(v)}" for k, v in zip(STANDARD_STATE_FIELDS, state))
