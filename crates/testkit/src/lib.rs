//! Test support for the NES engine, used only as a dev-dependency: the inputs the tests and
//! benchmarks of `playfield-nes` and `playfield-rom` run, and reading their traces back.
//!
//! - [`movies`]: seeded open-loop movies from power-on (the differential suite against the ROM,
//!   the benchmark movie), with the menus' timing measured on the ROM.
//! - [`autoplay`]: the scripted player, a closed-loop greedy player that clears lines, reaches the
//!   endings and plays several games in a row (the AI players live in `playfield-ai`).
//! - [`trace`]: the trace JSON parser and whole-trace comparison.
//! - [`rom`]: the user's ROM for the tests whose engine runs its program (the lag model).
//! - [`claims`] and [`facts`]: the situations of the NES facts (docs/facts.md) on any console
//!   driven through its gamepad and RAM, the engine or the ROM, each fact asserting its figure.
//! - [`public_movies`]: the public FCEUX movies of `crates/nes/tests/movies` and their
//!   checkpoints.
//!
//! Menus are driven by the engine's own [`MenuDriver`](playfield_nes::MenuDriver) and randomness
//! comes from the workspace's one [`SplitMix64`].

pub mod autoplay;
pub mod claims;
pub mod facts;
pub mod movies;
pub mod public_movies;
pub mod rom;
pub mod trace;

pub use playfield_rng::SplitMix64;
