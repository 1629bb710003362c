//! Players for Standard Tetris.
