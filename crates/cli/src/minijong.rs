//! `playfield minijong ...` subcommands.

use clap::Subcommand;

/// The `minijong` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {}

/// Runs one `minijong` subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}
