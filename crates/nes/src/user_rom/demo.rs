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
