//! The demo: `demoButtonsTable` ($DD00) and `demoTetriminoTypeTable` ($DF00) replayed by the NMI
//! handler. These tables are ROM data that playfield does not ship: they are read from the user's
//! ROM file at run time ([`DemoData::from_ines`]). Without them the engine stops with an
//! "unsupported" state when the title screen times out into the demo.

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

/// Why demo data could not be read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoDataError {
    /// What was wrong.
    pub reason: String,
}

impl std::fmt::Display for DemoDataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read the demo tables: {}", self.reason)
    }
}

impl std::error::Error for DemoDataError {}

impl DemoData {
    /// Reads the tables from an iNES image of Tetris (USA): 16-byte header, 32 KiB PRG at $8000.
    /// The caller should have checked the file's SHA-1 (the `playfield-rom` crate does).
    ///
    /// # Errors
    /// When the image is not an iNES file with 32 KiB of PRG ROM.
    pub fn from_ines(image: &[u8]) -> Result<DemoData, DemoDataError> {
        if image.len() < 16 + 0x8000 || &image[..4] != b"NES\x1A" || image[4] != 2 {
            return Err(DemoDataError {
                reason: format!(
                    "not an iNES image with 32 KiB of PRG ROM ({} bytes)",
                    image.len()
                ),
            });
        }
        let offset = |addr: usize| 16 + addr - 0x8000;
        let mut buttons = Box::new([0u8; 0x200]);
        buttons.copy_from_slice(&image[offset(0xDD00)..offset(0xDF00)]);
        let mut tetrimino_types = Box::new([0u8; 0x100]);
        tetrimino_types.copy_from_slice(&image[offset(0xDF00)..offset(0xE000)]);
        Ok(DemoData {
            buttons,
            tetrimino_types,
        })
    }

    /// The byte of `demoButtonsTable` at a CPU address $DD00-$DEFF.
    pub(crate) fn button_byte(&self, addr: u16) -> u8 {
        self.buttons[usize::from(addr.wrapping_sub(0xDD00)) & 0x1FF]
    }
}
