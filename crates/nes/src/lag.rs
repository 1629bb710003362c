//! Lag frames and crashes at the highest levels.
//!
//! From about level 150 the frame in which `playState_updateLinesAndStatistics` runs (the frame
//! after every lock: it adds the points `levelNumber + 1` times) can outlast the frame. The
//! engine then runs that frame instruction by instruction with its cycles (see `long_frame`), takes
//! the next NMI where the ROM takes it, and reports what the ROM does:
//!
//! - a *lag frame* ([`Events::LAG`]): an NMI interrupted the main loop's work, so no game routine
//!   runs in that frame (a button newly pressed in it is no longer new in the next). When the NMI
//!   lands in the game's work it also does its own work there: it redraws the lines, level and
//!   score (which rewrites `generalCounter`, the score loop's counter, so the loop then adds the
//!   points as many more times as that byte says) and reads the gamepad for the routines that
//!   follow;
//! - a *crash* ([`Events::CRASH`], [`Nes::crash`]): an NMI that interrupts the jump-table routine
//!   `switch_s_plus_2a` while its pointer is live sends the main loop into the NMI's pointer; the
//!   program counter runs into data and the game freezes or resets. The engine stops there.
//!
//! Where the NMI lands depends on the CPU's cycle phase against the PPU, which follows from
//! every cycle since power-on and which the engine cannot know ([`CpuPhase`]). The engine
//! evaluates every phase a console can be in and follows the outcome most of them give (a test
//! that knows the console's phase sets it with [`Nes::set_cpu_phase`]).
//!
//! The run gives the frame's timing. Where no NMI lands in the game's work (the frame is on
//! time, or the next NMI comes in the sound driver or before the main loop's wait), the game's
//! routines ran as in any frame, so the frame's outcome (score, lines, level, statistics) is the
//! engine's own frame of play, with the `rules` every other path uses. Only where an NMI lands in
//! the game's work, or the game crashes, is the run's RAM the outcome: the ROM's result then
//! depends on where the NMI landed, to the instruction.
//!
//! The sound driver runs in the frame's work too, so its state is kept from level
//! [`LAG_AUDIO_FROM_LEVEL`] on, run by the ROM's own code.
//!
//! All of it runs the user's ROM ([`ProgramData`], [`Nes::set_program_data`]): without it the
//! engine does not model lag frames or crashes at all, and says so ([`Nes::lag_modelled`]).
//! NTSC only: on PAL the engine does not model lag frames either.

pub(crate) mod cpu;
pub(crate) mod long_frame;
pub(crate) mod model;
pub(crate) mod sound_driver;

use std::sync::Arc;

use crate::engine::{Nes, Wait};
use crate::lag::long_frame::{CpuPhase, Run, Stop, Timeline};
use crate::lag::model::{
    ClearOutcome, ClearPlay, Crash, CrashCause, HeavyOutcomes, LAG_AUDIO_FROM_LEVEL,
    LAG_FROM_LEVEL, LagModel, Pending, PhaseChoice, PhaseCounts,
};
use crate::lag::sound_driver::AudioRam;
use crate::ram::{game_mode, play_state};
use crate::user_rom::program::ProgramData;
use crate::vocabulary::buttons::Buttons;
use crate::vocabulary::events::Events;
use crate::vocabulary::region::Region;

/// Cycles by which the phases move a heavy frame's work against the next NMI, with a margin:
/// the handler starts 8⅓ to 11 cycles after its edge, returns 5 or 8 cycles into the wait loop,
/// its DMA takes 513 or 514, the frame is 29,780⅓ or ⅔ cycles long.
const PHASE_SPREAD: i64 = 30;

impl Nes {
    /// Supplies the ROM's program bytes (from the user's ROM file), which the lag model runs:
    /// without them the engine does not model lag frames and crashes (see [`Nes::lag_modelled`]).
    pub fn set_program_data(&mut self, program: Option<Arc<ProgramData>>) {
        self.program = program;
    }

    /// When the frame just stepped was a heavy frame (see [`LAG_FROM_LEVEL`]) whose CPU phase
    /// the engine did not know ([`Nes::set_cpu_phase`]): how the NMI after its work lands in each
    /// phase a console can be in. The engine follows what most phases give; a frame with some
    /// phases lagging or crashing is one whose outcome depends on the console.
    #[must_use]
    pub fn phase_counts(&self) -> Option<PhaseCounts> {
        let (frame, counts) = self.lag.as_ref()?.outcomes.last_phases?;
        (frame == self.frame).then_some(counts)
    }

    /// The crash the game had, if it crashed (the engine then stops; see the `lag` module).
    #[must_use]
    pub fn crash(&self) -> Option<Crash> {
        self.crash
    }

    /// Sets how the CPU stands against the PPU at the next frame that can lag, for a caller that
    /// measured it (the ROM comparison tests); otherwise the engine follows what most phases give.
    pub fn set_cpu_phase(&mut self, phase: Option<CpuPhase>) {
        self.cpu_phase = phase;
    }

    /// Which outcome to follow at a heavy frame whose CPU phase is not told: the majority's
    /// (the default) or, for a game that goes on past a frame that crashes on some consoles,
    /// the majority of the phases that do not crash ([`PhaseChoice`]).
    pub fn set_phase_choice(&mut self, choice: PhaseChoice) {
        self.phase_choice = choice;
    }

    /// Whether the engine models lag frames and crashes (from level [`LAG_FROM_LEVEL`] on): it
    /// has the ROM's program ([`Nes::set_program_data`]), the console is NTSC and the modifiers
    /// do not ignore lag. False also while the lag model runs from a RAM import that did not say
    /// how far the music had played. Without it a frame that would lag or crash on the console
    /// plays as an ordinary frame, and a report at those levels should say so.
    #[must_use]
    pub fn lag_modelled(&self) -> bool {
        self.program.is_some()
            && self.region == Region::Ntsc
            && !self.modifiers.ignore_lag
            && self.lag.as_ref().is_none_or(|l| l.music_known)
    }

    /// What a clear of `cleared` rows (1-4) would do if a piece locked it now, at this level,
    /// score and line count, played as `how` says (the preview shown or hidden by Select, the
    /// push-down points of a soft drop): the phases in which a frame up to the next piece
    /// crashes, and the frames until the next piece is under control (`None` when it does not
    /// come within 200 frames: the score loop's frame lags on, restarted by every NMI). The clear
    /// is staged (an I piece dropped into a well over `cleared` full rows) on a copy that follows
    /// the phases that do not crash. `None` when the engine does not model lag, the player does
    /// not control a piece, or `cleared` is not 1-4.
    #[must_use]
    pub fn clear_outcome(&self, cleared: u8, how: ClearPlay) -> Option<ClearOutcome> {
        if !self.lag_modelled() || !self.controllable() || !(1..=4).contains(&cleared) {
            return None;
        }
        let mut n = self.clone();
        n.set_phase_choice(PhaseChoice::Surviving);
        n.cpu_phase = None;
        let raw = n.raw_mut();
        raw.display_next_piece = u8::from(how.preview_hidden);
        stage_clear(raw, cleared, how.push_down_points);
        let mut outcome = ClearOutcome {
            crash_phases: 0,
            frames_to_next_piece: None,
        };
        let mut locked = false;
        for frame in 1..=200 {
            n.step(Buttons::NONE);
            if let Some(counts) = n.phase_counts() {
                outcome.crash_phases = outcome.crash_phases.max(counts.crash);
            }
            if n.crash().is_some() || n.unsupported().is_some() {
                return Some(outcome);
            }
            locked |= n.raw.player1.play_state != play_state::ACTIVE;
            if locked && n.controllable() {
                outcome.frames_to_next_piece = Some(frame);
                return Some(outcome);
            }
        }
        Some(outcome)
    }

    /// A sound effect the game code starts (`soundEffectSlotNInit`), kept only while the lag
    /// model runs the sound driver.
    #[inline(always)]
    pub(crate) fn sound_effect(&mut self, slot: usize, id: u8) {
        if let Some(lag) = &mut self.lag {
            lag.audio.page[0x70 + slot] = id;
        }
    }

    /// `updateAudio2`, called by the game code (`soundEffectSlot2_makesNoSound`): the sound
    /// effects and the music stop (`LE253` clears `currentlyPlayingMusicTrack`).
    pub(crate) fn update_audio2(&mut self) {
        self.music_clock.track = Some(0);
        if let (Some(lag), Some(program)) = (&mut self.lag, &self.program) {
            sound_driver::makes_no_sound_on(&mut lag.audio, program);
        }
    }

    /// `musicStagingNoiseHi` ($068D): 5 while paused. Entering the pause, the frame's call of
    /// the sound driver plays the pause jingle, not the music.
    pub(crate) fn music_staging_noise_hi(&mut self, v: u8) {
        if v == 0x05 {
            self.music_clock.lost += 1;
        }
        if let Some(lag) = &mut self.lag {
            lag.audio.page[0x0D] = v;
        }
    }

    /// `setMusicTrack`'s store of `musicTrack`, for the sound driver and the music's clock.
    pub(crate) fn note_music_track(&mut self, track: u8) {
        if let Some(lag) = &mut self.lag {
            lag.audio.page[0x75] = track;
        }
        if track == 0xFF {
            // The driver stops the music (`LE253` clears `currentlyPlayingMusicTrack`).
            self.music_clock.track = Some(0);
        } else if track != 0 {
            self.music_clock.track = Some(track);
            self.music_clock.load_frame = self.frame;
            self.music_clock.load_lost = self.music_clock.lost;
        }
    }

    /// A frame of play at a level where the lag model runs: the frame, cycle by cycle when it can
    /// lag, and the sound driver's call.
    #[cold]
    #[inline(never)]
    pub(crate) fn play_frame_timed(&mut self, buttons: Buttons) -> Events {
        // The heavy frames write the player blocks their own way.
        self.next_frame = crate::engine::NextFrame::Other;
        let level = self.raw.player1.level_number;
        let on = level >= LAG_AUDIO_FROM_LEVEL
            && self.region == Region::Ntsc
            && !self.modifiers.ignore_lag
            && self.program.is_some();
        if !on {
            self.lag = None;
            return self.play_frame_native(buttons);
        }
        if self.lag.is_none() {
            // The level reached it in the last frame, a level-up frame run without the model.
            self.start_lag_model(self.frame - 1);
        }
        if self.next_frame_is_heavy()
            && let Some(events) = self.heavy_frame(buttons)
        {
            return events;
        }
        let events = self.play_frame_native(buttons);
        // The model's frames keep to the dispatch.
        self.next_frame = crate::engine::NextFrame::Other;
        self.after_native_frame();
        events
    }

    /// The next frame of play runs `playState_updateLinesAndStatistics` (its play state, or the
    /// line-clear animation's last step, which the NMI takes, then that state) at a level where
    /// its work can outlast the frame.
    fn next_frame_is_heavy(&self) -> bool {
        let p = &self.raw.player1;
        p.level_number >= LAG_FROM_LEVEL
            && (p.play_state == play_state::UPDATE_LINES
                || (p.play_state == play_state::LINE_CLEAR_ANIMATION
                    && self.raw.frame_counter & 3 == 0
                    && p.row_y >= 4))
    }

    /// The sound driver's call at the end of a frame the engine ran natively.
    fn after_native_frame(&mut self) {
        let (Some(lag), Some(program)) = (&mut self.lag, &self.program) else {
            return;
        };
        // A frame that ends in the pause plays the pause jingle, not the music.
        if self.wait == Wait::MainLoop {
            sound_driver::update_audio(&mut lag.audio, program);
        }
    }

    /// Starts keeping the sound driver's state as it is after frame `through` (in which the level
    /// reached [`LAG_AUDIO_FROM_LEVEL`]): the music caught up from the last track load, and slot
    /// 1 playing the level-up effect that frame started (the level only rises in a level-up
    /// frame).
    pub(crate) fn start_lag_model(&mut self, through: u64) {
        let Some(program) = self.program.clone() else {
            return;
        };
        let mut audio = AudioRam::default();
        let mut known = true;
        match (self.music_clock.track, &*program) {
            (Some(track), prg) if track != 0 => {
                let calls = (through + 1)
                    .saturating_sub(self.music_clock.load_frame)
                    .saturating_sub(self.music_clock.lost - self.music_clock.load_lost);
                audio.page[0x75] = track;
                // One music frame per call; no sound effect plays.
                for _ in 0..calls.saturating_sub(1) {
                    sound_driver::update_audio(&mut audio, prg);
                }
            }
            (Some(_), _) => {}
            (None, _) => known = false,
        }
        // This frame's call: the level-up effect starts.
        audio.page[0x71] = 0x06;
        sound_driver::update_audio(&mut audio, &program);
        self.lag = Some(Box::new(LagModel {
            audio,
            music_known: known,
            pending: Pending::None,
            outcomes: HeavyOutcomes::default(),
        }));
    }

    /// A frame whose work can outlast the frame, run cycle by cycle from its NMI for its timing.
    /// `None` when the run meets something it does not model (the frame then runs natively).
    fn heavy_frame(&mut self, buttons: Buttons) -> Option<Events> {
        let lag = self.lag.as_ref()?;
        let program = self.program.clone()?;
        let mut ram = Box::new(self.ram());
        lag.audio.to_ram(&mut ram);
        let phase = match self.cpu_phase.take() {
            Some(p) => p,
            None => {
                let (phase, counts) = self.likely_phase(&ram, buttons)?;
                let frame = self.frame;
                if let Some(lag) = &mut self.lag {
                    lag.outcomes.last_phases = Some((frame, counts));
                }
                phase
            }
        };
        let mut run = Run::new(ram, program, phase);
        run.push_main_loop_return();
        let completed = self.raw.player1.completed_lines;
        let hold_down = self.raw.player1.hold_down_points;
        let level_before = self.raw.player1.level_number;
        let stop = run.advance(buttons.bits()).ok()?;
        if let Stop::Waiting { lag_nmi_next, .. } = stop {
            return Some(self.heavy_frame_native(buttons, &run, lag_nmi_next));
        }
        // An NMI lands in the game's work (or the game crashes): its redraw rewrites
        // `generalCounter`, the score loop's counter, and its gamepad read feeds the routines
        // after it, so the ROM's result depends on where it landed, to the instruction, and only
        // the run has it.
        if let Some(lag) = &mut self.lag {
            lag.outcomes.run += 1;
        }
        self.events.lines_cleared = 0;
        self.take_stop(run, stop, Some((completed, hold_down)));
        if completed != 0 {
            self.events.add(Events::LINES_CLEARED);
            self.events.lines_cleared = completed;
        }
        if self.raw.player.level_number != level_before {
            self.events.add(Events::LEVEL_UP);
        }
        Some(self.events)
    }

    /// A heavy frame whose run reached the main loop's wait with no NMI in the game's work: the
    /// game's routines ran as in any frame, so the engine's own frame of play gives the outcome;
    /// the run gives the timing (whether the next NMI came before the wait: a lag frame next)
    /// and the sound driver's state after its call.
    fn heavy_frame_native(&mut self, buttons: Buttons, run: &Run, lag_nmi_next: bool) -> Events {
        let events = self.play_frame_native(buttons);
        self.next_frame = crate::engine::NextFrame::Other;
        self.keep_run_wait(&run.mem.ram, lag_nmi_next);
        if let Some(lag) = &mut self.lag {
            lag.outcomes.native += 1;
        }
        events
    }

    /// What a run that reached the main loop's wait leaves to the next frame: the sound
    /// driver's state, and a lag frame when the next NMI came before the wait.
    fn keep_run_wait(&mut self, ram: &[u8; 0x800], lag_nmi_next: bool) {
        if let Some(lag) = &mut self.lag {
            lag.audio = AudioRam::from_ram(ram);
            lag.pending = if lag_nmi_next {
                Pending::LagNmi
            } else {
                Pending::None
            };
            if lag_nmi_next {
                self.wait = Wait::Lagging;
            }
        }
    }

    /// Imports what a run reached and keeps what it left for the next frame. `scored`: the
    /// frame's completed lines and push-down points, when its points are being added.
    fn take_stop(&mut self, mut run: Run, stop: Stop, scored: Option<(u8, u8)>) {
        let frame_end = run.frame_end_ram.take();
        match stop {
            Stop::Waiting { wait, lag_nmi_next } => {
                let ram = run.mem.ram.clone();
                self.import_run_ram(&ram, scored, run.score_additions);
                self.wait = if wait >= 0xAA45 {
                    Wait::Pause
                } else {
                    Wait::MainLoop
                };
                self.keep_run_wait(&ram, lag_nmi_next);
                if self.wait == Wait::Pause {
                    self.music_clock.lost += 1;
                }
            }
            Stop::NmiDue { .. } | Stop::Crash { .. } => {
                let ram = frame_end.unwrap_or_else(|| run.mem.ram.clone());
                self.import_run_ram(&ram, None, 0);
                if let Some(lag) = &mut self.lag {
                    lag.audio = AudioRam::from_ram(&ram);
                }
                let pending = match stop {
                    Stop::Crash { pc } => Pending::Crash {
                        address: pc,
                        table: run.switch_table(),
                    },
                    _ => {
                        run.scored = scored.or(run.scored);
                        Pending::Run(Box::new(run))
                    }
                };
                if let Some(lag) = &mut self.lag {
                    lag.pending = pending;
                }
                self.wait = Wait::Lagging;
            }
        }
    }

    /// A frame whose NMI interrupted the main loop's work (`Wait::Lagging`).
    #[cold]
    #[inline(never)]
    pub(crate) fn lag_frame(&mut self, buttons: Buttons) -> Events {
        self.music_clock.lost += 1;
        let pending = self.lag.as_mut().map_or(Pending::None, |l| {
            std::mem::replace(&mut l.pending, Pending::None)
        });
        match pending {
            Pending::None | Pending::LagNmi => {
                self.events.add(Events::LAG);
                self.nmi(buttons);
                self.wait = Wait::MainLoop;
            }
            Pending::Crash { address, table } => {
                self.crash = Some(Crash {
                    frame: self.frame,
                    cause: CrashCause::NmiInJumpTable { address, table },
                });
                self.events.add(Events::CRASH);
                self.wait = Wait::Crashed;
            }
            Pending::Run(mut run) => {
                self.events.add(Events::LAG);
                let scored = run.scored;
                match run.advance(buttons.bits()) {
                    Ok(stop) => self.take_stop(*run, stop, scored),
                    Err(_) => {
                        // Beyond the model: finish as a plain lag frame.
                        self.nmi(buttons);
                        self.wait = Wait::MainLoop;
                    }
                }
            }
        }
        self.events
    }

    /// The engine's variables from a run's RAM; the non-RAM state (frame count, modifiers, the
    /// demo and program data, the score without the cap) is kept, the latter advanced by the
    /// points the run added.
    fn import_run_ram(&mut self, ram: &[u8; 0x800], scored: Option<(u8, u8)>, additions: u32) {
        let Ok(mut n) = Nes::import_fields(ram, self.region) else {
            return;
        };
        n.region = self.region;
        n.frame = self.frame;
        n.events = self.events;
        n.demo_data = self.demo_data.take();
        n.program = self.program.take();
        n.modifiers = self.modifiers;
        n.lag = self.lag.take();
        n.music_clock = self.music_clock;
        n.crash = self.crash;
        n.cpu_phase = self.cpu_phase;
        n.phase_choice = self.phase_choice;
        n.unsupported = self.unsupported;
        n.nmi_skip = self.nmi_skip;
        n.wait = self.wait;
        n.score_uncapped = self.score_uncapped;
        if let Some((completed, hold_down)) = scored {
            let u = &mut n.score_uncapped;
            crate::rules::add_hold_down_points(&mut u.low, hold_down);
            let mut left = additions;
            while left > 0 {
                let count = left.min(256);
                crate::rules::add_line_clear_points(
                    &mut u.low,
                    completed,
                    (count - 1) as u8,
                    Some(&mut u.millions),
                );
                left -= count;
            }
        }
        *self = n;
    }

    /// The phase the next heavy frame most likely has: the outcome of its first NMI (on time,
    /// lag, the NMI in the game's work, crash) under every phase, and a phase that gives the
    /// outcome most of them give; with how many phases give each.
    fn likely_phase(&self, ram: &[u8; 0x800], buttons: Buttons) -> Option<(CpuPhase, PhaseCounts)> {
        // Most such frames end far from the next NMI under any phase (the phases move the start
        // and the edge by a few cycles): one run says so.
        let nominal = CpuPhase {
            nmi_delay_thirds: 28,
            interrupted_beq: false,
            long_frame: false,
            dma_odd: false,
        };
        let program = self.program.clone()?;
        let mut run = Run::new(Box::new(*ram), program.clone(), nominal);
        run.push_main_loop_return();
        if let Stop::Waiting {
            lag_nmi_next: false,
            ..
        } = run.advance(buttons.bits()).ok()?
            && run.slack_thirds() > 3 * PHASE_SPREAD
        {
            let on_time = PhaseCounts {
                phases: CpuPhase::all().count() as u8,
                lag: 0,
                crash: 0,
            };
            return Some((nominal, on_time));
        }
        let outcomes = phase_outcomes(ram, &program, buttons)?;
        let count = |k: u8| outcomes.iter().filter(|(_, c)| *c == k).count();
        // Ties go to the milder outcome (on time, then lag, then crash).
        let classes = match self.phase_choice {
            PhaseChoice::Surviving if count(2) < outcomes.len() => 0..2u8,
            _ => 0..3u8,
        };
        let best = classes.max_by_key(|&k| (count(k), std::cmp::Reverse(k)))?;
        let same: Vec<CpuPhase> = outcomes
            .iter()
            .filter(|(_, c)| *c == best)
            .map(|(p, _)| *p)
            .collect();
        let counts = PhaseCounts {
            phases: outcomes.len() as u8,
            lag: count(1) as u8,
            crash: count(2) as u8,
        };
        same.get(same.len() / 2).copied().map(|p| (p, counts))
    }
}

/// A vertical I piece at the top of column 0, above a well there over `cleared` (0-4) full rows
/// at the bottom (the rows above them with a second hole, so the piece clears exactly those),
/// falling from its first frame with `push_down_points` (`holdDownPoints`: with `autorepeatY` at
/// 0 and Down not pressed, the fall keeps them, as after a soft drop).
fn stage_clear(raw: &mut crate::ram::Ram, cleared: u8, push_down_points: u8) {
    raw.playfield[..200].fill(crate::tables::TILE_EMPTY);
    for cell in 160..200 {
        if cell % 10 != 0 && (cell >= 200 - 10 * usize::from(cleared) || cell % 10 != 5) {
            raw.playfield[cell] = 0x7B;
        }
    }
    for p in [&mut raw.player, &mut raw.player1] {
        p.tetrimino_x = 0;
        p.tetrimino_y = 2;
        p.current_piece = 0x11;
        p.fall_timer = 0;
        p.autorepeat_y = 0;
        p.hold_down_points = push_down_points;
    }
}

/// How the next NMI after the heavy frame on `ram` (its NMI taken with `buttons`) lands in each
/// CPU phase ([`CpuPhase::all`]'s order): 0 on time, 1 a lag frame or an NMI in the game's work,
/// 2 a crash; `None` where a phase's run meets something beyond the model first.
fn phase_outcomes(
    ram: &[u8; 0x800],
    program: &Arc<ProgramData>,
    buttons: Buttons,
) -> Option<Vec<(CpuPhase, u8)>> {
    Some(
        first_stops(ram, program, buttons)?
            .into_iter()
            .map(|(phase, stop)| (phase, outcome_class(stop)))
            .collect(),
    )
}

/// Where the run of the heavy frame on `ram` first stops in each CPU phase.
fn first_stops(
    ram: &[u8; 0x800],
    program: &Arc<ProgramData>,
    buttons: Buttons,
) -> Option<Vec<(CpuPhase, Stop)>> {
    // The phases differ in where the next NMI lands, not in the work before it: four recorded
    // runs (the start in the wait loop, the sprite DMA's alignment) give every phase's first
    // stop, as a run of each phase would (the tests compare the two).
    let mut timelines = Vec::with_capacity(4);
    for bits in 0..4u8 {
        let (beq, odd) = (bits & 1 != 0, bits & 2 != 0);
        timelines.push(Timeline::record(ram, program.clone(), beq, odd, buttons.bits()).ok()?);
    }
    CpuPhase::all()
        .map(|phase| {
            let timeline =
                &timelines[usize::from(phase.interrupted_beq) | usize::from(phase.dma_odd) << 1];
            timeline.first_stop(phase).map(|stop| (phase, stop))
        })
        .collect()
}

/// A first stop's outcome: 0 on time, 1 a lag frame or an NMI in the game's work, 2 a crash.
fn outcome_class(stop: Stop) -> u8 {
    match stop {
        Stop::Waiting {
            lag_nmi_next: false,
            ..
        } => 0,
        Stop::Waiting { .. } | Stop::NmiDue { .. } => 1,
        Stop::Crash { .. } => 2,
    }
}

/// For the tests: the heavy frames the lag model ran since it started, by where their outcome
/// came from (zero when the model is off).
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn heavy_outcomes(nes: &Nes) -> HeavyOutcomes {
    nes.lag
        .as_ref()
        .map_or_else(HeavyOutcomes::default, |l| l.outcomes)
}

/// For the ROM comparison tests (`playfield-rom`): the sound driver's RAM ($0680-$06FF) the lag
/// model starts from if it starts after this frame (the music caught up from its last load).
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn probe_music_catch_up(nes: &Nes) -> [u8; 0x80] {
    let mut n = nes.clone();
    n.lag = None;
    n.start_lag_model(n.frame);
    n.lag.map_or([0; 0x80], |l| l.audio.page)
}

impl Nes {
    /// The engine's state for [`Nes::ram`]'s export: the sound driver's bytes when kept.
    pub(crate) fn export_audio(&self, ram: &mut [u8; 0x800]) {
        if let Some(lag) = &self.lag {
            lag.audio.to_ram(ram);
        }
    }

    /// Starts the lag model from a RAM image's sound driver bytes (an import at a high level).
    pub(crate) fn import_audio(&mut self, ram: &[u8; 0x800]) {
        if self.raw.player1.level_number >= LAG_AUDIO_FROM_LEVEL
            && self.raw.game_mode == game_mode::PLAY
        {
            self.lag = Some(Box::new(LagModel {
                audio: AudioRam::from_ram(ram),
                // The driver's RAM is the console's: its calls run from here.
                music_known: true,
                pending: Pending::None,
                outcomes: HeavyOutcomes::default(),
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lag::long_frame::probe_heavy_frame;
    use crate::vocabulary::setup::{GameSetup, MenuDriver};

    /// A console phase for the runs (told to the engine, which then runs each frame once).
    const PHASE: CpuPhase = CpuPhase {
        nmi_delay_thirds: 28,
        interrupted_beq: false,
        long_frame: false,
        dma_odd: false,
    };

    /// The bytes a frame that adds the points decides: `player`, `player1`,
    /// `lineClearStatsByType`, `statsByType`.
    fn scoring_bytes() -> impl Iterator<Item = usize> {
        (0x40..0x80).chain(0xD8..0xDC).chain(0x3F0..0x3FE)
    }

    /// The ROM's program from `PLAYFIELD_ROM` (the `playfield-rom` crate checks its SHA-1; here
    /// only its shape is), or `None` after a notice when it is not set, unless
    /// `PLAYFIELD_REQUIRE_ROM=1`.
    fn program() -> Option<Arc<ProgramData>> {
        let Some(path) = std::env::var_os("PLAYFIELD_ROM").filter(|p| !p.is_empty()) else {
            assert!(
                std::env::var("PLAYFIELD_REQUIRE_ROM").as_deref() != Ok("1"),
                "PLAYFIELD_REQUIRE_ROM=1 but PLAYFIELD_ROM is not set"
            );
            eprintln!("skipped: no ROM (set PLAYFIELD_ROM)");
            return None;
        };
        let image = std::fs::read(&path).expect("PLAYFIELD_ROM names a readable file");
        Some(Arc::new(
            ProgramData::from_ines(&image).expect("PLAYFIELD_ROM is an iNES image"),
        ))
    }

    /// An engine in play at `level` with 1,550 lines and a score of 500,000, a vertical I piece
    /// above a well in column 0 that clears `cleared` rows when it locks, stepped up to the
    /// frame that adds the points (the main loop waits for its NMI).
    fn before_points(level: u8, cleared: u8, program: Option<&Arc<ProgramData>>) -> Nes {
        let mut nes = Nes::power_on();
        nes.set_program_data(program.cloned());
        let mut input = Vec::new();
        let in_play = MenuDriver::new(GameSetup::a_type(19), 0).drive_until(
            &mut nes,
            &mut input,
            5_000,
            |n| n.raw.game_mode == game_mode::PLAY && n.raw.player1.play_state == 1,
        );
        assert!(in_play, "the menus lead to play");
        let raw = nes.raw_mut();
        stage_clear(raw, cleared, 0);
        for p in [&mut raw.player, &mut raw.player1] {
            p.level_number = level;
            p.lines = [0x50, 0x15];
            p.score = [0x00, 0x00, 0x50];
        }
        for _ in 0..60 {
            if nes.next_frame_is_heavy() {
                return nes;
            }
            nes.set_cpu_phase(Some(PHASE));
            let events = nes.step(Buttons::NONE);
            assert!(!events.lagged(), "no lag before the points");
        }
        panic!("no frame adds the points");
    }

    /// The RAM the heavy frame's run starts from: the engine's, with the sound driver's bytes.
    fn run_start(nes: &Nes) -> [u8; 0x800] {
        let mut ram = nes.ram();
        nes.lag
            .as_ref()
            .expect("the lag model runs")
            .audio
            .to_ram(&mut ram);
        ram
    }

    /// Steps the frame that adds the points on `nes` and on a copy that ignores lag frames (the
    /// engine's own frame of play, without the lag model): that copy, and what the lag model
    /// counted in the frame (native, run).
    fn score_both(nes: &mut Nes) -> (Nes, (u32, u32)) {
        let mut native = nes.clone();
        native.modifiers.ignore_lag = true;
        native.step(Buttons::NONE);
        let before = heavy_outcomes(nes);
        nes.set_cpu_phase(Some(PHASE));
        nes.step(Buttons::NONE);
        let after = heavy_outcomes(nes);
        (
            native,
            (after.native - before.native, after.run - before.run),
        )
    }

    #[test]
    fn a_heavy_frame_without_an_nmi_in_its_work_is_the_engines_own_frame() {
        let Some(program) = program() else { return };
        // Level 120: the work ends well before the next NMI. Level 230: the next NMI comes in
        // the sound driver, after the game's work, so the next frame lags.
        for (level, lag_next, score) in [
            (120, false, [0x00, 0x52, 0x64]), // 500,000 + 1,200 × 121
            (230, true, [0x00, 0x72, 0x77]),  // 500,000 + 1,200 × 231
        ] {
            let mut nes = before_points(level, 4, Some(&program));
            let start = run_start(&nes);
            let (native, counted) = score_both(&mut nes);
            assert_eq!(counted, (1, 0), "level {level}: scored natively");
            assert_eq!(nes.wait == Wait::Lagging, lag_next, "level {level}");
            // Every variable, scratch bytes included (where the run leaves `generalCounter` and
            // `verticalBlankingInterval` as the ROM's code does, the engine's frame leaves them
            // as at every level), and the score without the cap.
            assert_eq!(nes.raw, native.raw, "level {level}");
            assert_eq!(nes.score_uncapped, native.score_uncapped, "level {level}");
            assert_eq!(nes.raw.player1.score, score, "level {level}");
            assert_eq!(nes.raw.player1.lines, [0x54, 0x15], "level {level}");
            // The run of the same frame, which gave the timing, scored the same.
            let run = probe_heavy_frame(&start, &program, PHASE, &[0]);
            assert_eq!(
                run.stops,
                [format!(
                    "Waiting {{ wait: {}, lag_nmi_next: {lag_next} }}",
                    if lag_next { 0xAA32 } else { 0xAA37 }
                )]
            );
            let engine = nes.ram();
            for at in scoring_bytes() {
                assert_eq!(engine[at], run.ram[at], "level {level}: ${at:04X}");
            }
        }
    }

    #[test]
    fn a_heavy_frame_with_an_nmi_in_its_work_is_the_runs() {
        // Level 255: the next NMI lands in the game's work (the sprites staged after the play
        // state), before `savePlayer1State`.
        let Some(program) = program() else { return };
        let mut nes = before_points(255, 4, Some(&program));
        let start = run_start(&nes);
        let (native, counted) = score_both(&mut nes);
        assert_eq!(counted, (0, 1), "scored by the run");
        assert_eq!(nes.wait, Wait::Lagging);
        let run = probe_heavy_frame(&start, &program, PHASE, &[0]);
        assert!(run.stops[0].starts_with("NmiDue"), "{:?}", run.stops);
        // Every byte the engine keeps is the run's at the frame's end.
        let at_end = &run.frame_end_rams[0];
        let mut kept = Nes::import_fields(at_end, Region::Ntsc)
            .expect("play")
            .ram();
        AudioRam::from_ram(at_end).to_ram(&mut kept);
        assert_eq!(nes.ram(), kept);
        // The work stands where the NMI interrupted it: the lines added to `player`, not yet
        // saved to `player1`, `gameModeState` still 4; the engine's own frame ran it to its end.
        assert_eq!(nes.raw.player.lines, [0x54, 0x15]);
        assert_eq!(nes.raw.player1.lines, [0x50, 0x15]);
        assert_eq!(nes.raw.game_mode_state, 4);
        assert_eq!(native.raw.player1.lines, [0x54, 0x15]);
        assert_eq!(native.raw.game_mode_state, 2);
    }

    #[test]
    fn without_the_rom_no_frame_lags_and_the_engine_says_so() {
        // Level 255, where the frame that adds a Tetris's points lags on every console: without
        // the ROM's program the engine plays it as an ordinary frame.
        let mut nes = before_points(255, 4, None);
        assert!(!nes.lag_modelled());
        let events = nes.step(Buttons::NONE);
        assert!(!events.lagged() && !events.crashed());
        assert!(nes.lag.is_none(), "no lag model runs");
        assert_eq!(nes.raw.player1.lines, [0x54, 0x15]);
        if let Some(program) = program() {
            nes.set_program_data(Some(program));
            assert!(nes.lag_modelled());
        }
    }

    #[test]
    fn the_surviving_choice_goes_on_where_some_phases_crash() {
        let Some(program) = program() else { return };
        let mut some_crash = 0;
        for level in 150..=255u8 {
            for cleared in 1..=4 {
                let base = before_points(level, cleared, Some(&program));
                let mut majority = base.clone();
                majority.set_cpu_phase(None);
                majority.step(Buttons::NONE);
                let counts = majority.phase_counts().expect("a heavy frame");
                if counts.crash == 0 || counts.crash == counts.phases {
                    continue;
                }
                some_crash += 1;
                let mut surviving = base;
                surviving.set_phase_choice(PhaseChoice::Surviving);
                surviving.set_cpu_phase(None);
                surviving.step(Buttons::NONE);
                assert_eq!(surviving.phase_counts(), Some(counts), "level {level}");
                for _ in 0..3 {
                    majority.step(Buttons::NONE);
                    surviving.step(Buttons::NONE);
                }
                assert_eq!(
                    surviving.crash(),
                    None,
                    "level {level} {cleared}: {counts:?}"
                );
                let on_time = counts.phases - counts.lag - counts.crash;
                if counts.crash > counts.lag && counts.crash > on_time {
                    assert!(majority.crash().is_some(), "level {level}: {counts:?}");
                }
            }
        }
        assert!(
            some_crash > 0,
            "some clear from level 150 crashes in some phases"
        );
    }

    /// Every phase's first stop by a run of each phase: what the recorded timelines stand for.
    fn first_stops_by_runs(
        ram: &[u8; 0x800],
        program: &Arc<ProgramData>,
        buttons: Buttons,
    ) -> Option<Vec<(CpuPhase, Stop)>> {
        CpuPhase::all()
            .map(|phase| {
                let mut run = Run::new(Box::new(*ram), program.clone(), phase);
                run.push_main_loop_return();
                run.advance(buttons.bits()).ok().map(|stop| (phase, stop))
            })
            .collect()
    }

    #[test]
    fn four_timelines_give_every_phase_the_outcome_its_own_run_gives() {
        let Some(program) = program() else { return };
        let (mut compared, mut mixed) = (0, 0);
        let mut seed = 0x2545_F491u32;
        // In this position the work ends near the next NMI from level 230 or so (lag and crash
        // windows; a few below, where every frame is on time).
        for level in (100..=220u8).step_by(30).chain(225..=255) {
            for cleared in 0..=4 {
                let base = before_points(level, cleared, Some(&program));
                // The score's digits decide the score loop's carries, the push-down points and
                // the frame counter a few more cycles: frames around every phase's NMI.
                for buttons in [Buttons::NONE, Buttons::LEFT, Buttons::A] {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    let bcd = |v: u32| ((v % 10) | (v / 10 % 10) << 4) as u8;
                    let mut nes = base.clone();
                    let raw = nes.raw_mut();
                    for p in [&mut raw.player, &mut raw.player1] {
                        p.hold_down_points = (seed >> 27) as u8;
                        p.score = [bcd(seed >> 8), bcd(seed >> 15), bcd(seed >> 22) & 0x7F];
                    }
                    raw.frame_counter = raw.frame_counter.wrapping_add(seed as u16 & 3);
                    let ram = run_start(&nes);
                    let by_runs = first_stops_by_runs(&ram, &program, buttons);
                    let by_timelines = first_stops(&ram, &program, buttons);
                    assert_eq!(by_timelines, by_runs, "level {level}, {cleared} lines");
                    compared += 1;
                    if let Some(o) = by_runs
                        && o.iter().any(|(_, stop)| *stop != o[0].1)
                    {
                        mixed += 1;
                    }
                }
            }
        }
        // The frames where the phases' NMIs land at different instructions are the ones the
        // timelines must place exactly.
        assert!(
            compared >= 500 && mixed >= 50,
            "{compared} frames, {mixed} mixed"
        );
    }

    #[test]
    fn an_untold_heavy_frame_reports_how_its_nmi_lands_in_every_phase() {
        let Some(program) = program() else { return };
        // Level 120: the work ends far from the next NMI in every phase. Level 255: the next NMI
        // comes before the main loop's wait in every phase.
        for (level, late) in [(120, 0), (255, 48)] {
            let mut nes = before_points(level, 4, Some(&program));
            nes.set_cpu_phase(None);
            nes.step(Buttons::NONE);
            let counts = nes.phase_counts().expect("a heavy frame");
            assert_eq!(counts.phases, 48, "level {level}");
            assert_eq!(counts.lag + counts.crash, late, "level {level}: {counts:?}");
            nes.step(Buttons::NONE);
            assert_eq!(
                nes.phase_counts(),
                None,
                "level {level}: the next frame is not heavy"
            );
        }
    }
}
