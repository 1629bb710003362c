//! `playfield nes play`: a person plays in the terminal.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

/// The keys, for the help text.
pub const KEYS_HELP: &str = "Keys: arrows = D-pad, Z or A = B, X or S = A, Enter = Start, Right \
    Shift or Tab = Select (most terminals never report Shift alone), q/Esc/Ctrl-C = quit. \
    Terminals with the kitty keyboard protocol report key releases, so held keys (DAS) work \
    exactly; elsewhere a key counts as held for 150 ms after each press or repeat.";

/// Arguments of `nes play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Tetris (USA) ROM, read only for the demo's tables (default: $PLAYFIELD_ROM); its SHA-1 is
    /// checked.
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<PathBuf>,
}

/// Runs `nes play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    crate::tui::require_terminal("nes play")?;
    crate::tui::play_human(super::demo_data(args.rom.as_ref())?)
}
