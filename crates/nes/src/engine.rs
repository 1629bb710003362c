//! The engine: the game's RAM as named fields, the NMI handler, and the main loop as a resumable
//! routine.
//!
//! The ROM runs a main loop that blocks, many times per frame's worth of code, in
//! `updateAudioWaitForNmiAndResetOamStaging` and its siblings until the NMI handler has run. One call
//! to [`Nes::step`] is one video frame: the NMI handler runs with the frame's buttons, then the main
//! loop continues from the wait where it stopped ([`Wait`]) until it blocks again.

use std::sync::Arc;

use crate::buttons::Buttons;
use crate::demo::{DEMO_BUTTONS_PAGE, DEMO_TETRIMINO_TYPE_PAGE, DemoData};
use crate::ending::EndingStep;
use crate::events::Events;
use crate::modifiers::{Modifiers, UncappedScore};
use crate::player::PlayerVars;
use crate::region::Region;
use crate::tables::*;

/// Where the main loop is blocked, waiting for the next NMI. Each variant names the routine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Wait {
    /// Between power-on and the reset code's first NMI; counts frames down.
    PowerOn(u16),
    /// `initRam`'s `updateAudioWaitForNmiAndDisablePpuRendering` before it clears the nametables.
    InitRamClear,
    /// The three waits at the end of `initRam` (index 0-2).
    InitRam(u8),
    /// `@mainLoop`: `branchOnGameMode` returned with A equal to `gameModeState`.
    MainLoop,
    /// `updateAudioWaitForNmiAndDisablePpuRendering` before a screen is copied to the PPU.
    LoadDisable(Screen),
    /// The three waits after a screen is copied (index 0-2).
    LoadAfter(Screen, u8),
    /// `sleep_for_a_vblanks` on the legal screen.
    LegalSleep,
    /// `@waitForStartButton` on the legal screen (second phase).
    LegalStart,
    /// `@waitForStartButton` on the title screen.
    TitleStart,
    /// The game-type menu loop (`L830B`).
    GameTypeMenu,
    /// The level menu loop (`gameMode_levelMenu_processPlayer1Navigation`).
    LevelMenu,
    /// The wait inside `gameModeState_initGameState`.
    InitGameState,
    /// One B-type garbage row drawn (`typeBRows`).
    TypeBRow,
    /// The pause loop of `gameModeState_startButtonHandling`.
    Pause,
    /// The name entry loop of `highScoreEntryScreen`.
    HighScoreEntry,
    /// `highScoreEntryScreen` after Start: its last wait before returning.
    HighScoreDone,
    /// The wait in `gameModeState_handleGameOver` before the level menu.
    GameOverReset,
    /// `sleep_for_14_vblanks` after a B-type game's 25th line.
    BTypeSuccessSleep,
    /// `sleep_for_a_vblanks` before an ending.
    EndingSleep,
    /// `render_endingUnskippable`.
    EndingUnskippable(EndingStep),
    /// The last loop of an ending, which Start ends.
    EndingLoop,
    /// A state the engine does not model; it stops here (the reason is in `Nes::unsupported`).
    Unsupported,
    /// The main loop's work ran past the NMI: the next frame is a lag frame (`lag`).
    Lagging,
    /// The game crashed (`lag`); the engine stops.
    Crashed,
}

/// The screens that are copied to the PPU with the NMI off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Screen {
    Legal,
    Title,
    GameTypeMenu,
    LevelMenu,
    GameBackground,
    HighScoreEntry,
    EndingA,
    EndingB,
}

/// The result of running a routine of the main loop: it either blocked in a wait, or returned to
/// `@mainLoop` with this value in the accumulator (the loop waits when it equals `gameModeState`).
pub(crate) enum Flow {
    Wait(Wait),
    Ret(u8),
}

/// NES Tetris (USA), frame-exact. Fields are the game's RAM variables, named as in the
/// disassembly (TetrisNESDisasm) with their addresses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nes {
    pub(crate) region: Region,
    pub(crate) wait: Wait,
    /// Frames in a row the NMI stays disabled while a screen is copied.
    pub(crate) nmi_skip: u8,
    pub(crate) frame: u64,
    pub(crate) unsupported: Option<&'static str>,
    pub(crate) events: Events,
    /// The demo's tables, read from the user's ROM; `None` stops the engine at the demo.
    pub(crate) demo_data: Option<Arc<DemoData>>,
    /// Departures from the ROM (none by default).
    pub(crate) modifiers: Modifiers,
    /// The score without the 999,999 cap, kept beside the RAM's.
    pub(crate) score_uncapped: UncappedScore,
    /// The ROM's program bytes, for the music's timing (`lag`).
    pub(crate) program: Option<Arc<crate::program::ProgramData>>,
    /// The lag model's state, kept from level `LAG_AUDIO_FROM_LEVEL` on.
    pub(crate) lag: Option<Box<crate::lag::LagModel>>,
    /// When the music was loaded, for the lag model.
    pub(crate) music_clock: crate::lag::MusicClock,
    /// The crash, once the game crashed.
    pub(crate) crash: Option<crate::lag::Crash>,
    /// The CPU's phase at the next frame that can lag, when a caller knows it.
    pub(crate) cpu_phase: Option<crate::heavy::CpuPhase>,

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

/// `initMagic` once `initRam` has run: the high-score table is valid.
const INIT_MAGIC: [u8; 5] = [0x12, 0x34, 0x56, 0x78, 0x9A];

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

impl Nes {
    /// The console switched on (NTSC). RAM starts zeroed, as in the reference emulator setup.
    #[must_use]
    pub fn power_on() -> Self {
        Self::power_on_region(Region::Ntsc)
    }

    /// The console switched on, for a region. PAL cannot be checked against a ROM here.
    #[must_use]
    pub fn power_on_region(region: Region) -> Self {
        Nes {
            region,
            wait: Wait::PowerOn(region.frames_before_first_nmi()),
            nmi_skip: 0,
            frame: 0,
            unsupported: None,
            events: Events::default(),
            demo_data: None,
            modifiers: Modifiers::default(),
            score_uncapped: UncappedScore::default(),
            program: None,
            lag: None,
            music_clock: crate::lag::MusicClock::default(),
            crash: None,
            cpu_phase: None,
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

    /// Runs one video frame with these buttons held on gamepad 1 and returns what happened.
    #[inline(always)]
    pub fn step(&mut self, buttons: Buttons) -> Events {
        self.frame += 1;
        self.events = Events::default();
        if self.nmi_skip == 0 {
            match self.wait {
                Wait::MainLoop
                    if self.game_mode == game_mode::PLAY && self.game_mode_state == 2 =>
                {
                    if self.player1.level_number >= crate::lag::LAG_AUDIO_FROM_LEVEL
                        || self.lag.is_some()
                    {
                        return self.play_frame_timed(buttons);
                    }
                    return self.play_frame(buttons);
                }
                Wait::Pause if self.game_mode != game_mode::DEMO => {
                    // A paused frame (render mode 0): the NMI, then the pause loop looks for
                    // Start. Kept small: most frames of a paused game end here.
                    self.nmi(buttons);
                    if self.newly_pressed_buttons_player1 != Buttons::START.0 {
                        // The pause's wait: the sound driver plays the pause, not the music.
                        self.music_clock.lost += 1;
                        return self.events;
                    }
                    return self.resume_after_nmi(self.game_mode);
                }
                _ => {}
            }
        }
        self.step_other(buttons)
    }

    /// The frame of play, nearly every frame of a game: the NMI, then `gameModeState` 2 to 8
    /// called directly, without the dispatch on `wait` (the engine's hottest branch).
    #[inline(never)]
    fn play_frame(&mut self, buttons: Buttons) -> Events {
        self.play_frame_native(buttons)
    }

    /// [`Nes::play_frame`]'s body, also run by the lag model at high levels.
    #[inline(always)]
    pub(crate) fn play_frame_native(&mut self, buttons: Buttons) -> Events {
        // The player-1 block as the last frame left it, read before the NMI writes single bytes
        // of it (see `run_play_states`).
        let player1_before_nmi = self.player1;
        self.nmi(buttons);
        match self.run_play_states(Some(&player1_before_nmi)) {
            // Back at `@mainLoop` with A = `gameModeState`: the wait is the one it came from.
            Flow::Ret(a) if a == self.game_mode_state => {}
            Flow::Ret(a) => self.wait = self.after_branch(a),
            Flow::Wait(w) => self.wait = w,
        }
        if self.game_mode != game_mode::PLAY {
            self.events.add(Events::MODE_CHANGE);
        }
        self.events
    }

    /// Any other frame: power-on, the frames without NMI while a screen is copied, the menus,
    /// the screens and the waits of the main loop.
    #[inline(never)]
    fn step_other(&mut self, buttons: Buttons) -> Events {
        match self.wait {
            Wait::Unsupported | Wait::Crashed => return self.events,
            Wait::Lagging if self.nmi_skip == 0 => return self.lag_frame(buttons),
            Wait::PowerOn(frames) => {
                self.power_on_frame(frames);
                return self.events;
            }
            _ => {}
        }
        if self.nmi_skip > 0 {
            // The NMI is off while a screen is copied: no counters, no controller read.
            self.nmi_skip -= 1;
            self.music_clock.lost += 1;
            return self.events;
        }
        let mode_before = self.game_mode;
        self.nmi(buttons);
        self.resume_after_nmi(mode_before)
    }

    /// The main loop's part of a frame, once the NMI has run; `mode_before` is `gameMode` before
    /// the NMI (which ends the demo on Start).
    #[inline(never)]
    fn resume_after_nmi(&mut self, mode_before: u8) -> Events {
        self.resume();
        if self.game_mode != mode_before {
            self.events.add(Events::MODE_CHANGE);
        }
        self.events
    }

    /// Runs one video frame as a *lag frame*: the frame in which the NMI interrupted the main
    /// loop's work instead of finding it waiting. The NMI handler runs as in every frame (frame
    /// counter, RNG, controller read, rendering); the main loop, once its interrupted work is done,
    /// waits for the next NMI, so no game routine runs in this frame and a button newly pressed
    /// in it is no longer new when the next frame's routines read it.
    ///
    /// The engine does not predict lag frames itself: the frame's CPU cycle count depends on the
    /// audio driver and on the console's cycle phase, which it does not model. This is for a
    /// caller that knows a frame lagged (measured on the ROM, see `playfield-rom`'s lag probe);
    /// outside play it is the same as [`Nes::step`].
    pub fn step_lag_frame(&mut self, buttons: Buttons) -> Events {
        if self.wait != Wait::MainLoop || self.nmi_skip > 0 || self.game_mode != game_mode::PLAY {
            return self.step(buttons);
        }
        self.frame += 1;
        self.events = Events::default();
        self.nmi(buttons);
        self.events.add(Events::LAG);
        self.events
    }

    /// Frames stepped since power-on (input lines consumed).
    #[must_use]
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The region this console runs.
    #[must_use]
    pub fn region(&self) -> Region {
        self.region
    }

    /// Why the engine stopped, if it reached a state it does not model exactly.
    #[must_use]
    pub fn unsupported(&self) -> Option<&'static str> {
        self.unsupported
    }

    pub(crate) fn stop_unsupported(&mut self, why: &'static str) -> Flow {
        self.unsupported = Some(why);
        self.events.add(Events::UNSUPPORTED);
        Flow::Wait(Wait::Unsupported)
    }

    fn power_on_frame(&mut self, frames: u16) {
        // The reset code waits for two vblanks, then clears RAM and the nametables with the NMI
        // off; the RNG is seeded during the last frame before the first NMI (measured in the
        // reference emulator, see `Region::frames_before_first_nmi`).
        if frames <= 1 {
            self.init_ram();
            self.wait = Wait::InitRamClear;
        } else {
            self.wait = Wait::PowerOn(frames - 1);
        }
    }

    /// `initRam`: zeroes RAM pages $00-$06, writes the default high scores unless `initMagic`
    /// says they survived a soft reset (warm boot), seeds the RNG and empties the playfield.
    fn init_ram(&mut self) {
        let warm = self.init_magic == INIT_MAGIC;
        let mut fresh = Nes::power_on_region(self.region);
        fresh.frame = self.frame;
        fresh.wait = self.wait;
        fresh.demo_data = self.demo_data.take();
        fresh.program = self.program.take();
        fresh.modifiers = self.modifiers;
        fresh.music_clock = self.music_clock;
        if warm {
            fresh.high_score_names = self.high_score_names;
            fresh.high_score_scores = self.high_score_scores;
            fresh.high_score_levels = self.high_score_levels;
        } else {
            fresh.high_score_names = DEFAULT_HIGH_SCORE_NAMES;
            fresh.high_score_scores = DEFAULT_HIGH_SCORE_SCORES;
            fresh.high_score_levels = DEFAULT_HIGH_SCORE_LEVELS;
        }
        fresh.init_magic = INIT_MAGIC;
        fresh.rng_seed = 0x8988;
        // memset_page fills pages 4 and 5 with tileEmpty.
        fresh.playfield = [TILE_EMPTY; 256];
        *self = fresh;
    }

    /// The console's Reset button (an .fm2 soft-reset command, applied before the frame): the
    /// reset code runs again — two vblank waits with RAM untouched, then `initRam` (a warm boot
    /// keeps the high scores) — on the same timeline as power-on (measured in the ROM).
    pub fn soft_reset(&mut self) {
        self.nmi_skip = 0;
        self.unsupported = None;
        self.crash = None;
        self.lag = None;
        self.wait = Wait::PowerOn(self.region.frames_before_first_nmi() - 1);
    }

    /// Runs one .fm2 input line: its power or reset command first (as FCEUX does), then the
    /// frame. A power command starts the console again, frame count included.
    ///
    /// A command on the first line after power-on does nothing: FCEUX powers the console on when
    /// a movie starts and applies the first line's command before the CPU has run a cycle, when
    /// a reset (the CPU restarts at the reset vector, the PPU waits its warm-up frames again) or
    /// another power-on leaves the console exactly as it was. Movies converted from older formats
    /// begin with such a reset.
    pub fn step_line(&mut self, line: &crate::fm2::InputLine) -> Events {
        if line.command.0 != 0 {
            return self.step_line_with_command(line);
        }
        self.step(line.buttons)
    }

    /// [`Nes::step_line`] for a line with a command, out of line so that the frame of a plain
    /// line stays small.
    #[cold]
    #[inline(never)]
    fn step_line_with_command(&mut self, line: &crate::fm2::InputLine) -> Events {
        if self.frame == 0 {
            // Nothing has run since power-on: see above.
        } else if line.command.power() {
            let demo = self.demo_data.take();
            let program = self.program.take();
            let modifiers = self.modifiers;
            *self = Nes::power_on_region(self.region);
            self.demo_data = demo;
            self.program = program;
            self.modifiers = modifiers;
        } else if line.command.soft_reset() {
            self.soft_reset();
        }
        self.step(line.buttons)
    }

    /// The NMI handler (`nmi`).
    #[inline(always)]
    pub(crate) fn nmi(&mut self, buttons: Buttons) {
        self.render();
        self.sleep_counter = self.sleep_counter.wrapping_sub(1);
        if self.sleep_counter == 0xFF {
            self.sleep_counter = 0;
        }
        self.frame_counter = self.frame_counter.wrapping_add(1);
        self.rng_seed = next_rng(self.rng_seed);
        self.vertical_blanking_interval = 1;
        self.poll_controller_buttons(buttons);
    }

    /// `pollControllerButtons`: reads gamepad 1 (twice, ANDed, which is the same value here); in
    /// the demo, replaces it with `demoButtonsTable` unless Start was pressed.
    #[inline(always)]
    fn poll_controller_buttons(&mut self, buttons: Buttons) {
        let held = buttons.0;
        self.newly_pressed_buttons_player1 = held & !self.held_buttons_player1;
        self.held_buttons_player1 = held;
        if self.game_mode == game_mode::DEMO {
            self.poll_demo_buttons();
        }
    }

    /// The demo's part of `pollControllerButtons`.
    #[cold]
    fn poll_demo_buttons(&mut self) {
        if self.newly_pressed_buttons_player1 == Buttons::START.0 {
            self.demo_buttons_addr =
                u16::from(DEMO_BUTTONS_PAGE) << 8 | (self.demo_buttons_addr & 0xFF);
            self.frame_counter &= 0x00FF;
            self.game_mode = game_mode::TITLE;
            return;
        }
        if self.demo_repeats != 0 {
            self.demo_repeats -= 1;
            self.newly_pressed_buttons_player1 = 0;
            self.held_buttons_player1 = self.demo_held_buttons;
            return;
        }
        let Some(demo) = self.demo_data.clone() else {
            self.stop_unsupported("the demo needs the ROM's demo tables (give the ROM file)");
            self.wait = Wait::Unsupported;
            return;
        };
        let next = demo.button_byte(self.demo_buttons_addr);
        self.demo_buttons_addr = self.demo_buttons_addr.wrapping_add(1);
        self.newly_pressed_buttons_player1 = (self.demo_held_buttons ^ next) & next;
        self.demo_held_buttons = next;
        self.demo_repeats = demo.button_byte(self.demo_buttons_addr);
        self.demo_buttons_addr = self.demo_buttons_addr.wrapping_add(1);
        if (self.demo_buttons_addr >> 8) as u8 == DEMO_TETRIMINO_TYPE_PAGE {
            // Exhausted: this frame keeps the real gamepad's held buttons.
            return;
        }
        self.held_buttons_player1 = self.demo_held_buttons;
    }

    /// Turns on departures from the ROM (see [`Modifiers`]); the default is the ROM exactly.
    pub fn set_modifiers(&mut self, modifiers: Modifiers) {
        self.modifiers = modifiers;
    }

    /// The departures from the ROM in force.
    #[must_use]
    pub fn modifiers(&self) -> Modifiers {
        self.modifiers
    }

    /// Supplies the demo's tables (read from the user's ROM) so the engine can run the demo.
    pub fn set_demo_data(&mut self, demo: Option<Arc<DemoData>>) {
        self.demo_data = demo;
    }

    /// `render`: only the play screen and the high-score screen touch game state.
    #[inline(always)]
    fn render(&mut self) {
        match self.render_mode {
            // render_mode_congratulations_screen clears the flags once the letter is drawn.
            2 if self.out_of_date_render_flags & 0x80 != 0 => self.out_of_date_render_flags = 0,
            3 => self.render_mode_play_and_demo(),
            _ => {}
        }
    }

    /// `render_mode_play_and_demo` (player 1 only; the USA ROM has one player).
    fn render_mode_play_and_demo(&mut self) {
        if self.lag.is_some() && self.player.completed_lines == 4 && self.frame_counter & 7 == 0 {
            // The tetris flash's sound (`@renderTetrisFlashAndSound`).
            self.sound_effect(1, 0x09);
        }
        if self.player1.play_state == play_state::LINE_CLEAR_ANIMATION {
            self.player.row_y = self.player1.row_y;
            self.player.completed_row = self.player1.completed_row;
            self.player.play_state = self.player1.play_state;
            self.update_line_clearing_animation();
            self.player1.row_y = self.player.row_y;
            self.player1.play_state = self.player.play_state;
            self.player1.vram_row = 0;
        } else {
            let vram_row = vram_row_after_upload(self.player1.vram_row);
            self.player.vram_row = vram_row;
            self.player1.vram_row = vram_row;
        }
        // The lines, level, score and stats flags are cleared once drawn (one player).
        self.out_of_date_render_flags &= !(0x01 | 0x02 | 0x04 | 0x40);
    }

    /// `updateLineClearingAnimation`: every fourth frame blanks one more column pair.
    fn update_line_clearing_animation(&mut self) {
        if self.frame_counter & 0x03 != 0 {
            return;
        }
        self.player.row_y = self.player.row_y.wrapping_add(1);
        if (self.player.row_y.wrapping_sub(5) as i8) >= 0 {
            self.player.play_state = self.player.play_state.wrapping_add(1);
        }
    }

    /// Continues the main loop from its wait until it blocks again.
    fn resume(&mut self) {
        let flow = match self.wait {
            Wait::PowerOn(_) | Wait::Unsupported | Wait::Crashed | Wait::Lagging => return,
            Wait::InitRamClear => {
                self.nmi_skip = self.region.nmis_missed_clearing_nametables();
                Flow::Wait(Wait::InitRam(0))
            }
            Wait::InitRam(i) => {
                if i < 2 {
                    Flow::Wait(Wait::InitRam(i + 1))
                } else {
                    self.game_mode_state = 0;
                    self.game_mode = 0;
                    self.number_of_players = 1;
                    self.frame_counter &= 0x00FF;
                    self.wait = Wait::MainLoop;
                    Flow::Wait(self.main_loop())
                }
            }
            Wait::MainLoop => {
                self.check_for_demo_data_exhaustion();
                Flow::Wait(self.main_loop())
            }
            Wait::LoadDisable(screen) => {
                if screen == Screen::EndingA {
                    self.select_ending_screen();
                }
                self.nmi_skip = self
                    .region
                    .nmis_missed_while_loading(screen, self.game_type);
                Flow::Wait(Wait::LoadAfter(screen, 0))
            }
            Wait::LoadAfter(screen, i) => {
                if i < 2 {
                    Flow::Wait(Wait::LoadAfter(screen, i + 1))
                } else {
                    self.after_load(screen)
                }
            }
            Wait::LegalSleep => self.legal_sleep(),
            Wait::LegalStart => self.legal_start_waited(),
            Wait::TitleStart => self.title_start(),
            Wait::GameTypeMenu => self.game_type_menu_frame(),
            Wait::LevelMenu => self.level_menu_frame(),
            Wait::InitGameState => self.init_game_state_after_wait(),
            Wait::TypeBRow => self.type_b_row_waited(),
            Wait::Pause => self.pause_frame(),
            Wait::HighScoreEntry => self.high_score_entry_frame(),
            Wait::HighScoreDone => self.reset_game_state(),
            Wait::BTypeSuccessSleep => self.b_type_success_slept(),
            Wait::EndingSleep => self.ending_sleep(),
            Wait::EndingUnskippable(step) => self.ending_unskippable_waited(step),
            Wait::EndingLoop => self.ending_loop_waited(),
            Wait::GameOverReset => {
                self.game_mode = game_mode::LEVEL_MENU;
                Flow::Ret(0x03)
            }
        };
        if self.wait == Wait::Unsupported {
            return;
        }
        self.wait = match flow {
            Flow::Wait(w) => w,
            Flow::Ret(a) => self.after_branch(a),
        };
    }

    /// `@mainLoop` after `branchOnGameMode` returned with `a`.
    fn after_branch(&mut self, a: u8) -> Wait {
        if a == self.game_mode_state {
            return Wait::MainLoop;
        }
        self.check_for_demo_data_exhaustion();
        self.main_loop()
    }

    /// `@mainLoop`: runs game-mode routines until one blocks or returns A == `gameModeState`.
    fn main_loop(&mut self) -> Wait {
        loop {
            let flow = if self.game_mode == game_mode::PLAY && self.game_mode_state == 2 {
                self.run_play_states(None)
            } else {
                self.branch_on_game_mode()
            };
            match flow {
                Flow::Wait(w) => return w,
                Flow::Ret(a) => {
                    if a == self.game_mode_state {
                        return Wait::MainLoop;
                    }
                    self.check_for_demo_data_exhaustion();
                }
            }
        }
    }

    /// `@checkForDemoDataExhaustion`: the demo ends when its button table runs out.
    fn check_for_demo_data_exhaustion(&mut self) {
        if self.game_mode == game_mode::DEMO
            && (self.demo_buttons_addr >> 8) as u8 == DEMO_TETRIMINO_TYPE_PAGE
        {
            self.demo_buttons_addr =
                u16::from(DEMO_BUTTONS_PAGE) << 8 | (self.demo_buttons_addr & 0xFF);
            self.frame_counter &= 0x00FF;
            self.game_mode = game_mode::TITLE;
        }
    }

    /// `branchOnGameMode`.
    fn branch_on_game_mode(&mut self) -> Flow {
        match self.game_mode {
            game_mode::LEGAL => self.game_mode_legal_screen(),
            game_mode::TITLE => self.game_mode_title_screen(),
            game_mode::GAME_TYPE_MENU => self.game_mode_game_type_menu(),
            game_mode::LEVEL_MENU => self.game_mode_level_menu(),
            game_mode::PLAY | game_mode::DEMO => self.game_mode_play_and_ending_high_score(),
            game_mode::START_DEMO => {
                if self.demo_data.is_none() {
                    return self.stop_unsupported(
                        "the demo needs the ROM's demo tables (give the ROM file)",
                    );
                }
                // gameMode_startDemo
                self.game_type = 0;
                self.player1.start_level = 0;
                self.game_mode_state = 0;
                self.player1.play_state = 0;
                self.game_mode = game_mode::DEMO;
                self.game_mode_play_and_ending_high_score()
            }
            _ => self.stop_unsupported("gameMode above 6 jumps outside the dispatch table"),
        }
    }

    /// What each screen does once it is on and its three waits are over.
    fn after_load(&mut self, screen: Screen) -> Flow {
        match screen {
            Screen::Legal => {
                self.sleep_counter = self.region.legal_sleep_time();
                Flow::Wait(Wait::LegalSleep)
            }
            Screen::Title => {
                self.frame_counter &= 0x00FF;
                Flow::Wait(Wait::TitleStart)
            }
            Screen::GameTypeMenu => {
                self.set_music_track(MUSIC_SELECTION_TABLE[usize::from(self.music_type & 7)]);
                self.game_type_menu_frame()
            }
            Screen::LevelMenu => {
                self.original_y = 0;
                self.drop_speed = 0;
                while self.player1.start_level >= 10 {
                    self.player1.start_level -= 10;
                }
                self.level_menu_frame()
            }
            Screen::GameBackground => {
                self.player1.play_state = 1;
                self.player2.play_state = 1;
                self.player1.level_number = self.player1.start_level;
                self.player2.level_number = self.player2.start_level;
                self.game_mode_state += 1;
                Flow::Ret(self.player2.start_level)
            }
            Screen::HighScoreEntry => self.high_score_entry_start(),
            Screen::EndingA | Screen::EndingB => self.ending_screen_on(),
        }
    }

    /// `setMusicTrack`: returns what the routine leaves in A.
    pub(crate) fn set_music_track(&mut self, track: u8) -> u8 {
        self.music_track = track;
        if self.game_mode == game_mode::DEMO {
            self.music_track = 0xFF;
            self.note_music_track(0xFF);
            return 0xFF;
        }
        self.note_music_track(track);
        self.game_mode
    }

    /// `generateNextPseudorandomNumber` on `rng_seed`.
    pub(crate) fn step_rng(&mut self) {
        self.rng_seed = next_rng(self.rng_seed);
    }

    /// `rng_seed` ($17), the byte the game's random choices read.
    pub(crate) fn rng_high(&self) -> u8 {
        (self.rng_seed >> 8) as u8
    }
}

/// `vramRow` after the NMI's four calls of `copyPlayfieldRowToVRAM`.
#[inline(always)]
fn vram_row_after_upload(vram_row: u8) -> u8 {
    if vram_row <= 0x14 {
        // The four passes of the loop below, at once, for the rows of the playfield.
        return if vram_row + 4 >= 0x14 {
            0x20
        } else {
            vram_row + 4
        };
    }
    vram_row_after_upload_by_row(vram_row)
}

/// `vramRow` after the four calls, one at a time.
fn vram_row_after_upload_by_row(mut vram_row: u8) -> u8 {
    for _ in 0..4 {
        // copyPlayfieldRowToVRAM: `cpx #$15; bpl @ret` is a signed test.
        if (vram_row.wrapping_sub(0x15) as i8) >= 0 {
            break;
        }
        vram_row = vram_row.wrapping_add(1);
        if (vram_row.wrapping_sub(0x14) as i8) >= 0 {
            vram_row = 0x20;
        }
    }
    vram_row
}

/// `generateNextPseudorandomNumber`: a 16-bit Fibonacci LFSR, bit 1 XOR bit 9 shifted in on top.
#[must_use]
pub const fn next_rng(seed: u16) -> u16 {
    let feedback = ((seed >> 9) ^ (seed >> 1)) & 1;
    (feedback << 15) | (seed >> 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for the playfield's rows equals the four calls at every byte of `vramRow`.
    #[test]
    fn vram_row_upload_shortcut_equals_the_calls() {
        for vram_row in 0..=255u8 {
            assert_eq!(
                vram_row_after_upload(vram_row),
                vram_row_after_upload_by_row(vram_row),
                "vramRow {vram_row:#x}"
            );
        }
    }
}
