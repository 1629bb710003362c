//! Finding, reading and checking the Tetris (USA) ROM file.

use sha1::{Digest, Sha1};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// SHA-1 of the whole iNES file of Tetris (USA), header included.
pub const TETRIS_SHA1: &str = "77747840541bfc62a28a5957692a98c550bd6b2b";

/// The largest file [`Rom::load`] reads (Tetris (USA) is 40,976 bytes; no NES ROM comes near).
pub const MAX_ROM_BYTES: u64 = 8 << 20;

/// The environment variable that names the ROM file.
pub const ROM_ENV: &str = "PLAYFIELD_ROM";

/// The environment variable that turns a skipped ROM test into a failure.
pub const REQUIRE_ROM_ENV: &str = "PLAYFIELD_REQUIRE_ROM";

/// Errors loading the ROM or running it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RomError {
    /// `PLAYFIELD_ROM` is not set (or empty).
    #[error("no ROM: set {ROM_ENV} to the path of Tetris (USA), SHA-1 {TETRIS_SHA1}")]
    NotSet,
    /// The file cannot be read.
    // The OS error is the source, not part of the message: error reports print the chain.
    #[error("cannot read the ROM {path}")]
    Read {
        /// The path given.
        path: PathBuf,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// The path is not a regular file (a directory, a device, a pipe), or it is far larger than
    /// any NES ROM: it is not read.
    #[error("{path} is not a ROM file: {why}")]
    NotAFile {
        /// The path given.
        path: PathBuf,
        /// What it is instead.
        why: String,
    },
    /// The file is not Tetris (USA).
    #[error("{path} is not Tetris (USA): its SHA-1 is {actual}, expected {expected}")]
    WrongRom {
        /// The path given.
        path: PathBuf,
        /// [`TETRIS_SHA1`].
        expected: &'static str,
        /// The file's SHA-1.
        actual: String,
    },
    /// The file passed the SHA-1 check but the engine cannot read its program (it should not
    /// happen with Tetris (USA)).
    #[error("{path}: {reason}")]
    Ines {
        /// The path given.
        path: PathBuf,
        /// What is wrong with the image.
        reason: playfield_nes::InesError,
    },
    /// The emulator refused the ROM or stopped (an invalid opcode).
    #[error("emulator: {0}")]
    Emulator(String),
}

/// The verified bytes of the Tetris (USA) iNES file.
#[derive(Clone, Debug)]
pub struct Rom {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl Rom {
    /// Reads the file at `path` and checks it is Tetris (USA).
    ///
    /// # Errors
    /// [`RomError::Read`] naming the path when the file cannot be read; [`RomError::WrongRom`]
    /// naming the path, the expected and the actual SHA-1 when it is another file.
    pub fn load(path: impl AsRef<Path>) -> Result<Rom, RomError> {
        use std::io::Read as _;
        let path = path.as_ref().to_path_buf();
        let read_error = |source| RomError::Read {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(&path).map_err(read_error)?;
        let meta = file.metadata().map_err(read_error)?;
        if !meta.is_file() {
            return Err(RomError::NotAFile {
                why: if meta.is_dir() {
                    "a directory".to_owned()
                } else {
                    "not a regular file".to_owned()
                },
                path,
            });
        }
        if meta.len() > MAX_ROM_BYTES {
            return Err(RomError::NotAFile {
                why: format!(
                    "{} bytes, more than the {MAX_ROM_BYTES} read at most",
                    meta.len()
                ),
                path,
            });
        }
        let mut bytes = Vec::new();
        file.take(MAX_ROM_BYTES)
            .read_to_end(&mut bytes)
            .map_err(read_error)?;
        let actual = sha1_hex(&bytes);
        if actual != TETRIS_SHA1 {
            return Err(RomError::WrongRom {
                path,
                expected: TETRIS_SHA1,
                actual,
            });
        }
        Ok(Rom { path, bytes })
    }

    /// Loads the ROM named by `PLAYFIELD_ROM`.
    ///
    /// # Errors
    /// [`RomError::NotSet`] when the variable is unset or empty, else as [`Rom::load`].
    pub fn from_env() -> Result<Rom, RomError> {
        match std::env::var_os(ROM_ENV) {
            Some(p) if !p.is_empty() => Rom::load(PathBuf::from(p)),
            _ => Err(RomError::NotSet),
        }
    }

    /// The path the ROM was read from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The iNES file's bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Lowercase hex SHA-1 of `bytes`.
#[must_use]
pub fn sha1_hex(bytes: &[u8]) -> String {
    Sha1::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The ROM for a test, or `None` (after printing `skipped: no ROM (set PLAYFIELD_ROM)`) when
/// `PLAYFIELD_ROM` is not set.
///
/// # Panics
/// With the reason, when `PLAYFIELD_REQUIRE_ROM=1` and the ROM is missing or wrong; and whenever
/// `PLAYFIELD_ROM` names a file that is not Tetris (USA), since that is a broken setup, not a
/// machine without the ROM.
#[must_use]
pub fn rom_for_tests() -> Option<Rom> {
    let required = std::env::var(REQUIRE_ROM_ENV).is_ok_and(|v| v == "1");
    match rom_for_tests_from(std::env::var_os(ROM_ENV), required) {
        Ok(Some(rom)) => Some(rom),
        Ok(None) => {
            println!("skipped: no ROM (set {ROM_ENV})");
            None
        }
        Err(e) => panic!("{e} ({REQUIRE_ROM_ENV}={})", u8::from(required)),
    }
}

/// [`rom_for_tests`] without the environment: `Ok(None)` means skip.
fn rom_for_tests_from(path: Option<OsString>, required: bool) -> Result<Option<Rom>, RomError> {
    match path {
        Some(p) if !p.is_empty() => Rom::load(PathBuf::from(p)).map(Some),
        _ if required => Err(RomError::NotSet),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_rom_skips_only_when_not_required() {
        assert!(matches!(rom_for_tests_from(None, false), Ok(None)));
        assert!(matches!(
            rom_for_tests_from(Some(OsString::new()), false),
            Ok(None)
        ));
        let e = rom_for_tests_from(None, true).unwrap_err();
        assert!(e.to_string().contains(ROM_ENV), "{e}");
        // A wrong path is an error whether or not the ROM is required.
        for required in [false, true] {
            let e = rom_for_tests_from(Some("/nonexistent.nes".into()), required).unwrap_err();
            assert!(e.to_string().contains("/nonexistent.nes"), "{e}");
        }
    }

    #[test]
    fn read_error_names_the_os_error_once() {
        let e = Rom::load("/nonexistent.nes").unwrap_err();
        let mut chain = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            chain.push_str(": ");
            chain.push_str(&s.to_string());
            source = s.source();
        }
        assert_eq!(chain.matches("os error").count(), 1, "{chain}");
    }

    #[test]
    fn directories_and_devices_are_refused() {
        for path in ["/", "/dev/zero"] {
            let e = Rom::load(path).unwrap_err();
            assert!(matches!(e, RomError::NotAFile { .. }), "{path}: {e}");
        }
    }

    #[test]
    fn sha1_of_known_text() {
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }

    #[test]
    fn missing_file_names_the_path() {
        let e = Rom::load("/nonexistent/Tetris.nes").unwrap_err();
        assert!(matches!(e, RomError::Read { .. }));
        assert!(e.to_string().contains("/nonexistent/Tetris.nes"), "{e}");
    }

    #[test]
    fn wrong_file_names_both_hashes() {
        let path =
            std::env::temp_dir().join(format!("playfield-not-a-rom-{}.nes", std::process::id()));
        std::fs::write(&path, b"abc").unwrap();
        let e = Rom::load(&path).unwrap_err();
        let _ = std::fs::remove_file(&path);
        let msg = e.to_string();
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        assert!(msg.contains(TETRIS_SHA1), "{msg}");
        assert!(
            msg.contains("a9993e364706816aba3e25717850c26c9cd0d89d"),
            "{msg}"
        );
    }
}
