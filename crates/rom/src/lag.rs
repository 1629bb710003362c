//! Lag frames and crashes of the real ROM, observed at its NMI.
//!
//! Every frame the NMI interrupts the CPU. Normally the main loop has finished the frame's work
//! and waits in one of the busy loops that poll `verticalBlankingInterval` ($33) — `lda $33`,
//! `beq` back (`updateAudioWaitForNmiAndResetOamStaging` and its siblings). When the work
//! outlasts the frame, the NMI interrupts it instead: that frame is a *lag frame*. The NMI still
//! runs (frame counter, RNG, controller, playfield upload), and the main loop, once it finishes,
//! waits for the next NMI. A *crash* is the CPU leaving the game's code: an invalid opcode (the
//! emulator reports it), an NMI that interrupts an address outside the program, or an NMI that
//! interrupts the jump-table routine where it holds its pointer in `tmp1`/`tmp2`, which the NMI's
//! own dispatch overwrites (measured: after it the game freezes, or its NMIs stop). A caller that
//! sees [`FrameOutcome::NoNmi`] in play, where the NMI is always on, has also seen a crash.
//!
//! The wait loops and the NMI handler are found in the user's ROM (the vector at $FFFA and the
//! byte pattern of the loop), so nothing of the ROM is written here.

use crate::emulator::{Emulator, to_joypad};
use crate::rom::{Rom, RomError};
use playfield_nes::Buttons;
use tetanes_core::control_deck::Clocked;
use tetanes_core::input::Player;

/// `lda verticalBlankingInterval` ($33, zero page) then `beq` back to it.
const WAIT_LOOP: [u8; 4] = [0xA5, 0x33, 0xF0, 0xFC];

/// `switch_s_plus_2a`, the jump-table routine: `asl`, `tay`, `iny`, `pla`, `sta tmp1`, `pla`,
/// `sta tmp2`, `lda (tmp1),y`, `tax`, `iny`, `lda (tmp1),y`, `sta tmp2`, `stx tmp1`, `jmp (tmp1)`.
const SWITCH_ROUTINE: [u8; 22] = [
    0x0A, 0xA8, 0xC8, 0x68, 0x85, 0x00, 0x68, 0x85, 0x01, 0xB1, 0x00, 0xAA, 0xC8, 0xB1, 0x00, 0x85,
    0x01, 0x86, 0x00, 0x6C, 0x00, 0x00,
];

/// Offsets in [`SWITCH_ROUTINE`] of the instructions at which an NMI is fatal. The NMI handler's
/// `render` dispatches through the same routine, so it leaves its own pointer in `tmp1`/`tmp2`
/// ($00-$01). Interrupted once `tmp1` holds the main loop's table address and before both bytes of
/// the target are stored again from registers (`pla`/`sta tmp2`, the two table reads), or between
/// the final `sta tmp2` and `jmp (tmp1)`, the main loop reads or jumps through the NMI's pointer:
/// it runs the NMI's render routine in its place and goes astray. At the first `sta tmp1` and at
/// the final `sta tmp2` both bytes are still rewritten from the stack or the registers.
const SWITCH_FATAL_OFFSETS: [u16; 8] = [6, 7, 9, 11, 12, 13, 17, 19];

/// Where the ROM's NMI handler starts, where its main loop waits and where an NMI is fatal, read
/// from a ROM file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RomLayout {
    /// The NMI vector ($FFFA).
    pub nmi: u16,
    /// Addresses of the two instructions of every wait loop, and of the `nop` before it.
    pub wait_pcs: Vec<u16>,
    /// Addresses in the jump-table routine where an NMI sends the main loop astray.
    pub fatal_pcs: Vec<u16>,
}

impl RomLayout {
    /// Finds the NMI handler and the wait loops in an iNES file of Tetris (USA) (32 KiB of PRG
    /// mapped at $8000).
    ///
    /// # Errors
    /// [`RomError::Emulator`] when the file is too short or holds no wait loop.
    pub fn from_rom(rom: &Rom) -> Result<RomLayout, RomError> {
        let bytes = rom.bytes();
        let prg = bytes
            .get(16..16 + 0x8000)
            .ok_or_else(|| RomError::Emulator("the ROM has less than 32 KiB of PRG".into()))?;
        let nmi = u16::from_le_bytes([prg[0x7FFA], prg[0x7FFB]]);
        let mut wait_pcs = Vec::new();
        for (i, window) in prg.windows(WAIT_LOOP.len()).enumerate() {
            if window == WAIT_LOOP {
                let at = 0x8000 + i as u16;
                wait_pcs.push(at);
                wait_pcs.push(at + 2);
                // `sta verticalBlankingInterval`, `nop`, then the loop: an NMI at the `nop` sets
                // the flag after the store, so the loop ends at once, as if it had waited.
                if i >= 3 && prg[i - 3..i] == [0x85, 0x33, 0xEA] {
                    wait_pcs.push(at - 1);
                }
            }
        }
        if wait_pcs.is_empty() {
            return Err(RomError::Emulator("no wait loop found in the ROM".into()));
        }
        let switch = prg
            .windows(SWITCH_ROUTINE.len())
            .position(|w| w == SWITCH_ROUTINE)
            .ok_or_else(|| RomError::Emulator("no jump-table routine found in the ROM".into()))?;
        let fatal_pcs = SWITCH_FATAL_OFFSETS
            .iter()
            .map(|&o| 0x8000 + switch as u16 + o)
            .collect();
        Ok(RomLayout {
            nmi,
            wait_pcs,
            fatal_pcs,
        })
    }
}

/// What the ROM did in one frame, as seen from its NMI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameOutcome {
    /// The NMI found the main loop waiting, in the wait loop at this address.
    OnTime {
        /// The interrupted program counter (one of [`RomLayout::wait_pcs`]).
        pc: u16,
    },
    /// The NMI interrupted the main loop's work at this address.
    Lag {
        /// The interrupted program counter.
        pc: u16,
    },
    /// The frame had no NMI (the game had it disabled).
    NoNmi,
    /// The CPU left the game's code.
    Crash {
        /// What showed it.
        cause: CrashCause,
    },
}

/// How a crash of the ROM showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashCause {
    /// The CPU met an opcode it cannot execute (it jams).
    InvalidOpcode,
    /// The NMI interrupted the CPU outside the program ($8000-$FFFF).
    OutsideProgram {
        /// The interrupted program counter.
        pc: u16,
    },
    /// The NMI interrupted the jump-table routine where its pointer is live (see
    /// [`RomLayout::fatal_pcs`]): the main loop then jumps through the NMI's pointer.
    NmiInJumpTable {
        /// The interrupted program counter.
        pc: u16,
    },
}

/// When a frame's NMI came, for the engine's `playfield_nes::CpuPhase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NmiTiming {
    /// The CPU's cycle count (since power-on) at the NMI handler's first instruction.
    pub entry_cycle: u32,
    /// The PPU's dot on scanline 241 at that moment (the NMI's edge is at dot 1).
    pub entry_dot: u16,
    /// The interrupted instruction's address (the return address the interrupt pushed).
    pub interrupted: u16,
    /// Cycles of the sprite DMA the handler started (513 or 514), when it was seen.
    pub dma: Option<u32>,
}

impl NmiTiming {
    /// The NMI's edge in thirds of a CPU cycle (PPU dots) since power-on.
    #[must_use]
    pub fn edge_thirds(&self) -> i64 {
        3 * i64::from(self.entry_cycle) - (i64::from(self.entry_dot) - 1)
    }
}

/// What the ROM did in one frame and when its NMI came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameTiming {
    /// As [`Emulator::step_probed`] reports it.
    pub outcome: FrameOutcome,
    /// The NMI's timing, when the frame had one.
    pub nmi: Option<NmiTiming>,
}

impl Emulator {
    /// Overwrites the work RAM except the stack page ($0100-$01FF), which holds the CPU's return
    /// addresses; to be called between frames of play, while the main loop waits for its NMI.
    pub fn write_ram_keep_stack(&mut self, ram: &[u8; crate::RAM_SIZE]) {
        let wram = self.deck_mut().wram_mut();
        wram[..0x100].copy_from_slice(&ram[..0x100]);
        wram[0x200..].copy_from_slice(&ram[0x200..]);
    }

    /// Runs one input line like [`Emulator::step`] (not line 0 after power-on) and says whether
    /// its NMI found the main loop waiting.
    ///
    /// # Errors
    /// [`RomError::Emulator`] when tetanes fails otherwise than by an invalid opcode.
    pub fn step_probed(
        &mut self,
        layout: &RomLayout,
        buttons: Buttons,
    ) -> Result<FrameOutcome, RomError> {
        Ok(self.step_timed(layout, buttons)?.outcome)
    }

    /// [`Emulator::step_probed`], and when the NMI came: the cycle and dot the handler started
    /// at, the instruction it interrupted, and how long its sprite DMA took (found as the one
    /// instruction of the handler's first 400 that takes over 500 cycles: the DMA halts the CPU
    /// in it).
    ///
    /// # Errors
    /// [`RomError::Emulator`] when tetanes fails otherwise than by an invalid opcode.
    pub fn step_timed(
        &mut self,
        layout: &RomLayout,
        buttons: Buttons,
    ) -> Result<FrameTiming, RomError> {
        let mut timing = None;
        let deck = self.deck_mut();
        deck.joypad_mut(Player::One).buttons = to_joypad(buttons);
        let nmi = layout.nmi;
        let mut outcome = FrameOutcome::NoNmi;
        loop {
            let clocked = match deck.clock_frame_until(|bus| bus.cpu.pc == nmi) {
                Ok(c) => c,
                Err(_) if deck.cpu_corrupted() => {
                    outcome = FrameOutcome::Crash {
                        cause: CrashCause::InvalidOpcode,
                    };
                    break;
                }
                Err(e) => return Err(RomError::Emulator(format!("frame: {e}"))),
            };
            if deck.cpu_corrupted() {
                outcome = FrameOutcome::Crash {
                    cause: CrashCause::InvalidOpcode,
                };
                break;
            }
            if !matches!(clocked, Clocked::Stopped) {
                break;
            }
            // At the NMI handler's first instruction: the interrupt pushed PCH, PCL, P.
            let sp = deck.bus().cpu.sp;
            let wram = deck.wram();
            let at = |offset: u8| wram[0x100 + usize::from(sp.wrapping_add(offset))];
            let pc = u16::from_le_bytes([at(2), at(3)]);
            let bus = deck.bus();
            let mut nmi_timing = NmiTiming {
                entry_cycle: bus.cpu.cycle,
                entry_dot: bus.ppu.cycle,
                interrupted: pc,
                dma: None,
            };
            outcome = if pc < 0x8000 {
                FrameOutcome::Crash {
                    cause: CrashCause::OutsideProgram { pc },
                }
            } else if layout.fatal_pcs.contains(&pc) {
                FrameOutcome::Crash {
                    cause: CrashCause::NmiInJumpTable { pc },
                }
            } else if layout.wait_pcs.contains(&pc) {
                FrameOutcome::OnTime { pc }
            } else {
                FrameOutcome::Lag { pc }
            };
            // Step past the handler's first instruction so the stop does not fire again, and on
            // until the sprite DMA.
            for _ in 0..400 {
                let before = deck.bus().cpu.cycle;
                deck.clock_instr()
                    .map_err(|e| RomError::Emulator(format!("NMI: {e}")))?;
                let took = deck.bus().cpu.cycle - before;
                if took > 500 {
                    // The DMA and the instruction whose fetch it delayed (an `rts`, 6 cycles).
                    nmi_timing.dma = Some(took - 6);
                    break;
                }
            }
            timing = Some(nmi_timing);
        }
        self.count_line();
        Ok(FrameTiming {
            outcome,
            nmi: timing,
        })
    }
}

impl Emulator {
    /// Runs one input line like [`Emulator::step`], one instruction at a time, calling `each`
    /// with the program counter and the CPU's cycle count after every instruction (exploration).
    ///
    /// # Errors
    /// [`RomError::Emulator`] when tetanes fails.
    pub fn step_traced(
        &mut self,
        buttons: Buttons,
        mut each: impl FnMut(&tetanes_core::bus::Bus, &[u8; crate::RAM_SIZE]),
    ) -> Result<(), RomError> {
        let deck = self.deck_mut();
        deck.joypad_mut(Player::One).buttons = to_joypad(buttons);
        let number = deck.frame_number();
        loop {
            let clocked = deck
                .clock_frame_until(|_| true)
                .map_err(|e| RomError::Emulator(format!("frame: {e}")))?;
            let bus = deck.bus();
            each(bus, deck.wram());
            if !matches!(clocked, Clocked::Stopped) || deck.frame_number() != number {
                break;
            }
        }
        self.count_line();
        Ok(())
    }
}
