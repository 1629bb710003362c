//! The demo: `demoButtonsTable` ($DD00) and `demoTetriminoTypeTable` ($DF00) replayed by the NMI
//! handler. These tables are ROM data that playfield does not ship: they are read from the user's
//! ROM file at run time ([`DemoData::from_ines`]). Without them the engine stops with an
//! "unsupported" state when the title screen times out into the demo.

use crate::user_rom::program::{InesError, ProgramData};

/// The demo's recorded buttons and pieces, read from a Tetris (USA) iNES image.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DemoData {
    /// `demoButtonsTable`: pairs of (buttons, frames to hold), $DD00-$DEFF.
    pub buttons: Box<[u8; 0x200]>,
    /// `demoTetriminoTypeTable`: the demo's pieces, type in bits 4-6, $DF00-$DFFF.
    pub tetrimino_types: Box<[u8; 0x100]>,
}

/// The CPU page of `demoButtonsTable`.
pub(crate) const DEMO_BUTTONS_PAGE: u8 = 0xDD;
/// The CPU page of `demoTetriminoTypeTable`: the buttons are exhausted when the pointer gets here.
pub(crate) const DEMO_TETRIMINO_TYPE_PAGE: u8 = 0xDF;

impl DemoData {
    /// Reads the tables from an iNES image of Tetris (USA): 16-byte header, 32 KiB PRG at $8000.
    /// The caller should have checked the file's SHA-1 (the `playfield-rom` crate does).
    ///
    /// # Errors
    /// When the image is not an iNES file with 32 KiB of PRG ROM.
    pub fn from_ines(image: &[u8]) -> Result<DemoData, InesError> {
        Ok(DemoData::from_program(&ProgramData::from_ines(image)?))
    }

    /// The tables in the program bytes.
    #[must_use]
    pub fn from_program(program: &ProgramData) -> DemoData {
        let mut buttons = Box::new([0u8; 0x200]);
        buttons.copy_from_slice(program.bytes(0xDD00, 0x200));
        let mut tetrimino_types = Box::new([0u8; 0x100]);
        tetrimino_types.copy_from_slice(program.bytes(0xDF00, 0x100));
        DemoData {
            buttons,
            tetrimino_types,
        }
    }

    /// The byte of `demoButtonsTable` at a CPU address $DD00-$DEFF.
    pub(crate) fn button_byte(&self, addr: u16) -> u8 {
        self.buttons[usize::from(addr.wrapping_sub(0xDD00)) & 0x1FF]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
