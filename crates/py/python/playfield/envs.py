"""Gymnasium environments on playfield's engines.

``playfield/NesTetris-v0``
    One action = one placement of the active piece among those reachable with real gamepad input
    under the input model (timeline, DAS, soft drop), found by the AI's exact search. Actions are
    ``(orientation * 20 + y) * 10 + x`` (orientation = the ROM's id 0-18, x/y = ``tetriminoX``/
    ``tetriminoY`` at lock); ``observation["action_mask"]`` and ``env.action_masks()`` (the
    MaskablePPO convention) mark the reachable ones. ``info["placements"]`` lists them (action,
    x, y, orientation, frames) and ``info["buttons"]``/``info["buttons_length"]`` give each one's
    per-frame buttons, in the same order. The game starts from power-on through the menus (the
    seed picks how long the level menu waits, and so the pieces) and runs at the ROM's exact
    timing; a step plays the buttons frame by frame and runs the game to the next piece.
    The search is most of a step's time: DAS and soft drop (the defaults) make it the slowest,
    ``soft_drop=False`` about four times faster, ``das=False, soft_drop=False`` (the community's
    30 Hz model) about eighteen (the README has the measured figures). Read the int8 mask as booleans (``mask.view(bool)`` or
    ``env.action_masks()``): numpy's ``flatnonzero`` is several times slower on int8.
``playfield/NesTetrisFrames-v0``
    One action = the buttons of one frame (a byte, ``playfield.nes.RIGHT | ...``).
``playfield/StandardTetris-v0``
    Fahey's Standard Tetris, one action = one placement, ``orientation * 16 + x + 3``.

An action outside the mask raises ``ValueError`` (nothing is played). With
``illegal_action="end"`` it ends the episode instead (reward 0, ``info["illegal_action"]``), as
board-game environments treat illegal moves; Gymnasium's ``check_env``, which steps random actions
of the whole space, needs that mode for the masked environments.

Observations are a dict: ``board`` (rows × 10, 1 = block), ``state`` (int32, fields
``NES_STATE_FIELDS`` / ``STANDARD_STATE_FIELDS``) and, for placement environments,
``action_mask``. Rewards are the score delta by default (``reward="lines"`` for lines).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _playfield

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

_INT32_MAX = np.iinfo(np.int32).max


@dataclasses.dataclass(frozen=True)
class NesOptions:
    """Options of the NES environments (every one is a keyword of the constructor and of
    ``gymnasium.make``). Score-format modifiers of the AI's benchmark are added here as fields
    when the engine gains them; each is passed through to the core unchanged."""

    level: int = 18
    """Start level 0-19 (chosen on the level menu as a player does)."""
    game_type: str = "A"
    """``"A"`` (play until top-out) or ``"B"`` (25 lines from a start height)."""
    height: int = 0
    """B-type start height 0-5."""
    music: int = 3
    """Music 0-3 (3 = off); it changes nothing in play, only the menu path."""
    input: str = "X."
    """Input timeline: frames that may carry a new press (``X`` 60 Hz, ``X.`` 30 Hz, ``X...``)."""
    das: bool = True
    """Whether Left/Right may be held long enough to autorepeat."""
    reaction: int = 0
    """Frames after spawn before the preview piece is known. The placement environment decides
    at spawn, so with ``reaction > 0`` the ``next`` field is hidden (7) at every decision."""
    soft_drop: bool = True
    """Whether Down may be used."""
    reward: str = "score"
    """``"score"`` (points gained) or ``"lines"`` (lines cleared)."""
    max_lines: int | None = None
    """Truncate once this many lines are cleared (A-type)."""
    max_frames: int | None = None
    """Truncate after this many frames from power-on."""

    def core_kwargs(self) -> dict[str, Any]:
        kw = dataclasses.asdict(self)
        kind = kw.pop("game_type")
        if kind not in ("A", "B"):
            raise ValueError(f"game_type must be 'A' or 'B', got {kind!r}")
        kw["game_type"] = 0 if kind == "A" else 1
        return kw


@dataclasses.dataclass(frozen=True)
class NesFramesOptions:
    """Options of ``playfield/NesTetrisFrames-v0``."""

    level: int = 18
    game_type: str = "A"
    height: int = 0
    music: int = 3
    reward: str = "score"
    max_lines: int | None = None
    max_frames: int | None = None
    start_select: bool = False
    """Whether Start and Select reach the game (pause, and the A+B+Select+Start reset combo).
    Off by default: random agents would pause all the time."""

    def core_kwargs(self) -> dict[str, Any]:
        return NesOptions.core_kwargs(self)  # type: ignore[arg-type]


@dataclasses.dataclass(frozen=True)
class StandardOptions:
    """Options of ``playfield/StandardTetris-v0``."""

    height: int = 20
    """Board rows (20 is Fahey's)."""
    level: int = 1
    """Initial level 1-10."""
    model: str = "standard"
    """Move model: ``"standard"`` (Fahey's inputs) or ``"simplified"`` (any column, dropped)."""
    end_rule: str = "spawn-blocked"
    """``"spawn-blocked"`` (Fahey's) or ``"no-placement"`` (the research benchmarks')."""
    reward: str = "lines"
    """``"lines"`` or ``"score"``."""
    max_lines: int | None = None

    def core_kwargs(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def parse_options(cls: type, given: dict[str, Any]) -> Any:
    """Builds an options dataclass, with a clear error for unknown names."""
    known = [f.name for f in dataclasses.fields(cls)]
    for name in given:
        if name not in known:
            raise ValueError(f"unknown option {name!r} (known: {', '.join(known)})")
    return cls(**given)


def _make_core(kind: str, options: Any) -> Any:
    kw = options.core_kwargs()
    if kind == "placement":
        return _playfield.EnvCore.nes_placement(**kw)
    if kind == "frames":
        return _playfield.EnvCore.nes_frames(**kw)
    if kind == "standard":
        return _playfield.EnvCore.standard(**kw)
    raise ValueError(f"unknown environment kind {kind!r}")


def observation_space(core: Any) -> spaces.Dict:
    rows, cols = core.board_shape
    parts: dict[str, spaces.Space] = {
        "board": spaces.Box(0, 1, (rows, cols), np.uint8),
        "state": spaces.Box(-128, _INT32_MAX, (core.state_len,), np.int32),
    }
    if core.masked:
        parts["action_mask"] = spaces.MultiBinary(core.num_actions)
    return spaces.Dict(parts)


class _CoreEnv(gym.Env):
    """A Gymnasium environment over an ``EnvCore`` (the game stepped in Rust)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 60}
    _kind = ""
    _options_class: type = NesOptions

    def __init__(
        self, render_mode: str | None = None, illegal_action: str = "raise", **options: Any
    ) -> None:
        if illegal_action not in ("raise", "end"):
            raise ValueError(f"illegal_action must be 'raise' or 'end', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self._ended_by_illegal_action = False
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (known: 'ansi' or None)")
        self.render_mode = render_mode
        self.options = parse_options(self._options_class, options)
        self._core = _make_core(self._kind, self.options)
        self.observation_space = observation_space(self._core)
        self.action_space = spaces.Discrete(self._core.num_actions)
        self._masked = self._core.masked

    # -- Gymnasium API -------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options:
            raise ValueError(
                f"reset takes no options (got {sorted(options)}); environment options go to the "
                "constructor or gymnasium.make"
            )
        if seed is not None:
            episode_seed = int(seed) % 2**64
        elif not self._core_started():
            episode_seed = int(self.np_random.integers(0, 2**63))
        else:
            episode_seed = self._core.next_seed
        self._started = True
        self._ended_by_illegal_action = False
        self._core.reset(episode_seed)
        return self._observation(), self._info()

    def step(self, action):
        a = _action_int(action)
        if self._ended_by_illegal_action:
            raise ValueError("the episode is over (it ended on an illegal action): call reset()")
        if (
            self.illegal_action == "end"
            and self._masked
            and self._core_started()
            and not self._core.done
            and 0 <= a < self._core.num_actions
            and not self.action_masks()[a]
        ):
            # The option's documented behaviour: an action outside the mask ends the episode
            # with no reward and nothing played (as board-game environments treat illegal moves).
            self._ended_by_illegal_action = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), 0.0, True, False, info
        reward, terminated, truncated = self._core.step(a)
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode != "ansi":
            return None
        board, state, _ = self._core.observe()
        rows = ["".join("#" if c else "." for c in row) for row in board]
        return "\n".join(rows) + "\n" + self._state_text(state) + "\n"

    # -- helpers -------------------------------------------------------------------------------

    def _core_started(self) -> bool:
        return getattr(self, "_started", False)

    def _observation(self) -> dict[str, np.ndarray]:
        board, state, mask = self._core.observe()
        if mask is None:
            return {"board": board, "state": state}
        return {"board": board, "state": state, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        return {"seed": self._core.seed}

    def _state_text(self, state) -> str:
        return " ".join(f"{k}={int(v)}" for k, v in zip(NES_STATE_FIELDS, state))

    def action_masks(self) -> np.ndarray:
        """The reachable actions as booleans (the MaskablePPO convention)."""
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
        self._core.load_snapshot(state["snapshot"])
        self._ended_by_illegal_action = state["ended_by_illegal_action"]
        self._started = state["started"]
        if state["np_random"] is not None:
            rng = np.random.Generator(np.random.PCG64())
            rng.bit_generator.state = state["np_random"]
            self._np_random = rng


def _action_int(action) -> int:
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise TypeError(f"an action is one integer, got {type(action).__name__} {action!r}")


class NesTetrisEnv(_CoreEnv):
    """``playfield/NesTetris-v0``: one placement per step (see the module's documentation)."""

    _kind = "placement"
    _options_class = NesOptions

    def __init__(
        self,
        render_mode: str | None = None,
        info_buttons: bool = True,
        illegal_action: str = "raise",
        **options,
    ):
        self.info_buttons = info_buttons
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, **options)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seed": self._core.seed}
        if self._core_started():
            info["placements"] = self._core.placements()
            if self.info_buttons:
                buttons, lengths = self._core.all_buttons()
                info["buttons"] = buttons
                info["buttons_length"] = lengths
        return info

    def buttons(self, action: int) -> np.ndarray:
        """The buttons of every frame that play ``action`` now (its last frame locks)."""
        return self._core.buttons(_action_int(action))

    def nes(self):
        """A copy of the engine at the decision (for ``Player.best`` or inspection)."""
        return self._core.nes()

    def __getstate__(self):
        state = super().__getstate__()
        state["info_buttons"] = self.info_buttons
        return state

    def __setstate__(self, state):
        self.info_buttons = state.get("info_buttons", True)
        super().__setstate__(state)


class NesTetrisFramesEnv(_CoreEnv):
    """``playfield/NesTetrisFrames-v0``: one frame per step, the action is its buttons byte."""

    _kind = "frames"
    _options_class = NesFramesOptions

    def nes(self):
        """A copy of the engine."""
        return self._core.nes()


class StandardTetrisEnv(_CoreEnv):
    """``playfield/StandardTetris-v0``: Fahey's Standard Tetris, one placement per step."""

    _kind = "standard"
    _options_class = StandardOptions

    def _state_text(self, state) -> str:
        return " ".join(f"{k}={int(v)}" for k, v in zip(STANDARD_STATE_FIELDS, state))
