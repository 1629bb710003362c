//! Tetris players: boards, features, placement search and evaluators.

pub mod json;
pub mod nes;
pub mod standard;

/// The README's Rust example, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
