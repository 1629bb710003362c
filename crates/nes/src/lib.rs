//! NES Tetris (USA), frame-exact.
//!
//! [`Nes`] holds the game's RAM as named fields (the disassembly's names in snake_case) and
//! [`Nes::step`] runs one video frame: the NMI handler with that frame's gamepad buttons, then the
//! main loop until it waits for the next NMI. Fed the same buttons from power-on, it goes through
//! the same states as the ROM (checked frame by frame by the `playfield-rom` crate).

pub mod autoplay;
mod buttons;
mod demo;
mod ending;
mod engine;
mod events;
pub mod fm2;
mod high_score;
mod menus;
pub mod movies;
mod play;
mod player;
mod ram;
mod region;
pub mod tables;
pub mod trace;

pub use buttons::Buttons;
pub use demo::{DemoData, DemoDataError};
pub use engine::{Nes, game_mode, next_rng, play_state};
pub use events::Events;
pub use player::{PlayerVars, bcd};
pub use ram::{RamImportError, addr};
pub use region::Region;
