//! What the engine reads from the user's ROM (the demo's tables, and the program its lag model
//! runs from level 100), and what a report says when it was not given one.

use std::path::Path;
use std::sync::Arc;

use playfield_nes::{DemoData, LAG_FROM_LEVEL, Nes, ProgramData};

use crate::rom::{Rom, RomError};

/// What every report says where a game reached [`LAG_FROM_LEVEL`] without the ROM, followed by
/// how to give one in parentheses (see [`lag_not_modelled_note`]).
pub const LAG_NOT_MODELLED: &str = "lag and crashes not modelled";

/// The parts of a checked ROM the engine runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineData {
    /// The demo's button and piece tables (the title screen's demo needs them).
    pub demo: Arc<DemoData>,
    /// The PRG ROM, which the lag model runs (without it lag and crashes are not modelled).
    pub program: Arc<ProgramData>,
}

impl EngineData {
    /// Reads them from a ROM already checked by [`Rom::load`].
    ///
    /// # Errors
    /// [`RomError::Ines`] naming the path when the image has no 32 KiB PRG ROM (a checked
    /// Tetris (USA) always has).
    pub fn from_rom(rom: &Rom) -> Result<EngineData, RomError> {
        let ines = |reason| RomError::Ines {
            path: rom.path().to_path_buf(),
            reason,
        };
        Ok(EngineData {
            demo: Arc::new(DemoData::from_ines(rom.bytes()).map_err(ines)?),
            program: Arc::new(ProgramData::from_ines(rom.bytes()).map_err(ines)?),
        })
    }

    /// Loads and checks the ROM at `path` (its SHA-1 must be Tetris (USA)'s), then reads them.
    ///
    /// # Errors
    /// As [`Rom::load`] and [`EngineData::from_rom`].
    pub fn load(path: impl AsRef<Path>) -> Result<EngineData, RomError> {
        EngineData::from_rom(&Rom::load(path)?)
    }

    /// Gives `nes` the demo's tables and the program.
    pub fn give_to(&self, nes: &mut Nes) {
        nes.set_demo_data(Some(self.demo.clone()));
        nes.set_program_data(Some(self.program.clone()));
    }
}

/// "lag and crashes not modelled (`how_to_give_rom`)" when a game that reached `top_level` got
/// there without the lag model (`modelled` false) and `top_level` is one where frames can lag or
/// crash; `None` otherwise, when there is nothing to say.
#[must_use]
pub fn lag_not_modelled_note(
    modelled: bool,
    top_level: u8,
    how_to_give_rom: &str,
) -> Option<String> {
    (!modelled && top_level >= LAG_FROM_LEVEL)
        .then(|| format!("{LAG_NOT_MODELLED} ({how_to_give_rom})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_comes_only_at_the_lag_levels_without_the_model() {
        let how = "no ROM given: --rom";
        assert_eq!(lag_not_modelled_note(false, LAG_FROM_LEVEL - 1, how), None);
        assert_eq!(lag_not_modelled_note(true, 255, how), None);
        assert_eq!(
            lag_not_modelled_note(false, LAG_FROM_LEVEL, how).as_deref(),
            Some("lag and crashes not modelled (no ROM given: --rom)")
        );
    }

    #[test]
    fn a_checked_rom_gives_the_engine_its_program() {
        let Some(rom) = crate::rom_for_tests() else {
            return;
        };
        let data = EngineData::from_rom(&rom).unwrap();
        let mut nes = Nes::power_on();
        assert!(!nes.lag_modelled());
        data.give_to(&mut nes);
        assert!(nes.lag_modelled());
    }
}
