//! The real ROM in an embedded emulator (tetanes-core): load and verify Tetris (USA), run it one
//! input line at a time, and read its RAM as the traces `playfield-nes` is compared on.

pub mod bot;
mod emulator;
mod rom;

pub use emulator::{Emulator, RAM_SIZE};
pub use rom::{REQUIRE_ROM_ENV, ROM_ENV, Rom, RomError, TETRIS_SHA1, rom_for_tests, sha1_hex};
