//! Tetris players: boards, features, placement search and evaluators.

pub mod nes;
pub mod standard;
