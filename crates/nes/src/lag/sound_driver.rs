//! The sound driver's state, run by the ROM's own code.
//!
//! The engine does not make sound. It keeps the driver's state for its timing: at the highest
//! levels the main loop's work can outlast the frame, and whether the NMI then interrupts the
//! driver (a lag frame) or finds the loop waiting depends on how long the driver ran, which
//! depends on the sound effects and the music playing. So the driver's RAM ($0680-$06FF and the
//! zero-page temporaries $E0-$EF) is kept, and the driver (`updateAudio`) is run on it by the
//! 6502 of `cpu` from the user's ROM ([`ProgramData`]), APU writes dropped. The DMC, which would
//! steal cycles, is never started by the music of a game (measured on the ROM for all four music
//! types).

use crate::lag::cpu::{Bus, Cpu};
use crate::user_rom::program::ProgramData;

/// `updateAudio`, the driver's call once a frame.
const UPDATE_AUDIO: u16 = 0xE216;

/// `soundEffectSlot2_makesNoSound`, which the game code calls (`updateAudio2`) to stop the
/// sound effects and the music.
const SOUND_EFFECT_SLOT2_MAKES_NO_SOUND: u16 = 0xE244;

/// Where a standalone call returns (a `jsr` from here): no code of the ROM's is there.
const CALLER: u16 = 0x0000;

/// A driver call that has not returned after this many cycles went astray.
const CALL_LIMIT: u64 = 29_780;

/// The driver's RAM: $0680-$06FF and the zero-page bytes $E0-$EF.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct AudioRam {
    pub(crate) page: [u8; 0x80],
    pub(crate) zp: [u8; 0x10],
}

impl Default for AudioRam {
    fn default() -> Self {
        AudioRam {
            page: [0; 0x80],
            zp: [0; 0x10],
        }
    }
}

impl AudioRam {
    /// The driver's bytes of a 2 KiB RAM image.
    pub(crate) fn from_ram(ram: &[u8; 0x800]) -> AudioRam {
        let mut a = AudioRam::default();
        a.page.copy_from_slice(&ram[0x680..0x700]);
        a.zp.copy_from_slice(&ram[0xE0..0xF0]);
        a
    }

    /// Writes the driver's bytes into a 2 KiB RAM image.
    pub(crate) fn to_ram(&self, ram: &mut [u8; 0x800]) {
        ram[0x680..0x700].copy_from_slice(&self.page);
        ram[0xE0..0xF0].copy_from_slice(&self.zp);
    }
}

/// The driver's memory on its own: its RAM, the stack, the APU (writes dropped) and the ROM.
struct AudioMem<'a> {
    ram: &'a mut AudioRam,
    stack: [u8; 0x100],
    prg: &'a ProgramData,
    /// A RAM byte outside the driver's was touched.
    stray: bool,
}

impl Bus for AudioMem<'_> {
    fn read(&mut self, addr: u16) -> u8 {
        match addr {
            0x00E0..=0x00EF => self.ram.zp[usize::from(addr - 0xE0)],
            0x0100..=0x01FF => self.stack[usize::from(addr & 0xFF)],
            0x0680..=0x06FF => self.ram.page[usize::from(addr - 0x680)],
            0x8000..=0xFFFF => self.prg.byte(addr),
            _ => {
                self.stray = true;
                0
            }
        }
    }
    fn write(&mut self, addr: u16, value: u8) {
        match addr {
            0x00E0..=0x00EF => self.ram.zp[usize::from(addr - 0xE0)] = value,
            0x0100..=0x01FF => self.stack[usize::from(addr & 0xFF)] = value,
            0x0680..=0x06FF => self.ram.page[usize::from(addr - 0x680)] = value,
            0x4000..=0x4017 => {}
            _ => self.stray = true,
        }
    }
}

/// What one call of the driver did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AudioCall {
    /// Cycles from the routine's first instruction to its `rts` included.
    pub(crate) cycles: u64,
    /// False when the driver touched memory outside its own or did not return.
    pub(crate) exact: bool,
}

/// Calls the routine at `entry` on the driver's RAM alone, recording its instructions into
/// `trace` when given.
fn call(
    ram: &mut AudioRam,
    prg: &ProgramData,
    entry: u16,
    mut trace: Option<&mut Vec<(u16, u64)>>,
) -> AudioCall {
    let mut mem = AudioMem {
        ram,
        stack: [0; 0x100],
        prg,
        stray: false,
    };
    let mut cpu = Cpu {
        sp: 0xFF,
        pc: entry,
        ..Cpu::default()
    };
    // The caller's `jsr`: its return address, the address of its last byte.
    let [lo, hi] = CALLER.wrapping_sub(1).to_le_bytes();
    cpu.push(&mut mem, hi);
    cpu.push(&mut mem, lo);
    let mut exact = true;
    while cpu.pc != CALLER {
        if let Some(t) = trace.as_deref_mut() {
            t.push((cpu.pc, cpu.cycles));
        }
        if cpu.step(&mut mem).is_err() || cpu.cycles > CALL_LIMIT {
            exact = false;
            break;
        }
    }
    AudioCall {
        cycles: cpu.cycles,
        exact: exact && !mem.stray,
    }
}

/// Runs `updateAudio` on the driver's RAM alone.
pub(crate) fn update_audio(ram: &mut AudioRam, prg: &ProgramData) -> AudioCall {
    call(ram, prg, UPDATE_AUDIO, None)
}

/// `soundEffectSlot2_makesNoSound` called by the game code (`updateAudio2`) on the driver's RAM.
pub(crate) fn makes_no_sound_on(ram: &mut AudioRam, prg: &ProgramData) {
    call(ram, prg, SOUND_EFFECT_SLOT2_MAKES_NO_SOUND, None);
}

/// For the ROM comparison tests (`playfield-rom`): runs `updateAudio` on the driver's bytes of a
/// RAM image and returns its cycles, whether the run stayed in the driver's memory, and every
/// instruction's address and starting cycle.
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
pub fn probe_update_audio(
    ram: &mut [u8; 0x800],
    prg: &ProgramData,
) -> (u64, bool, Vec<(u16, u64)>) {
    let mut audio = AudioRam::from_ram(ram);
    let mut trace = Vec::new();
    let done = call(&mut audio, prg, UPDATE_AUDIO, Some(&mut trace));
    audio.to_ram(ram);
    (done.cycles, done.exact, trace)
}
