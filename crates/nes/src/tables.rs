//! The ROM's data tables, written out from the disassembly (main.asm; CPU addresses given).
//! These are facts about the game; no byte of the ROM file is read or shipped.

/// `tile1` ($7B): the tile of T, O and I minos.
pub const TILE1: u8 = 0x7B;
/// `tile2` ($7C): the tile of Z and L minos.
pub const TILE2: u8 = 0x7C;
/// `tile3` ($7D): the tile of J and S minos.
pub const TILE3: u8 = 0x7D;
/// `tileEmpty` ($EF): an empty playfield cell. Any tile ≥ $EF counts as empty for collisions.
pub const TILE_EMPTY: u8 = 0xEF;
/// `tileHidden` ($FF).
pub const TILE_HIDDEN: u8 = 0xFF;
/// `hidden` ($13): the orientation id used while no piece is shown (line clears, curtain).
pub const ORIENTATION_HIDDEN: u8 = 0x13;

/// One mino of an orientation: row offset, tile, column offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mino {
    /// Row offset from `tetriminoY`.
    pub dy: i8,
    /// The tile written into the playfield when the piece locks.
    pub tile: u8,
    /// Column offset from `tetriminoX`.
    pub dx: i8,
}

const fn m(dy: i8, tile: u8, dx: i8) -> Mino {
    Mino { dy, tile, dx }
}

/// `orientationTable` ($8A9C): four minos for each of the 19 orientation ids and `hidden`.
pub const ORIENTATIONS: [[Mino; 4]; 20] = [
    [
        m(0, TILE1, -1),
        m(0, TILE1, 0),
        m(0, TILE1, 1),
        m(-1, TILE1, 0),
    ], // $00 tUp
    [
        m(-1, TILE1, 0),
        m(0, TILE1, 0),
        m(0, TILE1, 1),
        m(1, TILE1, 0),
    ], // $01 tRight
    [
        m(0, TILE1, -1),
        m(0, TILE1, 0),
        m(0, TILE1, 1),
        m(1, TILE1, 0),
    ], // $02 tDown (spawn)
    [
        m(-1, TILE1, 0),
        m(0, TILE1, -1),
        m(0, TILE1, 0),
        m(1, TILE1, 0),
    ], // $03 tLeft
    [
        m(-1, TILE3, 0),
        m(0, TILE3, 0),
        m(1, TILE3, -1),
        m(1, TILE3, 0),
    ], // $04 jLeft
    [
        m(-1, TILE3, -1),
        m(0, TILE3, -1),
        m(0, TILE3, 0),
        m(0, TILE3, 1),
    ], // $05 jUp
    [
        m(-1, TILE3, 0),
        m(-1, TILE3, 1),
        m(0, TILE3, 0),
        m(1, TILE3, 0),
    ], // $06 jRight
    [
        m(0, TILE3, -1),
        m(0, TILE3, 0),
        m(0, TILE3, 1),
        m(1, TILE3, 1),
    ], // $07 jDown (spawn)
    [
        m(0, TILE2, -1),
        m(0, TILE2, 0),
        m(1, TILE2, 0),
        m(1, TILE2, 1),
    ], // $08 zHoriz (spawn)
    [
        m(-1, TILE2, 1),
        m(0, TILE2, 0),
        m(0, TILE2, 1),
        m(1, TILE2, 0),
    ], // $09 zVert
    [
        m(0, TILE1, -1),
        m(0, TILE1, 0),
        m(1, TILE1, -1),
        m(1, TILE1, 0),
    ], // $0A oFixed (spawn)
    [
        m(0, TILE3, 0),
        m(0, TILE3, 1),
        m(1, TILE3, -1),
        m(1, TILE3, 0),
    ], // $0B sHoriz (spawn)
    [
        m(-1, TILE3, 0),
        m(0, TILE3, 0),
        m(0, TILE3, 1),
        m(1, TILE3, 1),
    ], // $0C sVert
    [
        m(-1, TILE2, 0),
        m(0, TILE2, 0),
        m(1, TILE2, 0),
        m(1, TILE2, 1),
    ], // $0D lRight
    [
        m(0, TILE2, -1),
        m(0, TILE2, 0),
        m(0, TILE2, 1),
        m(1, TILE2, -1),
    ], // $0E lDown (spawn)
    [
        m(-1, TILE2, -1),
        m(-1, TILE2, 0),
        m(0, TILE2, 0),
        m(1, TILE2, 0),
    ], // $0F lLeft
    [
        m(-1, TILE2, 1),
        m(0, TILE2, -1),
        m(0, TILE2, 0),
        m(0, TILE2, 1),
    ], // $10 lUp
    [
        m(-2, TILE1, 0),
        m(-1, TILE1, 0),
        m(0, TILE1, 0),
        m(1, TILE1, 0),
    ], // $11 iVert
    [
        m(0, TILE1, -2),
        m(0, TILE1, -1),
        m(0, TILE1, 0),
        m(0, TILE1, 1),
    ], // $12 iHoriz (spawn)
    [
        m(0, TILE_HIDDEN, 0),
        m(0, TILE_HIDDEN, 0),
        m(0, TILE_HIDDEN, 0),
        m(0, TILE_HIDDEN, 0),
    ], // $13 hidden
];

/// `rotationTable` ($88EE): for each orientation id, `[after B, after A]`; the ROM indexes it with
/// `currentPiece * 2`, plus one when A is pressed.
pub const ROTATION_TABLE: [[u8; 2]; 19] = [
    [0x03, 0x01], // tUp -> tLeft (B), tRight (A)
    [0x00, 0x02],
    [0x01, 0x03],
    [0x02, 0x00],
    [0x07, 0x05], // jLeft
    [0x04, 0x06],
    [0x05, 0x07],
    [0x06, 0x04],
    [0x09, 0x09], // zHoriz
    [0x08, 0x08],
    [0x0A, 0x0A], // oFixed
    [0x0C, 0x0C], // sHoriz
    [0x0B, 0x0B],
    [0x10, 0x0E], // lRight
    [0x0D, 0x0F],
    [0x0E, 0x10],
    [0x0F, 0x0D],
    [0x12, 0x12], // iVert
    [0x11, 0x11],
];

/// `framesPerDropTable` ($898E), NTSC: frames per row for levels 0-28; level ≥ 29 drops every frame.
pub const FRAMES_PER_DROP_NTSC: [u8; 30] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    1,
];

/// `framesPerDropTable` of the PAL build (`pal-gravity` in docs/facts.md).
pub const FRAMES_PER_DROP_PAL: [u8; 30] = [
    36, 32, 29, 25, 22, 18, 15, 11, 7, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1,
];

/// `spawnTable` ($994E): the spawn orientation of each piece type T J Z O S L I, plus the unused
/// eighth byte that `pickRandomTetrimino` never reads.
pub const SPAWN_TABLE: [u8; 7] = [0x02, 0x07, 0x08, 0x0A, 0x0B, 0x0E, 0x12];

/// `spawnOrientationFromOrientation` ($9956).
pub const SPAWN_ORIENTATION_FROM_ORIENTATION: [u8; 19] = [
    0x02, 0x02, 0x02, 0x02, 0x07, 0x07, 0x07, 0x07, 0x08, 0x08, 0x0A, 0x0B, 0x0B, 0x0E, 0x0E, 0x0E,
    0x0E, 0x12, 0x12,
];

/// `tetriminoTypeFromOrientation` ($993B): piece type (0 T, 1 J, 2 Z, 3 O, 4 S, 5 L, 6 I).
pub const TETRIMINO_TYPE_FROM_ORIENTATION: [u8; 19] =
    [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 6, 6];

/// `pointsTable` ($9CA5): BCD points for 0-4 lines, added `level + 1` times.
pub const POINTS_TABLE: [u16; 5] = [0x0000, 0x0040, 0x0100, 0x0300, 0x1200];

/// `multBy10Table` ($96D6).
pub const MULT_BY_10: [u8; 20] = [
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190,
];

/// `levelDisplayTable` ($96B8): the level as two BCD digits, levels 0-29.
pub const LEVEL_DISPLAY_TABLE: [u8; 30] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29,
];

/// `rngTable` ($9A0A): what one B-type garbage cell becomes, from `rng_seed & 7`.
pub const TYPE_B_GARBAGE_TILES: [u8; 8] = [
    TILE_EMPTY, TILE1, TILE_EMPTY, TILE2, TILE3, TILE3, TILE_EMPTY, TILE_EMPTY,
];

/// `typeBBlankInitCountByHeightTable` ($9A04): how many cells from the top are cleared, by height.
pub const TYPE_B_BLANK_INIT_COUNT_BY_HEIGHT: [u8; 6] = [0xC8, 0xAA, 0x96, 0x78, 0x64, 0x50];

/// `garbageLines` ($9AC6): garbage sent to the other player in two-player builds.
pub const GARBAGE_LINES: [u8; 5] = [0, 0, 1, 2, 4];

/// `musicSelectionTable` ($829F).
pub const MUSIC_SELECTION_TABLE: [u8; 8] = [0x03, 0x04, 0x05, 0xFF, 0x06, 0x07, 0x08, 0xFF];

/// `defaultHighScoresTable` ($AD67): names (6 letters each, A-type then B-type, 4 rows each),
/// BCD scores, and levels, as written to `highScoreNames` ($0700) on a cold boot.
pub const DEFAULT_HIGH_SCORE_NAMES: [u8; 0x30] = [
    0x08, 0x0F, 0x17, 0x01, 0x12, 0x04, // HOWARD
    0x0F, 0x14, 0x01, 0x13, 0x01, 0x0E, // OTASAN
    0x0C, 0x01, 0x0E, 0x03, 0x05, 0x2B, // LANCE
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x01, 0x0C, 0x05, 0x18, 0x2B, 0x2B, // ALEX
    0x14, 0x0F, 0x0E, 0x19, 0x2B, 0x2B, // TONY
    0x0E, 0x09, 0x0E, 0x14, 0x05, 0x0E, // NINTEN
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
];
/// Default BCD high scores (`highScoreScoresA` $0730, B-type from $073C).
pub const DEFAULT_HIGH_SCORE_SCORES: [u8; 0x18] = [
    0x01, 0x00, 0x00, 0x00, 0x75, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00,
    0x00, // A: 10000 7500 5000
    0x00, 0x20, 0x00, 0x00, 0x10, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
    0x00, // B: 2000 1000 500
];
/// Default high-score levels (`highScoreLevels` $0748).
pub const DEFAULT_HIGH_SCORE_LEVELS: [u8; 8] = [0x09, 0x05, 0x00, 0x00, 0x09, 0x05, 0x00, 0x00];

/// `colorTable` ($984C): the playfield's background palette for levels 0-9 (the game uses
/// `levelNumber mod 10`). Bytes: backdrop, colour 1, colour 2, colour 3, as NES palette indices.
pub const COLOR_TABLE: [[u8; 4]; 10] = [
    [0x0F, 0x30, 0x21, 0x12],
    [0x0F, 0x30, 0x29, 0x1A],
    [0x0F, 0x30, 0x24, 0x14],
    [0x0F, 0x30, 0x2A, 0x12],
    [0x0F, 0x30, 0x2B, 0x15],
    [0x0F, 0x30, 0x22, 0x2B],
    [0x0F, 0x30, 0x00, 0x16],
    [0x0F, 0x30, 0x05, 0x13],
    [0x0F, 0x30, 0x16, 0x12],
    [0x0F, 0x30, 0x27, 0x16],
];
