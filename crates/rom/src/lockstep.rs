//! The real ROM in lockstep with the engine: both get the same input line every frame and the
//! ROM's RAM is compared with the engine's on the traced variables; the first difference is an
//! error that names the frame, the variable and both values.

use playfield_nes::Nes;
use playfield_nes::fm2::InputLine;
use playfield_nes::trace::{Difference, TraceFrame};

use crate::{Emulator, Rom, RomError};

/// Why lockstep stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockstepError {
    /// The emulator failed (the ROM crashed).
    #[error(transparent)]
    Rom(#[from] RomError),
    /// The ROM and the engine disagree on a traced variable.
    #[error("the ROM diverged from the engine (engine, ROM): {0}")]
    Diverged(Box<Difference>),
}

/// The ROM running beside an engine, one input line at a time.
pub struct Lockstep {
    emulator: Emulator,
}

impl Lockstep {
    /// Powers the ROM on.
    ///
    /// # Errors
    /// [`RomError`] when the emulator refuses the ROM.
    pub fn new(rom: &Rom) -> Result<Lockstep, RomError> {
        Ok(Lockstep {
            emulator: Emulator::new(rom)?,
        })
    }

    /// Runs `line` on the ROM and compares it with `nes`, which has just run the same line.
    ///
    /// # Errors
    /// [`LockstepError::Rom`] when the ROM crashes, [`LockstepError::Diverged`] at the first
    /// traced variable that differs.
    pub fn step_line(&mut self, line: &InputLine, nes: &Nes) -> Result<(), LockstepError> {
        self.emulator.step_line(line)?;
        let engine = TraceFrame::from_ram(nes.frame(), &nes.ram());
        match engine.first_difference(&self.emulator.trace_frame()) {
            None => Ok(()),
            Some(difference) => Err(LockstepError::Diverged(Box::new(difference))),
        }
    }

    /// The emulator, to read its frame or RAM.
    #[must_use]
    pub fn emulator(&self) -> &Emulator {
        &self.emulator
    }
}
