//! The user's ROM for the engines: its program is what the lag model runs from level 100
//! (without it lag frames and crashes are not modelled), its demo tables what the title screen's
//! demo plays.

use playfield_nes::Nes;
use playfield_rom::{EngineData, ROM_ENV};
use pyo3::PyResult;

use crate::error::ArgError;

/// A checked ROM and the path it was read from (kept so that a pickled engine or environment
/// reads it again where it is unpickled).
#[derive(Clone, Debug)]
pub struct GivenRom {
    /// The path, as given.
    pub path: String,
    /// What the engine reads from it.
    pub data: EngineData,
}

impl GivenRom {
    /// Gives `nes` the ROM's program and demo tables.
    pub fn give_to(&self, nes: &mut Nes) {
        self.data.give_to(nes);
    }
}

/// The ROM of a `rom` argument: a path, `""` for none, or `None` for `PLAYFIELD_ROM` when it is
/// set (else none). The file's SHA-1 is checked.
///
/// # Errors
/// `ValueError` naming `rom` when the file cannot be read or is not Tetris (USA).
pub fn given_rom(rom: Option<&str>) -> PyResult<Option<GivenRom>> {
    let path = match rom {
        Some(path) => path.to_owned(),
        None => std::env::var(ROM_ENV).unwrap_or_default(),
    };
    if path.is_empty() {
        return Ok(None);
    }
    let data = EngineData::load(&path).map_err(|e| {
        // The OS error is the source of a read error: the message names it too.
        let mut reason = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            reason.push_str(": ");
            reason.push_str(&s.to_string());
            source = s.source();
        }
        ArgError::Rom(reason)
    })?;
    Ok(Some(GivenRom { path, data }))
}

/// Gives `nes` the ROM's program and demo tables when there is a ROM.
pub fn give(rom: Option<&GivenRom>, nes: &mut Nes) {
    if let Some(rom) = rom {
        rom.give_to(nes);
    }
}
