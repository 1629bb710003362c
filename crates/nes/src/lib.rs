//! NES Tetris (USA), frame-exact.

mod buttons;
pub mod fm2;
pub mod movies;
pub mod trace;

pub use buttons::Buttons;
