//! Players for NES Tetris.
