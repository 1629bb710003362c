//! Frames per second of tetanes-core running Tetris (placeholder until the movie generators land).

fn main() {}
