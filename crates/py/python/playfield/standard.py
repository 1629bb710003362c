"""Fahey's Standard Tetris players (Dellacherie, El-Tetris, BCTS).

Pieces are numbered in Fahey's order: 0 O, 1 I, 2 S, 3 Z, 4 L, 5 J, 6 T (``PIECES[i]``).
``StandardPlayer(ai, model, lookahead, end_rule).best(board, piece, next)`` returns
``(action, orientation, x, y)`` for ``playfield/StandardTetris-v0``.
"""

from ._playfield import StandardPlayer as Player

__all__ = ["Player", "PIECES"]

#: Piece letters by Fahey's piece number minus one.
PIECES = "OISZLJT"
