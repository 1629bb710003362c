//! Tetris (USA) running in tetanes-core, one input line per step.
//!
//! # Frame alignment
//!
//! Movies follow FCEUX: frame `F` is the state after `F` input lines, and the buttons of line `k`
//! are what the game's NMI handler (`nmi` → `pollControllerButtons`) reads while producing frame
//! `k + 1`, so they show in `heldButtons_player1` ($F7; play copies it to `heldButtons`, $B6) in
//! the state after `k + 1` lines.
//!
//! tetanes-core ends a frame when the PPU enters scanline 240, just before vblank, which is also
//! where FCEUX latches a frame's input; so within a run one `clock_frame` is one FCEUX frame, and
//! the NMI at scanline 241 of a call polls the buttons set just before it. The two differ at
//! power-on: tetanes' first frame (scanline 0 to 240, no vblank) brings the console to where
//! FCEUX is only after two input lines (FCEUX keeps the PPU idle for its first frames). Measured,
//! not assumed: with one `clock_frame` per line, FCEUX movies desync (the TAS 4853M dies at frame
//! 9984); with the first line *not* clocked, every public movie checked keeps sync — 4853M shows
//! 988831 points at frame 10462 and 999999 at 10463, the documented FCEUX figures, and death and
//! B-type clear frames of meta_nestris' FCEUX movies match to the frame. So [`Emulator::step`]
//! does not clock on input line 0 (whose buttons the game never reads anyway) and clocks one frame
//! for each later line: the state after `F` lines is tetanes' state after `F - 1` frames.
//!
//! On this timeline the reset code's NMI first runs in frame 5 (it reads line 4); frame 6 has
//! none (NMI is off while the reset code clears the nametables); from frame 7 on every frame runs
//! one NMI except while a screen is being loaded. The `alignment` tests check these facts.
//! To repeat the FCEUX check: `rom_trace` on meta_nestris' `tests/movies/a_type_999999_score/
//! tasvideos_4853m.fm2` (github.com/negative-seven/meta_nestris; not copied here) gives score
//! `0x988831` at frame 10462 and `0x999999` at 10463; its `death/no_input.fm2` reaches playState
//! 10 at frame 6610 and `b_type_clear/tasvideos_920m.fm2` scores 42442 at 3087, as its metadata
//! says.

use crate::rom::{Rom, RomError};
use playfield_nes::Buttons;
use playfield_nes::fm2::InputLine;
use playfield_nes::trace::TraceFrame;
use std::sync::Arc;
use tetanes_core::common::{NesRegion, ResetKind};
use tetanes_core::control_deck::{Config, ControlDeck, HeadlessMode};
use tetanes_core::input::{JoypadBtnState, Player};
use tetanes_core::memory::RamState;

/// Size of the console's work RAM ($0000-$07FF).
pub const RAM_SIZE: usize = 0x800;

/// The ROM in an emulator: headless, NTSC, RAM zeroed at power-on, a standard gamepad in port 1
/// with opposite directions allowed together (a movie may hold Left+Right).
#[derive(Clone)]
pub struct Emulator {
    /// The running console.
    deck: ControlDeck,
    /// The console right after power-on, copied by [`Emulator::power_on`]; shared, so cloning an
    /// emulator (a snapshot) copies one console, not two.
    powered_on: Arc<ControlDeck>,
    /// Input lines consumed since power-on: the `F` of "the state after `F` lines".
    frame: u64,
}

impl std::fmt::Debug for Emulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Emulator")
            .field("frame", &self.frame)
            .finish_non_exhaustive()
    }
}

impl Emulator {
    /// Powers the console on with the ROM inserted (frame 0, before any input line).
    ///
    /// # Errors
    /// [`RomError::Emulator`] if tetanes-core refuses the cartridge.
    pub fn new(rom: &Rom) -> Result<Emulator, RomError> {
        let config = Config::default()
            .with_region(NesRegion::Ntsc)
            .with_ram_state(RamState::AllZeros)
            .with_concurrent_dpad(true)
            .with_headless_mode(HeadlessMode::NO_AUDIO | HeadlessMode::NO_VIDEO)
            // No battery files: the run must not depend on (or write) anything on disk.
            .with_sram_dir(None);
        let mut deck = ControlDeck::with_config(config);
        deck.load_rom("Tetris", &mut rom.bytes())
            .map_err(|e| RomError::Emulator(format!("loading {}: {e}", rom.path().display())))?;
        Ok(Emulator {
            powered_on: Arc::new(deck.clone()),
            deck,
            frame: 0,
        })
    }

    /// Power-cycles the console: back to frame 0, RAM zeroed.
    pub fn power_on(&mut self) {
        self.deck.clone_from(&self.powered_on);
        self.frame = 0;
    }

    /// Runs one input line: player 1 holds `buttons` for one frame (on line 0 after power-on
    /// nothing runs: the module docs say why).
    ///
    /// # Errors
    /// [`RomError::Emulator`] if the CPU hits an invalid opcode (the ROM crashed).
    pub fn step(&mut self, buttons: Buttons) -> Result<(), RomError> {
        if self.frame == 0 {
            // Input line 0 is FCEUX's extra power-on frame: see the module docs.
            self.frame = 1;
            return Ok(());
        }
        self.deck.joypad_mut(Player::One).buttons = to_joypad(buttons);
        // At 1x speed every call clocks exactly one NES frame, so the `Clocked` report adds nothing.
        let _ = self
            .deck
            .clock_frame()
            .map_err(|e| RomError::Emulator(format!("frame {}: {e}", self.frame + 1)))?;
        self.frame += 1;
        Ok(())
    }

    /// Runs one `.fm2` input line: its power or reset command first (as FCEUX does), then
    /// player 1's buttons for one frame.
    ///
    /// A power command restarts from power-on, so the frame count starts again too. A command
    /// on the first line after power-on does nothing, as in FCEUX, which applies it before the
    /// console has run a cycle (see `Nes::step_line` in `playfield-nes`).
    ///
    /// # Errors
    /// As [`Emulator::step`].
    pub fn step_line(&mut self, line: &InputLine) -> Result<(), RomError> {
        if self.frame == 0 {
            // Nothing has run since power-on: a reset or power-on changes nothing.
        } else if line.command.power() {
            self.power_on();
        } else if line.command.soft_reset() {
            self.deck.reset(ResetKind::Soft);
        }
        self.step(line.buttons)
    }

    /// Powers on and runs `frames` input lines — the movie's, then empty ones — calling `each`
    /// with the trace of every frame `1..=frames`. Trace frames count input lines even across a
    /// power command in the movie.
    ///
    /// # Errors
    /// The first error of the emulator or of `each`.
    pub fn trace_movie<E: From<RomError>>(
        &mut self,
        lines: &[InputLine],
        frames: usize,
        mut each: impl FnMut(&TraceFrame) -> Result<(), E>,
    ) -> Result<(), E> {
        self.power_on();
        for i in 0..frames {
            let line = lines.get(i).copied().unwrap_or_default();
            self.step_line(&line)?;
            let mut trace = self.trace_frame();
            trace.frame = i as u64 + 1;
            each(&trace)?;
        }
        Ok(())
    }

    /// Input lines run since power-on.
    #[must_use]
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// A copy of the work RAM ($0000-$07FF).
    #[must_use]
    pub fn ram(&self) -> [u8; RAM_SIZE] {
        *self.deck.wram()
    }

    /// The work RAM, without copying.
    #[must_use]
    pub fn ram_ref(&self) -> &[u8; RAM_SIZE] {
        self.deck.wram()
    }

    /// The work RAM, writable between frames: tests set up a game situation in RAM, as the
    /// facts of docs/facts.md were first measured in an emulator.
    pub fn ram_mut(&mut self) -> &mut [u8; RAM_SIZE] {
        self.deck.wram_mut()
    }

    /// The running console, for the lag probe (`crate::lag`).
    pub(crate) fn deck_mut(&mut self) -> &mut ControlDeck {
        &mut self.deck
    }

    /// Counts an input line the lag probe clocked itself.
    pub(crate) fn count_line(&mut self) {
        self.frame += 1;
    }

    /// The trace of the current state ([`Emulator::frame`] input lines after power-on).
    #[must_use]
    pub fn trace_frame(&self) -> TraceFrame {
        TraceFrame::from_ram(self.frame, self.deck.wram())
    }
}

/// Our bit layout (R=$01 … A=$80) to tetanes' (A=$01 … Right=$80): the same eight buttons in the
/// opposite order, so reversing the bits maps each one.
pub(crate) fn to_joypad(buttons: Buttons) -> JoypadBtnState {
    JoypadBtnState::from_bits_truncate(u16::from(buttons.bits().reverse_bits()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emulators_can_move_between_threads() {
        fn send<T: Send>() {}
        send::<Emulator>();
    }

    #[test]
    fn buttons_map_to_tetanes_bits() {
        let pairs = [
            (Buttons::A, JoypadBtnState::A),
            (Buttons::B, JoypadBtnState::B),
            (Buttons::SELECT, JoypadBtnState::SELECT),
            (Buttons::START, JoypadBtnState::START),
            (Buttons::UP, JoypadBtnState::UP),
            (Buttons::DOWN, JoypadBtnState::DOWN),
            (Buttons::LEFT, JoypadBtnState::LEFT),
            (Buttons::RIGHT, JoypadBtnState::RIGHT),
        ];
        for (ours, theirs) in pairs {
            assert_eq!(to_joypad(ours), theirs, "{ours:?}");
        }
        assert_eq!(
            to_joypad(Buttons::LEFT | Buttons::RIGHT),
            JoypadBtnState::LEFT | JoypadBtnState::RIGHT
        );
    }
}
