//! Colin Fahey's "Standard Tetris" rules.
