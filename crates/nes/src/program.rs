//! The ROM's program bytes, read from the user's file at run time for the data playfield does not
//! ship: the music scores the sound driver plays (their timing decides which frames lag at the
//! highest levels) and the bytes past `levelDisplayTable` that the NMI reads at levels above 29.
//! Without them the engine still predicts lag frames, but the sound driver's music part is then
//! estimated (see `Nes::lag_model_exact`).

/// The 32 KiB of PRG ROM of a Tetris (USA) iNES image, mapped at $8000.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ProgramData {
    prg: Box<[u8; 0x8000]>,
}

impl std::fmt::Debug for ProgramData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramData").finish_non_exhaustive()
    }
}

/// Why program data could not be read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramDataError {
    /// What was wrong.
    pub reason: String,
}

impl std::fmt::Display for ProgramDataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read the program ROM: {}", self.reason)
    }
}

impl std::error::Error for ProgramDataError {}

impl ProgramData {
    /// Reads the PRG ROM from an iNES image of Tetris (USA): 16-byte header, 32 KiB PRG at $8000.
    /// The caller should have checked the file's SHA-1 (the `playfield-rom` crate does).
    ///
    /// # Errors
    /// When the image is not an iNES file with 32 KiB of PRG ROM.
    pub fn from_ines(image: &[u8]) -> Result<ProgramData, ProgramDataError> {
        if image.len() < 16 + 0x8000 || &image[..4] != b"NES\x1A" || image[4] != 2 {
            return Err(ProgramDataError {
                reason: format!(
                    "not an iNES image with 32 KiB of PRG ROM ({} bytes)",
                    image.len()
                ),
            });
        }
        let mut prg = Box::new([0u8; 0x8000]);
        prg.copy_from_slice(&image[16..16 + 0x8000]);
        Ok(ProgramData { prg })
    }

    /// The byte at a CPU address $8000-$FFFF.
    #[must_use]
    pub fn byte(&self, addr: u16) -> u8 {
        self.prg[usize::from(addr & 0x7FFF)]
    }
}
