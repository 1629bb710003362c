//! The typed view of the game: what a player reads off the screen (score, lines, level, the
//! falling piece, the preview, the board), derived from the RAM variables in one place so no user
//! of the engine decodes BCD bytes or orientation ids again.
//!
//! The player's variables are read from player 1's block (`player1_*`, $60), the one
//! `render_mode_play_and_demo` draws the counters and the line-clear animation from. Between
//! frames the working copy at $40 (`tetriminoX` ...) can differ from it: in the first frames of a
//! game, where only player 1's block is set up yet (the working copy still holds the last game),
//! and at the end of a frame that outlasted its NMI, where the working copy is ahead.

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

impl GameMode {
    /// The raw `gameMode` value (the numbers the ROM stores and tools print).
    #[must_use]
    pub const fn to_raw(self) -> u8 {
        match self {
            GameMode::Legal => game_mode::LEGAL,
            GameMode::Title => game_mode::TITLE,
            GameMode::GameTypeMenu => game_mode::GAME_TYPE_MENU,
            GameMode::LevelMenu => game_mode::LEVEL_MENU,
            GameMode::Play => game_mode::PLAY,
            GameMode::Demo => game_mode::DEMO,
            GameMode::StartDemo => game_mode::START_DEMO,
            GameMode::Other(value) => value,
        }
    }
}

impl PlayState {
    /// The raw `playState` value (the numbers the ROM stores and tools print).
    #[must_use]
    pub const fn to_raw(self) -> u8 {
        match self {
            PlayState::GameOver => play_state::GAME_OVER,
            PlayState::Active => play_state::ACTIVE,
            PlayState::Lock => play_state::LOCK,
            PlayState::CheckRows => play_state::CHECK_ROWS,
            PlayState::LineClearAnimation => play_state::LINE_CLEAR_ANIMATION,
            PlayState::UpdateLines => play_state::UPDATE_LINES,
            PlayState::BTypeGoalCheck => play_state::B_TYPE_GOAL_CHECK,
            PlayState::ReceiveGarbage => play_state::RECEIVE_GARBAGE,
            PlayState::Spawn => play_state::SPAWN,
            PlayState::Noop => 9,
            PlayState::Curtain => play_state::CURTAIN,
            PlayState::IncrementPlayState => 11,
            PlayState::Other(value) => value,
        }
    }
}

/// `renderMode` ($BD): what the NMI's `render` draws this frame, which tells the screen being
/// shown apart from the game mode (the pause and the high-score entry are on the play mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RenderMode {
    /// `render_mode_legal_and_title_screens` (0): the legal and title screens; on the play
    /// screen, the pause (the picture stays, the piece is hidden and PAUSE shown).
    LegalAndTitle,
    /// `render_mode_menu_screens` (1): the game-type and level menus.
    Menus,
    /// `render_mode_congratulations_screen` (2): the high-score entry after a game.
    Congratulations,
    /// `render_mode_play_and_demo` (3): the playfield, the falling piece, the counters.
    PlayAndDemo,
    /// `render_mode_ending_animation` (4): the type-A and type-B endings.
    EndingAnimation,
    /// A value past the ROM's table (only reachable by writing RAM).
    Other(u8),
}

impl RenderMode {
    /// The mode for a raw `renderMode` value.
    #[must_use]
    pub const fn from_raw(value: u8) -> RenderMode {
        match value {
            0 => RenderMode::LegalAndTitle,
            1 => RenderMode::Menus,
            2 => RenderMode::Congratulations,
            3 => RenderMode::PlayAndDemo,
            4 => RenderMode::EndingAnimation,
            other => RenderMode::Other(other),
        }
    }

    /// The raw `renderMode` value.
    #[must_use]
    pub const fn to_raw(self) -> u8 {
        match self {
            RenderMode::LegalAndTitle => 0,
            RenderMode::Menus => 1,
            RenderMode::Congratulations => 2,
            RenderMode::PlayAndDemo => 3,
            RenderMode::EndingAnimation => 4,
            RenderMode::Other(value) => value,
        }
    }
}

/// `musicType` ($C2): the music chosen on the game-type menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MusicType {
    /// MUSIC 1 (0).
    Music1,
    /// MUSIC 2 (1).
    Music2,
    /// MUSIC 3 (2).
    Music3,
    /// OFF (3).
    Off,
    /// A value the menu never stores (only reachable by writing RAM).
    Other(u8),
}

impl MusicType {
    /// The music for a raw `musicType` value.
    #[must_use]
    pub const fn from_raw(value: u8) -> MusicType {
        match value {
            0 => MusicType::Music1,
            1 => MusicType::Music2,
            2 => MusicType::Music3,
            3 => MusicType::Off,
            other => MusicType::Other(other),
        }
    }

    /// The raw `musicType` value.
    #[must_use]
    pub const fn to_raw(self) -> u8 {
        match self {
            MusicType::Music1 => 0,
            MusicType::Music2 => 1,
            MusicType::Music3 => 2,
            MusicType::Off => 3,
            MusicType::Other(value) => value,
        }
    }

    /// The number the menu shows (1-3); `None` when the music is off.
    #[must_use]
    pub const fn number(self) -> Option<u8> {
        match self {
            MusicType::Music1 => Some(1),
            MusicType::Music2 => Some(2),
            MusicType::Music3 => Some(3),
            MusicType::Off | MusicType::Other(_) => None,
        }
    }
}

/// The line-clear animation in progress (`playState` 4, run by the NMI): the rows the game has
/// already taken out of the playfield in RAM, which the screen still shows being emptied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineClearAnimation {
    /// `completedRow`: the rows being cleared (0-19); `checkForCompletedRows` writes 0 for
    /// each of the four rows it checked that was not full.
    pub rows: [u8; 4],
    /// `rowY`: how many column pairs, from the middle out, have been emptied (one more every
    /// fourth frame, up to 5).
    pub step: u8,
    /// `completedLines`: how many lines clear (4: a Tetris, whose screen flashes).
    pub lines: u8,
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

    /// What the NMI draws (`renderMode`): tells the pause, the high-score entry and the
    /// endings apart from play on the play screen.
    #[must_use]
    pub fn render_mode(&self) -> RenderMode {
        RenderMode::from_raw(self.raw.render_mode)
    }

    /// The music chosen on the game-type menu (`musicType`).
    #[must_use]
    pub fn music_type(&self) -> MusicType {
        MusicType::from_raw(self.raw.music_type)
    }

    /// `frameCounter`: counts the frames the main loop has run since power-on (the line-clear
    /// animation and the Tetris flash step on it every fourth frame); wraps after 65,535.
    #[must_use]
    pub fn frame_counter(&self) -> u16 {
        self.raw.frame_counter
    }

    /// `rng_seed`: the random generator's 16-bit state (`$17 << 8 | $18`).
    #[must_use]
    pub fn rng_seed(&self) -> u16 {
        self.raw.rng_seed
    }

    /// The preview's orientation (`nextPiece`, an orientation id: the next piece's spawn
    /// orientation), whether or not the preview is shown; `None` for an id past the 19
    /// orientations.
    #[must_use]
    pub fn next_orientation(&self) -> Option<Orientation> {
        Orientation::from_id(self.raw.next_piece)
    }

    /// `tetriminoX` and `tetriminoY`, whatever the play state: [`Nes::last_piece`]'s column
    /// and row, and after a game over still those of the last piece.
    #[must_use]
    pub fn piece_position(&self) -> (u8, u8) {
        let p = &self.raw.player1;
        (p.tetrimino_x, p.tetrimino_y)
    }

    /// `autorepeatX`: the DAS counter (a held direction shifts the piece when it reaches the
    /// region's reset value).
    #[must_use]
    pub fn das_counter(&self) -> u8 {
        self.raw.player1.autorepeat_x
    }

    /// `fallTimer`: frames since the piece last fell a row.
    #[must_use]
    pub fn fall_timer(&self) -> u8 {
        self.raw.player1.fall_timer
    }

    /// `autorepeatY`: the soft-drop counter, as the ROM keeps it; read as signed, it is negative
    /// during the opening delay of a game's first piece.
    #[must_use]
    pub fn soft_drop_counter(&self) -> u8 {
        self.raw.player1.autorepeat_y
    }

    /// `holdDownPoints`: rows soft-dropped by the falling piece, the push-down points its lock
    /// adds.
    #[must_use]
    pub fn push_down_points(&self) -> u8 {
        self.raw.player1.hold_down_points
    }

    /// The line-clear animation, while it runs (`playState` 4 on the play or demo screen).
    #[must_use]
    pub fn line_clear_animation(&self) -> Option<LineClearAnimation> {
        let p = &self.raw.player1;
        (matches!(self.game_mode(), GameMode::Play | GameMode::Demo)
            && p.play_state == play_state::LINE_CLEAR_ANIMATION)
            .then_some(LineClearAnimation {
                rows: p.completed_row,
                step: p.row_y,
                lines: p.completed_lines,
            })
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

    /// From power-on to the first piece under control, pressing Start every 20 frames through
    /// the title, the game-type menu and the level menu; `seen` sees the state after each frame.
    fn first_piece_seeing(mut seen: impl FnMut(&Nes)) -> Nes {
        let mut nes = Nes::power_on();
        let mut frames = 0;
        while nes.active_piece().is_none() {
            let press = frames % 20 == 0 && nes.game_mode() != GameMode::Play;
            nes.step(if press { Buttons::START } else { Buttons::NONE });
            seen(&nes);
            frames += 1;
            assert!(frames < 2_000, "no piece after 2000 frames");
        }
        nes
    }

    /// [`first_piece_seeing`] seeing nothing.
    fn first_piece() -> Nes {
        first_piece_seeing(|_| {})
    }

    #[test]
    fn the_typed_view_follows_a_game_from_power_on() {
        assert_eq!(Nes::power_on().game_mode(), GameMode::Legal);
        let nes = first_piece();
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
    fn every_code_reads_back_as_the_byte_it_came_from() {
        for value in 0..=u8::MAX {
            assert_eq!(GameMode::from_raw(value).to_raw(), value);
            assert_eq!(PlayState::from_raw(value).to_raw(), value);
            assert_eq!(RenderMode::from_raw(value).to_raw(), value);
            assert_eq!(MusicType::from_raw(value).to_raw(), value);
        }
        assert_eq!(RenderMode::from_raw(3), RenderMode::PlayAndDemo);
        assert_eq!(MusicType::from_raw(3).number(), None);
        assert_eq!(MusicType::from_raw(2).number(), Some(3));
    }

    #[test]
    fn the_screen_being_drawn_follows_the_menus_play_and_the_pause() {
        let mut seen = Vec::new();
        let mut nes = first_piece_seeing(|nes| {
            if seen.last() != Some(&nes.render_mode()) {
                seen.push(nes.render_mode());
            }
        });
        assert_eq!(
            seen,
            [
                RenderMode::LegalAndTitle,
                RenderMode::Menus,
                RenderMode::PlayAndDemo
            ]
        );
        // The menus were passed with Start alone: the first music.
        assert_eq!(nes.music_type(), MusicType::Music1);
        let counter = nes.frame_counter();
        nes.step(Buttons::NONE);
        assert_eq!(nes.frame_counter(), counter.wrapping_add(1));
        // Start pauses: the play screen's render stops, the piece stays where it was.
        nes.step(Buttons::START);
        assert!(nes.paused());
        assert_eq!(nes.render_mode(), RenderMode::LegalAndTitle);
        assert_eq!(nes.game_mode(), GameMode::Play);
    }

    #[test]
    fn a_single_runs_the_line_clear_animation_on_its_row() {
        let mut nes = first_piece();
        let piece = nes.active_piece().unwrap();
        // Row 19 full but under the piece's lowest minos, which a straight drop fills.
        let lowest = piece.cells().iter().map(|&(_, y)| y).max().unwrap();
        let drop = 19 - lowest;
        let landing: Vec<i8> = piece
            .cells()
            .iter()
            .filter(|&&(_, y)| y + drop == 19)
            .map(|&(x, _)| x)
            .collect();
        for x in 0..10i8 {
            if !landing.contains(&x) {
                nes.raw_mut().playfield[190 + x as usize] = BLOCK_TILE;
            }
        }
        assert_eq!(nes.line_clear_animation(), None);
        let mut steps = Vec::new();
        for _ in 0..200 {
            nes.step(Buttons::DOWN);
            match nes.line_clear_animation() {
                Some(animation) => {
                    assert_eq!(nes.play_state(), PlayState::LineClearAnimation);
                    assert_eq!(animation.lines, 1);
                    assert_eq!(animation.rows.iter().filter(|&&row| row == 19).count(), 1);
                    steps.push(animation.step);
                }
                None if !steps.is_empty() => break,
                None => {}
            }
        }
        // One more column pair every fourth frame, from 0 to 4; at 5 the state moves on.
        assert_eq!(steps.first(), Some(&0));
        assert_eq!(steps.last(), Some(&4));
        assert!(steps.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!(nes.lines(), 1);
    }

    #[test]
    fn the_piece_counters_read_the_falling_piece() {
        let mut nes = first_piece();
        let piece = nes.active_piece().unwrap();
        assert_eq!(nes.piece_position(), (piece.x, piece.y));
        assert_eq!(nes.next_orientation().map(|o| o.piece()), nes.next_piece());
        assert_eq!(
            nes.next_orientation(),
            nes.next_piece().map(|p| p.spawn_orientation())
        );
        // The first piece waits out the opening delay: `autorepeatY` counts up from below zero.
        assert!((nes.soft_drop_counter() as i8) < 0);
        // Right held: the DAS counter charges.
        nes.step(Buttons::RIGHT);
        let das = nes.das_counter();
        nes.step(Buttons::RIGHT);
        assert_eq!(nes.das_counter(), das + 1);
        let state = nes.piece_state().unwrap();
        assert_eq!(
            (state.autorepeat_x, state.fall_timer, state.autorepeat_y),
            (nes.das_counter(), nes.fall_timer(), nes.soft_drop_counter())
        );
        assert_eq!(nes.push_down_points(), 0);
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
