"""NES Tetris (USA), frame-exact, and its AI players.

Buttons are one byte per frame in the ROM's layout; combine the constants below with ``|``.
Pieces are numbered as the ROM does: 0 T, 1 J, 2 Z, 3 O, 4 S, 5 L, 6 I (``PIECES[i]``).
``PLAYERS`` lists the players as (name, description), the default first;
``Player.by_name(name)`` makes one. ``orientation_minos()`` gives the four cells of each orientation id 0-18 (row and column offsets
from ``tetriminoY``/``tetriminoX``, and the tile style 1-3), ``level_colors(level)`` the level's
four colours.
"""

from ._playfield import (
    PLAYERS,
    Decision,
    Nes,
    NesState,
    Player,
    level_colors,
    nes_game_seed,
    orientation_minos,
    play_nes_game,
)

__all__ = [
    "Nes", "NesState", "Player", "Decision", "play_nes_game", "nes_game_seed", "PIECES",
    "orientation_minos", "level_colors", "PLAYERS",
    "RIGHT", "LEFT", "DOWN", "UP", "START", "SELECT", "B", "A",
]

#: Piece letters by the ROM's piece number.
PIECES = "TJZOSLI"

RIGHT = 0x01
LEFT = 0x02
DOWN = 0x04
UP = 0x08
START = 0x10
SELECT = 0x20
B = 0x40
A = 0x80

#: Event bits returned by ``Nes.step`` / ``Nes.step_many``.
EVENT_SPAWN = 1 << 0
EVENT_LOCK = 1 << 1
EVENT_LINES_CLEARED = 1 << 2
EVENT_LEVEL_UP = 1 << 3
EVENT_TOP_OUT = 1 << 4
EVENT_MODE_CHANGE = 1 << 5
EVENT_B_TYPE_GOAL = 1 << 6
EVENT_UNSUPPORTED = 1 << 7
#: A lag frame (only with the ROM, from level 100: ``Nes.lag_modelled()``).
EVENT_LAG = 1 << 8
#: The game crashed (only with the ROM); the engine stops.
EVENT_CRASH = 1 << 9
