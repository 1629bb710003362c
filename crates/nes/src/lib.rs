//! NES Tetris (USA), frame-exact.
