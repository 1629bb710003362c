//! One NES Tetris screen as the page draws it, read from the engine's typed view: the playfield's
//! tiles, the falling piece (a sprite on the NES, so not in the playfield), the preview, the
//! statistics, score, lines, level and the level's colours (`colorTable`, rendered through an NES
//! palette).

use axum::Json;
use playfield_nes::palette::{level_palette, nes_rgb};
use playfield_nes::tables::{
    ORIENTATION_HIDDEN, ORIENTATIONS, SPAWN_TABLE, TILE_EMPTY, TILE1, TILE2, TILE3,
};
use playfield_nes::{GameMode, GameType, Nes, PlayState, RenderMode};
use serde::Serialize;

/// The curtain tile the game-over animation fills the playfield with.
const TILE_CURTAIN: u8 = 0x4F;

/// The piece types in the order of `statsByType`.
pub const PIECE_NAMES: [char; 7] = ['T', 'J', 'Z', 'O', 'S', 'L', 'I'];

/// CSS colour `#rrggbb` of NES palette entry `index` (low 6 bits, as on the PPU).
#[must_use]
pub fn css_color(index: u8) -> String {
    let [r, g, b] = nes_rgb(index);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The four colours of the playfield at `level`.
#[must_use]
pub fn level_colors(level: u8) -> [String; 4] {
    level_palette(level).map(css_color)
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

/// The first orientation id of each piece type (T J Z O S L I) and how many it has: the ROM
/// numbers a type's orientations together, A (clockwise) stepping to the next.
const ORIENTATION_GROUPS: [(u8, u8); 7] =
    [(0, 4), (4, 4), (8, 2), (10, 1), (11, 2), (13, 4), (17, 2)];

/// An orientation id by piece letter and clockwise turns from the spawn orientation: `T 0`,
/// `T R` (one turn), `T 2`, `T L` (three turns, one counter-clockwise).
#[must_use]
pub fn orientation_name(orientation: u8) -> String {
    let Some(kind) = ORIENTATION_GROUPS
        .iter()
        .position(|&(first, n)| (first..first + n).contains(&orientation))
    else {
        return "hidden".to_owned();
    };
    let (_, n) = ORIENTATION_GROUPS[kind];
    let spawn = SPAWN_TABLE[kind];
    let turns = (i16::from(orientation) - i16::from(spawn)).rem_euclid(i16::from(n));
    let turn = ["0", "R", "2", "L"][turns as usize];
    format!("{} {turn}", PIECE_NAMES[kind])
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
    /// `A-TYPE` or `B-TYPE`, for the box the game shows.
    pub game_type: &'static str,
    /// The screen flashes white: a tetris's line-clear animation, on every fourth frame as the
    /// game does it.
    pub flash: bool,
}

fn mode_name(mode: GameMode) -> &'static str {
    match mode {
        GameMode::Legal => "legal screen",
        GameMode::Title => "title screen",
        GameMode::GameTypeMenu => "game type menu",
        GameMode::LevelMenu => "level menu",
        GameMode::Play => "play",
        GameMode::Demo | GameMode::StartDemo => "demo",
        GameMode::Other(_) => "unknown",
    }
}

impl NesFrame {
    /// The screen of `nes`, with `target` (x, y, orientation) outlined.
    #[must_use]
    pub fn from_nes(nes: &Nes, target: Option<(u8, u8, u8)>) -> Self {
        let in_game = matches!(nes.game_mode(), GameMode::Play | GameMode::Demo);
        // The piece's sprite is drawn only by the play screen's render, so not while paused.
        let falling = nes
            .active_piece()
            .filter(|_| nes.render_mode() == RenderMode::PlayAndDemo);
        let piece =
            falling.map(|p| orientation_cells(p.orientation.id(), i16::from(p.x), i16::from(p.y)));
        let piece_tile = falling.map_or(0, |p| {
            tile_kind(ORIENTATIONS[usize::from(p.orientation.id())][0].tile)
        });
        let mut board: String = if in_game {
            nes.playfield_page()[..200]
                .iter()
                .map(|&t| char::from(b'0' + tile_kind(t)))
                .collect()
        } else {
            "0".repeat(200)
        };
        let line_clear = nes.line_clear_animation();
        if let Some(animation) = line_clear {
            board = line_clear_picture(&board, animation.rows, animation.step);
        }
        let next = nes
            .next_piece()
            .filter(|_| in_game)
            .map(|piece| piece.index() as u8);
        NesFrame {
            frame: nes.frame(),
            mode: mode_name(nes.game_mode()),
            level: nes.level(),
            score: nes.score(),
            lines: nes.lines(),
            top_score: nes.top_score(),
            stats: nes.piece_counts(),
            colors: level_colors(nes.level()),
            board,
            piece,
            piece_tile,
            next,
            target: target
                .filter(|_| falling.is_some())
                .map(|(x, y, o)| orientation_cells(o, i16::from(x), i16::from(y))),
            paused: nes.game_mode() == GameMode::Play
                && nes.render_mode() == RenderMode::LegalAndTitle,
            game_over: in_game
                && matches!(nes.play_state(), PlayState::GameOver | PlayState::Curtain),
            game_type: match nes.game_type() {
                GameType::A => "A-TYPE",
                GameType::B => "B-TYPE",
            },
            flash: line_clear.is_some_and(|animation| animation.lines == 4)
                && nes.frame_counter() & 3 == 0,
        }
    }
}

/// The picture during the line-clear animation. The game has already removed the full rows from
/// the playfield in RAM, while the screen still shows them, emptied from the middle out, two
/// cells every fourth frame (`rowY` counts the steps): the rows are put back here, as blocks of
/// the first kind (the colours of their cells are no longer in RAM), with `rowY` pairs of
/// middle cells emptied.
fn line_clear_picture(board: &str, completed: [u8; 4], row_y: u8) -> String {
    let rows: Vec<usize> = completed
        .iter()
        .filter(|&&r| r != 0 && r < 20)
        .map(|&r| usize::from(r))
        .collect();
    let now: Vec<&str> = (0..20).map(|y| &board[y * 10..y * 10 + 10]).collect();
    let mut shown = vec![String::from("0000000000"); 20];
    let mut source = 20usize;
    for y in (0..20).rev() {
        if rows.contains(&y) {
            let emptied = usize::from(row_y.min(5));
            shown[y] = (0..10)
                .map(|x| {
                    if (5 - emptied..5 + emptied).contains(&x) {
                        '0'
                    } else {
                        '1'
                    }
                })
                .collect();
        } else if source > 0 {
            source -= 1;
            shown[y] = now[source].to_owned();
        }
    }
    shown.concat()
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

/// `GET /api/nes/reference`: BetaTetris hybrid v0.1's published mean score at 130, 230 and 330
/// lines (its benchmark: start level 18, 30 Hz, an 18-frame reaction), the curve the page draws
/// beside a game's score by lines.
pub async fn reference() -> Json<serde_json::Value> {
    let mut points = vec![[0.0, 0.0]];
    points.extend(
        playfield_ai::nes::bench::BETATETRIS_SCORE_AT_LINES
            .iter()
            .map(|&(lines, score)| [f64::from(lines), score]),
    );
    Json(serde_json::json!({
        "name": "BetaTetris v0.1 (mean, level 18, 30 Hz)",
        "score_by_lines": points,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_clear_picture_puts_the_rows_back_and_empties_them_from_the_middle() {
        // After a single on row 19 was cleared, RAM holds the stack moved down one row.
        let mut now = "0".repeat(190);
        now.push_str("2200000033");
        let shown = line_clear_picture(&now, [19, 0, 0, 0], 2);
        assert_eq!(
            &shown[180..190],
            "2200000033",
            "the row above, back in its place"
        );
        assert_eq!(
            &shown[190..200],
            "1110000111",
            "two steps: four middle cells emptied"
        );
        assert_eq!(&shown[..180], "0".repeat(180));
    }

    #[test]
    fn orientations_are_named_by_letter_and_turns_from_spawn() {
        assert_eq!(orientation_name(SPAWN_TABLE[0]), "T 0");
        assert_eq!(orientation_name(3), "T R");
        assert_eq!(orientation_name(0), "T 2");
        assert_eq!(orientation_name(17), "I R");
        assert_eq!(orientation_name(10), "O 0");
    }
}
