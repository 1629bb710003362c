//! The one output path: every command writes its results through [`Out`], and `main` turns what
//! comes back into the exit status with [`is_broken_pipe`]. A closed pipe (`playfield ... | head`)
//! ends the command quietly with status 0; any other write error (a full disk, `> /dev/full`)
//! is reported as an error and the status is non-zero. Nothing here panics (`println!` would).
//! Progress goes to standard error ([`progress_bar`], [`note`]).

use std::io::{self, BufWriter, IsTerminal, Stdout, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Standard output, buffered; write errors say they are about standard output.
pub struct Out {
    inner: BufWriter<Stdout>,
}

/// A write to standard output failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output")]
pub struct StdoutError(#[source] pub io::Error);

impl Out {
    /// Standard output.
    pub fn new() -> Out {
        Out {
            inner: BufWriter::new(io::stdout()),
        }
    }

    /// Writes one line.
    pub fn line(&mut self, text: impl std::fmt::Display) -> Result<(), StdoutError> {
        writeln!(self.inner, "{text}").map_err(StdoutError)
    }

    /// Writes one line and flushes it (for results that should appear as they come).
    pub fn line_now(&mut self, text: impl std::fmt::Display) -> Result<(), StdoutError> {
        self.line(text)?;
        self.flush()
    }

    /// Flushes what is buffered.
    pub fn flush(&mut self) -> Result<(), StdoutError> {
        self.inner.flush().map_err(StdoutError)
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        // Errors were reported by the explicit flushes; a drop after an error must not panic.
        let _ = self.inner.flush();
    }
}

/// A note for the user on standard error (progress, warnings). A closed or full standard error
/// is ignored: a note never fails a command, and `eprintln!` would panic.
pub fn note(text: impl std::fmt::Display) {
    let _ = writeln!(io::stderr(), "{text}");
}

/// A progress bar of `len` steps on standard error drawn with `template` (indicatif's), or a
/// hidden one when standard error is not a terminal (so piped and redirected output stays clean).
pub fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Whether any error in the chain is a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_is_found_anywhere_in_the_chain() {
        let pipe = io::Error::new(io::ErrorKind::BrokenPipe, "closed");
        let err = anyhow::Error::new(StdoutError(pipe)).context("printing the summary");
        assert!(is_broken_pipe(&err));
        let full = io::Error::from_raw_os_error(28);
        let err = anyhow::Error::new(StdoutError(full)).context("printing the summary");
        assert!(!is_broken_pipe(&err));
    }
}
