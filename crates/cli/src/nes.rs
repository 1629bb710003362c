//! `playfield nes ...` subcommands.

use clap::Subcommand;

/// The `nes` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {}

/// Runs one `nes` subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}

/// `playfield` with no arguments.
pub fn run_default() -> anyhow::Result<()> {
    anyhow::bail!("the default job (watch the AI play NES Tetris) is not built yet")
}
