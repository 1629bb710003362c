//! NES Tetris (USA), frame-exact.

mod buttons;

pub use buttons::Buttons;
