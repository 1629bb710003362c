//! The typed view of the game: what a player reads off the screen (score, lines, level, the
//! falling piece, the preview, the board), derived from the RAM variables in one place so no user
//! of the engine decodes BCD bytes or orientation ids again.

use crate::engine::{Nes, Wait};
use crate::ram::player_vars::bcd;
use crate::ram::{game_mode, play_state};
use crate::tables::TILE_EMPTY;
use crate::vocabulary::buttons::Buttons;
use crate::vocabulary::piece::{ActivePiece, Orientation, Piece};

/// `gameMode` ($C0): which screen the game is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameMode {
    /// The legal screen.
    Legal,
    /// The title screen.
    Title,
    /// The game-type menu (A-type / B-type, music).
    GameTypeMenu,
    /// The level menu (and the B-type height).
    LevelMenu,
    /// Playing, and the high-score entry that follows a game.
    Play,
    /// The demo.
    Demo,
    /// Starting the demo (one frame).
    StartDemo,
    /// A value the ROM never stores there (only reachable by writing RAM).
    Other(u8),
}

impl GameMode {
    /// The mode for a raw `gameMode` value.
    #[must_use]
    pub const fn from_raw(value: u8) -> GameMode {
        match value {
            game_mode::LEGAL => GameMode::Legal,
            game_mode::TITLE => GameMode::Title,
            game_mode::GAME_TYPE_MENU => GameMode::GameTypeMenu,
            game_mode::LEVEL_MENU => GameMode::LevelMenu,
            game_mode::PLAY => GameMode::Play,
            game_mode::DEMO => GameMode::Demo,
            game_mode::START_DEMO => GameMode::StartDemo,
            other => GameMode::Other(other),
        }
    }
}

/// `playState` ($48 for the active player): where the player's routine is in a piece's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayState {
    /// `playState_unassignOrientationId` (0): the game is over.
    GameOver,
    /// `playState_playerControlsActiveTetrimino` (1): the piece falls under the player's control.
    Active,
    /// `playState_lockTetrimino` (2).
    Lock,
    /// `playState_checkForCompletedRows` (3): one row per frame.
    CheckRows,
    /// The line-clear animation (4), run by the NMI.
    LineClearAnimation,
    /// `playState_updateLinesAndStatistics` (5).
    UpdateLines,
    /// `playState_bTypeGoalCheck` (6).
    BTypeGoalCheck,
    /// `playState_receiveGarbage` (7).
    ReceiveGarbage,
    /// `playState_spawnNextTetrimino` (8): waits for the playfield upload, then spawns.
    Spawn,
    /// `playState_noop` (9).
    Noop,
    /// `playState_updateGameOverCurtain` (10).
    Curtain,
    /// `playState_incrementPlayState` (11).
    IncrementPlayState,
    /// A value past the ROM's table.
    Other(u8),
}

impl PlayState {
    /// The state for a raw `playState` value.
    #[must_use]
    pub const fn from_raw(value: u8) -> PlayState {
        match value {
            play_state::GAME_OVER => PlayState::GameOver,
            play_state::ACTIVE => PlayState::Active,
            play_state::LOCK => PlayState::Lock,
            play_state::CHECK_ROWS => PlayState::CheckRows,
            play_state::LINE_CLEAR_ANIMATION => PlayState::LineClearAnimation,
            play_state::UPDATE_LINES => PlayState::UpdateLines,
            play_state::B_TYPE_GOAL_CHECK => PlayState::BTypeGoalCheck,
            play_state::RECEIVE_GARBAGE => PlayState::ReceiveGarbage,
            play_state::SPAWN => PlayState::Spawn,
            9 => PlayState::Noop,
            play_state::CURTAIN => PlayState::Curtain,
            11 => PlayState::IncrementPlayState,
            other => PlayState::Other(other),
        }
    }
}

/// `gameType` ($C1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameType {
    /// A-type: endless, the level rises every ten lines.
    #[default]
    A,
    /// B-type: 25 lines from a start height.
    B,
}

impl GameType {
    /// The type for a raw `gameType` value (the ROM tests it for zero).
    #[must_use]
    pub const fn from_raw(value: u8) -> GameType {
        if value == 0 { GameType::A } else { GameType::B }
    }

    /// The raw `gameType` value.
    #[must_use]
    pub const fn to_raw(self) -> u8 {
        match self {
            GameType::A => 0,
            GameType::B => 1,
        }
    }
}

/// The tile [`Board::to_page`] puts in a filled cell (one of the ROM's block tiles).
const BLOCK_TILE: u8 = 0x7B;
/// Where row −2 starts in the page: rows −2 and −1 wrap to its last 20 bytes.
const ABOVE_START: usize = 236;

/// The visible 10×20 field as one bit per cell: bit `x` of `rows[y]` is column `x` of row `y`
/// (row 0 at the top). A cell is filled when its tile is below `tileEmpty`, the collision rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// One row per entry, top first; bits 0-9 are the columns.
    pub rows: [u16; 20],
    /// The two rows above the field (−2, then −1), in the same layout: a piece that locks
    /// partly above the field leaves its minos there, out of sight (the page's bytes 236-255),
    /// and the collision test still reads them.
    pub above: [u16; 2],
}

impl Board {
    /// The board of a playfield page.
    #[must_use]
    pub fn from_page(page: &[u8; 256]) -> Board {
        let row = |start: usize| {
            (0..10).fold(0u16, |row, x| {
                row | u16::from(page[start + x] < TILE_EMPTY) << x
            })
        };
        Board {
            rows: std::array::from_fn(|y| row(y * 10)),
            above: [row(ABOVE_START), row(ABOVE_START + 10)],
        }
    }

    /// A playfield page holding this board: a block tile in each filled cell, `tileEmpty` in the
    /// others and in the bytes no row uses. The rules read only filled or not, so they answer on
    /// it as on the game's page.
    #[must_use]
    pub fn to_page(&self) -> [u8; 256] {
        let mut page = [TILE_EMPTY; 256];
        let starts = (0..20)
            .map(|y| y * 10)
            .chain([ABOVE_START, ABOVE_START + 10]);
        for (start, row) in starts.zip(self.rows.iter().chain(&self.above)) {
            for x in 0..10 {
                if row >> x & 1 != 0 {
                    page[start + x] = BLOCK_TILE;
                }
            }
        }
        page
    }

    /// Whether the cell at column `x`, row `y` of the field is filled (outside it: false).
    #[must_use]
    pub fn filled(&self, x: usize, y: usize) -> bool {
        y < 20 && x < 10 && self.rows[y] >> x & 1 != 0
    }

    /// Filled cells of the field.
    #[must_use]
    pub fn cell_count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Height of each column: 20 − the row of its top filled cell, 0 when empty.
    #[must_use]
    pub fn column_heights(&self) -> [u8; 10] {
        let mut heights = [0u8; 10];
        for (x, h) in heights.iter_mut().enumerate() {
            if let Some(y) = (0..20).find(|&y| self.rows[y] >> x & 1 != 0) {
                *h = (20 - y) as u8;
            }
        }
        heights
    }
}

impl std::fmt::Display for Board {
    /// Twenty lines of ten characters, `#` filled and `.` empty.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in self.rows {
            for x in 0..10 {
                f.write_str(if row >> x & 1 != 0 { "#" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl Nes {
    /// Whether the next frame runs the player's controls for the active piece: the game is in
    /// play, the main loop is back at `gameModeState` 2 (the start of a frame of play) and
    /// `playState` is `playState_playerControlsActiveTetrimino`.
    #[must_use]
    pub fn controllable(&self) -> bool {
        self.raw.game_mode == crate::ram::game_mode::PLAY
            && self.raw.game_mode_state == 2
            && self.raw.player1.play_state == crate::ram::play_state::ACTIVE
    }

    /// The score (`score`, BCD, read as decimal; the ROM caps it at 999,999).
    #[must_use]
    pub fn score(&self) -> u32 {
        self.raw.player1.score_decimal()
    }

    /// The score without the ROM's 999,999 cap: every addition the game made, with the digits
    /// the ROM does not have (a playfield extension; the RAM's score stays capped).
    #[must_use]
    pub fn uncapped_score(&self) -> u64 {
        self.score_uncapped.decimal()
    }

    /// Lines cleared (`lines`, BCD: digits past 9 count at face value, as on screen); in B-type,
    /// the lines still to clear.
    #[must_use]
    pub fn lines(&self) -> u32 {
        self.raw.player1.lines_decimal()
    }

    /// The `lines` counter as a count ([`crate::rules::lines_count`]): [`Nes::lines`] up to 999
    /// lines, and past it still the count the level-ups follow.
    #[must_use]
    pub fn line_count(&self) -> u32 {
        crate::rules::lines_count(self.raw.player1.lines)
    }

    /// `levelNumber`: the level being played (it keeps rising past 29 and wraps after 255).
    #[must_use]
    pub fn level(&self) -> u8 {
        self.raw.player1.level_number
    }

    /// `startLevel`: the level chosen on the level menu (0-19).
    #[must_use]
    pub fn start_level(&self) -> u8 {
        self.raw.player1.start_level
    }

    /// The screen the game is on.
    #[must_use]
    pub fn game_mode(&self) -> GameMode {
        GameMode::from_raw(self.raw.game_mode)
    }

    /// Where player 1's routine is in a piece's life.
    #[must_use]
    pub fn play_state(&self) -> PlayState {
        PlayState::from_raw(self.raw.player1.play_state)
    }

    /// A-type or B-type.
    #[must_use]
    pub fn game_type(&self) -> GameType {
        GameType::from_raw(self.raw.game_type)
    }

    /// True while a game (or the demo) is running: on the play screen, not yet over.
    #[must_use]
    pub fn in_game(&self) -> bool {
        matches!(self.game_mode(), GameMode::Play | GameMode::Demo)
            && self.raw.player1.play_state != play_state::GAME_OVER
    }

    /// True while the game is paused (Start during play).
    #[must_use]
    pub fn paused(&self) -> bool {
        self.wait == Wait::Pause
    }

    /// The falling piece while the player controls it (`playState` 1 on the play screen).
    #[must_use]
    pub fn active_piece(&self) -> Option<ActivePiece> {
        let p = &self.raw.player1;
        if !matches!(self.game_mode(), GameMode::Play | GameMode::Demo)
            || p.play_state != play_state::ACTIVE
        {
            return None;
        }
        Some(ActivePiece {
            orientation: Orientation::from_id(p.current_piece)?,
            x: p.tetrimino_x,
            y: p.tetrimino_y,
        })
    }

    /// The movement state (position, orientation, DAS and fall timers) of the piece
    /// [`Nes::last_piece`] gives: what the movement rule
    /// ([`crate::rules::PieceState::control_frame`]) and the AI's searches start from, and
    /// after a lock where the piece locked.
    #[must_use]
    pub fn piece_state(&self) -> Option<crate::rules::PieceState> {
        let piece = self.last_piece()?;
        let p = &self.raw.player1;
        Some(crate::rules::PieceState {
            x: piece.x,
            y: piece.y,
            orientation: piece.orientation,
            autorepeat_x: p.autorepeat_x,
            fall_timer: p.fall_timer,
            autorepeat_y: p.autorepeat_y,
        })
    }

    /// The piece `tetriminoX`, `tetriminoY` and `currentPiece` describe, whatever the play
    /// state: the falling piece, or after a lock the piece that locked (until the next spawn);
    /// `None` while the orientation is hidden (the game over).
    #[must_use]
    pub fn last_piece(&self) -> Option<ActivePiece> {
        let p = &self.raw.player1;
        Some(ActivePiece {
            orientation: Orientation::from_id(p.current_piece)?,
            x: p.tetrimino_x,
            y: p.tetrimino_y,
        })
    }

    /// The preview piece (`nextPiece`), whether or not the preview is shown.
    #[must_use]
    pub fn next_piece(&self) -> Option<Piece> {
        Piece::from_orientation_id(self.raw.next_piece)
    }

    /// Whether the preview is shown (`displayNextPiece` = 0; Select toggles it).
    #[must_use]
    pub fn preview_shown(&self) -> bool {
        self.raw.display_next_piece == 0
    }

    /// The top score the game shows: the first entry of the high-score table of the current game
    /// type (`highScoreScoresA` or `highScoreScoresB`, BCD, high byte first).
    #[must_use]
    pub fn top_score(&self) -> u32 {
        let start = if self.game_type() == GameType::B {
            12
        } else {
            0
        };
        self.raw.high_score_scores[start..start + 3]
            .iter()
            .fold(0, |score, &b| score * 100 + bcd(b))
    }

    /// Pieces dealt this game, per type in the ROM's order T J Z O S L I (`statsByType`, BCD).
    #[must_use]
    pub fn piece_counts(&self) -> [u32; 7] {
        std::array::from_fn(|i| {
            bcd(self.raw.stats_by_type[2 * i + 1]) * 100 + bcd(self.raw.stats_by_type[2 * i])
        })
    }

    /// The visible field as bits (the active piece is not in it until it locks).
    #[must_use]
    pub fn board(&self) -> Board {
        Board::from_page(&self.raw.playfield)
    }

    /// The whole playfield page ($0400-$04FF) as the ROM keeps it: cells 0-199 are the field,
    /// one tile byte each; the rest reads as `tileEmpty` (the rows above the field).
    #[must_use]
    pub fn playfield_page(&self) -> &[u8; 256] {
        &self.raw.playfield
    }

    /// What the last frame did (the value [`Nes::step`] returned).
    #[must_use]
    pub fn last_events(&self) -> crate::Events {
        self.events
    }

    /// The gamepad buttons held on the last frame (`heldButtons_player1`).
    #[must_use]
    pub fn held_buttons(&self) -> Buttons {
        Buttons::from_bits_retain(self.raw.held_buttons_player1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_view_follows_a_game_from_power_on() {
        let mut nes = Nes::power_on();
        assert_eq!(nes.game_mode(), GameMode::Legal);
        // Start through the title, the game-type menu and the level menu.
        let mut frames = 0;
        while nes.active_piece().is_none() {
            let press = frames % 20 == 0 && nes.game_mode() != GameMode::Play;
            nes.step(if press { Buttons::START } else { Buttons::NONE });
            frames += 1;
            assert!(frames < 2_000, "no piece after 2000 frames");
        }
        assert_eq!(nes.game_mode(), GameMode::Play);
        assert_eq!(nes.play_state(), PlayState::Active);
        assert_eq!(nes.game_type(), GameType::A);
        assert_eq!((nes.score(), nes.lines(), nes.level()), (0, 0, 0));
        let piece = nes.active_piece().unwrap();
        assert_eq!((piece.x, piece.y), (5, 0));
        assert_eq!(piece.orientation, piece.piece().spawn_orientation());
        assert!(nes.next_piece().is_some());
        assert_eq!(nes.piece_counts().iter().sum::<u32>(), 1);
        assert_eq!(nes.board().cell_count(), 0);
        assert!(!nes.paused());
        assert!(nes.in_game());
    }

    #[test]
    fn a_board_keeps_what_the_collision_test_reads_of_its_page() {
        // Blocks in the field, in the two rows above it (the page's last 20 bytes) and bytes
        // that are no row (200-235), which no rule reads.
        let mut page = [TILE_EMPTY; 256];
        for (i, cell) in page.iter_mut().enumerate() {
            if i % 7 == 0 || i % 11 == 3 {
                *cell = if i % 2 == 0 { BLOCK_TILE } else { 0x7C };
            }
        }
        let board = Board::from_page(&page);
        assert_ne!(board.above, [0, 0]);
        let back = board.to_page();
        assert_eq!(Board::from_page(&back), board);
        // `tetriminoY` starts at 0 and only grows, so the minos reach rows −2 to 19.
        for orientation in 0..19 {
            for y in 0..21u8 {
                for x in 0..12u8 {
                    assert_eq!(
                        crate::rules::is_position_valid(&back, x, y, orientation),
                        crate::rules::is_position_valid(&page, x, y, orientation),
                        "orientation {orientation} at ({x}, {y})"
                    );
                }
            }
        }
    }
}
