//! The ROM's program bytes, read from the user's file at run time for what playfield does not
//! ship: the program the lag model runs at the highest levels (the main loop's work, the NMI and
//! the sound driver with its music, whose timing decides which frames lag or crash) and the bytes
//! past `levelDisplayTable` that the NMI reads at levels above 29. Without them the engine does
//! not model lag frames and crashes (see `Nes::lag_modelled`).

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

/// An image that is not an iNES file of the shape Tetris (USA) has: a 16-byte header, then 32 KiB
/// of PRG ROM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InesError {
    /// The image's size in bytes.
    pub len: usize,
}

impl std::fmt::Display for InesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not an iNES image with 32 KiB of PRG ROM ({} bytes)",
            self.len
        )
    }
}

impl std::error::Error for InesError {}

impl ProgramData {
    /// Reads the PRG ROM from an iNES image of Tetris (USA): 16-byte header, 32 KiB PRG at $8000.
    /// The caller should have checked the file's SHA-1 (the `playfield-rom` crate does).
    ///
    /// # Errors
    /// When the image is not an iNES file with 32 KiB of PRG ROM.
    pub fn from_ines(image: &[u8]) -> Result<ProgramData, InesError> {
        if image.len() < 16 + 0x8000 || &image[..4] != b"NES\x1A" || image[4] != 2 {
            return Err(InesError { len: image.len() });
        }
        let mut prg = Box::new([0u8; 0x8000]);
        prg.copy_from_slice(&image[16..16 + 0x8000]);
        Ok(ProgramData { prg })
    }

    /// The `len` bytes from the CPU address `start` ($8000-$FFFF).
    pub(crate) fn bytes(&self, start: u16, len: usize) -> &[u8] {
        let from = usize::from(start & 0x7FFF);
        &self.prg[from..from + len]
    }

    /// The byte at a CPU address $8000-$FFFF.
    #[must_use]
    pub fn byte(&self, addr: u16) -> u8 {
        self.prg[usize::from(addr & 0x7FFF)]
    }
}
