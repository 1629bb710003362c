//! One NES Tetris screen as the page draws it, read from the engine's RAM: the playfield's tiles,
//! the falling piece (a sprite on the NES, so not in the playfield), the preview, the statistics,
//! score, lines, level and the level's colours (`colorTable`, rendered through an NES palette).

use axum::Json;
use playfield_nes::tables::{
    ORIENTATION_HIDDEN, ORIENTATIONS, SPAWN_TABLE, TETRIMINO_TYPE_FROM_ORIENTATION, TILE_EMPTY,
    TILE1, TILE2, TILE3,
};
use playfield_nes::{Nes, bcd, game_mode, play_state};
use serde::Serialize;

/// `colorTable` ($984C): the playfield's background palette for levels 0-9 (the game uses
/// `levelNumber mod 10`): backdrop, colour 1, colour 2, colour 3.
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

/// The 2C02's 64 colours as sRGB. The NES makes composite video, not RGB, so every table is an
/// approximation; this is a common, neutral one (the "2C02" palette of several emulators).
const NES_RGB: [u32; 64] = [
    0x545454, 0x001E74, 0x081090, 0x300088, 0x440064, 0x5C0030, 0x540400, 0x3C1800, 0x202A00,
    0x083A00, 0x004000, 0x003C00, 0x00323C, 0x000000, 0x000000, 0x000000, 0x989698, 0x084CC4,
    0x3032EC, 0x5C1EE4, 0x8814B0, 0xA01464, 0x982220, 0x783C00, 0x545A00, 0x287200, 0x087C00,
    0x007628, 0x006678, 0x000000, 0x000000, 0x000000, 0xECEEEC, 0x4C9AEC, 0x787CEC, 0xB062EC,
    0xE454EC, 0xEC58B4, 0xEC6A64, 0xD48820, 0xA0AA00, 0x74C400, 0x4CD020, 0x38CC6C, 0x38B4CC,
    0x3C3C3C, 0x000000, 0x000000, 0xECEEEC, 0xA8CCEC, 0xBCBCEC, 0xD4B2EC, 0xECAEEC, 0xECAED4,
    0xECB4B0, 0xE4C490, 0xCCD278, 0xB4DE78, 0xA8E290, 0x98E2B4, 0xA0D6E4, 0xA0A2A0, 0x000000,
    0x000000,
];

/// The curtain tile the game-over animation fills the playfield with.
const TILE_CURTAIN: u8 = 0x4F;

/// The piece types in the order of `statsByType`.
pub const PIECE_NAMES: [char; 7] = ['T', 'J', 'Z', 'O', 'S', 'L', 'I'];

/// CSS colour `#rrggbb` of NES palette entry `index` (low 6 bits, as on the PPU).
#[must_use]
pub fn css_color(index: u8) -> String {
    format!("#{:06x}", NES_RGB[usize::from(index & 0x3F)])
}

/// The four colours of the playfield at `level`.
#[must_use]
pub fn level_colors(level: u8) -> [String; 4] {
    COLOR_TABLE[usize::from(level % 10)].map(css_color)
}

/// The kind of tile the page draws: 0 empty, 1 `$7B` (white with a rim), 2 `$7C` (colour 2),
/// 3 `$7D` (colour 3), 4 the game-over curtain.
#[must_use]
pub fn tile_kind(tile: u8) -> u8 {
    match tile {
        TILE1 => 1,
        TILE2 => 2,
        TILE3 => 3,
        TILE_CURTAIN => 4,
        _ => 0,
    }
}

/// The four cells (x, y) of orientation `orientation` placed at (`x`, `y`).
#[must_use]
pub fn orientation_cells(orientation: u8, x: i16, y: i16) -> [[i16; 2]; 4] {
    ORIENTATIONS[usize::from(orientation.min(ORIENTATION_HIDDEN))]
        .map(|m| [x + i16::from(m.dx), y + i16::from(m.dy)])
}

/// One screen.
#[derive(Clone, Debug, Serialize)]
pub struct NesFrame {
    /// Frames since power-on.
    pub frame: u64,
    /// `gameMode` by name: legal, title, game type menu, level menu, play, demo.
    pub mode: &'static str,
    /// `levelNumber`.
    pub level: u8,
    /// Score (decimal).
    pub score: u32,
    /// Lines (decimal).
    pub lines: u32,
    /// The top score of the high-score table.
    pub top_score: u32,
    /// Pieces of each type spawned so far (T J Z O S L I).
    pub stats: [u32; 7],
    /// Backdrop and colours 1-3 of the level.
    pub colors: [String; 4],
    /// 200 digits, row by row from the top: [`tile_kind`] of each playfield cell.
    pub board: String,
    /// The falling piece's cells and tile kind, while the game shows it.
    pub piece: Option<[[i16; 2]; 4]>,
    /// Tile kind of the falling piece.
    pub piece_tile: u8,
    /// The preview piece's type (index into T J Z O S L I).
    pub next: Option<u8>,
    /// Where the player means to lock the current piece, to outline.
    pub target: Option<[[i16; 2]; 4]>,
    /// The game is paused.
    pub paused: bool,
    /// The game is over (curtain, or a piece spawned on the stack).
    pub game_over: bool,
}

fn mode_name(mode: u8) -> &'static str {
    match mode {
        game_mode::LEGAL => "legal screen",
        game_mode::TITLE => "title screen",
        game_mode::GAME_TYPE_MENU => "game type menu",
        game_mode::LEVEL_MENU => "level menu",
        game_mode::PLAY => "play",
        game_mode::DEMO | game_mode::START_DEMO => "demo",
        _ => "unknown",
    }
}

/// Pieces of type `t` (0-6) spawned so far, from the BCD statistics.
fn piece_count(nes: &Nes, t: usize) -> u32 {
    nes.piece_counts()[t]
}

impl NesFrame {
    /// The screen of `nes`, with `target` (x, y, orientation) outlined.
    #[must_use]
    pub fn from_nes(nes: &Nes, target: Option<(u8, u8, u8)>) -> Self {
        let p = &nes.raw.player;
        let in_game = matches!(nes.raw.game_mode, game_mode::PLAY | game_mode::DEMO);
        let showing = in_game
            && nes.raw.render_mode == 3
            && p.play_state == play_state::ACTIVE
            && p.current_piece < ORIENTATION_HIDDEN;
        let piece = showing.then(|| {
            orientation_cells(
                p.current_piece,
                i16::from(p.tetrimino_x),
                i16::from(p.tetrimino_y),
            )
        });
        let piece_tile = if showing {
            tile_kind(ORIENTATIONS[usize::from(p.current_piece)][0].tile)
        } else {
            0
        };
        let board = if in_game {
            nes.raw.playfield[..200]
                .iter()
                .map(|&t| char::from(b'0' + tile_kind(t)))
                .collect()
        } else {
            "0".repeat(200)
        };
        let next = (in_game && nes.raw.next_piece < ORIENTATION_HIDDEN)
            .then(|| TETRIMINO_TYPE_FROM_ORIENTATION[usize::from(nes.raw.next_piece)]);
        let start = if nes.raw.game_type != 0 { 12 } else { 0 };
        let top_score = nes.raw.high_score_scores[start..start + 3]
            .iter()
            .fold(0, |acc, &x| acc * 100 + bcd(x));
        NesFrame {
            frame: nes.frame(),
            mode: mode_name(nes.raw.game_mode),
            level: p.level_number,
            score: p.score_decimal(),
            lines: p.lines_decimal(),
            top_score,
            stats: std::array::from_fn(|t| piece_count(nes, t)),
            colors: level_colors(p.level_number),
            board,
            piece,
            piece_tile,
            next,
            target: target
                .filter(|_| showing)
                .map(|(x, y, o)| orientation_cells(o, i16::from(x), i16::from(y))),
            paused: nes.raw.game_mode == game_mode::PLAY && nes.raw.render_mode == 0,
            game_over: in_game
                && matches!(p.play_state, play_state::GAME_OVER | play_state::CURTAIN),
        }
    }
}

/// A piece type's look: its spawn orientation's cells around (0, 0) and its tile kind.
#[derive(Clone, Debug, Serialize)]
pub struct PieceLook {
    /// T J Z O S L I.
    pub name: char,
    /// Cells (dx, dy) of the spawn orientation.
    pub cells: [[i16; 2]; 4],
    /// [`tile_kind`] of its minos.
    pub tile: u8,
}

/// Every piece type's look, from the ROM's tables (the page draws the preview and statistics
/// with them).
#[must_use]
pub fn piece_looks() -> Vec<PieceLook> {
    SPAWN_TABLE
        .iter()
        .zip(PIECE_NAMES)
        .map(|(&o, name)| PieceLook {
            name,
            cells: orientation_cells(o, 0, 0),
            tile: tile_kind(ORIENTATIONS[usize::from(o)][0].tile),
        })
        .collect()
}

/// `GET /api/nes/pieces`.
pub async fn pieces() -> Json<Vec<PieceLook>> {
    Json(piece_looks())
}

/// True when a playfield byte holds a block (anything but the empty tile).
#[must_use]
pub fn is_block(tile: u8) -> bool {
    tile != TILE_EMPTY
}
