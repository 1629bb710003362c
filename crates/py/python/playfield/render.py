"""Pictures of the games for ``render_mode="rgb_array"`` and ``"ansi"``.

The picture is drawn here, in the NES look (the level's four colours from the game's colour
table through the NES palette, the blocks' three tile styles, the falling piece, the preview,
score, lines and level), from the game's state only: no graphics are read from a ROM. The
letters and digits are this module's own 3×5 font.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import _playfield

#: Picture size (height, width): the NES picture's 240 × 256, a multiple of 16 both ways as
#: video encoders want.
HEIGHT, WIDTH = 240, 256
TILE = 8
FIELD_X, FIELD_Y = 88, 40

# A 3×5 font: each glyph is five rows of three bits (bit 2 = left column).
_FONT = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 2, 2, 2),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7), "S": (7, 4, 7, 1, 7), "C": (7, 4, 4, 4, 7),
    "O": (7, 5, 5, 5, 7), "R": (6, 5, 6, 5, 5), "E": (7, 4, 6, 4, 7), "L": (4, 4, 4, 4, 7),
    "I": (7, 2, 2, 2, 7), "N": (6, 5, 5, 5, 5), "V": (5, 5, 5, 5, 2), "X": (5, 5, 2, 5, 5),
    "T": (7, 2, 2, 2, 2), "G": (7, 4, 5, 5, 7), "A": (2, 5, 7, 5, 5), "M": (5, 7, 7, 5, 5),
    " ": (0, 0, 0, 0, 0), "-": (0, 0, 7, 0, 0),
}
_WHITE = np.array([255, 255, 255], np.uint8)
_FRAME = np.array([168, 168, 168], np.uint8)
_BACKDROP = np.array([60, 60, 60], np.uint8)


@lru_cache(maxsize=None)
def orientation_minos() -> tuple:
    """The four minos of each orientation id 0-18: ``(dy, dx, tile kind 1-3)``."""
    return tuple(tuple(m) for m in _playfield.orientation_minos())


@lru_cache(maxsize=32)
def level_colors(level: int) -> np.ndarray:
    """(4, 3) uint8: the backdrop and the colours of tile kinds 1-3 at ``level``."""
    return np.array([list(c) for c in _playfield.level_colors(int(level) % 256)], dtype=np.uint8)


#: An orientation id of each piece as it spawns (T J Z O S L I), for the preview.
SPAWN_ORIENTATION = (2, 7, 8, 10, 11, 14, 18)


def _text(img: np.ndarray, s: str, x: int, y: int, color=_WHITE, scale: int = 2) -> None:
    for ch in s.upper():
        rows = _FONT.get(ch, _FONT[" "])
        for r, bits in enumerate(rows):
            for c in range(3):
                if bits >> (2 - c) & 1:
                    y0, x0 = y + r * scale, x + c * scale
                    img[y0:y0 + scale, x0:x0 + scale] = color
        x += 4 * scale


def _box(img: np.ndarray, x: int, y: int, w: int, h: int) -> None:
    img[y:y + h, x:x + w] = 0
    img[y:y + 2, x:x + w] = _FRAME
    img[y + h - 2:y + h, x:x + w] = _FRAME
    img[y:y + h, x:x + 2] = _FRAME
    img[y:y + h, x + w - 2:x + w] = _FRAME


def _tile(img: np.ndarray, kind: int, x: int, y: int, colors: np.ndarray, size: int = TILE):
    """One block as the game's three tile styles look: kind 1 white with a rim of colour 2;
    kinds 2 and 3 solid in colours 2 and 3 with a white shine in the corner."""
    s = size // 8 or 1
    # A gap of one line between blocks at every size (smaller tiles fit taller boards).
    body = size - s
    if kind == 1:
        img[y:y + body, x:x + body] = colors[2]
        img[y + s:y + body - s, x + s:x + body - s] = colors[1]
        img[y:y + s, x:x + s] = colors[1]
        return
    img[y:y + body, x:x + body] = colors[2] if kind == 2 else colors[3]
    img[y:y + s, x:x + s] = colors[1]
    img[y + s:y + 2 * s, x + s:x + 3 * s] = colors[1]
    img[y + 2 * s:y + 3 * s, x + s:x + 2 * s] = colors[1]


def field_tile(rows: int) -> int:
    """The size in pixels of a block of a board of ``rows`` rows: the NES's 8, smaller when the
    board would not fit above the picture's bottom edge (its frame included)."""
    return max(1, min(TILE, (HEIGHT - FIELD_Y - 8) // max(rows, 1)))


def nes_picture(
    kinds: np.ndarray,
    level: int,
    score: int,
    lines: int,
    piece: tuple[int, int, int] | None,
    next_piece: int | None,
    game_over: bool = False,
) -> np.ndarray:
    """The (240, 256, 3) uint8 picture of a NES game.

    ``kinds``: (rows, 10) tile kinds 0 (empty) or 1-3; ``piece``: the falling piece as
    ``(orientation, x, y)`` or None; ``next_piece``: 0-6 (T J Z O S L I) or None. Boards of more
    than 24 rows (Standard Tetris up to 32) are drawn with smaller blocks, so every row shows.
    """
    img = np.empty((HEIGHT, WIDTH, 3), np.uint8)
    colors = level_colors(level)
    img[:] = _BACKDROP
    img[:, :, :] = (_BACKDROP * 0.75 + colors[3] * 0.25).astype(np.uint8)
    rows, cols = kinds.shape
    tile = field_tile(rows)
    _box(img, FIELD_X - 8, FIELD_Y - 8, cols * tile + 16, rows * tile + 16)
    for y, x in zip(*np.nonzero(kinds)):
        _tile(img, int(kinds[y, x]), FIELD_X + x * tile, FIELD_Y + y * tile, colors, tile)
    minos = orientation_minos()
    if piece is not None and 0 <= piece[0] < len(minos):
        o, px, py = piece
        for dy, dx, kind in minos[o]:
            cx, cy = px + dx, py + dy
            if 0 <= cx < cols and 0 <= cy < rows:
                _tile(img, kind, FIELD_X + cx * tile, FIELD_Y + cy * tile, colors, tile)
    _box(img, 80, 4, 104, 24)
    _text(img, f"LINES-{lines:03d}", 90, 11)
    _box(img, 188, 8, 64, 48)
    _text(img, "SCORE", 196, 14)
    _text(img, f"{min(score, 999999):06d}", 196, 34)
    _box(img, 188, 72, 56, 56)
    _text(img, "NEXT", 196, 78)
    if next_piece is not None and 0 <= next_piece < len(SPAWN_ORIENTATION):
        for dy, dx, kind in minos[SPAWN_ORIENTATION[next_piece]]:
            _tile(img, kind, 208 + dx * TILE, 100 + dy * TILE, colors)
    _box(img, 188, 144, 56, 40)
    _text(img, "LEVEL", 194, 150)
    _text(img, f"{level:02d}", 206, 168)
    if game_over:
        _text(img, "GAME OVER", FIELD_X + 4, FIELD_Y + 72, np.array([255, 80, 80], np.uint8))
    return img


def ansi_board(board: np.ndarray, piece_cells: list[tuple[int, int]]) -> str:
    """The board as text: ``#`` a block, ``@`` the falling piece, ``.`` empty."""
    chars = np.where(board != 0, "#", ".").astype("<U1")
    for y, x in piece_cells:
        if 0 <= y < chars.shape[0] and 0 <= x < chars.shape[1]:
            chars[y, x] = "@"
    return "\n".join("".join(row) for row in chars)


def piece_cells(orientation: int, x: int, y: int) -> list[tuple[int, int]]:
    """The (row, column) cells of a NES piece at ``(orientation, x, y)`` (none for id 19)."""
    minos = orientation_minos()
    if not 0 <= orientation < len(minos):
        return []
    return [(y + dy, x + dx) for dy, dx, _ in minos[orientation]]
