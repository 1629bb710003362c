//! The integration tests of `playfield`, one module per subject, in one test binary (one link
//! instead of one per file).

mod bad_input;
mod minijong;
mod nes_bench;
mod nes_replay;
mod nes_tui;
mod parsers_proptest;
mod standard;
