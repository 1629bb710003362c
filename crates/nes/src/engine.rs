//! The engine: the game's RAM ([`Ram`]), the NMI handler, and the main loop as a resumable
//! routine.
//!
//! The ROM runs a main loop that blocks, many times per frame's worth of code, in
//! `updateAudioWaitForNmiAndResetOamStaging` and its siblings until the NMI handler has run. One call
//! to [`Nes::step`] is one video frame: the NMI handler runs with the frame's buttons, then the main
//! loop continues from the wait where it stopped ([`Wait`]) until it blocks again.

use std::sync::Arc;

use crate::ram::{Ram, game_mode, play_state};
use crate::rules::next_rng;
use crate::screens::{EndingStep, Screen};
use crate::tables::*;
use crate::user_rom::demo::{DEMO_BUTTONS_PAGE, DEMO_TETRIMINO_TYPE_PAGE, DemoData};
use crate::vocabulary::buttons::Buttons;
use crate::vocabulary::events::Events;
use crate::vocabulary::modifiers::{Modifiers, UncappedScore};
use crate::vocabulary::region::Region;
use crate::vocabulary::unsupported::Unsupported;

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

/// The result of running a routine of the main loop: it either blocked in a wait, or returned to
/// `@mainLoop` with this value in the accumulator (the loop waits when it equals `gameModeState`).
pub(crate) enum Flow {
    Wait(Wait),
    Ret(u8),
}

/// NES Tetris (USA), frame-exact: the game's RAM ([`Nes::raw`]) and where the main loop waits.
/// Read the game through the typed accessors ([`Nes::score`], [`Nes::active_piece`], ...).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nes {
    pub(crate) region: Region,
    pub(crate) wait: Wait,
    /// Frames in a row the NMI stays disabled while a screen is copied.
    pub(crate) nmi_skip: u8,
    pub(crate) frame: u64,
    pub(crate) unsupported: Option<Unsupported>,
    pub(crate) events: Events,
    /// The demo's tables, read from the user's ROM; `None` stops the engine at the demo.
    pub(crate) demo_data: Option<Arc<DemoData>>,
    /// Departures from the ROM (none by default).
    pub(crate) modifiers: Modifiers,
    /// The score without the 999,999 cap, kept beside the RAM's.
    pub(crate) score_uncapped: UncappedScore,
    /// The ROM's program bytes, for the music's timing (`lag`).
    pub(crate) program: Option<Arc<crate::user_rom::program::ProgramData>>,
    /// The lag model's state, kept from level `LAG_AUDIO_FROM_LEVEL` on.
    pub(crate) lag: Option<Box<crate::lag::model::LagModel>>,
    /// When the music was loaded, for the lag model.
    pub(crate) music_clock: crate::lag::model::MusicClock,
    /// The crash, once the game crashed.
    pub(crate) crash: Option<crate::lag::model::Crash>,
    /// The CPU's phase at the next frame that can lag, when a caller knows it.
    pub(crate) cpu_phase: Option<crate::lag::long_frame::CpuPhase>,
    /// Which outcome an untold heavy frame follows.
    pub(crate) phase_choice: crate::lag::model::PhaseChoice,
    /// The game's RAM variables under their disassembly names ([`Nes::raw`],
    /// [`Nes::raw_mut`]).
    pub(crate) raw: Ram,
    /// What the next frame is known to be ([`NextFrame`]).
    pub(crate) next_frame: NextFrame,
}

/// A hint, not part of the game's state: what the last frame left for the next one, so that the
/// commonest frames skip the dispatch's tests (the frames of play first, then the paused frames:
/// `Nes::step` tests them in this order). [`Nes::raw_mut`] sets it to `Other`, and so
/// does every frame that does not end as described. Two engines that differ only in it are
/// equal.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum NextFrame {
    /// The last frame was an ordinary frame of play and nothing wrote the RAM since. It ended
    /// waiting in `@mainLoop` with `gameMode` play, `gameModeState` 2, `renderMode` 3, below the
    /// lag model's levels and without it, and with `player` equal to `player1`
    /// (`savePlayer1State`, or the play states' stores into both). So `makePlayer1Active` has
    /// only the bytes the NMI changed to copy.
    ///
    /// Besides, these bytes hold values that a frame of play (play states 1 to 9, without
    /// Select or Start newly pressed and without the reset combination) leaves as they are:
    /// `sleepCounter` 0 (the NMI's decrement stops at 0), `verticalBlankingInterval` 1 (the
    /// NMI's store), `activePlayer` 1 (`makePlayer1Active`'s store), `twoPlayerPieceDelayCounter`
    /// 0 (counted only when not 0), `numberOfPlayers` neither 4 nor 6 and `displayNextPiece`
    /// not 5 (values that would end the frame early at `gameModeState` 4 and 6, and at 5 through
    /// `stageSpriteForNextPiece`'s A). So the steady frame (`play_frame_steady`) leaves out
    /// those stores and tests, and the stores of `gameModeState` 3 to 8 that end at 2.
    Play,
    /// As `Play`, and the last frame ran `playState_lockTetrimino`, which found the active
    /// piece's place valid and waited for `vramRow`. Nothing moves the piece nor changes the
    /// playfield until the piece locks, so the test gives the same answer in this frame.
    LockWaiting,
    /// The last frame was a paused frame of a game (not the demo) that ended in the pause loop
    /// with `renderMode` 0 (the NMI renders nothing).
    Paused,
    /// The last frame was a steady frame of play (see `Play`) that Right+Left+Down held
    /// (7) ended at `gameModeState` 7: `gameModeState_checkForResetKeyCombo` left A equal to
    /// it, so the main loop waited there. `player` equals `player1`, and every byte `Play` lists
    /// holds its value.
    EndedEarly,
    /// Nothing known: the dispatch on `wait` decides.
    #[default]
    Other,
}

impl PartialEq for NextFrame {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for NextFrame {}

impl std::hash::Hash for NextFrame {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// `initMagic` once `initRam` has run: the high-score table is valid.
const INIT_MAGIC: [u8; 5] = [0x12, 0x34, 0x56, 0x78, 0x9A];

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
            music_clock: crate::lag::model::MusicClock::default(),
            crash: None,
            cpu_phase: None,
            phase_choice: crate::lag::model::PhaseChoice::Majority,
            raw: Ram::default(),
            next_frame: NextFrame::Other,
        }
    }

    /// Runs one video frame with these buttons held on gamepad 1 and returns what happened.
    #[inline(always)]
    pub fn step(&mut self, buttons: Buttons) -> Events {
        self.frame += 1;
        self.events = Events::default();
        // Two tests and a jump, not a jump table: the hint's kind changes from frame to frame
        // in paused games, and a table's indirect jump is the harder to predict.
        match self.next_frame {
            NextFrame::Play | NextFrame::LockWaiting => self.play_frame_steady(buttons),
            NextFrame::Paused => self.paused_frame_continued(buttons),
            NextFrame::EndedEarly | NextFrame::Other => self.step_dispatched(buttons),
        }
    }

    /// A frame after a frame that left no hint but `EndedEarly`: the dispatch on `wait`.
    #[inline(never)]
    fn step_dispatched(&mut self, buttons: Buttons) -> Events {
        if matches!(self.next_frame, NextFrame::EndedEarly) {
            return self.play_frame_after_early_end(buttons);
        }
        if self.nmi_skip == 0 {
            match self.wait {
                Wait::MainLoop
                    if self.raw.game_mode == game_mode::PLAY && self.raw.game_mode_state == 2 =>
                {
                    if self.lag.is_none()
                        && self.raw.player1.level_number < crate::lag::model::LAG_AUDIO_FROM_LEVEL
                    {
                        return self.play_frame(buttons);
                    }
                    return self.play_frame_timed(buttons);
                }
                Wait::Pause if self.raw.game_mode != game_mode::DEMO => {
                    // A paused frame (render mode 0): the NMI, then the pause loop looks for
                    // Start. Kept small: most frames of a paused game end here.
                    self.nmi(buttons);
                    if self.raw.newly_pressed_buttons_player1 != Buttons::START.bits() {
                        // The pause's wait: the sound driver plays the pause, not the music.
                        self.music_clock.lost += 1;
                        if self.raw.render_mode == 0 && self.raw.game_mode != game_mode::DEMO {
                            self.next_frame = NextFrame::Paused;
                        }
                        return self.events;
                    }
                    return self.resume_after_nmi(self.raw.game_mode);
                }
                _ => {}
            }
        }
        self.step_other(buttons)
    }

    /// The frame of play after an ordinary frame of play ([`NextFrame::Play`]) when the
    /// steady frame does not apply (`play_frame_steady`): the NMI, then `gameModeState` 2 to 8
    /// called directly, without the dispatch on `wait`.
    #[inline(never)]
    pub(crate) fn play_frame_continued(&mut self, buttons: Buttons) -> Events {
        self.play_frame_body::<true>(buttons)
    }

    /// The frame after a frame of play that Right+Left+Down ended early
    /// ([`NextFrame::EndedEarly`]): the NMI, then `gameModeState` 7 and 8 return to 2 (no
    /// Start: no pause) and the main loop waits there. No play state runs, and
    /// `makePlayer1Active` neither. With Start newly pressed, the dispatch on `wait` runs it.
    #[inline(never)]
    fn play_frame_after_early_end(&mut self, buttons: Buttons) -> Events {
        self.next_frame = NextFrame::Other;
        if (buttons.bits() & !self.raw.held_buttons_player1) & Buttons::START.bits() != 0 {
            return self.step_dispatched(buttons);
        }
        debug_assert!(self.wait == Wait::MainLoop && self.nmi_skip == 0 && self.lag.is_none());
        debug_assert!(self.raw.game_mode == game_mode::PLAY && self.raw.game_mode_state == 7);
        debug_assert!(self.raw.render_mode == 3 && self.raw.player == self.raw.player1);
        self.nmi_in_play(buttons);
        // gameModeState_startButtonHandling: `renderMode` 3 and Start not pressed leave A 0;
        // gameModeState_vblankThenRunState2 returns A = `gameModeState` = 2.
        self.raw.game_mode_state = 2;
        // The NMI stored `vramRow` into both blocks, but for the line-clear animation's store
        // into `player1` alone; the rest of both blocks it wrote alike. Every other byte of the
        // steady state is as the last frame left it (`sleepCounter` 0 stays 0).
        if self.raw.player.vram_row == self.raw.player1.vram_row {
            debug_assert_eq!(self.raw.player, self.raw.player1);
            self.next_frame = NextFrame::Play;
        }
        self.events
    }

    /// A paused frame after a paused frame ([`NextFrame::Paused`]): the NMI without rendering
    /// nor the demo, then the pause loop looks for Start. Most frames of a paused game.
    #[inline(never)]
    fn paused_frame_continued(&mut self, buttons: Buttons) -> Events {
        debug_assert!(self.wait == Wait::Pause && self.nmi_skip == 0);
        debug_assert!(self.raw.render_mode == 0 && self.raw.game_mode != game_mode::DEMO);
        self.nmi_counters();
        let held = buttons.bits();
        self.raw.newly_pressed_buttons_player1 = held & !self.raw.held_buttons_player1;
        self.raw.held_buttons_player1 = held;
        if self.raw.newly_pressed_buttons_player1 != Buttons::START.bits() {
            // The pause's wait: the sound driver plays the pause, not the music.
            self.music_clock.lost += 1;
            return self.events;
        }
        self.next_frame = NextFrame::Other;
        self.resume_after_nmi(self.raw.game_mode)
    }

    /// A frame of play after any other frame.
    #[inline(never)]
    fn play_frame(&mut self, buttons: Buttons) -> Events {
        self.play_frame_body::<false>(buttons)
    }

    /// A frame of play, also run by the lag model at high levels.
    pub(crate) fn play_frame_native(&mut self, buttons: Buttons) -> Events {
        self.play_frame_body::<false>(buttons)
    }

    /// The frame of play. `CONTINUED`: the last frame was an ordinary frame of play
    /// ([`NextFrame::Play`]), so `gameMode` is play, `renderMode` 3, the lag model off, and
    /// `player` equals `player1` but for the bytes this frame's NMI writes.
    #[inline(always)]
    fn play_frame_body<const CONTINUED: bool>(&mut self, buttons: Buttons) -> Events {
        // Set again by `run_play_states` if the frame ends as an ordinary frame of play.
        self.next_frame = NextFrame::Other;
        if CONTINUED {
            self.nmi_in_play(buttons);
        } else {
            self.nmi(buttons);
        }
        let flow = self.run_play_states(CONTINUED);
        self.end_play_frame(flow)
    }

    /// The end of a frame of play once the play states have run: the main loop's wait, and the
    /// mode-change event when the game left play.
    #[inline(always)]
    pub(crate) fn end_play_frame(&mut self, flow: Flow) -> Events {
        match flow {
            // Back at `@mainLoop` with A = `gameModeState`: the wait is the one it came from.
            Flow::Ret(a) if a == self.raw.game_mode_state => {}
            Flow::Ret(a) => self.wait = self.after_branch(a),
            Flow::Wait(w) => self.wait = w,
        }
        if self.raw.game_mode != game_mode::PLAY {
            self.events.add(Events::MODE_CHANGE);
        }
        self.events
    }

    /// Any other frame: power-on, the frames without NMI while a screen is copied, the menus,
    /// the screens and the waits of the main loop.
    #[inline(never)]
    fn step_other(&mut self, buttons: Buttons) -> Events {
        self.next_frame = NextFrame::Other;
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
        let mode_before = self.raw.game_mode;
        self.nmi(buttons);
        self.resume_after_nmi(mode_before)
    }

    /// The main loop's part of a frame, once the NMI has run; `mode_before` is `gameMode` before
    /// the NMI (which ends the demo on Start).
    #[inline(never)]
    fn resume_after_nmi(&mut self, mode_before: u8) -> Events {
        self.resume();
        if self.raw.game_mode != mode_before {
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
    /// [`Nes::step`] predicts lag frames itself at the highest levels (see `lag`); this forces
    /// one, for a caller that knows a frame lagged where the engine does not (measured on the
    /// ROM, see `playfield-rom`'s lag probe). Outside play it is the same as [`Nes::step`].
    pub fn step_lag_frame(&mut self, buttons: Buttons) -> Events {
        if self.wait != Wait::MainLoop || self.nmi_skip > 0 || self.raw.game_mode != game_mode::PLAY
        {
            return self.step(buttons);
        }
        self.frame += 1;
        self.events = Events::default();
        self.next_frame = NextFrame::Other;
        self.nmi(buttons);
        self.events.add(Events::LAG);
        self.events
    }

    /// The game's RAM variables under their disassembly names ([`Ram`]). Reading them is
    /// always safe.
    #[inline]
    #[must_use]
    pub fn raw(&self) -> &Ram {
        &self.raw
    }

    /// The game's RAM variables, to write. Writing them puts the engine in states the ROM may
    /// never reach: nothing checks that they stay consistent with each other (see [`Ram`]).
    #[inline]
    pub fn raw_mut(&mut self) -> &mut Ram {
        // The play path may no longer assume that `player` equals `player1`.
        self.next_frame = NextFrame::Other;
        &mut self.raw
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
    pub fn unsupported(&self) -> Option<Unsupported> {
        self.unsupported
    }

    pub(crate) fn stop_unsupported(&mut self, why: Unsupported) -> Flow {
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
        let warm = self.raw.init_magic == INIT_MAGIC;
        let mut fresh = Nes::power_on_region(self.region);
        fresh.frame = self.frame;
        fresh.wait = self.wait;
        fresh.demo_data = self.demo_data.take();
        fresh.program = self.program.take();
        fresh.modifiers = self.modifiers;
        fresh.music_clock = self.music_clock;
        if warm {
            fresh.raw.high_score_names = self.raw.high_score_names;
            fresh.raw.high_score_scores = self.raw.high_score_scores;
            fresh.raw.high_score_levels = self.raw.high_score_levels;
        } else {
            fresh.raw.high_score_names = DEFAULT_HIGH_SCORE_NAMES;
            fresh.raw.high_score_scores = DEFAULT_HIGH_SCORE_SCORES;
            fresh.raw.high_score_levels = DEFAULT_HIGH_SCORE_LEVELS;
        }
        fresh.raw.init_magic = INIT_MAGIC;
        fresh.raw.rng_seed = 0x8988;
        // memset_page fills pages 4 and 5 with tileEmpty.
        fresh.raw.playfield = [TILE_EMPTY; 256];
        *self = fresh;
    }

    /// The console's Reset button (an .fm2 soft-reset command, applied before the frame): the
    /// reset code runs again — two vblank waits with RAM untouched, then `initRam` (a warm boot
    /// keeps the high scores) — on the same timeline as power-on (measured in the ROM).
    pub fn soft_reset(&mut self) {
        self.next_frame = NextFrame::Other;
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
    pub fn step_line(&mut self, line: &crate::formats::fm2::InputLine) -> Events {
        if line.command.0 != 0 {
            return self.step_line_with_command(line);
        }
        self.step(line.buttons)
    }

    /// [`Nes::step_line`] for a line with a command, out of line so that the frame of a plain
    /// line stays small.
    #[cold]
    #[inline(never)]
    fn step_line_with_command(&mut self, line: &crate::formats::fm2::InputLine) -> Events {
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
        self.nmi_counters();
        self.poll_controller_buttons(buttons);
    }

    /// The NMI handler in an ordinary frame of play ([`NextFrame::Play`]): `renderMode` 3, the
    /// lag model off, `gameMode` play (not the demo).
    #[inline(always)]
    fn nmi_in_play(&mut self, buttons: Buttons) {
        debug_assert!(self.raw.render_mode == 3 && self.lag.is_none());
        debug_assert_eq!(self.raw.game_mode, game_mode::PLAY);
        self.render_play_field_rows();
        self.nmi_counters();
        let held = buttons.bits();
        self.raw.newly_pressed_buttons_player1 = held & !self.raw.held_buttons_player1;
        self.raw.held_buttons_player1 = held;
    }

    /// The NMI's counters: `sleepCounter`, `frameCounter`, the RNG and
    /// `verticalBlankingInterval`.
    #[inline(always)]
    fn nmi_counters(&mut self) {
        self.raw.sleep_counter = self.raw.sleep_counter.wrapping_sub(1);
        if self.raw.sleep_counter == 0xFF {
            self.raw.sleep_counter = 0;
        }
        self.raw.frame_counter = self.raw.frame_counter.wrapping_add(1);
        self.raw.rng_seed = next_rng(self.raw.rng_seed);
        self.raw.vertical_blanking_interval = 1;
    }

    /// `pollControllerButtons`: reads gamepad 1 (twice, ANDed, which is the same value here); in
    /// the demo, replaces it with `demoButtonsTable` unless Start was pressed.
    #[inline(always)]
    fn poll_controller_buttons(&mut self, buttons: Buttons) {
        let held = buttons.bits();
        self.raw.newly_pressed_buttons_player1 = held & !self.raw.held_buttons_player1;
        self.raw.held_buttons_player1 = held;
        if self.raw.game_mode == game_mode::DEMO {
            self.poll_demo_buttons();
        }
    }

    /// The demo's part of `pollControllerButtons`.
    #[cold]
    fn poll_demo_buttons(&mut self) {
        if self.raw.newly_pressed_buttons_player1 == Buttons::START.bits() {
            self.raw.demo_buttons_addr =
                u16::from(DEMO_BUTTONS_PAGE) << 8 | (self.raw.demo_buttons_addr & 0xFF);
            self.raw.frame_counter &= 0x00FF;
            self.raw.game_mode = game_mode::TITLE;
            return;
        }
        if self.raw.demo_repeats != 0 {
            self.raw.demo_repeats -= 1;
            self.raw.newly_pressed_buttons_player1 = 0;
            self.raw.held_buttons_player1 = self.raw.demo_held_buttons;
            return;
        }
        let Some(demo) = self.demo_data.clone() else {
            self.stop_unsupported(Unsupported::DemoTables);
            self.wait = Wait::Unsupported;
            return;
        };
        let next = demo.button_byte(self.raw.demo_buttons_addr);
        self.raw.demo_buttons_addr = self.raw.demo_buttons_addr.wrapping_add(1);
        self.raw.newly_pressed_buttons_player1 = (self.raw.demo_held_buttons ^ next) & next;
        self.raw.demo_held_buttons = next;
        self.raw.demo_repeats = demo.button_byte(self.raw.demo_buttons_addr);
        self.raw.demo_buttons_addr = self.raw.demo_buttons_addr.wrapping_add(1);
        if (self.raw.demo_buttons_addr >> 8) as u8 == DEMO_TETRIMINO_TYPE_PAGE {
            // Exhausted: this frame keeps the real gamepad's held buttons.
            return;
        }
        self.raw.held_buttons_player1 = self.raw.demo_held_buttons;
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
        match self.raw.render_mode {
            // render_mode_congratulations_screen clears the flags once the letter is drawn.
            2 if self.raw.out_of_date_render_flags & 0x80 != 0 => {
                self.raw.out_of_date_render_flags = 0
            }
            3 => self.render_mode_play_and_demo(),
            _ => {}
        }
    }

    /// `render_mode_play_and_demo` (player 1 only; the USA ROM has one player).
    fn render_mode_play_and_demo(&mut self) {
        if self.lag.is_some()
            && self.raw.player.completed_lines == 4
            && self.raw.frame_counter & 7 == 0
        {
            // The tetris flash's sound (`@renderTetrisFlashAndSound`).
            self.sound_effect(1, 0x09);
        }
        self.render_play_field_rows();
    }

    /// The rest of `render_mode_play_and_demo`: the line-clear animation or the playfield rows'
    /// upload, and the flags of what was drawn.
    #[inline(always)]
    fn render_play_field_rows(&mut self) {
        if self.raw.player1.play_state == play_state::LINE_CLEAR_ANIMATION {
            self.raw.player.row_y = self.raw.player1.row_y;
            self.raw.player.completed_row = self.raw.player1.completed_row;
            self.raw.player.play_state = self.raw.player1.play_state;
            self.update_line_clearing_animation();
            self.raw.player1.row_y = self.raw.player.row_y;
            self.raw.player1.play_state = self.raw.player.play_state;
            self.raw.player1.vram_row = 0;
        } else {
            let vram_row = vram_row_after_upload(self.raw.player1.vram_row);
            self.raw.player.vram_row = vram_row;
            self.raw.player1.vram_row = vram_row;
        }
        // The lines, level, score and stats flags are cleared once drawn (one player).
        self.raw.out_of_date_render_flags &= !(0x01 | 0x02 | 0x04 | 0x40);
    }

    /// `updateLineClearingAnimation`: every fourth frame blanks one more column pair.
    fn update_line_clearing_animation(&mut self) {
        if self.raw.frame_counter & 0x03 != 0 {
            return;
        }
        self.raw.player.row_y = self.raw.player.row_y.wrapping_add(1);
        if (self.raw.player.row_y.wrapping_sub(5) as i8) >= 0 {
            self.raw.player.play_state = self.raw.player.play_state.wrapping_add(1);
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
                    self.raw.game_mode_state = 0;
                    self.raw.game_mode = 0;
                    self.raw.number_of_players = 1;
                    self.raw.frame_counter &= 0x00FF;
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
                    .nmis_missed_while_loading(screen, self.raw.game_type);
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
                self.raw.game_mode = game_mode::LEVEL_MENU;
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
    pub(crate) fn after_branch(&mut self, a: u8) -> Wait {
        if a == self.raw.game_mode_state {
            return Wait::MainLoop;
        }
        self.check_for_demo_data_exhaustion();
        self.main_loop()
    }

    /// `@mainLoop`: runs game-mode routines until one blocks or returns A == `gameModeState`.
    fn main_loop(&mut self) -> Wait {
        loop {
            let flow = if self.raw.game_mode == game_mode::PLAY && self.raw.game_mode_state == 2 {
                let flow = self.run_play_states(false);
                // Other routines may run before the frame ends.
                self.next_frame = NextFrame::Other;
                flow
            } else {
                self.branch_on_game_mode()
            };
            match flow {
                Flow::Wait(w) => return w,
                Flow::Ret(a) => {
                    if a == self.raw.game_mode_state {
                        return Wait::MainLoop;
                    }
                    self.check_for_demo_data_exhaustion();
                }
            }
        }
    }

    /// `@checkForDemoDataExhaustion`: the demo ends when its button table runs out.
    fn check_for_demo_data_exhaustion(&mut self) {
        if self.raw.game_mode == game_mode::DEMO
            && (self.raw.demo_buttons_addr >> 8) as u8 == DEMO_TETRIMINO_TYPE_PAGE
        {
            self.raw.demo_buttons_addr =
                u16::from(DEMO_BUTTONS_PAGE) << 8 | (self.raw.demo_buttons_addr & 0xFF);
            self.raw.frame_counter &= 0x00FF;
            self.raw.game_mode = game_mode::TITLE;
        }
    }

    /// `branchOnGameMode`.
    fn branch_on_game_mode(&mut self) -> Flow {
        match self.raw.game_mode {
            game_mode::LEGAL => self.game_mode_legal_screen(),
            game_mode::TITLE => self.game_mode_title_screen(),
            game_mode::GAME_TYPE_MENU => self.game_mode_game_type_menu(),
            game_mode::LEVEL_MENU => self.game_mode_level_menu(),
            game_mode::PLAY | game_mode::DEMO => self.game_mode_play_and_ending_high_score(),
            game_mode::START_DEMO => {
                if self.demo_data.is_none() {
                    return self.stop_unsupported(Unsupported::DemoTables);
                }
                // gameMode_startDemo
                self.raw.game_type = 0;
                self.raw.player1.start_level = 0;
                self.raw.game_mode_state = 0;
                self.raw.player1.play_state = 0;
                self.raw.game_mode = game_mode::DEMO;
                self.game_mode_play_and_ending_high_score()
            }
            _ => self.stop_unsupported(Unsupported::GameMode),
        }
    }

    /// What each screen does once it is on and its three waits are over.
    fn after_load(&mut self, screen: Screen) -> Flow {
        match screen {
            Screen::Legal => {
                self.raw.sleep_counter = self.region.legal_sleep_time();
                Flow::Wait(Wait::LegalSleep)
            }
            Screen::Title => {
                self.raw.frame_counter &= 0x00FF;
                Flow::Wait(Wait::TitleStart)
            }
            Screen::GameTypeMenu => {
                self.set_music_track(MUSIC_SELECTION_TABLE[usize::from(self.raw.music_type & 7)]);
                self.game_type_menu_frame()
            }
            Screen::LevelMenu => {
                self.raw.original_y = 0;
                self.raw.drop_speed = 0;
                while self.raw.player1.start_level >= 10 {
                    self.raw.player1.start_level -= 10;
                }
                self.level_menu_frame()
            }
            Screen::GameBackground => {
                self.raw.player1.play_state = 1;
                self.raw.player2.play_state = 1;
                self.raw.player1.level_number = self.raw.player1.start_level;
                self.raw.player2.level_number = self.raw.player2.start_level;
                self.raw.game_mode_state += 1;
                Flow::Ret(self.raw.player2.start_level)
            }
            Screen::HighScoreEntry => self.high_score_entry_start(),
            Screen::EndingA | Screen::EndingB => self.ending_screen_on(),
        }
    }

    /// `setMusicTrack`: returns what the routine leaves in A.
    pub(crate) fn set_music_track(&mut self, track: u8) -> u8 {
        self.raw.music_track = track;
        if self.raw.game_mode == game_mode::DEMO {
            self.raw.music_track = 0xFF;
            self.note_music_track(0xFF);
            return 0xFF;
        }
        self.note_music_track(track);
        self.raw.game_mode
    }

    /// `generateNextPseudorandomNumber` on `rng_seed`.
    pub(crate) fn step_rng(&mut self) {
        self.raw.rng_seed = next_rng(self.raw.rng_seed);
    }

    /// `rng_seed` ($17), the byte the game's random choices read.
    pub(crate) fn rng_high(&self) -> u8 {
        (self.raw.rng_seed >> 8) as u8
    }
}

/// `vramRow` after the NMI's four calls of `copyPlayfieldRowToVRAM`, looked up (every frame of
/// play runs it).
#[inline(always)]
pub(crate) fn vram_row_after_upload(vram_row: u8) -> u8 {
    VRAM_ROW_AFTER_UPLOAD[usize::from(vram_row)]
}

/// [`vram_row_after_upload_by_row`] for every byte of `vramRow`.
static VRAM_ROW_AFTER_UPLOAD: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        table[v] = vram_row_after_upload_by_row(v as u8);
        v += 1;
    }
    table
};

/// `vramRow` after the four calls, one at a time.
const fn vram_row_after_upload_by_row(mut vram_row: u8) -> u8 {
    let mut call = 0;
    while call < 4 {
        // copyPlayfieldRowToVRAM: `cpx #$15; bpl @ret` is a signed test.
        if (vram_row.wrapping_sub(0x15) as i8) >= 0 {
            break;
        }
        vram_row = vram_row.wrapping_add(1);
        if (vram_row.wrapping_sub(0x14) as i8) >= 0 {
            vram_row = 0x20;
        }
        call += 1;
    }
    vram_row
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table equals the four calls at every byte of `vramRow`.
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
