//! The console's CPU phase as the ROM in tetanes has it, for an engine replaying the same movie.
//!
//! Where a frame's work ends near the next NMI, what happens (on time, a lag frame, a crash)
//! depends on how the console's CPU stands against its PPU, which follows from every cycle since
//! power-on: the engine cannot know it, and evaluates every phase ([`playfield_nes::CpuPhase`]).
//! [`RomPhases`] runs the ROM a frame ahead of the engine and measures the phase tetanes has at
//! each frame, so the engine, told it ([`playfield_nes::Nes::set_cpu_phase`]), goes on as tetanes
//! does; and it keeps the ROM's traced variables to compare the two frame by frame.

use std::collections::VecDeque;

use playfield_nes::CpuPhase;
use playfield_nes::fm2::{Command, InputLine};
use playfield_nes::trace::TraceFrame;

use crate::lag::{FrameOutcome, NmiTiming, RomLayout};
use crate::{Emulator, Rom, RomError};

/// One frame of the ROM, as the engine needs it.
#[derive(Clone, Debug)]
pub struct RomFrame {
    /// The CPU phase of the frame's NMI (`None` where the ROM had no NMI at this frame or the
    /// next, or ran a power or reset command).
    pub phase: Option<CpuPhase>,
    /// How the NMI that ended this frame's work came (`None` on a power or reset line).
    pub outcome: Option<FrameOutcome>,
    /// How the next frame's NMI came: where this frame's work ended against it.
    pub next_outcome: Option<FrameOutcome>,
    /// The ROM's traced variables after the frame.
    pub trace: TraceFrame,
}

/// A frame the ROM has run, waiting for the next one's timing.
struct Ran {
    outcome: Option<FrameOutcome>,
    nmi: Option<NmiTiming>,
    trace: TraceFrame,
}

/// The ROM in tetanes, a frame ahead of an engine that replays the same lines.
pub struct RomPhases {
    emulator: Emulator,
    layout: RomLayout,
    ahead: VecDeque<Ran>,
}

impl RomPhases {
    /// Powers the ROM on.
    ///
    /// # Errors
    /// [`RomError`] when the emulator refuses the ROM or its NMI handler and wait loops are not
    /// found.
    pub fn new(rom: &Rom) -> Result<RomPhases, RomError> {
        Ok(RomPhases {
            emulator: Emulator::new(rom)?,
            layout: RomLayout::from_rom(rom)?,
            ahead: VecDeque::with_capacity(2),
        })
    }

    /// Runs the movie's next line on the ROM. Call it for line `i + 1` before taking line `i`
    /// with [`RomPhases::take`]: a frame's phase needs the next frame's NMI.
    ///
    /// # Errors
    /// [`RomError::Emulator`] when tetanes fails otherwise than by the ROM crashing.
    pub fn push(&mut self, line: &InputLine) -> Result<(), RomError> {
        let ran = if self.emulator.frame() == 0 || line.command != Command::NONE {
            // Line 0 runs nothing, and a power or reset command restarts the timing.
            self.emulator.step_line(line)?;
            Ran {
                outcome: None,
                nmi: None,
                trace: self.emulator.trace_frame(),
            }
        } else {
            let timing = self.emulator.step_timed(&self.layout, line.buttons)?;
            Ran {
                outcome: Some(timing.outcome),
                nmi: timing.nmi,
                trace: self.emulator.trace_frame(),
            }
        };
        self.ahead.push_back(ran);
        Ok(())
    }

    /// Lines run on the ROM and not yet taken.
    #[must_use]
    pub fn ahead(&self) -> usize {
        self.ahead.len()
    }

    /// The oldest line run and not yet taken, with its phase (which needs the line after it
    /// pushed: without it the phase is `None`).
    pub fn take(&mut self) -> Option<RomFrame> {
        let this = self.ahead.pop_front()?;
        let next = self.ahead.front();
        let phase = match (this.nmi, next.and_then(|n| n.nmi)) {
            (Some(this_nmi), Some(next_nmi)) => self.layout.cpu_phase(&this_nmi, &next_nmi),
            _ => None,
        };
        Some(RomFrame {
            phase,
            outcome: this.outcome,
            next_outcome: next.and_then(|n| n.outcome),
            trace: this.trace,
        })
    }
}

impl RomLayout {
    /// The CPU phase of a frame's NMI as the engine's lag model takes it, from that NMI's timing
    /// and the next frame's: the handler's delay after the NMI's edge, whether it interrupted the
    /// wait loop at its branch, whether the frame to the next NMI is the longer one, and the
    /// sprite DMA's length. `None` when the timing does not fit a phase the engine knows.
    #[must_use]
    pub fn cpu_phase(&self, this: &NmiTiming, next: &NmiTiming) -> Option<CpuPhase> {
        let at_branch = self.wait_pcs.contains(&this.interrupted)
            && self.wait_pcs.contains(&this.interrupted.wrapping_sub(2));
        Some(CpuPhase {
            nmi_delay_thirds: u8::try_from(this.entry_dot.checked_sub(1)?).ok()?,
            interrupted_beq: at_branch,
            long_frame: next.edge_thirds() - this.edge_thirds() == 89_342,
            dma_odd: this.dma == Some(514),
        })
    }
}
