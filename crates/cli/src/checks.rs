//! The one validation layer: every numeric option is parsed here, with its real range, in one
//! wording (`must be a whole number from 0 to 19`), by clap before any command starts; and an
//! option given where it does not apply is refused with [`not_applicable`]. Options that depend
//! on each other are checked when a command turns its arguments into a library config, which
//! also happens before any work. Such errors are [`UsageError`]s: `main` exits with 2 for them,
//! as clap does for its own, and with 1 for every other error.
//!
//! The ranges are the games' own (levels, heights, music) or limits that keep every run bounded
//! in memory and threads; the README lists them.

use std::fmt::Display;
use std::str::FromStr;

/// Most games of a batch (`nes bench`, `standard bench`).
pub const MAX_GAMES: u64 = 1_000_000;
/// Most deals of `minijong stats`.
pub const MAX_DEALS: u64 = 10_000_000;
/// Most worker threads: the batch runner's own limit.
pub use playfield_report::batch::MAX_THREADS;
/// Most frames `nes replay --frames` runs (about 15-40 s of engine time).
pub const MAX_REPLAY_FRAMES: u64 = 1_000_000_000;
/// Most repetitions of `nes replay --repeat`.
pub const MAX_REPEAT: u32 = 1_000_000;
/// Most frames of an NES game (`--max-frames`): about 190 days of play.
pub const MAX_GAME_FRAMES: u64 = 1_000_000_000;

/// A whole number in `lo..=hi`, as a clap value parser.
pub fn int<T>(lo: T, hi: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |s: &str| match s.trim().parse::<T>() {
        Ok(v) if lo <= v && v <= hi => Ok(v),
        _ => Err(format!("must be a whole number from {lo} to {hi}")),
    }
}

/// A number in `lo..=hi` (decimals allowed), as a clap value parser.
pub fn real(lo: f64, hi: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |s: &str| match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && lo <= v && v <= hi => Ok(v),
        _ => Err(format!("must be a number from {lo} to {hi}")),
    }
}

/// Options that do not go together, or a value a parser could not check alone: bad usage,
/// which exits with 2 wherever it is found.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// A usage error with this message.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// Whether `err` (or an error it wraps) is bad usage.
pub fn is_usage(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<UsageError>())
}

/// The error for an option that has no meaning with the others given.
pub fn not_applicable(option: &str, why: &str) -> anyhow::Error {
    usage(format!("{option} does not apply {why}"))
}

/// How the user gave the ROM, for messages: `--rom` when the command line has it, else
/// `$PLAYFIELD_ROM` (the options' default), so that a bad path in the environment is not
/// blamed on an option the user never typed.
pub fn rom_option() -> &'static str {
    let given = std::env::args_os()
        .skip(1)
        .any(|a| a == "--rom" || a.to_string_lossy().starts_with("--rom="));
    if given { "--rom" } else { "$PLAYFIELD_ROM" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_have_one_wording() {
        let level = int::<u8>(0, 19);
        assert_eq!(level("19"), Ok(19));
        assert_eq!(
            level("20"),
            Err("must be a whole number from 0 to 19".to_owned())
        );
        assert_eq!(
            level("-1"),
            Err("must be a whole number from 0 to 19".to_owned())
        );
        let speed = real(0.25, 4.0);
        assert_eq!(speed("0.5"), Ok(0.5));
        assert!(speed("1e-300").is_err() && speed("NaN").is_err() && speed("inf").is_err());
    }
}
