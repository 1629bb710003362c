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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DemoData;

    /// An iNES image with 32 KiB of PRG whose bytes are their CPU address's low byte plus page.
    fn image() -> Vec<u8> {
        let mut image = b"NES\x1A\x02\x02".to_vec();
        image.resize(16, 0);
        image.extend((0x8000u32..0x1_0000).map(|a| (a as u8).wrapping_add((a >> 8) as u8)));
        image.resize(16 + 0x8000 + 0x4000, 0);
        image
    }

    #[test]
    fn program_and_demo_tables_read_from_one_check() {
        let image = image();
        let program = ProgramData::from_ines(&image).unwrap();
        assert_eq!(program.byte(0xDD01), 0xDE);
        let demo = DemoData::from_ines(&image).unwrap();
        assert_eq!(demo, DemoData::from_program(&program));
        assert_eq!(demo.buttons[0x101], program.byte(0xDE01));
        assert_eq!(demo.tetrimino_types[0xFF], program.byte(0xDFFF));
    }

    #[test]
    fn images_of_another_shape_are_refused_with_their_size() {
        let full = image();
        let mut one_bank = image();
        one_bank[4] = 1;
        for bad in [&full[..100], &one_bank[..], &b"NES"[..]] {
            let message = format!(
                "not an iNES image with 32 KiB of PRG ROM ({} bytes)",
                bad.len()
            );
            assert_eq!(
                ProgramData::from_ines(bad).unwrap_err().to_string(),
                message
            );
            assert_eq!(DemoData::from_ines(bad).unwrap_err().to_string(), message);
        }
    }
}
