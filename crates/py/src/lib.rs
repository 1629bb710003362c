//! playfield for Python: the extension module `playfield._playfield` (PyO3, abi3).
//!
//! - [`nes`]: the NES Tetris engine (`Nes`), the AI players (`Player`, `Decision`) and whole AI
//!   games for benchmarks (`play_nes_game`, `nes_game_seed`).
//! - [`game`]: the environments' game logic in Rust (placement steps, frame steps, Fahey's
//!   Standard Tetris), shared by the single environments and the vector environment.
//! - [`envs`]: the Python classes behind the Gymnasium environments and the vector environments.
//! - [`frames`]: the frame vector environment's games, stepped on a [`team`] of threads.
//! - [`standard`]: Standard Tetris games and players.
//! - [`rom`]: the user's ROM (`rom=` or `PLAYFIELD_ROM`), whose program the lag model runs.
//! - [`tune`]: a `playfield nes tune` run driven from Python, for Ray (`TuneRun`).
//! - [`error`]: the bindings' errors and the Python exceptions they become; [`args`]: the
//!   arguments read with their names and ranges where PyO3's conversions would name neither.
//!
//! The Gymnasium classes themselves are written in Python (`python/playfield`); they call these
//! cores, which step the games and write observations straight into numpy arrays.

use pyo3::prelude::*;

mod args;
mod envs;
mod error;
mod frames;
mod game;
mod nes;
mod rom;
mod standard;
mod team;
mod tune;

/// The extension module.
#[pymodule]
fn _playfield(m: &Bound<'_, PyModule>) -> PyResult<()> {
    nes::register(m)?;
    envs::register(m)?;
    standard::register(m)?;
    tune::register(m)?;
    Ok(())
}
