//! What the engine keeps for the lag model (the sound driver's RAM, the music's clock, the work a
//! frame leaves to the next) and what the model reports (lag frames' phases, crashes), apart
//! from the frames that compute them (`lag`), so that the engine's state names them without
//! depending on those frames.

use crate::lag::long_frame::Run;
use crate::lag::sound_driver::AudioRam;

/// The level from which a frame's work can outlast the frame and the engine runs it cycle by
/// cycle. Below it the longest possible frame fits: 100 passes of the score loop at its longest
/// (141 cycles, every carry) plus the rest of the frame's work at its longest (about 14,000
/// cycles: the NMI drawing everything, the sprites, the sound driver's longest call measured)
/// stay under the 29,780 cycles of a frame.
pub const LAG_FROM_LEVEL: u8 = 100;

/// The level from which the engine keeps the sound driver's state, ten below
/// [`LAG_FROM_LEVEL`] (a frame raises the level by four at most).
pub const LAG_AUDIO_FROM_LEVEL: u8 = 90;

/// A crash of the game: where and why the ROM's program counter left the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Crash {
    /// The frame whose NMI caused it (input lines since power-on).
    pub frame: u64,
    /// What happened.
    pub cause: CrashCause,
}

/// Why the game crashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrashCause {
    /// The NMI interrupted `switch_s_plus_2a` at `address` while it dispatched through the jump
    /// table at `table` (`$8166` the game mode, `$81A0` the game mode state): the NMI's own
    /// dispatch and random-number update overwrite the routine's pointer in `tmp1`/`tmp2`, and the
    /// main loop jumps through it into the NMI's routine or into data.
    NmiInJumpTable {
        /// The instruction the NMI interrupted.
        address: u16,
        /// The jump table being read.
        table: u16,
    },
}

impl Crash {
    /// The instruction the NMI interrupted.
    #[must_use]
    pub fn address(&self) -> u16 {
        match self.cause {
            CrashCause::NmiInJumpTable { address, .. } => address,
        }
    }
}

impl std::fmt::Display for Crash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cause {
            CrashCause::NmiInJumpTable { address, table } => write!(
                f,
                "frame {}: the NMI interrupted the jump-table routine at ${address:04X} \
                 (dispatching through ${table:04X}); the program counter leaves the program",
                self.frame
            ),
        }
    }
}

/// The music's position: the last track the driver loaded and when.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct MusicClock {
    /// The track loaded (`musicTrack`, 1-10), 0 when stopped, `None` when not known (after a
    /// RAM import).
    pub(crate) track: Option<u8>,
    /// `frame` and `lost` when it was loaded.
    pub(crate) load_frame: u64,
    pub(crate) load_lost: u64,
    /// Frames since power-on in which the driver did not advance the music: no NMI, a lag frame,
    /// the pause.
    pub(crate) lost: u64,
}

/// What the engine keeps from level [`LAG_AUDIO_FROM_LEVEL`] on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LagModel {
    /// The sound driver's RAM.
    pub(crate) audio: AudioRam,
    /// The music playing was known when the model started (not after a RAM import below the
    /// model's levels, which does not say how far the music had played).
    pub(crate) music_known: bool,
    /// What the next frame continues.
    pub(crate) pending: Pending,
    /// Where the heavy frames took their outcome from.
    pub(crate) outcomes: HeavyOutcomes,
}

/// How many heavy frames (see [`LAG_FROM_LEVEL`]) the lag model ran since it started, by where
/// their outcome came from. A count for the tests, not game state: two engines that differ only
/// in it are equal.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct HeavyOutcomes {
    /// No NMI landed in the game's work: the engine's own frame of play gave the outcome.
    pub native: u32,
    /// An NMI landed in the game's work, or the game crashed: the run's RAM is the outcome.
    pub run: u32,
    /// The last heavy frame whose phase the engine did not know: its frame and how its next
    /// NMI lands in each phase.
    pub(crate) last_phases: Option<(u64, PhaseCounts)>,
}

/// How the NMI after a heavy frame's work lands in each CPU phase a console can be in
/// ([`CpuPhase::all`](crate::CpuPhase::all)): on any console the frame's work is the same, but which instruction the
/// next NMI interrupts is not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PhaseCounts {
    /// Phases evaluated: every one ([`CpuPhase::all`](crate::CpuPhase::all), 48).
    pub phases: u8,
    /// Phases in which the next frame lags: the NMI comes before the main loop's wait (in the
    /// sound driver or in the game's work) but not in the jump-table routine.
    pub lag: u8,
    /// Phases in which the NMI lands where the jump-table routine's pointer is live: the game
    /// crashes.
    pub crash: u8,
}

impl PartialEq for HeavyOutcomes {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for HeavyOutcomes {}

impl std::hash::Hash for HeavyOutcomes {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Which outcome the engine follows at a heavy frame whose CPU phase it was not told
/// ([`Nes::set_phase_choice`](crate::Nes::set_phase_choice)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PhaseChoice {
    /// The outcome most phases give (a crash only when more phases crash than lag or are on
    /// time): what a console picked at random most likely does.
    #[default]
    Majority,
    /// The outcome most of the phases that do not crash give; a crash only when every phase
    /// crashes. For games that go on past a frame that crashes on some consoles (an AI's game,
    /// which counts such a frame as a crash risk): it follows the consoles on which the game
    /// goes on, and of those what most of them do.
    Surviving,
}

/// Work a frame left to the next.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Pending {
    None,
    /// The main loop finished its work after the NMI: the next frame is a lag frame.
    LagNmi,
    /// The NMI landed in the game's work: the run continues with the next frame's buttons.
    Run(Box<Run>),
    /// The next NMI lands in the jump-table routine.
    Crash {
        address: u16,
        table: u16,
    },
}

/// How a staged clear is played ([`Nes::clear_outcome`](crate::Nes::clear_outcome)): what the
/// player controls that changes the work of the frame that adds the points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearPlay {
    /// The preview hidden by Select (the next box's drawing is out of the frame's work).
    pub preview_hidden: bool,
    /// `holdDownPoints` at the lock: the rows soft-dropped (the frame adds them less one from 2).
    pub push_down_points: u8,
}

/// What a staged clear does at the highest levels ([`Nes::clear_outcome`](crate::Nes::clear_outcome)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClearOutcome {
    /// The most phases (of 48) in which one of its frames crashes.
    pub crash_phases: u8,
    /// Frames from the staged piece's start to the next piece under control; `None` when it did
    /// not come within 200 frames (the frame that adds the points lags on).
    pub frames_to_next_piece: Option<u32>,
}

impl ClearOutcome {
    /// No frame crashes in any phase and the next piece comes.
    #[must_use]
    pub fn safe(&self) -> bool {
        self.crash_phases == 0 && self.frames_to_next_piece.is_some()
    }
}
