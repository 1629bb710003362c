//! NES Tetris (USA), frame-exact.
//!
//! [`Nes`] runs the game's own routines, named after the disassembly (TetrisNESDisasm), on the
//! game's RAM; [`Nes::step`] runs one video frame: the NMI handler with that frame's gamepad
//! buttons, then the main loop until it waits for the next NMI. Fed the same buttons from
//! power-on, it goes through the same states as the ROM (checked frame by frame by the
//! `playfield-rom` crate).
//!
//! Read the game through the typed view — [`Nes::score`], [`Nes::lines`], [`Nes::level`],
//! [`Nes::game_mode`], [`Nes::active_piece`], [`Nes::next_piece`], [`Nes::board`] — and what each
//! frame did through [`Events`]. The game's rules (collision, lock, row clear, the BCD line and
//! level count) are plain functions in [`rules`], which the AI plans with too. The RAM variables
//! themselves stay reachable for tools that compare with the ROM, under their disassembly names,
//! through [`Nes::raw`] ([`raw::Ram`]; the addresses, the constants of `gameMode` and
//! `playState` and the BCD helper are in [`raw`] too): read them freely, but writing them
//! ([`Nes::raw_mut`]) can put
//! the engine in states the ROM never reaches.
//!
//! ```
//! use playfield_nes::{Buttons, GameMode, Nes};
//!
//! let mut nes = Nes::power_on();
//! // Press Start every 20 frames until a piece falls: legal screen, title, both menus.
//! let mut frame = 0;
//! while nes.active_piece().is_none() {
//!     let start = frame % 20 == 0 && nes.game_mode() != GameMode::Play;
//!     nes.step(if start { Buttons::START } else { Buttons::NONE });
//!     frame += 1;
//! }
//! let piece = nes.active_piece().unwrap();
//! assert_eq!((piece.x, piece.y), (5, 0));
//! // Hold Down: the piece soft-drops to the floor and locks.
//! while !nes.step(Buttons::DOWN).locked() {}
//! assert_eq!(nes.board().cell_count(), 4);
//! assert_eq!(nes.level(), 0);
//! ```
//!
//! Known departures from the ROM, none of them traced: audio, sprites and the PPU are not
//! modelled, nor player 2's playfield. Lag frames and crashes at the highest levels (a frame's
//! work outlasting the frame: the score loop adds the points once per level) are modelled from
//! level 100 on, cycle by cycle, by running the user's ROM ([`Nes::set_program_data`];
//! [`Events::LAG`], [`Events::CRASH`], [`Nes::crash`]); without it they are not modelled at all
//! ([`Nes::lag_modelled`]). Which of them happen can depend on the console's CPU phase, which
//! the engine cannot know. See `lag`.

// Where each part lives: the public vocabulary, the ROM's routines by screen around the engine's
// frame (`engine`), the RAM, the lag model, what is read from the user's ROM, and file formats.
mod engine;
mod formats;
mod lag;
mod movement;
mod ram;
pub mod rules;
mod screens;
pub mod tables;
mod user_rom;
mod vocabulary;

pub use engine::Nes;
pub use formats::{fm2, trace};
pub use lag::long_frame::CpuPhase;
pub use lag::model::{
    ClearOutcome, ClearPlay, Crash, CrashCause, LAG_AUDIO_FROM_LEVEL, LAG_FROM_LEVEL, PhaseChoice,
    PhaseCounts,
};
pub use user_rom::demo::DemoData;
pub use user_rom::program::{InesError, ProgramData};
pub use vocabulary::buttons::Buttons;
pub use vocabulary::events::{Event, Events};
pub use vocabulary::modifiers::{Modifiers, UncappedScore};
pub use vocabulary::palette;
pub use vocabulary::piece::{ActivePiece, Orientation, Piece};
pub use vocabulary::region::Region;
pub use vocabulary::setup::{GameSetup, MenuDriver};
pub use vocabulary::typed_view::{
    Board, GameMode, GameType, LineClearAnimation, MusicType, PlayState, RenderMode,
};
pub use vocabulary::unsupported::Unsupported;

/// The game's RAM as the ROM lays it out, under the disassembly's names: what [`Nes::raw`] holds,
/// the addresses of its variables, the values `gameMode` and `playState` take, and the BCD digits
/// the counters are kept in. For tools that compare the engine with the ROM, or import a RAM
/// image ([`Nes::from_ram`]); the typed view at the crate root reads the same state.
pub mod raw {
    pub use crate::ram::player_vars::{PlayerVars, bcd};
    pub use crate::ram::{Ram, RamImportError, addr, game_mode, play_state};
}

/// Internals the `playfield-rom` tests compare with the ROM, instruction by instruction: only
/// with the `testing` feature, which the tests turn on. Not a stable interface.
#[doc(hidden)]
#[cfg(feature = "testing")]
pub mod timing_probe {
    pub use crate::lag::long_frame::{HeavyProbe, probe_heavy_frame};
    pub use crate::lag::model::HeavyOutcomes;
    pub use crate::lag::sound_driver::probe_update_audio;
    pub use crate::lag::{heavy_outcomes, probe_music_catch_up};
}
