//! The game's RAM variables ([`Ram`]) under their disassembly names, their addresses ([`addr`]),
//! and the values `gameMode` and `playState` take; the engine's state as the console's 2 KiB of
//! RAM ($0000-$07FF), and back, in `image`.

mod image;
pub(crate) mod player_vars;

use crate::ram::player_vars::PlayerVars;

/// The game's RAM variables under their disassembly names (TetrisNESDisasm, tetris-ram.asm),
/// with their addresses: [`Nes::raw`].
///
/// This is the state the ROM keeps, byte for byte, for tools that compare the engine with the ROM
/// or need a variable no typed accessor of [`Nes`] gives. Reading them is always safe. Writing
/// them puts the engine in states the ROM may never reach: nothing checks that the variables stay
/// consistent with each other or with where the main loop waits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ram {
    /// `rng_seed` ($17-$18), as `$17 << 8 | $18`.
    pub rng_seed: u16,
    /// `spawnID` ($19): the last piece picked (orientation id).
    pub spawn_id: u8,
    /// `spawnCount` ($1A).
    pub spawn_count: u8,
    /// `verticalBlankingInterval` ($33).
    pub vertical_blanking_interval: u8,
    /// The active player's working copy ($40-$5F).
    pub player: PlayerVars,
    /// `player1_*` ($60-$7F).
    pub player1: PlayerVars,
    /// `player2_*` ($80-$9F).
    pub player2: PlayerVars,
    /// `outOfDateRenderFlags` ($A3).
    pub out_of_date_render_flags: u8,
    /// `twoPlayerPieceDelayCounter` ($A4).
    pub two_player_piece_delay_counter: u8,
    /// `twoPlayerPieceDelayPiece` ($A6).
    pub two_player_piece_delay_piece: u8,
    /// `gameModeState` ($A7).
    pub game_mode_state: u8,
    /// `generalCounter` ($A8).
    pub general_counter: u8,
    /// `generalCounter2` ($A9).
    pub general_counter2: u8,
    /// `generalCounter4` ($AB): the B-type ending's level bonus (`bTypeLevelBonus`).
    pub general_counter4: u8,
    /// `generalCounter5` ($AC): the B-type ending's height bonus (`bTypeHeightBonus`).
    pub general_counter5: u8,
    /// `selectingLevelOrHeight` ($AD).
    pub selecting_level_or_height: u8,
    /// `originalY` ($AE): scratch, and the level menu's level/height selection between frames.
    pub original_y: u8,
    /// `dropSpeed` ($AF).
    pub drop_speed: u8,
    /// `frameCounter` ($B1-$B2).
    pub frame_counter: u16,
    /// `newlyPressedButtons` ($B5): the active player's.
    pub newly_pressed_buttons: u8,
    /// `heldButtons` ($B6): the active player's.
    pub held_buttons: u8,
    /// `activePlayer` ($B7).
    pub active_player: u8,
    /// `allegro` ($BA).
    pub allegro: u8,
    /// `pendingGarbage` ($BB).
    pub pending_garbage: u8,
    /// `pendingGarbageInactivePlayer` ($BC).
    pub pending_garbage_inactive_player: u8,
    /// `renderMode` ($BD).
    pub render_mode: u8,
    /// `numberOfPlayers` ($BE).
    pub number_of_players: u8,
    /// `nextPiece` ($BF).
    pub next_piece: u8,
    /// `gameMode` ($C0): 0 legal, 1 title, 2 type menu, 3 level menu, 4 play, 5 demo, 6 start demo.
    pub game_mode: u8,
    /// `gameType` ($C1): 0 A-type, 1 B-type.
    pub game_type: u8,
    /// `musicType` ($C2): 0-3 (3 = off).
    pub music_type: u8,
    /// `sleepCounter` ($C3).
    pub sleep_counter: u8,
    /// `ending` ($C4): which type-A ending (0-4).
    pub ending: u8,
    /// `ending_customVars` ($C5-$CB): the type-A rocket's height and delay.
    pub ending_custom_vars: [u8; 7],
    /// `demo_heldButtons` ($CE).
    pub demo_held_buttons: u8,
    /// `demo_repeats` ($CF).
    pub demo_repeats: u8,
    /// `$D0`: the demo-recording flag (set to 0 by the title screen).
    pub demo_recording: u8,
    /// `demoButtonsAddr` ($D1-$D2): the demo's place in `demoButtonsTable`.
    pub demo_buttons_addr: u16,
    /// `demoIndex` ($D3): the demo's place in `demoTetriminoTypeTable`.
    pub demo_index: u8,
    /// `highScoreEntryNameOffsetForLetter` ($D4).
    pub high_score_entry_name_offset_for_letter: u8,
    /// `highScoreEntryRawPos` ($D5).
    pub high_score_entry_raw_pos: u8,
    /// `highScoreEntryNameOffsetForRow` ($D6).
    pub high_score_entry_name_offset_for_row: u8,
    /// `highScoreEntryCurrentLetter` ($D7).
    pub high_score_entry_current_letter: u8,
    /// `lineClearStatsByType` ($D8-$DB): BCD counts of singles, doubles, triples, tetrises.
    pub line_clear_stats_by_type: [u8; 4],
    /// `totalScore` ($DC-$DE): the B-type ending's score with bonuses, BCD.
    pub total_score: [u8; 3],
    /// `displayNextPiece` ($DF): 0 shows the preview.
    pub display_next_piece: u8,
    /// `musicTrack` ($06F5).
    pub music_track: u8,
    /// `newlyPressedButtons_player1` ($F5).
    pub newly_pressed_buttons_player1: u8,
    /// `heldButtons_player1` ($F7).
    pub held_buttons_player1: u8,
    /// `statsByType` ($03F0-$03FD): BCD piece counts, two bytes per type T J Z O S L I.
    pub stats_by_type: [u8; 14],
    /// `playfield` ($0400): the whole page; cells 0-199 are the 10×20 field, the rest stays
    /// `tileEmpty`, which is why rows −2 and −1 above the field are free for collisions.
    pub playfield: [u8; 256],
    /// `highScoreNames` ($0700).
    pub high_score_names: [u8; 0x30],
    /// `highScoreScoresA` ($0730) and `highScoreScoresB` ($073C), BCD.
    pub high_score_scores: [u8; 0x18],
    /// `highScoreLevels` ($0748).
    pub high_score_levels: [u8; 8],
    /// `initMagic` ($0750).
    pub init_magic: [u8; 5],
}

/// Every variable zero, as at power-on in the reference emulator setup.
impl Default for Ram {
    fn default() -> Self {
        Ram {
            rng_seed: 0,
            spawn_id: 0,
            spawn_count: 0,
            vertical_blanking_interval: 0,
            player: PlayerVars::default(),
            player1: PlayerVars::default(),
            player2: PlayerVars::default(),
            out_of_date_render_flags: 0,
            two_player_piece_delay_counter: 0,
            two_player_piece_delay_piece: 0,
            game_mode_state: 0,
            general_counter: 0,
            general_counter2: 0,
            general_counter4: 0,
            general_counter5: 0,
            selecting_level_or_height: 0,
            original_y: 0,
            drop_speed: 0,
            frame_counter: 0,
            newly_pressed_buttons: 0,
            held_buttons: 0,
            active_player: 0,
            allegro: 0,
            pending_garbage: 0,
            pending_garbage_inactive_player: 0,
            render_mode: 0,
            number_of_players: 0,
            next_piece: 0,
            game_mode: 0,
            game_type: 0,
            music_type: 0,
            sleep_counter: 0,
            ending: 0,
            ending_custom_vars: [0; 7],
            demo_held_buttons: 0,
            demo_repeats: 0,
            demo_recording: 0,
            demo_buttons_addr: 0,
            demo_index: 0,
            high_score_entry_name_offset_for_letter: 0,
            high_score_entry_raw_pos: 0,
            high_score_entry_name_offset_for_row: 0,
            high_score_entry_current_letter: 0,
            line_clear_stats_by_type: [0; 4],
            total_score: [0; 3],
            display_next_piece: 0,
            music_track: 0,
            newly_pressed_buttons_player1: 0,
            held_buttons_player1: 0,
            stats_by_type: [0; 14],
            playfield: [0; 256],
            high_score_names: [0; 0x30],
            high_score_scores: [0; 0x18],
            high_score_levels: [0; 8],
            init_magic: [0; 5],
        }
    }
}

/// Why a RAM image cannot be turned into an engine state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RamImportError {
    /// What in the image could not be mapped.
    pub reason: String,
}

impl std::fmt::Display for RamImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot import RAM image: {}", self.reason)
    }
}

impl std::error::Error for RamImportError {}

/// Addresses of the variables, as in tetris-ram.asm.
pub mod addr {
    #![allow(missing_docs)]
    pub const RNG_SEED: usize = 0x17;
    pub const SPAWN_ID: usize = 0x19;
    pub const SPAWN_COUNT: usize = 0x1A;
    pub const VERTICAL_BLANKING_INTERVAL: usize = 0x33;
    pub const PLAYER: usize = 0x40;
    pub const PLAYER1: usize = 0x60;
    pub const PLAYER2: usize = 0x80;
    pub const OUT_OF_DATE_RENDER_FLAGS: usize = 0xA3;
    pub const TWO_PLAYER_PIECE_DELAY_COUNTER: usize = 0xA4;
    pub const TWO_PLAYER_PIECE_DELAY_PIECE: usize = 0xA6;
    pub const GAME_MODE_STATE: usize = 0xA7;
    pub const GENERAL_COUNTER: usize = 0xA8;
    pub const GENERAL_COUNTER2: usize = 0xA9;
    pub const GENERAL_COUNTER4: usize = 0xAB;
    pub const GENERAL_COUNTER5: usize = 0xAC;
    pub const SELECTING_LEVEL_OR_HEIGHT: usize = 0xAD;
    pub const ORIGINAL_Y: usize = 0xAE;
    pub const DROP_SPEED: usize = 0xAF;
    pub const FRAME_COUNTER: usize = 0xB1;
    pub const NEWLY_PRESSED_BUTTONS: usize = 0xB5;
    pub const HELD_BUTTONS: usize = 0xB6;
    pub const ACTIVE_PLAYER: usize = 0xB7;
    pub const ALLEGRO: usize = 0xBA;
    pub const PENDING_GARBAGE: usize = 0xBB;
    pub const PENDING_GARBAGE_INACTIVE_PLAYER: usize = 0xBC;
    pub const RENDER_MODE: usize = 0xBD;
    pub const NUMBER_OF_PLAYERS: usize = 0xBE;
    pub const NEXT_PIECE: usize = 0xBF;
    pub const GAME_MODE: usize = 0xC0;
    pub const GAME_TYPE: usize = 0xC1;
    pub const MUSIC_TYPE: usize = 0xC2;
    pub const SLEEP_COUNTER: usize = 0xC3;
    pub const ENDING: usize = 0xC4;
    pub const ENDING_CUSTOM_VARS: usize = 0xC5;
    pub const DEMO_HELD_BUTTONS: usize = 0xCE;
    pub const DEMO_REPEATS: usize = 0xCF;
    pub const DEMO_RECORDING: usize = 0xD0;
    pub const DEMO_BUTTONS_ADDR: usize = 0xD1;
    pub const DEMO_INDEX: usize = 0xD3;
    pub const HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_LETTER: usize = 0xD4;
    pub const HIGH_SCORE_ENTRY_RAW_POS: usize = 0xD5;
    pub const HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_ROW: usize = 0xD6;
    pub const HIGH_SCORE_ENTRY_CURRENT_LETTER: usize = 0xD7;
    pub const LINE_CLEAR_STATS_BY_TYPE: usize = 0xD8;
    pub const TOTAL_SCORE: usize = 0xDC;
    pub const DISPLAY_NEXT_PIECE: usize = 0xDF;
    pub const NEWLY_PRESSED_BUTTONS_PLAYER1: usize = 0xF5;
    pub const HELD_BUTTONS_PLAYER1: usize = 0xF7;
    pub const STATS_BY_TYPE: usize = 0x3F0;
    pub const PLAYFIELD: usize = 0x400;
    pub const MUSIC_TRACK: usize = 0x6F5;
    pub const HIGH_SCORE_NAMES: usize = 0x700;
    pub const HIGH_SCORE_SCORES: usize = 0x730;
    pub const HIGH_SCORE_LEVELS: usize = 0x748;
    pub const INIT_MAGIC: usize = 0x750;
}

/// `gameMode` values.
pub mod game_mode {
    /// The legal screen.
    pub const LEGAL: u8 = 0;
    /// The title screen.
    pub const TITLE: u8 = 1;
    /// The game-type menu.
    pub const GAME_TYPE_MENU: u8 = 2;
    /// The level menu.
    pub const LEVEL_MENU: u8 = 3;
    /// Playing (and the high-score screen that follows a game).
    pub const PLAY: u8 = 4;
    /// The demo.
    pub const DEMO: u8 = 5;
    /// Starting the demo.
    pub const START_DEMO: u8 = 6;
}

/// `playState` values.
pub mod play_state {
    /// `playState_unassignOrientationId`: the game is over.
    pub const GAME_OVER: u8 = 0;
    /// `playState_playerControlsActiveTetrimino`.
    pub const ACTIVE: u8 = 1;
    /// `playState_lockTetrimino`.
    pub const LOCK: u8 = 2;
    /// `playState_checkForCompletedRows`.
    pub const CHECK_ROWS: u8 = 3;
    /// Line-clear animation (run by the NMI).
    pub const LINE_CLEAR_ANIMATION: u8 = 4;
    /// `playState_updateLinesAndStatistics`.
    pub const UPDATE_LINES: u8 = 5;
    /// `playState_bTypeGoalCheck`.
    pub const B_TYPE_GOAL_CHECK: u8 = 6;
    /// `playState_receiveGarbage`.
    pub const RECEIVE_GARBAGE: u8 = 7;
    /// `playState_spawnNextTetrimino`.
    pub const SPAWN: u8 = 8;
    /// `playState_updateGameOverCurtain`.
    pub const CURTAIN: u8 = 10;
}
