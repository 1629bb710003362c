//! Terminal views shared by the games: the terminal guard, key helpers, and the NES view and its
//! watch / human-play loops.

pub mod nes_loop;
pub mod nes_view;
pub mod palette;

use std::io::IsTerminal;

use anyhow::{Result, bail};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

pub use nes_loop::{MoviePlayer, WatchOptions, play_human, watch};

/// Restores the terminal when dropped: on normal exit, early return and error. `ratatui::try_init`
/// also installs a panic hook that restores it before the panic message is printed, and raw mode
/// turns Ctrl-C into a key event that the loops treat as "quit" (see [`is_quit`]), so all three
/// ways out leave a usable shell.
/// SIGTERM and SIGHUP are caught while it lives (see [`crate::signals`]): the loops end on them,
/// so the guard restores the terminal then too.
pub struct TerminalGuard {
    /// Keyboard enhancement flags were pushed and must be popped.
    pub(crate) enhanced: bool,
    /// Dropped after the terminal is restored (fields drop after `drop` runs).
    _signals: crate::signals::Catch,
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        if self.enhanced {
            let _ = ratatui::crossterm::execute!(
                std::io::stdout(),
                ratatui::crossterm::event::PopKeyboardEnhancementFlags
            );
        }
        ratatui::restore();
    }
}

/// Fails unless standard output is a terminal (call before any slow preparation).
pub fn require_terminal(what: &str) -> Result<()> {
    if !std::io::stdout().is_terminal() {
        bail!("{what} needs a terminal (standard output is not one)");
    }
    Ok(())
}

/// Enters the alternate screen in raw mode. `what` names the command for the error when standard
/// output is not a terminal (a pipe, a file, CI).
pub fn enter(what: &str) -> Result<(DefaultTerminal, TerminalGuard)> {
    require_terminal(what)?;
    let signals = crate::signals::catch_termination()?;
    let terminal = ratatui::try_init()?;
    Ok((
        terminal,
        TerminalGuard {
            enhanced: false,
            _signals: signals,
        },
    ))
}

/// Whether a view should end now because SIGTERM or SIGHUP arrived.
pub fn terminated() -> bool {
    crate::signals::received().is_some()
}

/// q, Esc and Ctrl-C quit every view.
pub fn is_quit(code: KeyCode, modifiers: KeyModifiers) -> bool {
    matches!(code, KeyCode::Char('q') | KeyCode::Esc)
        || (code == KeyCode::Char('c') && modifiers.contains(KeyModifiers::CONTROL))
}
