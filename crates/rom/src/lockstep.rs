//! The real ROM in lockstep with the engine: both get the same input line every frame and the
//! ROM's RAM is compared with the engine's on the traced variables; the first difference is an
//! error that names the frame, the variable and both values.

use playfield_nes::fm2::{Command, InputLine};
use playfield_nes::trace::{Difference, TraceFrame};
use playfield_nes::{Buttons, CpuPhase, Nes};

use crate::lag::{FrameOutcome, RomLayout};
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
    /// One of the two crashed (the NMI in the jump-table routine) and the other did not.
    #[error("{0}")]
    Crash(&'static str),
}

/// The ROM running beside an engine, one input line at a time.
pub struct Lockstep {
    emulator: Emulator,
    layout: RomLayout,
    /// The ROM crashed in the last line run (its CPU left the program).
    rom_crashed: bool,
}

impl Lockstep {
    /// Powers the ROM on.
    ///
    /// # Errors
    /// [`RomError`] when the emulator refuses the ROM.
    pub fn new(rom: &Rom) -> Result<Lockstep, RomError> {
        Ok(Lockstep {
            emulator: Emulator::new(rom)?,
            layout: RomLayout::from_rom(rom)?,
            rom_crashed: false,
        })
    }

    /// The ROM beside an engine from a console already running (a state a test wrote into its
    /// RAM between frames of play), whose lines are not the first after power-on.
    ///
    /// # Errors
    /// [`RomError`] when the ROM's NMI handler and wait loops are not found.
    pub fn from_emulator(emulator: Emulator, rom: &Rom) -> Result<Lockstep, RomError> {
        Ok(Lockstep {
            emulator,
            layout: RomLayout::from_rom(rom)?,
            rom_crashed: false,
        })
    }

    /// Runs `line` on the ROM before the engine runs it and, when `phase_wanted`, returns the
    /// CPU phase the ROM had in that frame as the engine's lag model takes it
    /// ([`RomLayout::cpu_phase`]), for [`Nes::set_cpu_phase`]: the engine then goes on as the
    /// ROM in tetanes does where the outcome depends on the phase. The phase needs the next
    /// frame's NMI, which comes before that frame's buttons are read: a copy of the console runs
    /// on to it. `None` on a power or reset line, at line 0, or where the frame had no NMI.
    /// Compare the engine after its frame with [`Lockstep::check`].
    ///
    /// # Errors
    /// [`RomError::Emulator`] when tetanes fails otherwise than by the ROM crashing.
    pub fn run_line(
        &mut self,
        line: &InputLine,
        phase_wanted: bool,
    ) -> Result<Option<CpuPhase>, RomError> {
        if self.emulator.frame() == 0 || line.command != Command::NONE {
            self.emulator.step_line(line)?;
            return Ok(None);
        }
        let timing = self.emulator.step_timed(&self.layout, line.buttons)?;
        self.rom_crashed |= matches!(timing.outcome, FrameOutcome::Crash { .. });
        let this = timing.nmi;
        let Some(this) = this.filter(|_| phase_wanted) else {
            return Ok(None);
        };
        let mut ahead = self.emulator.clone();
        let next = ahead.step_timed(&self.layout, Buttons::NONE)?.nmi;
        Ok(next.and_then(|next| self.layout.cpu_phase(&this, &next)))
    }

    /// Compares `nes`, which has just run the line [`Lockstep::run_line`] ran, with the ROM.
    ///
    /// # Errors
    /// [`LockstepError::Diverged`] at the first traced variable that differs;
    /// [`LockstepError::Crash`] when one crashed and not the other (past a crash in both the RAM
    /// is the runaway program's, not compared).
    pub fn check(&self, nes: &Nes) -> Result<(), LockstepError> {
        match (self.rom_crashed, nes.crash().is_some()) {
            (true, true) => return Ok(()),
            (true, false) => {
                return Err(LockstepError::Crash(
                    "the ROM crashed and the engine did not",
                ));
            }
            (false, true) => {
                return Err(LockstepError::Crash(
                    "the engine crashed and the ROM did not",
                ));
            }
            (false, false) => {}
        }
        let engine = TraceFrame::from_ram(nes.frame(), &nes.ram());
        match engine.first_difference(&self.emulator.trace_frame()) {
            None => Ok(()),
            Some(difference) => Err(LockstepError::Diverged(Box::new(difference))),
        }
    }

    /// Runs `line` on the ROM and compares it with `nes`, which has just run the same line (an
    /// engine not told the ROM's CPU phase: see [`Lockstep::run_line`]).
    ///
    /// # Errors
    /// [`LockstepError::Rom`] when tetanes fails, [`LockstepError::Diverged`] at the first
    /// traced variable that differs, [`LockstepError::Crash`] when only one crashed.
    pub fn step_line(&mut self, line: &InputLine, nes: &Nes) -> Result<(), LockstepError> {
        self.run_line(line, false)?;
        self.check(nes)
    }

    /// The emulator, to read its frame or RAM.
    #[must_use]
    pub fn emulator(&self) -> &Emulator {
        &self.emulator
    }
}
