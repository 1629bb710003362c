//! `playfield standard ...` subcommands.

use clap::Subcommand;

/// The `standard` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {}

/// Runs one `standard` subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}
