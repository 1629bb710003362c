//! The real ROM in an embedded emulator (tetanes-core): load and verify Tetris (USA), run it one
//! input line at a time, and read its RAM as the traces `playfield-nes` is compared on.
//!
//! - [`Rom`] reads a file (or `PLAYFIELD_ROM`) and checks its SHA-1; [`rom_for_tests`] is how
//!   tests get it (skip without a ROM, fail with `PLAYFIELD_REQUIRE_ROM=1`).
//! - [`Emulator`] runs it headless with FCEUX's frame numbering: frame `F` is the state after `F`
//!   input lines (see the `emulator` module docs for how that was established).
//! - [`lag`] watches the ROM's NMI: a lag frame (the NMI interrupts the main loop's work) and a
//!   crash (the CPU leaves the game's code), to check the engine at the highest levels.
//! - [`EngineData`] is what the engine reads from the checked ROM (the demo's tables, the
//!   program its lag model runs); [`lag_not_modelled_note`] is what reports say without it.
//! - [`Lockstep`] runs the ROM beside the engine and stops at the first traced difference.
//!
//! The movies the tests run on both come from `playfield-testkit` (the open-loop suite and the
//! scripted player, which need no ROM; its example `gen_movie` writes them as `.fm2` files). The
//! example `rom_trace MOVIE.fm2 OUT.jsonl [--frames N]` writes the ROM's trace of a movie. The
//! bench `tetanes` measures tetanes-core's frames per second on
//! `playfield_testkit::movies::benchmark_movie`.

mod emulator;
mod engine_data;
mod follow;
pub mod lag;
mod lockstep;
mod rom;

pub use emulator::{Emulator, RAM_SIZE};
pub use engine_data::{EngineData, LAG_NOT_MODELLED, lag_not_modelled_note};
pub use follow::{RomFrame, RomPhases};
pub use lockstep::{Lockstep, LockstepError};
pub use rom::{
    MAX_ROM_BYTES, REQUIRE_ROM_ENV, ROM_ENV, Rom, RomError, TETRIS_SHA1, rom_for_tests, sha1_hex,
};
