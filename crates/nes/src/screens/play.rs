//! `gameMode_playAndEndingHighScore`: the game states run once per frame during play.

use crate::engine::{Flow, Nes, NextFrame, Wait};
use crate::ram::player_vars::PlayerVars;
use crate::ram::{game_mode, play_state};
use crate::rules;
use crate::screens::Screen;
use crate::tables::*;
use crate::vocabulary::buttons::Buttons;
use crate::vocabulary::events::Events;
use crate::vocabulary::modifiers::UncappedScore;
use crate::vocabulary::piece::Orientation;
use crate::vocabulary::unsupported::Unsupported;

impl Nes {
    /// `gameMode_playAndEndingHighScore`: dispatch on `gameModeState`.
    pub(crate) fn game_mode_play_and_ending_high_score(&mut self) -> Flow {
        match self.raw.game_mode_state {
            0 => Flow::Wait(Wait::LoadDisable(Screen::GameBackground)),
            1 => self.game_mode_state_init_game_state(),
            2 => self.game_mode_state_update_counters_and_non_player_state(),
            3 => self.game_mode_state_handle_game_over(),
            4 => self.game_mode_state_update_player1(),
            5 => self.game_mode_state_update_player2(),
            6 => self.game_mode_state_check_for_reset_key_combo(),
            7 => self.game_mode_state_start_button_handling(),
            8 => self.game_mode_state_vblank_then_run_state2(),
            _ => self.stop_unsupported(Unsupported::GameModeState),
        }
    }

    /// `gameModeState` 2 to 8 in a row, the routines `branchOnGameMode` dispatches in every frame
    /// of play, called directly (the dispatch is the engine's hottest spot). Any routine that
    /// blocks, leaves A equal to `gameModeState`, or sends `gameModeState` elsewhere hands control
    /// back to the main loop, which then carries on exactly as the ROM's does.
    ///
    /// Between two routines the ROM runs `@checkForDemoDataExhaustion`, which does nothing while
    /// `gameMode` is play, and compares A with `gameModeState`; the states whose routine cannot
    /// block nor change `gameMode` are written out here with only that comparison.
    ///
    /// `saved` says that `player` equalled `player1` when this frame began (the last frame was
    /// a frame of play that ended so, see [`NextFrame::Play`]): the NMI and
    /// `gameModeState` 2 and 3 change only `fallTimer`, `vramRow`, `rowY` and `playState` of
    /// `player1`, so `makePlayer1Active` then copies those four bytes. Copying the whole block
    /// just after single-byte stores into it stalls the processor (a wide load is not forwarded
    /// from narrow stores), and that stall was the largest cost of a frame. Once `player`
    /// equals `player1` again, this sets the hint for the next frame.
    #[inline(always)]
    pub(crate) fn run_play_states(&mut self, saved: bool) -> Flow {
        // gameModeState_updateCountersAndNonPlayerState
        let a = self.update_counters_and_non_player_state();
        if a == 3 {
            self.raw.game_mode_state = 3;
            return Flow::Ret(a);
        }
        // gameModeState_handleGameOver
        if self.raw.player1.play_state == play_state::GAME_OVER {
            self.raw.game_mode_state = 3;
            return self.game_mode_state_handle_game_over();
        }
        self.raw.game_mode_state = 4;
        if self.raw.number_of_players == 4 {
            return Flow::Ret(4);
        }
        // gameModeState_updatePlayer1
        if saved {
            self.raw.active_player = 1;
            self.raw.newly_pressed_buttons = self.raw.newly_pressed_buttons_player1;
            self.raw.held_buttons = self.raw.held_buttons_player1;
            self.raw.player.fall_timer = self.raw.player1.fall_timer;
            self.raw.player.vram_row = self.raw.player1.vram_row;
            self.raw.player.row_y = self.raw.player1.row_y;
            self.raw.player.play_state = self.raw.player1.play_state;
            debug_assert_eq!(self.raw.player, self.raw.player1);
        } else {
            self.make_player1_active();
        }
        // The play states of every frame of a game but its end (the active piece, its lock, the
        // row checks, the line-clear animation run by the NMI, the lines and score, the spawn)
        // write each byte of the block in both copies (`store_player`), so `savePlayer1State`
        // then copies a block equal to its destination, and is left out: a wide copy just after
        // single-byte stores stalls.
        let kept_equal = matches!(self.raw.player.play_state, 1..=9);
        if let Some(flow) = self.branch_on_play_state() {
            return flow;
        }
        let a = if kept_equal {
            debug_assert_eq!(self.raw.player, self.raw.player1);
            self.next_piece_sprite_a()
        } else {
            self.save_player1_state()
        };
        // Nothing below writes either block.
        if a == 5 || self.raw.game_mode != game_mode::PLAY {
            self.raw.game_mode_state = 5;
            return Flow::Ret(a);
        }
        // gameModeState_updatePlayer2
        if self.raw.number_of_players == 6 {
            self.raw.game_mode_state = 6;
            return Flow::Ret(6);
        }
        // gameModeState_checkForResetKeyCombo: A+B+Select+Start goes back to the legal screen;
        // A keeps heldButtons_player1, so holding exactly Right+Left+Down (7) makes the main loop
        // wait a frame here, as in the ROM.
        let held = self.raw.held_buttons_player1;
        if held == (Buttons::A | Buttons::B | Buttons::SELECT | Buttons::START).bits() {
            self.raw.game_mode_state = 6;
            self.raw.game_mode = game_mode::LEGAL;
            return Flow::Ret(0);
        }
        if held == 7 {
            self.raw.game_mode_state = 7;
            return Flow::Ret(7);
        }
        // gameModeState_startButtonHandling (`gameMode` is play here, not the demo)
        let a = if self.raw.render_mode != 3 {
            self.raw.render_mode
        } else if self.raw.newly_pressed_buttons_player1 & Buttons::START.bits() == 0 {
            0
        } else if self.raw.player1.play_state == play_state::CURTAIN {
            play_state::CURTAIN
        } else {
            self.raw.game_mode_state = 7;
            self.music_staging_noise_hi(0x05);
            self.raw.render_mode = 0;
            return Flow::Wait(Wait::Pause);
        };
        if a == 8 {
            self.raw.game_mode_state = 8;
            return Flow::Ret(8);
        }
        // gameModeState_vblankThenRunState2
        self.raw.game_mode_state = 2;
        // An ordinary frame of play: the next one can take the short path. `numberOfPlayers`
        // is neither 4 nor 6 and `displayNextPiece` not 5, or this would have returned above;
        // the NMI stored `verticalBlankingInterval` and `makePlayer1Active` `activePlayer`.
        if self.raw.render_mode == 3
            && self.raw.player1.level_number < crate::lag::model::LAG_AUDIO_FROM_LEVEL
            && self.lag.is_none()
            && self.raw.sleep_counter == 0
            && self.raw.two_player_piece_delay_counter == 0
        {
            debug_assert!(self.raw.vertical_blanking_interval == 1 && self.raw.active_player == 1);
            self.next_frame = NextFrame::Play;
        }
        Flow::Ret(0x02)
    }

    /// A frame of play in the steady state ([`NextFrame::Play`]), nearly every
    /// frame of a game: the NMI and `gameModeState` 2 to 8 as `play_frame_continued` runs them,
    /// without the stores and tests whose outcome the steady state fixes. Frames with Select or
    /// Start newly pressed, with the reset combination held, or with the play state 0 or from
    /// 10 on (the game over and its curtain) take `play_frame_continued` before they change
    /// anything.
    ///
    /// The hint stays set: a frame that leaves the steady state clears it (a B-type goal, a
    /// level reaching the lag model's, a state the engine does not model).
    #[inline(never)]
    pub(crate) fn play_frame_steady(&mut self, buttons: Buttons) -> Events {
        let held = buttons.bits();
        let newly = held & !self.raw.held_buttons_player1;
        let select_start = Buttons::SELECT.bits() | Buttons::START.bits();
        if held & select_start != 0
            && (newly & select_start != 0
                || held == (Buttons::A | Buttons::B | Buttons::SELECT | Buttons::START).bits())
        {
            return self.play_frame_continued(buttons);
        }
        // branchOnPlayStatePlayer1, on the play state before the NMI, which changes it only
        // from 4 to 5. The states 1 to 9 store into both blocks, so savePlayer1State has
        // nothing to copy.
        let left = match self.raw.player1.play_state {
            play_state::ACTIVE => {
                self.steady_nmi_and_counters(newly, held, false);
                return self.steady_frame_active(held);
            }
            play_state::LOCK => {
                self.steady_nmi_and_counters(newly, held, false);
                if matches!(self.next_frame, NextFrame::LockWaiting)
                    && (self.raw.player.vram_row.wrapping_sub(0x20) as i8) < 0
                {
                    // isPositionValid as in the last frame (valid), and vramRow still below 32.
                    debug_assert!(self.is_position_valid());
                } else {
                    self.play_state_lock_tetrimino();
                    // Still locking: the place was valid and the routine waits for vramRow.
                    self.next_frame = if self.raw.player.play_state == play_state::LOCK {
                        NextFrame::LockWaiting
                    } else {
                        NextFrame::Play
                    };
                }
                None
            }
            play_state::CHECK_ROWS => {
                self.steady_nmi_and_counters(newly, held, false);
                if (self.raw.player.vram_row.wrapping_sub(0x20) as i8) >= 0 {
                    self.play_state_check_for_completed_rows();
                }
                None
            }
            play_state::LINE_CLEAR_ANIMATION => {
                self.steady_nmi_and_counters(newly, held, true);
                if self.raw.player.play_state == play_state::UPDATE_LINES {
                    self.steady_update_lines();
                }
                None
            }
            play_state::UPDATE_LINES => {
                self.steady_nmi_and_counters(newly, held, false);
                self.steady_update_lines();
                None
            }
            play_state::B_TYPE_GOAL_CHECK => {
                self.steady_nmi_and_counters(newly, held, false);
                // The goal's ending leaves the frame at `gameModeState` 4.
                self.raw.game_mode_state = 4;
                let left = self.play_state_b_type_goal_check();
                if left.is_none() {
                    self.raw.game_mode_state = 2;
                }
                left
            }
            play_state::RECEIVE_GARBAGE => {
                self.steady_nmi_and_counters(newly, held, false);
                self.store_player(|p| p.play_state += 1);
                None
            }
            play_state::SPAWN => {
                self.steady_nmi_and_counters(newly, held, false);
                if (self.raw.player.vram_row.wrapping_sub(0x20) as i8) >= 0 {
                    self.play_state_spawn_next_tetrimino();
                }
                None
            }
            9 => {
                self.steady_nmi_and_counters(newly, held, false);
                None
            }
            // The game over (0) and its curtain (10, 11), and states the engine stops at.
            _ => return self.play_frame_continued(buttons),
        };
        if let Some(flow) = left {
            return self.steady_frame_left(flow);
        }
        self.steady_frame_end(held)
    }

    /// The rest of a steady frame in the play state 1, the commonest: the movement rule, then
    /// the frame's end. A function of its own: the movement keeps more values at hand than the
    /// other states, and inlined it would make every steady frame save more registers.
    #[inline(never)]
    fn steady_frame_active(&mut self, held: u8) -> Events {
        let Some(orientation) = Orientation::from_id(self.raw.player.current_piece) else {
            self.raw.game_mode_state = 4;
            let flow = self.stop_unsupported(Unsupported::HiddenOrientation);
            return self.steady_frame_left(flow);
        };
        self.player_controls_active_tetrimino(orientation);
        self.steady_frame_end(held)
    }

    /// The end of a steady frame that stayed in the main loop's wait.
    #[inline(always)]
    fn steady_frame_end(&mut self, held: u8) -> Events {
        debug_assert_eq!(self.raw.player, self.raw.player1);
        // stageSpriteForNextPiece's A is not 5, `gameMode` is play, `numberOfPlayers` not 6,
        // no reset combination: gameModeState_checkForResetKeyCombo returns A = the held
        // buttons.
        if held == 7 {
            return self.steady_frame_ended_early();
        }
        // `renderMode` 3 and Start not pressed: `gameModeState` 7 and 8 return to 2 and the main
        // loop waits.
        self.events
    }

    /// The steady frame's NMI and `gameModeState` 2 to 4 up to the play state's routine.
    /// `animation`: the play state is 4, the line-clear animation the NMI runs.
    #[inline(always)]
    fn steady_nmi_and_counters(&mut self, newly: u8, held: u8, animation: bool) {
        debug_assert!(self.steady_state_holds());
        // The NMI: `render_mode_play_and_demo` (the lag model is off)...
        if animation {
            // updateLineClearingAnimation, on `player` (equal to `player1`) and saved to both.
            if self.raw.frame_counter & 0x03 == 0 {
                let row_y = self.raw.player1.row_y.wrapping_add(1);
                self.store_player(|p| p.row_y = row_y);
                if (row_y.wrapping_sub(5) as i8) >= 0 {
                    self.store_player(|p| p.play_state += 1);
                }
            }
            self.store_player(|p| p.vram_row = 0);
        } else {
            let vram_row = crate::engine::vram_row_after_upload(self.raw.player1.vram_row);
            self.store_player(|p| p.vram_row = vram_row);
        }
        self.raw.out_of_date_render_flags &= !(0x01 | 0x02 | 0x04 | 0x40);
        // ... its counters (`sleepCounter` stays 0, `verticalBlankingInterval` 1) and
        // `pollControllerButtons`.
        self.raw.frame_counter = self.raw.frame_counter.wrapping_add(1);
        self.step_rng();
        self.raw.newly_pressed_buttons_player1 = newly;
        self.raw.held_buttons_player1 = held;
        // gameModeState_updateCountersAndNonPlayerState (no Select; `twoPlayerPieceDelayCounter`
        // stays 0), gameModeState_handleGameOver (the play state is not 0) and
        // makePlayer1Active (`activePlayer` stays 1; `player` equals `player1` but for
        // `fallTimer`, stored into both here).
        let fall_timer = self.raw.player1.fall_timer.wrapping_add(1);
        self.store_player(|p| p.fall_timer = fall_timer);
        self.raw.player2.fall_timer = self.raw.player2.fall_timer.wrapping_add(1);
        self.raw.newly_pressed_buttons = newly;
        self.raw.held_buttons = held;
    }

    /// `playState_updateLinesAndStatistics` in a steady frame.
    #[inline(always)]
    fn steady_update_lines(&mut self) {
        self.play_state_update_lines_and_statistics();
        if self.raw.player1.level_number >= crate::lag::model::LAG_AUDIO_FROM_LEVEL {
            // The next frame runs the lag model.
            self.next_frame = NextFrame::Other;
        }
    }

    /// The end of a steady frame with Right+Left+Down held: A = 7 = `gameModeState`, so the
    /// main loop waits at `gameModeState` 7 ([`NextFrame::EndedEarly`]).
    #[inline(never)]
    fn steady_frame_ended_early(&mut self) -> Events {
        self.raw.game_mode_state = 7;
        if matches!(self.next_frame, NextFrame::Play | NextFrame::LockWaiting) {
            self.next_frame = NextFrame::EndedEarly;
        }
        self.events
    }

    /// The end of a steady frame whose play state's routine blocked in a wait, as
    /// `play_frame_body` ends it.
    #[cold]
    #[inline(never)]
    fn steady_frame_left(&mut self, flow: Flow) -> Events {
        self.next_frame = NextFrame::Other;
        self.end_play_frame(flow)
    }

    /// The steady state of [`NextFrame::Play`], for debug assertions.
    fn steady_state_holds(&self) -> bool {
        let r = &self.raw;
        self.wait == Wait::MainLoop
            && self.nmi_skip == 0
            && self.lag.is_none()
            && r.game_mode == game_mode::PLAY
            && r.game_mode_state == 2
            && r.render_mode == 3
            && r.player1.level_number < crate::lag::model::LAG_AUDIO_FROM_LEVEL
            && r.player == r.player1
            && r.sleep_counter == 0
            && r.vertical_blanking_interval == 1
            && r.active_player == 1
            && r.two_player_piece_delay_counter == 0
            && r.number_of_players != 4
            && r.number_of_players != 6
            && r.display_next_piece != 5
    }

    /// `gameModeState_updatePlayer2`: one player only.
    fn game_mode_state_update_player2(&mut self) -> Flow {
        self.raw.game_mode_state += 1;
        Flow::Ret(self.raw.number_of_players)
    }

    /// `gameModeState_vblankThenRunState2`.
    fn game_mode_state_vblank_then_run_state2(&mut self) -> Flow {
        self.raw.game_mode_state = 2;
        Flow::Ret(0x02)
    }

    /// `gameModeState_initGameState`, up to its wait.
    fn game_mode_state_init_game_state(&mut self) -> Flow {
        self.raw.playfield = [TILE_EMPTY; 256];
        self.raw.stats_by_type = [0; 14];
        for p in [&mut self.raw.player1, &mut self.raw.player2] {
            p.tetrimino_x = 5;
            p.tetrimino_y = 0;
            p.vram_row = 0;
            p.fall_timer = 0;
            p.score = [0; 3];
            p.lines = [0; 2];
            p.autorepeat_y = self.region.initial_autorepeat_y();
        }
        self.score_uncapped = UncappedScore::default();
        self.raw.pending_garbage = 0;
        self.raw.pending_garbage_inactive_player = 0;
        self.raw.two_player_piece_delay_counter = 0;
        self.raw.line_clear_stats_by_type = [0; 4];
        self.raw.allegro = 0;
        self.raw.demo_held_buttons = 0;
        self.raw.demo_repeats = 0;
        self.raw.demo_index = 0;
        self.raw.demo_buttons_addr = u16::from(crate::user_rom::demo::DEMO_BUTTONS_PAGE) << 8;
        self.raw.spawn_id = 0;
        self.raw.render_mode = 3;
        let first = self.choose_next_tetrimino();
        self.raw.player1.current_piece = first;
        self.raw.player2.current_piece = first;
        self.increment_piece_stat(first);
        self.step_rng();
        let next = self.choose_next_tetrimino();
        self.raw.next_piece = next;
        self.raw.two_player_piece_delay_piece = next;
        if self.raw.game_type != 0 {
            self.raw.player1.lines = [0x25, 0];
            self.raw.player2.lines = [0x25, 0];
        }
        self.raw.out_of_date_render_flags = 0x40 | 0x04 | 0x02 | 0x01;
        Flow::Wait(Wait::InitGameState)
    }

    /// The rest of `gameModeState_initGameState`: `initPlayfieldIfTypeB` and the music.
    pub(crate) fn init_game_state_after_wait(&mut self) -> Flow {
        if self.raw.game_type == 0 {
            return self.init_game_state_finish();
        }
        self.raw.general_counter = 0x0C;
        self.type_b_rows()
    }

    fn init_game_state_finish(&mut self) -> Flow {
        let a = self.set_music_track(MUSIC_SELECTION_TABLE[usize::from(self.raw.music_type & 7)]);
        self.raw.game_mode_state += 1;
        Flow::Ret(a)
    }

    /// `typeBRows`: one row of garbage per frame, from row 8 down to row 19.
    fn type_b_rows(&mut self) -> Flow {
        if self.raw.general_counter == 0 {
            return self.type_b_finish();
        }
        let row = 0x14u8.wrapping_sub(self.raw.general_counter);
        self.raw.general_counter2 = row;
        self.raw.player1.vram_row = 0;
        self.raw.player2.vram_row = 0;
        let base = MULT_BY_10[usize::from(row) % 20];
        for column in (0..=9u8).rev() {
            self.step_rng();
            let tile = TYPE_B_GARBAGE_TILES[usize::from(self.rng_high() & 7)];
            self.raw.playfield[usize::from(base.wrapping_add(column))] = tile;
        }
        let hole = loop {
            self.step_rng();
            let a = self.rng_high() & 0x0F;
            if a < 0x0A {
                break a;
            }
        };
        self.raw.playfield[usize::from(base.wrapping_add(hole))] = TILE_EMPTY;
        Flow::Wait(Wait::TypeBRow)
    }

    pub(crate) fn type_b_row_waited(&mut self) -> Flow {
        self.raw.general_counter = self.raw.general_counter.wrapping_sub(1);
        if self.raw.general_counter != 0 {
            return self.type_b_rows();
        }
        self.type_b_finish()
    }

    fn type_b_finish(&mut self) -> Flow {
        // typeBBlankInitPlayer1 clears cells 0..=count, one more than the rows above the
        // garbage, so the top garbage row's first cell is always empty.
        let count = TYPE_B_BLANK_INIT_COUNT_BY_HEIGHT
            .get(usize::from(self.raw.player1.start_height))
            .copied();
        let Some(count) = count else {
            return self.stop_unsupported(Unsupported::StartHeight);
        };
        for cell in 0..=usize::from(count) {
            self.raw.playfield[cell] = TILE_EMPTY;
        }
        self.init_game_state_finish()
    }

    /// `gameModeState_updateCountersAndNonPlayerState`.
    fn game_mode_state_update_counters_and_non_player_state(&mut self) -> Flow {
        let a = self.update_counters_and_non_player_state();
        self.raw.game_mode_state += 1;
        Flow::Ret(a)
    }

    /// The body of `gameModeState_updateCountersAndNonPlayerState`: returns A.
    #[inline(always)]
    fn update_counters_and_non_player_state(&mut self) -> u8 {
        self.raw.player1.fall_timer = self.raw.player1.fall_timer.wrapping_add(1);
        self.raw.player2.fall_timer = self.raw.player2.fall_timer.wrapping_add(1);
        if self.raw.two_player_piece_delay_counter != 0 {
            self.raw.two_player_piece_delay_counter =
                self.raw.two_player_piece_delay_counter.wrapping_add(1);
        }
        let mut a = self.raw.newly_pressed_buttons_player1 & Buttons::SELECT.bits();
        if a != 0 {
            self.raw.display_next_piece ^= 1;
            a = self.raw.display_next_piece;
        }
        a
    }

    /// `gameModeState_handleGameOver`.
    fn game_mode_state_handle_game_over(&mut self) -> Flow {
        if self.raw.player1.play_state != play_state::GAME_OVER {
            self.raw.game_mode_state += 1;
            return Flow::Ret(self.raw.number_of_players);
        }
        self.raw.render_mode = 3;
        self.handle_high_score_if_necessary()
    }

    /// `@resetGameState` of `gameModeState_handleGameOver`, up to its wait.
    pub(crate) fn reset_game_state(&mut self) -> Flow {
        self.raw.player1.play_state = 1;
        self.raw.player2.play_state = 1;
        self.raw.playfield = [TILE_EMPTY; 256];
        self.raw.player1.vram_row = 0;
        self.raw.player2.vram_row = 0;
        Flow::Wait(Wait::GameOverReset)
    }

    /// `gameModeState_updatePlayer1`.
    fn game_mode_state_update_player1(&mut self) -> Flow {
        self.make_player1_active();
        if let Some(flow) = self.branch_on_play_state() {
            return flow;
        }
        self.finish_update_player1()
    }

    /// `makePlayer1Active`.
    #[inline(always)]
    fn make_player1_active(&mut self) {
        self.raw.active_player = 1;
        self.raw.newly_pressed_buttons = self.raw.newly_pressed_buttons_player1;
        self.raw.held_buttons = self.raw.held_buttons_player1;
        self.raw.player = self.raw.player1;
    }

    /// The end of `gameModeState_updatePlayer1`, after the play state's routine.
    pub(crate) fn finish_update_player1(&mut self) -> Flow {
        let a = self.save_player1_state();
        self.raw.game_mode_state += 1;
        Flow::Ret(a)
    }

    /// `savePlayer1State` and `stageSpriteForNextPiece`: returns A.
    #[inline(always)]
    fn save_player1_state(&mut self) -> u8 {
        self.raw.player1 = self.raw.player;
        self.next_piece_sprite_a()
    }

    /// A store of the play states 1 to 9 into the active player's block, made in `player1`
    /// too: after `makePlayer1Active` the two are equal, so they stay equal and
    /// `savePlayer1State` has nothing to copy (see `run_play_states`).
    #[inline(always)]
    fn store_player(&mut self, write: impl Fn(&mut PlayerVars)) {
        write(&mut self.raw.player);
        write(&mut self.raw.player1);
    }

    /// `stageSpriteForNextPiece` leaves $FF in A (`loadSpriteIntoOamStaging`) or
    /// `displayNextPiece`.
    #[inline(always)]
    fn next_piece_sprite_a(&self) -> u8 {
        if self.raw.display_next_piece != 0 {
            self.raw.display_next_piece
        } else {
            0xFF
        }
    }

    /// `branchOnPlayStatePlayer1`. Returns a flow only when the routine blocks in a wait.
    #[inline(always)]
    fn branch_on_play_state(&mut self) -> Option<Flow> {
        match self.raw.player.play_state {
            0 => self.raw.player.current_piece = ORIENTATION_HIDDEN,
            1 => {
                let Some(orientation) = Orientation::from_id(self.raw.player.current_piece) else {
                    return Some(self.stop_unsupported(Unsupported::HiddenOrientation));
                };
                self.player_controls_active_tetrimino(orientation);
            }
            2 => self.play_state_lock_tetrimino(),
            3 => self.play_state_check_for_completed_rows(),
            4 | 9 => {}
            5 => self.play_state_update_lines_and_statistics(),
            6 => return self.play_state_b_type_goal_check(),
            7 => self.store_player(|p| p.play_state += 1),
            8 => self.play_state_spawn_next_tetrimino(),
            10 => return self.play_state_update_game_over_curtain(),
            11 => self.raw.player.play_state += 1,
            _ => return Some(self.stop_unsupported(Unsupported::PlayState)),
        }
        None
    }

    /// `isPositionValid` for the active piece ([`rules::is_position_valid`]).
    #[inline]
    pub(crate) fn is_position_valid(&self) -> bool {
        let p = &self.raw.player;
        rules::is_position_valid(
            &self.raw.playfield,
            p.tetrimino_x,
            p.tetrimino_y,
            p.current_piece,
        )
    }

    /// `playState_playerControlsActiveTetrimino`: the movement rule ([`rules::control_frame`])
    /// run directly on the RAM's piece ([`RamPiece`]), which stores each move into both player
    /// blocks and records what the routines record around it (the shift and rotation sounds,
    /// `holdDownPoints`, `dropSpeed`, the lock). `currentPiece` is a real orientation (the callers
    /// stop at `hidden`).
    #[inline(always)]
    fn player_controls_active_tetrimino(&mut self, orientation: Orientation) {
        let newly = Buttons::from_bits_retain(self.raw.newly_pressed_buttons);
        let held = Buttons::from_bits_retain(self.raw.held_buttons);
        let mut piece = RamPiece {
            nes: self,
            orientation,
        };
        rules::control_frame(&mut piece, newly, held);
    }

    /// `@drop`'s lock: `playState` 2 and the playfield redrawn around the piece.
    fn lock_where_blocked(&mut self) {
        self.store_player(|p| p.play_state = play_state::LOCK);
        self.update_playfield();
    }

    /// `updatePlayfield`: redraw from two rows above the piece (or row 0).
    fn update_playfield(&mut self) {
        let row = self.raw.player.tetrimino_y.wrapping_sub(2);
        let row = if (row as i8) < 0 { 0 } else { row };
        if (row.wrapping_sub(self.raw.player.vram_row) as i8) < 0 {
            self.store_player(|p| p.vram_row = row);
        }
    }

    /// `playState_lockTetrimino`.
    fn play_state_lock_tetrimino(&mut self) {
        if !self.is_position_valid() {
            // The piece overlaps the stack: the game is over and the curtain comes down.
            self.store_player(|p| {
                p.play_state = play_state::CURTAIN;
                p.curtain_row = 0xF0;
            });
            self.sound_effect(0, 0x02);
            self.update_audio2();
            self.events.add(Events::TOP_OUT);
            return;
        }
        if (self.raw.player.vram_row.wrapping_sub(0x20) as i8) < 0 {
            return;
        }
        let p = &self.raw.player;
        rules::lock_tetrimino(
            &mut self.raw.playfield,
            p.tetrimino_x,
            p.tetrimino_y,
            p.current_piece,
        );
        self.store_player(|p| p.line_index = 0);
        self.update_playfield();
        self.update_music_speed();
        self.store_player(|p| p.play_state += 1);
        self.events.add(Events::LOCK);
    }

    /// `playState_checkForCompletedRows`: one row per frame, four frames.
    fn play_state_check_for_completed_rows(&mut self) {
        if (self.raw.player.vram_row.wrapping_sub(0x20) as i8) < 0 {
            return;
        }
        let row = rules::first_row_checked(self.raw.player.tetrimino_y)
            .wrapping_add(self.raw.player.line_index);
        let line_index = usize::from(self.raw.player.line_index & 3);
        let next_index = self.raw.player.line_index.wrapping_add(1);
        if rules::clear_row_if_complete(&mut self.raw.playfield, row) {
            self.sound_effect(1, 0x0A);
            let completed = self.raw.player.completed_lines.wrapping_add(1);
            self.store_player(|p| {
                p.completed_lines = completed;
                p.completed_row[line_index] = row;
                p.current_piece = ORIENTATION_HIDDEN;
                p.line_index = next_index;
            });
        } else {
            self.store_player(|p| {
                p.completed_row[line_index] = 0;
                p.line_index = next_index;
            });
        }
        if (next_index.wrapping_sub(4) as i8) < 0 {
            return;
        }
        let cleared = usize::from(self.raw.player.completed_lines).min(4);
        self.raw.pending_garbage_inactive_player = self
            .raw
            .pending_garbage_inactive_player
            .wrapping_add(GARBAGE_LINES[cleared]);
        let completed = self.raw.player.completed_lines;
        // Past the line-clear animation to the lines' update when no row was complete.
        let next_state = self.raw.player.play_state + if completed == 0 { 2 } else { 1 };
        self.store_player(|p| {
            p.vram_row = 0;
            p.row_y = 0;
            p.play_state = next_state;
        });
        if completed == 4 {
            self.sound_effect(1, 0x04);
        }
        if completed == 0 {
            self.sound_effect(1, 0x07);
        }
    }

    /// `playState_updateLinesAndStatistics`: lines, level, push-down points and line points.
    fn play_state_update_lines_and_statistics(&mut self) {
        self.update_music_speed();
        let completed = self.raw.player.completed_lines;
        if completed != 0 {
            let i = usize::from(completed.wrapping_sub(1) & 3);
            let mut stat = self.raw.line_clear_stats_by_type[i].wrapping_add(1);
            if stat & 0x0F >= 0x0A {
                stat = stat.wrapping_add(6);
            }
            self.raw.line_clear_stats_by_type[i] = stat;
            self.raw.out_of_date_render_flags |= 0x01;
            self.events.add(Events::LINES_CLEARED);
            self.events.lines_cleared = completed;
            if self.raw.game_type != 0 {
                self.b_type_subtract_lines(completed);
            } else {
                for _ in 0..completed {
                    self.increment_lines();
                }
            }
        }
        self.add_hold_down_points();
        self.add_line_clear_points();
    }

    /// B-type: `lines` counts down; the subtraction is binary on the low byte only.
    fn b_type_subtract_lines(&mut self, completed: u8) {
        let lines = self.raw.player.lines[0].wrapping_sub(completed);
        let lines = if (lines as i8) < 0 {
            0
        } else if lines & 0x0F >= 0x0A {
            lines.wrapping_sub(6)
        } else {
            lines
        };
        self.store_player(|p| p.lines[0] = lines);
    }

    /// `incrementLines`: one line, BCD, and the level check on every tenth line.
    fn increment_lines(&mut self) {
        let (mut lines, mut level) = (self.raw.player.lines, self.raw.player.level_number);
        let level_up = rules::increment_lines(&mut lines, &mut level);
        self.store_player(|p| {
            p.lines = lines;
            p.level_number = level;
        });
        if level_up {
            self.sound_effect(1, 0x06);
            self.raw.out_of_date_render_flags |= 0x02;
            self.events.add(Events::LEVEL_UP);
        }
    }

    /// `addHoldDownPoints` ([`rules::add_hold_down_points`]), on the score and on the score
    /// without the cap.
    fn add_hold_down_points(&mut self) {
        let points = self.raw.player.hold_down_points;
        rules::add_hold_down_points(&mut self.score_uncapped.low, points);
        let mut score = self.raw.player.score;
        if rules::add_hold_down_points(&mut score, points) {
            self.store_player(|p| p.score = score);
            self.raw.out_of_date_render_flags |= 0x04;
        }
    }

    /// `addLineClearPoints` ([`rules::add_line_clear_points`]: capped at 999,999), and the same
    /// points on the score without the cap.
    fn add_line_clear_points(&mut self) {
        let p = &self.raw.player;
        let uncapped = &mut self.score_uncapped;
        let mut score = p.score;
        rules::add_line_clear_points_capped_and_uncapped(
            &mut score,
            &mut uncapped.low,
            &mut uncapped.millions,
            p.completed_lines,
            p.level_number,
        );
        let next_state = p.play_state + 1;
        self.store_player(|p| {
            p.hold_down_points = 0;
            p.score = score;
            p.completed_lines = 0;
            p.play_state = next_state;
        });
        self.raw.out_of_date_render_flags |= 0x04;
    }

    /// `playState_bTypeGoalCheck`.
    fn play_state_b_type_goal_check(&mut self) -> Option<Flow> {
        if self.raw.game_type == 0 || self.raw.player.lines[0] != 0 {
            self.store_player(|p| p.play_state += 1);
            return None;
        }
        self.events.add(Events::B_TYPE_GOAL);
        Some(self.start_type_b_ending())
    }

    /// `playState_spawnNextTetrimino` (one player).
    fn play_state_spawn_next_tetrimino(&mut self) {
        if (self.raw.player.vram_row.wrapping_sub(0x20) as i8) < 0 {
            return;
        }
        self.raw.two_player_piece_delay_counter = 0;
        let spawn = SPAWN_ORIENTATION_FROM_ORIENTATION
            .get(usize::from(self.raw.next_piece))
            .copied()
            .unwrap_or(ORIENTATION_HIDDEN);
        self.store_player(|p| {
            p.fall_timer = 0;
            p.tetrimino_y = 0;
            p.play_state = play_state::ACTIVE;
            p.tetrimino_x = 5;
            p.current_piece = spawn;
            p.autorepeat_y = 0;
        });
        self.increment_piece_stat(spawn);
        self.raw.next_piece = self.choose_next_tetrimino();
        self.events.add(Events::SPAWN);
    }

    /// `chooseNextTetrimino`: the demo's table in the demo, else `pickRandomTetrimino`, which
    /// steps `spawnCount` (and on a reroll the generator) and sets `spawnID`. Returns the
    /// orientation id picked. Public so the piece distribution can be computed exactly from the
    /// game's own routine over every generator state.
    pub fn choose_next_tetrimino(&mut self) -> u8 {
        if self.raw.game_mode == game_mode::DEMO {
            let x = usize::from(self.raw.demo_index);
            self.raw.demo_index = self.raw.demo_index.wrapping_add(1);
            let byte = self.demo_data.as_ref().map_or(0, |d| d.tetrimino_types[x]);
            // spawnTable's unused eighth byte is tDown ($02).
            return SPAWN_TABLE
                .get(usize::from(byte >> 4 & 7))
                .copied()
                .unwrap_or(0x02);
        }
        self.raw.spawn_count = self.raw.spawn_count.wrapping_add(1);
        let index = self.rng_high().wrapping_add(self.raw.spawn_count) & 7;
        if index != 7 {
            let piece = SPAWN_TABLE[usize::from(index)];
            if piece != self.raw.spawn_id {
                self.raw.spawn_id = piece;
                return piece;
            }
        }
        // @invalidIndex: reroll once, adding the previous orientation id, modulo 7.
        self.step_rng();
        let mut index = (self.rng_high() & 7).wrapping_add(self.raw.spawn_id);
        while index >= 7 {
            index -= 7;
        }
        let piece = SPAWN_TABLE[usize::from(index)];
        self.raw.spawn_id = piece;
        piece
    }

    /// `incrementPieceStat`: a BCD counter per piece type.
    pub(crate) fn increment_piece_stat(&mut self, orientation: u8) {
        let Some(&kind) = TETRIMINO_TYPE_FROM_ORIENTATION.get(usize::from(orientation)) else {
            return;
        };
        let x = usize::from(kind) * 2;
        let mut lo = self.raw.stats_by_type[x].wrapping_add(1);
        if lo & 0x0F >= 0x0A {
            lo = lo.wrapping_add(6);
            if lo >= 0xA0 {
                lo = lo.wrapping_add(0x60);
                self.raw.stats_by_type[x + 1] = self.raw.stats_by_type[x + 1].wrapping_add(1);
            }
        }
        self.raw.stats_by_type[x] = lo;
        self.raw.out_of_date_render_flags |= 0x40;
    }

    /// `updateMusicSpeed`: the music speeds up while row 5 holds a block.
    fn update_music_speed(&mut self) {
        let high = self.raw.playfield[50..60].iter().any(|&c| c != TILE_EMPTY);
        if high {
            if self.raw.allegro == 0 {
                self.raw.allegro = 0xFF;
                let track =
                    MUSIC_SELECTION_TABLE[usize::from(self.raw.music_type.wrapping_add(4) & 7)];
                self.set_music_track(track);
            }
        } else if self.raw.allegro != 0 {
            self.raw.allegro = 0;
            self.set_music_track(MUSIC_SELECTION_TABLE[usize::from(self.raw.music_type & 7)]);
        }
    }

    /// `playState_updateGameOverCurtain`.
    fn play_state_update_game_over_curtain(&mut self) -> Option<Flow> {
        if self.raw.player.curtain_row == 0x14 {
            if self.raw.player1.score[2] >= 0x03 {
                return Some(self.start_type_a_ending());
            }
            if self.raw.newly_pressed_buttons_player1 == Buttons::START.bits() {
                self.raw.player.play_state = play_state::GAME_OVER;
                self.raw.newly_pressed_buttons_player1 = 0;
            }
            return None;
        }
        if self.raw.frame_counter & 3 != 0 {
            return None;
        }
        let row = self.raw.player.curtain_row;
        if (row as i8) >= 0 {
            let start = usize::from(MULT_BY_10[usize::from(row) % 20]);
            self.raw.playfield[start..start + 10].fill(0x4F);
            self.raw.player.current_piece = ORIENTATION_HIDDEN;
            self.raw.player.vram_row = row;
        }
        self.raw.player.curtain_row = row.wrapping_add(1);
        None
    }

    /// `gameModeState_checkForResetKeyCombo`: A+B+Select+Start goes back to the legal screen.
    fn game_mode_state_check_for_reset_key_combo(&mut self) -> Flow {
        let held = self.raw.held_buttons_player1;
        if held == (Buttons::A | Buttons::B | Buttons::SELECT | Buttons::START).bits() {
            self.raw.game_mode = game_mode::LEGAL;
            return Flow::Ret(0);
        }
        self.raw.game_mode_state += 1;
        // A still holds heldButtons_player1: holding exactly Right+Left+Down (7) makes the main
        // loop wait a frame here, as in the ROM.
        Flow::Ret(held)
    }

    /// `gameModeState_startButtonHandling`: pause.
    fn game_mode_state_start_button_handling(&mut self) -> Flow {
        let a;
        if self.raw.game_mode == game_mode::DEMO
            && self.raw.newly_pressed_buttons_player1 == Buttons::START.bits()
        {
            self.raw.game_mode = game_mode::TITLE;
            a = 0x01;
        } else if self.raw.render_mode != 3 {
            a = self.raw.render_mode;
        } else if self.raw.newly_pressed_buttons_player1 & Buttons::START.bits() == 0 {
            a = 0;
        } else if self.raw.player1.play_state == play_state::CURTAIN {
            a = play_state::CURTAIN;
        } else {
            self.music_staging_noise_hi(0x05);
            self.raw.render_mode = 0;
            return Flow::Wait(Wait::Pause);
        }
        self.raw.game_mode_state += 1;
        Flow::Ret(a)
    }

    /// One pass of the pause loop.
    pub(crate) fn pause_frame(&mut self) -> Flow {
        if self.raw.newly_pressed_buttons_player1 == Buttons::START.bits() {
            self.music_staging_noise_hi(0x00);
            self.raw.player1.vram_row = 0;
            self.raw.render_mode = 3;
            self.raw.game_mode_state += 1;
            return Flow::Ret(0x03);
        }
        Flow::Wait(Wait::Pause)
    }
}

/// The active piece in the RAM, as the movement rule moves it: each store goes into `player` and
/// `player1` (equal during play), with the sounds and counters the routines keep beside the
/// move. `orientation` is `currentPiece`, known to be a real orientation.
struct RamPiece<'a> {
    nes: &'a mut Nes,
    orientation: Orientation,
}

impl rules::DropTimerFields for RamPiece<'_> {
    #[inline(always)]
    fn fall_timer(&self) -> u8 {
        self.nes.raw.player.fall_timer
    }
    #[inline(always)]
    fn drop_speed(&self) -> u8 {
        self.nes.region.drop_speed(self.nes.raw.player.level_number)
    }
    #[inline(always)]
    fn autorepeat_y(&self) -> u8 {
        self.nes.raw.player.autorepeat_y
    }
    #[inline(always)]
    fn set_autorepeat_y(&mut self, autorepeat_y: u8) {
        self.nes.store_player(|p| p.autorepeat_y = autorepeat_y);
    }
    #[inline(always)]
    fn soft_drop_row(&mut self) {
        let points = self.nes.raw.player.hold_down_points.wrapping_add(1);
        self.nes.store_player(|p| p.hold_down_points = points);
    }
    #[inline(always)]
    fn soft_drop_released(&mut self) {
        self.nes.store_player(|p| p.hold_down_points = 0);
    }
    #[inline(always)]
    fn drop_speed_looked_up(&mut self, drop_speed: u8) {
        self.nes.raw.drop_speed = drop_speed;
    }
}

impl rules::PieceFields for RamPiece<'_> {
    #[inline(always)]
    fn x(&self) -> u8 {
        self.nes.raw.player.tetrimino_x
    }
    #[inline(always)]
    fn set_x(&mut self, x: u8) {
        self.nes.store_player(|p| p.tetrimino_x = x);
    }
    #[inline(always)]
    fn y(&self) -> u8 {
        self.nes.raw.player.tetrimino_y
    }
    #[inline(always)]
    fn set_y(&mut self, y: u8) {
        self.nes.store_player(|p| p.tetrimino_y = y);
    }
    #[inline(always)]
    fn orientation(&self) -> Orientation {
        self.orientation
    }
    #[inline(always)]
    fn set_orientation(&mut self, orientation: Orientation) {
        self.orientation = orientation;
        self.nes
            .store_player(|p| p.current_piece = orientation.id());
    }
    #[inline(always)]
    fn autorepeat_x(&self) -> u8 {
        self.nes.raw.player.autorepeat_x
    }
    #[inline(always)]
    fn set_autorepeat_x(&mut self, autorepeat_x: u8) {
        self.nes.store_player(|p| p.autorepeat_x = autorepeat_x);
    }
    #[inline(always)]
    fn set_fall_timer(&mut self, fall_timer: u8) {
        self.nes.store_player(|p| p.fall_timer = fall_timer);
    }
    #[inline(always)]
    fn is_position_valid(&self, x: u8, y: u8, orientation: Orientation) -> bool {
        rules::is_position_valid(&self.nes.raw.playfield, x, y, orientation.id())
    }
    #[inline(always)]
    fn das(&self) -> rules::Das {
        rules::Das::of(self.nes.region)
    }
    /// Not the ROM: TetrisGYM's "kill screen ×2" line-cap mode, the community's level-39
    /// benchmark rule, when its option is on.
    #[inline(always)]
    fn double_speed(&self) -> bool {
        self.nes
            .modifiers
            .double_speed_at(self.nes.raw.player.level_number)
    }
    #[inline(always)]
    fn shifted(&mut self) {
        self.nes.sound_effect(1, 0x03);
    }
    #[inline(always)]
    fn rotated(&mut self) {
        self.nes.sound_effect(1, 0x05);
    }
    #[inline(always)]
    fn locked(&mut self) {
        self.nes.lock_where_blocked();
    }
}
