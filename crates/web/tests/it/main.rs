//! The integration tests of `playfield-web`, one module per subject, in one test binary (one link
//! instead of one per file).

use std::sync::{Mutex, MutexGuard, PoisonError};

mod api;
mod browser;
mod load;
mod sockets;
mod webdriver;

/// Held by the tests that load the machine for a long time, the 200 connections of `load` and
/// the headless browser of `browser`, so that they take turns in this one process: each waits on
/// frames or on the page with time limits that assume the machine is not busy with the other.
fn heavy_test_lock() -> MutexGuard<'static, ()> {
    static HEAVY: Mutex<()> = Mutex::new(());
    // A heavy test that failed leaves the lock poisoned; the other still runs and reports alone.
    HEAVY.lock().unwrap_or_else(PoisonError::into_inner)
}
