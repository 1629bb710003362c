//! SIGTERM and SIGHUP while a terminal view is up: the signal is only recorded, the view's loop
//! sees it within one poll interval and returns, its terminal guard restores the screen, and
//! `main` exits with 128 + the signal number, as a shell expects. Outside the views the signals
//! keep their default action (a batch run ends at once).

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result};

/// The signal received, 0 for none.
fn slot() -> &'static Arc<AtomicUsize> {
    static SLOT: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    SLOT.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// The termination signal received while a view was up, if any.
pub fn received() -> Option<i32> {
    match slot().load(Ordering::Relaxed) {
        0 => None,
        n => i32::try_from(n).ok(),
    }
}

/// Signals are recorded while this lives; dropping it restores their default action.
pub struct Catch {
    #[cfg(unix)]
    ids: Vec<signal_hook::SigId>,
}

/// Starts recording SIGTERM and SIGHUP.
pub fn catch_termination() -> Result<Catch> {
    #[cfg(unix)]
    {
        let mut ids = Vec::new();
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
            let value = usize::try_from(signal).unwrap_or(1);
            ids.push(
                signal_hook::flag::register_usize(signal, Arc::clone(slot()), value)
                    .context("installing the SIGTERM/SIGHUP handler")?,
            );
        }
        Ok(Catch { ids })
    }
    #[cfg(not(unix))]
    Ok(Catch {})
}

impl Drop for Catch {
    fn drop(&mut self) {
        #[cfg(unix)]
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
