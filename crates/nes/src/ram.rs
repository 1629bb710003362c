//! The engine's state as the console's 2 KiB of RAM ($0000-$07FF), and back.
//!
//! Export writes every variable the engine models at its address; what it does not model (audio,
//! sprite staging, the stack, player 2's playfield) reads as zero. Import builds an engine from
//! a RAM image taken at a frame boundary, so a running emulator can be mirrored.

use crate::engine::{Nes, Wait, game_mode};
use crate::player::PlayerVars;
use crate::region::Region;

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

impl Nes {
    /// The modelled variables written into a 2 KiB RAM image.
    #[must_use]
    pub fn ram(&self) -> [u8; 0x800] {
        use addr::*;
        let mut r = [0u8; 0x800];
        r[RNG_SEED] = (self.rng_seed >> 8) as u8;
        r[RNG_SEED + 1] = self.rng_seed as u8;
        r[SPAWN_ID] = self.spawn_id;
        r[SPAWN_COUNT] = self.spawn_count;
        r[VERTICAL_BLANKING_INTERVAL] = self.vertical_blanking_interval;
        r[PLAYER..PLAYER + 32].copy_from_slice(&self.player.to_bytes());
        r[PLAYER1..PLAYER1 + 32].copy_from_slice(&self.player1.to_bytes());
        r[PLAYER2..PLAYER2 + 32].copy_from_slice(&self.player2.to_bytes());
        r[OUT_OF_DATE_RENDER_FLAGS] = self.out_of_date_render_flags;
        r[TWO_PLAYER_PIECE_DELAY_COUNTER] = self.two_player_piece_delay_counter;
        r[TWO_PLAYER_PIECE_DELAY_PIECE] = self.two_player_piece_delay_piece;
        r[GAME_MODE_STATE] = self.game_mode_state;
        r[GENERAL_COUNTER] = self.general_counter;
        r[GENERAL_COUNTER2] = self.general_counter2;
        r[GENERAL_COUNTER4] = self.general_counter4;
        r[GENERAL_COUNTER5] = self.general_counter5;
        r[SELECTING_LEVEL_OR_HEIGHT] = self.selecting_level_or_height;
        r[ORIGINAL_Y] = self.original_y;
        r[DROP_SPEED] = self.drop_speed;
        r[FRAME_COUNTER] = self.frame_counter as u8;
        r[FRAME_COUNTER + 1] = (self.frame_counter >> 8) as u8;
        r[NEWLY_PRESSED_BUTTONS] = self.newly_pressed_buttons;
        r[HELD_BUTTONS] = self.held_buttons;
        r[ACTIVE_PLAYER] = self.active_player;
        r[ALLEGRO] = self.allegro;
        r[PENDING_GARBAGE] = self.pending_garbage;
        r[PENDING_GARBAGE_INACTIVE_PLAYER] = self.pending_garbage_inactive_player;
        r[RENDER_MODE] = self.render_mode;
        r[NUMBER_OF_PLAYERS] = self.number_of_players;
        r[NEXT_PIECE] = self.next_piece;
        r[GAME_MODE] = self.game_mode;
        r[GAME_TYPE] = self.game_type;
        r[MUSIC_TYPE] = self.music_type;
        r[SLEEP_COUNTER] = self.sleep_counter;
        r[ENDING] = self.ending;
        r[ENDING_CUSTOM_VARS..ENDING_CUSTOM_VARS + 7].copy_from_slice(&self.ending_custom_vars);
        r[DEMO_HELD_BUTTONS] = self.demo_held_buttons;
        r[DEMO_REPEATS] = self.demo_repeats;
        r[DEMO_RECORDING] = self.demo_recording;
        r[DEMO_BUTTONS_ADDR] = self.demo_buttons_addr as u8;
        r[DEMO_BUTTONS_ADDR + 1] = (self.demo_buttons_addr >> 8) as u8;
        r[DEMO_INDEX] = self.demo_index;
        r[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_LETTER] = self.high_score_entry_name_offset_for_letter;
        r[HIGH_SCORE_ENTRY_RAW_POS] = self.high_score_entry_raw_pos;
        r[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_ROW] = self.high_score_entry_name_offset_for_row;
        r[HIGH_SCORE_ENTRY_CURRENT_LETTER] = self.high_score_entry_current_letter;
        r[LINE_CLEAR_STATS_BY_TYPE..LINE_CLEAR_STATS_BY_TYPE + 4]
            .copy_from_slice(&self.line_clear_stats_by_type);
        r[TOTAL_SCORE..TOTAL_SCORE + 3].copy_from_slice(&self.total_score);
        r[DISPLAY_NEXT_PIECE] = self.display_next_piece;
        r[NEWLY_PRESSED_BUTTONS_PLAYER1] = self.newly_pressed_buttons_player1;
        r[HELD_BUTTONS_PLAYER1] = self.held_buttons_player1;
        r[STATS_BY_TYPE..STATS_BY_TYPE + 14].copy_from_slice(&self.stats_by_type);
        r[PLAYFIELD..PLAYFIELD + 256].copy_from_slice(&self.playfield);
        r[MUSIC_TRACK] = self.music_track;
        r[HIGH_SCORE_NAMES..HIGH_SCORE_NAMES + 0x30].copy_from_slice(&self.high_score_names);
        r[HIGH_SCORE_SCORES..HIGH_SCORE_SCORES + 0x18].copy_from_slice(&self.high_score_scores);
        r[HIGH_SCORE_LEVELS..HIGH_SCORE_LEVELS + 8].copy_from_slice(&self.high_score_levels);
        r[INIT_MAGIC..INIT_MAGIC + 5].copy_from_slice(&self.init_magic);
        self.export_audio(&mut r);
        r
    }

    /// Builds an engine from a RAM image taken at a frame boundary (after a frame's main-loop
    /// work), so that stepping both with the same buttons keeps them equal.
    ///
    /// RAM does not hold the CPU's place in the code, so it is inferred from `gameMode`,
    /// `gameModeState` and `renderMode`. Supported: the game-type menu, the level menu, and play
    /// between frames (including pause and the curtain). Screen transitions, the legal and title
    /// screens, the demo and the high-score entry are rejected.
    ///
    /// # Errors
    /// When the image is at a place the inference does not cover.
    pub fn from_ram(ram: &[u8; 0x800], region: Region) -> Result<Nes, RamImportError> {
        let mut n = Nes::import_fields(ram, region)?;
        n.wait = Nes::infer_wait(&n)?;
        n.import_audio(ram);
        // A frame count is not in RAM; the import starts counting from zero.
        Ok(n)
    }

    /// The variables of a RAM image, without the CPU's place in the code.
    pub(crate) fn import_fields(ram: &[u8; 0x800], region: Region) -> Result<Nes, RamImportError> {
        use addr::*;
        let mut n = Nes::power_on_region(region);
        n.rng_seed = u16::from(ram[RNG_SEED]) << 8 | u16::from(ram[RNG_SEED + 1]);
        n.spawn_id = ram[SPAWN_ID];
        n.spawn_count = ram[SPAWN_COUNT];
        n.vertical_blanking_interval = ram[VERTICAL_BLANKING_INTERVAL];
        let block = |at: usize| {
            let mut b = [0u8; 32];
            b.copy_from_slice(&ram[at..at + 32]);
            PlayerVars::from_bytes(&b)
        };
        n.player = block(PLAYER);
        n.player1 = block(PLAYER1);
        n.player2 = block(PLAYER2);
        n.score_uncapped = crate::modifiers::UncappedScore::from_score(n.player1.score);
        n.out_of_date_render_flags = ram[OUT_OF_DATE_RENDER_FLAGS];
        n.two_player_piece_delay_counter = ram[TWO_PLAYER_PIECE_DELAY_COUNTER];
        n.two_player_piece_delay_piece = ram[TWO_PLAYER_PIECE_DELAY_PIECE];
        n.game_mode_state = ram[GAME_MODE_STATE];
        n.general_counter = ram[GENERAL_COUNTER];
        n.general_counter2 = ram[GENERAL_COUNTER2];
        n.general_counter4 = ram[GENERAL_COUNTER4];
        n.general_counter5 = ram[GENERAL_COUNTER5];
        n.selecting_level_or_height = ram[SELECTING_LEVEL_OR_HEIGHT];
        n.original_y = ram[ORIGINAL_Y];
        n.drop_speed = ram[DROP_SPEED];
        n.frame_counter = u16::from(ram[FRAME_COUNTER]) | u16::from(ram[FRAME_COUNTER + 1]) << 8;
        n.newly_pressed_buttons = ram[NEWLY_PRESSED_BUTTONS];
        n.held_buttons = ram[HELD_BUTTONS];
        n.active_player = ram[ACTIVE_PLAYER];
        n.allegro = ram[ALLEGRO];
        n.pending_garbage = ram[PENDING_GARBAGE];
        n.pending_garbage_inactive_player = ram[PENDING_GARBAGE_INACTIVE_PLAYER];
        n.render_mode = ram[RENDER_MODE];
        n.number_of_players = ram[NUMBER_OF_PLAYERS];
        n.next_piece = ram[NEXT_PIECE];
        n.game_mode = ram[GAME_MODE];
        n.game_type = ram[GAME_TYPE];
        n.music_type = ram[MUSIC_TYPE];
        n.sleep_counter = ram[SLEEP_COUNTER];
        n.ending = ram[ENDING];
        n.ending_custom_vars
            .copy_from_slice(&ram[ENDING_CUSTOM_VARS..ENDING_CUSTOM_VARS + 7]);
        n.demo_held_buttons = ram[DEMO_HELD_BUTTONS];
        n.demo_repeats = ram[DEMO_REPEATS];
        n.demo_recording = ram[DEMO_RECORDING];
        n.demo_buttons_addr =
            u16::from(ram[DEMO_BUTTONS_ADDR]) | u16::from(ram[DEMO_BUTTONS_ADDR + 1]) << 8;
        n.demo_index = ram[DEMO_INDEX];
        n.high_score_entry_name_offset_for_letter = ram[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_LETTER];
        n.high_score_entry_raw_pos = ram[HIGH_SCORE_ENTRY_RAW_POS];
        n.high_score_entry_name_offset_for_row = ram[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_ROW];
        n.high_score_entry_current_letter = ram[HIGH_SCORE_ENTRY_CURRENT_LETTER];
        n.line_clear_stats_by_type
            .copy_from_slice(&ram[LINE_CLEAR_STATS_BY_TYPE..LINE_CLEAR_STATS_BY_TYPE + 4]);
        n.total_score
            .copy_from_slice(&ram[TOTAL_SCORE..TOTAL_SCORE + 3]);
        n.display_next_piece = ram[DISPLAY_NEXT_PIECE];
        n.newly_pressed_buttons_player1 = ram[NEWLY_PRESSED_BUTTONS_PLAYER1];
        n.held_buttons_player1 = ram[HELD_BUTTONS_PLAYER1];
        n.stats_by_type
            .copy_from_slice(&ram[STATS_BY_TYPE..STATS_BY_TYPE + 14]);
        n.playfield
            .copy_from_slice(&ram[PLAYFIELD..PLAYFIELD + 256]);
        n.music_track = ram[MUSIC_TRACK];
        n.high_score_names
            .copy_from_slice(&ram[HIGH_SCORE_NAMES..HIGH_SCORE_NAMES + 0x30]);
        n.high_score_scores
            .copy_from_slice(&ram[HIGH_SCORE_SCORES..HIGH_SCORE_SCORES + 0x18]);
        n.high_score_levels
            .copy_from_slice(&ram[HIGH_SCORE_LEVELS..HIGH_SCORE_LEVELS + 8]);
        n.init_magic
            .copy_from_slice(&ram[INIT_MAGIC..INIT_MAGIC + 5]);
        Ok(n)
    }

    /// Where the main loop waits, inferred from `gameMode`, `gameModeState` and `renderMode`.
    fn infer_wait(n: &Nes) -> Result<Wait, RamImportError> {
        Ok(match (n.game_mode, n.game_mode_state, n.render_mode) {
            (game_mode::GAME_TYPE_MENU, _, 1) => Wait::GameTypeMenu,
            (game_mode::LEVEL_MENU, _, 1) => Wait::LevelMenu,
            (game_mode::PLAY, 2, 3) => Wait::MainLoop,
            (game_mode::PLAY, 7, 0) => Wait::Pause,
            (mode, state, render) => {
                return Err(RamImportError {
                    reason: format!(
                        "gameMode {mode}, gameModeState {state}, renderMode {render} is not a \
                         place between frames the engine can resume from (supported: the menus \
                         and play)"
                    ),
                });
            }
        })
    }
}
