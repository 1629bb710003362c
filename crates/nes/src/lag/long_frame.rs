//! The frames of play that can outlast a frame, run on the ROM's own program bytes with their
//! cycles on a RAM image, from the frame's NMI to the main loop's next wait.
//!
//! At the highest levels `playState_updateLinesAndStatistics` adds the points once per level
//! (`addLineClearPoints`), and the frame's work can run past the next NMI. What the ROM then does
//! depends on where the NMI lands, to the instruction: in the sound driver or before the main
//! loop clears `verticalBlankingInterval`, the frame is a lag frame (the next frame runs no game
//! routine); in the middle of the game's work, the NMI's own work happens there (it redraws the
//! lines, level and score, which rewrites `generalCounter`, the score loop's counter, and it
//! reads the gamepad the later routines see); and at some instructions of the jump-table routine
//! `switch_s_plus_2a` it overwrites the routine's pointer and the program counter runs into data:
//! the game crashes.
//!
//! So the frame is run here as the console runs it: the user's ROM ([`ProgramData`]) on the
//! 6502 of `cpu`, with as much of the rest of the console as the timing needs: the NMI's edge
//! once per frame (its phase against the CPU is a [`CpuPhase`]), the sprite DMA's stall, the
//! gamepad's shift register; writes to the PPU and APU are dropped. The NMI is taken at the
//! first instruction boundary after its edge, and the run stops there when the NMI needs the next
//! frame's buttons. Only the frames that run `playState_updateLinesAndStatistics` at a high level
//! come here (see `lag`), so none of this costs the ordinary frame anything.
//!
//! The run is the frame's timing. Its RAM is the frame's outcome only where an NMI lands in the
//! game's work or the game crashes, where the ROM's result depends on the interleaving; where the
//! run reaches the main loop's wait untouched, `lag` takes the outcome from the engine's own frame
//! of play, so the scoring rules keep their one home (`rules`).

use std::sync::Arc;

use crate::lag::cpu::{Bus, Cpu, RTI};
use crate::ram::addr;
use crate::user_rom::program::ProgramData;

/// PPU dots in the two lengths of an NTSC frame with rendering on (the odd frame skips a dot).
const FRAME_DOTS: [i64; 2] = [89_341, 89_342];

/// Thirds of a CPU cycle (PPU dots) from a frame's end, where tetanes and FCEUX end the frame
/// (scanline 240, dot 0), to its NMI edge (scanline 241, dot 1). The instruction that starts
/// exactly there is still the ending frame's: the emulator ends the frame after the instruction
/// in whose first cycle the PPU reaches scanline 240 (measured on the ROM in tetanes: a score
/// byte stored by an instruction starting on that dot shows in the ending frame's RAM).
const FRAME_END_BEFORE_EDGE: i64 = 342;

/// The NMI is taken after an instruction that ends this many thirds of a cycle or more after
/// its edge (the edge must be seen by the end of the instruction's next-to-last cycle).
const NMI_DETECT: i64 = 4;

/// The CPU's NMI vector.
const NMI_VECTOR: u16 = 0xFFFA;

/// Cycles of a sprite DMA, one more when it starts on an odd cycle.
const OAM_DMA_CYCLES: u64 = 513;

/// The longest NMI handler the model accepts, in cycles (one runs about 3,000 in play).
const NMI_HANDLER_LIMIT: u64 = 29_780;

/// `switch_s_plus_2a`, the jump-table routine.
pub(crate) const SWITCH_S_PLUS_2A: u16 = 0xAC82;

/// The addresses in `switch_s_plus_2a` at which an NMI sends the main loop astray: the NMI's
/// own dispatch and random-number update rewrite `tmp1`/`tmp2` ($00-$01) while the routine still
/// needs them (the same offsets as `playfield-rom`'s probe, which finds them in the ROM).
pub(crate) const SWITCH_FATAL: [u16; 8] = [
    SWITCH_S_PLUS_2A + 6,
    SWITCH_S_PLUS_2A + 7,
    SWITCH_S_PLUS_2A + 9,
    SWITCH_S_PLUS_2A + 11,
    SWITCH_S_PLUS_2A + 12,
    SWITCH_S_PLUS_2A + 13,
    SWITCH_S_PLUS_2A + 17,
    SWITCH_S_PLUS_2A + 19,
];

/// `switch_s_plus_2a`'s `sta tmp2`, after which its pointer (`tmp1`/`tmp2`) is the jump table
/// minus one.
const SWITCH_POINTER_STORED: u16 = SWITCH_S_PLUS_2A + 7;

/// `updateAudioWaitForNmiAndResetOamStaging` and `updateAudioAndWaitForNmi`: the sound driver's
/// call, then the wait for the NMI.
const UPDATE_AUDIO_WAIT_FOR_NMI_AND_RESET_OAM_STAGING: u16 = 0xAA2F;
const UPDATE_AUDIO_AND_WAIT_FOR_NMI: u16 = 0xAA45;
/// Each call's `jsr updateAudio_jmp` is 3 bytes.
const AUDIO_CALL_LEN: u16 = 3;

/// `updateAudio_jmp`, the sound driver's entry.
pub(crate) const UPDATE_AUDIO_JMP: u16 = 0xE000;

/// The main loop's return address of its `jsr updateAudioWaitForNmiAndResetOamStaging`
/// (`@mainLoop`, $813F), as pushed (the address of the `jsr`'s last byte).
const MAIN_LOOP_AUDIO_RETURN: u16 = 0x8141;

/// Where the main loop leaves play in a way this model does not follow: the game over (the
/// branch `gameMode_playAndEndingHighScore` takes when player 1's `playState` is 0) and the reset
/// combination (the branch `gameModeState_checkForResetKeyCombo` takes on A+B+Select+Start).
const BEYOND_THE_MODEL: [(u16, &str); 2] =
    [(0x9CD9, "game over"), (0x9E1F, "the reset combination")];

/// The first instruction of the score loop's body in `addLineClearPoints`, run once per
/// addition of the points: counted for the score without the cap.
const SCORE_LOOP_BODY: u16 = 0x9C37;

/// The console's memory for a run: the RAM image, the gamepad the NMI reads, the ROM.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RunMem {
    pub(crate) ram: Box<[u8; 0x800]>,
    prg: Arc<ProgramData>,
    /// Buttons the next controller read returns (our bit layout, A = $80).
    buttons: u8,
    /// Bits read since the strobe.
    joy_bit: u8,
    /// A sprite DMA was started by the instruction just run.
    dma: bool,
    /// An address this model does not map was read or written.
    stray: Option<u16>,
}

impl Bus for RunMem {
    fn read(&mut self, addr: u16) -> u8 {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)],
            0x4016 => {
                let bit = if self.joy_bit < 8 {
                    (self.buttons >> (7 - self.joy_bit)) & 1
                } else {
                    1
                };
                self.joy_bit = self.joy_bit.saturating_add(1);
                bit
            }
            0x4017 => 0,
            0x8000..=0xFFFF => self.prg.byte(addr),
            _ => {
                self.stray = Some(addr);
                0
            }
        }
    }
    fn write(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)] = value,
            0x4014 => self.dma = true,
            0x4016 => self.joy_bit = 0,
            // The PPU, the APU and the mapper: nothing the timing needs.
            0x2000..=0x3FFF | 0x4000..=0x4015 | 0x4017 | 0x8000..=0xFFFF => {}
            _ => self.stray = Some(addr),
        }
    }
}

/// How the console's CPU stands against its PPU at a heavy frame's NMI: what the engine cannot
/// know, because it follows from every cycle run since power-on. Each value of it is a possible
/// console; the ROM's is measured by the tests (`playfield-rom`'s lag probe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpuPhase {
    /// Thirds of a CPU cycle from the NMI's edge (scanline 241, dot 1) to the first instruction
    /// of the NMI handler, the 7-cycle interrupt sequence included (measured: 25 to 33).
    pub nmi_delay_thirds: u8,
    /// The NMI interrupted the wait loop before its `beq` rather than before its `lda`.
    pub interrupted_beq: bool,
    /// The frame from this NMI to the next is the longer of the two (89,342 dots, not 89,341).
    pub long_frame: bool,
    /// The NMI's sprite DMA takes the extra alignment cycle (514 cycles, not 513).
    pub dma_odd: bool,
}

impl CpuPhase {
    /// Every phase a console can be in at a heavy frame's NMI (the handler's delay is 8⅓ to 11
    /// cycles in steps of ⅓ or ⅔, as measured).
    pub fn all() -> impl Iterator<Item = CpuPhase> {
        [25u8, 27, 28, 30, 31, 33].into_iter().flat_map(|d| {
            (0..8u8).map(move |bits| CpuPhase {
                nmi_delay_thirds: d,
                interrupted_beq: bits & 1 != 0,
                long_frame: bits & 2 != 0,
                dma_odd: bits & 4 != 0,
            })
        })
    }
}

/// Where a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The main loop waits for the next NMI (its wait loop at `wait`). `lag_nmi_next`: an NMI
    /// came before it cleared `verticalBlankingInterval` (in the sound driver or just after), so
    /// the next frame is a lag frame whose NMI finds the game's work done.
    Waiting { wait: u16, lag_nmi_next: bool },
    /// An NMI is due at this instruction, in the middle of the game's work: taking it needs the
    /// next frame's buttons.
    NmiDue { pc: u16 },
    /// The NMI due at this instruction of `switch_s_plus_2a` sends the main loop astray.
    Crash { pc: u16 },
}

/// Why a run could not go on: a state the model does not follow.
pub(crate) type Beyond = String;

/// A heavy frame's run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Run {
    pub(crate) mem: RunMem,
    cpu: Cpu,
    /// The NMI's first run is the frame's own NMI, whose interrupt sequence is before the
    /// origin of the cycle count.
    started: bool,
    /// Cycles the next instruction waits before it runs (a sprite DMA).
    stall: u64,
    /// The sound driver runs: no NMI work touches it, so it runs whole and an NMI inside it is
    /// seen where it returns (a lag frame either way).
    in_driver: bool,
    /// The next NMI's edge, in thirds of a cycle from the same origin.
    next_edge: i64,
    /// The length of the frame that starts at `next_edge`: index into [`FRAME_DOTS`].
    next_frame_long: bool,
    /// Parity to add to the cycle count for the sprite DMA's alignment.
    dma_parity: Option<u8>,
    dma_odd: bool,
    /// The RAM at the frame's end (scanline 240), when the run passed it.
    pub(crate) frame_end_ram: Option<Box<[u8; 0x800]>>,
    /// Times the score loop's body ran (for the score without the cap).
    pub(crate) score_additions: u32,
    /// The jump table of the `switch_s_plus_2a` call in progress.
    switch_table: u16,
    /// The frame's completed lines and push-down points, for the score without the cap.
    pub(crate) scored: Option<(u8, u8)>,
    /// Every instruction's address and starting cycle, when recording (tests).
    pub(crate) trace: Option<Vec<(u16, u64)>>,
    /// When recording a [`Timeline`]: the main loop's instruction boundaries, and no NMI is
    /// taken after the frame's own.
    boundaries: Option<Vec<Boundary>>,
}

/// An instruction boundary of a heavy frame's work after its NMI handler: where the next NMI
/// would be taken if it were due there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Boundary {
    pc: u16,
    /// Cycles from the origin as the NMI check sees them.
    cycles: u64,
    /// In the sound driver, where no NMI is seen until it returns.
    in_driver: bool,
}

/// A heavy frame's work as one console runs it with no NMI after the frame's own: the
/// instructions and their cycles up to the main loop's wait. Until the next NMI lands, every
/// phase that shares the start (`interrupted_beq`) and the sprite DMA's alignment (`dma_odd`)
/// runs exactly these instructions with these cycles; the NMI's delay and the frame's length
/// only move the next edge. So four timelines say where the next NMI lands in each of the 48
/// phases, with the same result as a run of each ([`Timeline::first_stop`]).
#[derive(Clone, Debug)]
pub(crate) struct Timeline {
    boundaries: Vec<Boundary>,
    /// The wait loop reached (where its `nop` runs), `None` when the record stopped at a
    /// boundary past every phase's next NMI, or at something beyond the model.
    waiting: Option<u16>,
}

/// The latest next-NMI edge of any phase, in thirds of a cycle from the origin: the long frame
/// with the shortest handler delay.
const LATEST_EDGE: i64 = FRAME_DOTS[1] - 25;

impl Timeline {
    /// Records the frame on `ram` from its NMI (taken with `buttons`) for the phases with this
    /// start and DMA alignment; `Err` when the frame's own NMI handler is beyond the model.
    pub(crate) fn record(
        ram: &[u8; 0x800],
        prg: Arc<ProgramData>,
        interrupted_beq: bool,
        dma_odd: bool,
        buttons: u8,
    ) -> Result<Timeline, Beyond> {
        let phase = CpuPhase {
            nmi_delay_thirds: 0,
            interrupted_beq,
            long_frame: false,
            dma_odd,
        };
        let mut run = Run::new(Box::new(*ram), prg, phase);
        run.push_main_loop_return();
        run.boundaries = Some(Vec::with_capacity(12_000));
        let waiting = match run.advance(buttons) {
            Ok(Stop::Waiting { wait, .. }) => Some(wait),
            // Past every phase's NMI (see `advance`), or beyond the model further on: the
            // boundaries recorded up to there still classify the phases whose NMI comes first.
            Ok(_) => None,
            Err(_) if run.boundaries.as_ref().is_some_and(|b| !b.is_empty()) => None,
            Err(e) => return Err(e),
        };
        Ok(Timeline {
            boundaries: run.boundaries.take().unwrap_or_default(),
            waiting,
        })
    }

    /// Where the next NMI stops the run of this frame in `phase` (one with this timeline's start
    /// and DMA alignment), as [`Run::advance`] would report it; `None` where that run would meet
    /// something beyond the model first.
    pub(crate) fn first_stop(&self, phase: CpuPhase) -> Option<Stop> {
        let edge = FRAME_DOTS[usize::from(phase.long_frame)] - i64::from(phase.nmi_delay_thirds);
        self.boundaries
            .iter()
            .find(|b| !b.in_driver && 3 * b.cycles as i64 - edge >= NMI_DETECT)
            .map(|b| nmi_due_at(b.pc))
            .or_else(|| {
                self.waiting.map(|wait| Stop::Waiting {
                    wait,
                    lag_nmi_next: false,
                })
            })
    }
}

impl Run {
    /// A run of the frame whose NMI is about to be taken, on this RAM.
    pub(crate) fn new(ram: Box<[u8; 0x800]>, prg: Arc<ProgramData>, phase: CpuPhase) -> Run {
        let wait = UPDATE_AUDIO_WAIT_FOR_NMI_AND_RESET_OAM_STAGING + AUDIO_CALL_LEN;
        // The wait loop: `lda #0`, `sta verticalBlankingInterval`, `nop`, then `lda
        // verticalBlankingInterval` (2 bytes), `beq` back to it.
        let (loop_lda, loop_beq) = (wait + 5, wait + 7);
        Run {
            mem: RunMem {
                ram,
                prg,
                buttons: 0,
                joy_bit: 0,
                dma: false,
                stray: None,
            },
            cpu: Cpu {
                // The wait loop's `lda verticalBlankingInterval` read 0.
                z: true,
                sp: 0xF0,
                pc: if phase.interrupted_beq {
                    loop_beq
                } else {
                    loop_lda
                },
                ..Cpu::default()
            },
            started: false,
            stall: 0,
            in_driver: false,
            next_edge: -i64::from(phase.nmi_delay_thirds),
            next_frame_long: phase.long_frame,
            dma_parity: None,
            dma_odd: phase.dma_odd,
            frame_end_ram: None,
            score_additions: 0,
            switch_table: 0,
            scored: None,
            trace: None,
            boundaries: None,
        }
    }

    /// Thirds of a cycle from where the run stopped to the next NMI's edge.
    pub(crate) fn slack_thirds(&self) -> i64 {
        self.next_edge - 3 * self.cpu.cycles as i64
    }

    /// The jump table `switch_s_plus_2a` is reading (where a crash happens).
    pub(crate) fn switch_table(&self) -> u16 {
        self.switch_table
    }

    /// Runs one instruction (after a pending stall), recording it when tracing.
    fn step(&mut self) -> Result<u8, Beyond> {
        if let Some(t) = &mut self.trace {
            t.push((self.cpu.pc, self.cpu.cycles));
        }
        self.cpu.cycles += std::mem::take(&mut self.stall);
        let opcode = self.cpu.step(&mut self.mem).map_err(|u| {
            format!(
                "the program counter reached ${:04X}, opcode ${:02X}, which is no instruction",
                u.at, u.opcode
            )
        })?;
        if let Some(at) = self.mem.stray.take() {
            return Err(format!(
                "an access to ${at:04X}, which the lag model does not map"
            ));
        }
        if std::mem::take(&mut self.mem.dma) {
            // The sprite DMA halts the CPU as it fetches the next instruction: 513 cycles, one
            // more to align with an odd cycle.
            let c = self.cpu.cycles as u8 & 1;
            let parity = *self.dma_parity.get_or_insert(c ^ u8::from(self.dma_odd));
            self.stall = OAM_DMA_CYCLES + u64::from(c ^ parity);
        }
        Ok(opcode)
    }

    /// Takes the due NMI with these buttons on gamepad 1 (the first call: the frame's own NMI,
    /// whose interrupt sequence is before the run's origin), then runs until the next stop.
    pub(crate) fn advance(&mut self, buttons: u8) -> Result<Stop, Beyond> {
        let ram = &self.mem.ram;
        if ram[addr::RENDER_MODE] != 3 {
            return Err("an NMI outside the play screen's rendering".into());
        }
        if ram[addr::GAME_MODE] == crate::ram::game_mode::DEMO {
            return Err("the demo".into());
        }
        if ram[addr::NUMBER_OF_PLAYERS] != 1 {
            return Err("two players".into());
        }
        if ram[addr::GAME_TYPE] != 0 {
            return Err("a B-type game".into());
        }
        self.mem.buttons = buttons;
        self.frame_end_ram = None;
        self.next_edge += FRAME_DOTS[usize::from(self.next_frame_long)];
        self.next_frame_long = !self.next_frame_long;
        let frame_end = self.next_edge - FRAME_END_BEFORE_EDGE;
        // The NMI handler, to its `rti`.
        let (interrupted, sp) = (self.cpu.pc, self.cpu.sp);
        let sequence = if std::mem::replace(&mut self.started, true) {
            7
        } else {
            0
        };
        self.cpu.interrupt(&mut self.mem, NMI_VECTOR, sequence);
        let start = self.cpu.cycles;
        loop {
            let opcode = self.step()?;
            if opcode == RTI && self.cpu.pc == interrupted && self.cpu.sp == sp {
                break;
            }
            if self.cpu.cycles - start > NMI_HANDLER_LIMIT {
                return Err("an NMI handler that does not return".into());
            }
        }
        loop {
            let pc = self.cpu.pc;
            if pc == UPDATE_AUDIO_JMP {
                self.in_driver = true;
            } else if self.in_driver
                && (pc == UPDATE_AUDIO_WAIT_FOR_NMI_AND_RESET_OAM_STAGING + AUDIO_CALL_LEN
                    || pc == UPDATE_AUDIO_AND_WAIT_FOR_NMI + AUDIO_CALL_LEN)
            {
                self.in_driver = false;
            }
            // The frame's end passes (the state a trace of this frame shows).
            if self.frame_end_ram.is_none() && 3 * self.cpu.cycles as i64 > frame_end {
                self.frame_end_ram = Some(self.mem.ram.clone());
            }
            if let Some(boundaries) = &mut self.boundaries {
                boundaries.push(Boundary {
                    pc,
                    cycles: self.cpu.cycles,
                    in_driver: self.in_driver,
                });
                // Every phase's next NMI is due by here: the rest is no phase's work.
                if !self.in_driver && 3 * self.cpu.cycles as i64 - LATEST_EDGE >= NMI_DETECT {
                    return Ok(Stop::NmiDue { pc });
                }
            } else if !self.in_driver && 3 * self.cpu.cycles as i64 - self.next_edge >= NMI_DETECT {
                return Ok(nmi_due_at(pc));
            }
            let a = self.cpu.a;
            self.step()?;
            if pc == SWITCH_POINTER_STORED {
                let lo = self.mem.ram[0];
                self.switch_table = u16::from_le_bytes([lo, a]).wrapping_add(1);
            } else if pc == SCORE_LOOP_BODY {
                self.score_additions += 1;
            }
            if let Some((_, why)) = BEYOND_THE_MODEL.iter().find(|(at, _)| *at == self.cpu.pc) {
                return Err((*why).into());
            }
            // The wait loop's `nop`: `verticalBlankingInterval` is cleared, the loop waits.
            if let Some(wait) = Self::wait_loop_nop(pc) {
                if self.frame_end_ram.is_none() {
                    self.frame_end_ram = Some(self.mem.ram.clone());
                }
                return Ok(Stop::Waiting {
                    wait,
                    lag_nmi_next: false,
                });
            }
        }
    }

    /// The wait loop after each call of the sound driver: `lda #0` (2 bytes), `sta
    /// verticalBlankingInterval` (2), `nop` (1), `lda verticalBlankingInterval` (2), `beq`.
    /// Its instructions' addresses by their place in it, for the call at `call`.
    fn wait_loop(call: u16) -> [u16; 5] {
        let at = call + AUDIO_CALL_LEN;
        [at, at + 2, at + 4, at + 5, at + 7]
    }

    /// Where the wait continues after the `nop` at `pc`, if `pc` is one.
    fn wait_loop_nop(pc: u16) -> Option<u16> {
        [
            UPDATE_AUDIO_WAIT_FOR_NMI_AND_RESET_OAM_STAGING,
            UPDATE_AUDIO_AND_WAIT_FOR_NMI,
        ]
        .into_iter()
        .map(Self::wait_loop)
        .find(|w| w[2] == pc)
        .map(|w| w[3])
    }

    /// Pushes the return address of the wait the frame starts in: `@mainLoop`'s
    /// `jsr updateAudioWaitForNmiAndResetOamStaging`.
    pub(crate) fn push_main_loop_return(&mut self) {
        let [lo, hi] = MAIN_LOOP_AUDIO_RETURN.to_le_bytes();
        self.cpu.push(&mut self.mem, hi);
        self.cpu.push(&mut self.mem, lo);
    }
}

/// What an NMI due at the instruction at `pc` of the frame's work does.
fn nmi_due_at(pc: u16) -> Stop {
    for call in [
        UPDATE_AUDIO_WAIT_FOR_NMI_AND_RESET_OAM_STAGING,
        UPDATE_AUDIO_AND_WAIT_FOR_NMI,
    ] {
        let w = Run::wait_loop(call);
        // Before `verticalBlankingInterval` is cleared: the main loop waits a frame more.
        if pc == w[0] || pc == w[1] {
            return Stop::Waiting {
                wait: pc,
                lag_nmi_next: true,
            };
        }
        // After: the NMI ends the wait as usual (at the `nop`, the loop then finds it set).
        if w[2..].contains(&pc) {
            return Stop::Waiting {
                wait: pc,
                lag_nmi_next: false,
            };
        }
    }
    if SWITCH_FATAL.contains(&pc) {
        Stop::Crash { pc }
    } else {
        Stop::NmiDue { pc }
    }
}

/// What [`probe_heavy_frame`] saw: where each call stopped, the instructions run (address,
/// cycle from the frame's NMI handler), and the RAM at each frame's end.
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
#[derive(Debug)]
pub struct HeavyProbe {
    /// One entry per NMI taken: `Waiting`, `NmiDue { pc }`, `Crash { pc }` or an error, as text.
    pub stops: Vec<String>,
    pub trace: Vec<(u16, u64)>,
    pub frame_end_rams: Vec<Box<[u8; 0x800]>>,
    /// The RAM when the run stopped.
    pub ram: Box<[u8; 0x800]>,
    /// Cycles run.
    pub cycles: u64,
}

/// For the ROM comparison tests (`playfield-rom`): runs a heavy frame from its NMI on `ram` (the
/// console's RAM as the NMI handler starts), with this phase, taking one NMI per entry of
/// `buttons` while they land in the game's work.
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
pub fn probe_heavy_frame(
    ram: &[u8; 0x800],
    prg: &ProgramData,
    phase: CpuPhase,
    buttons: &[u8],
) -> HeavyProbe {
    let mut run = Run::new(Box::new(*ram), Arc::new(prg.clone()), phase);
    run.push_main_loop_return();
    run.trace = Some(Vec::new());
    let mut stops = Vec::new();
    let mut frame_end_rams = Vec::new();
    for &b in buttons {
        let stop = run.advance(b);
        if let Some(r) = run.frame_end_ram.take() {
            frame_end_rams.push(r);
        }
        match stop {
            Ok(Stop::NmiDue { pc }) => stops.push(format!("NmiDue {pc:04X}")),
            Ok(s) => {
                stops.push(format!("{s:?}"));
                break;
            }
            Err(e) => {
                stops.push(format!("error: {e}"));
                break;
            }
        }
    }
    HeavyProbe {
        stops,
        trace: run.trace.take().unwrap_or_default(),
        frame_end_rams,
        ram: run.mem.ram.clone(),
        cycles: run.cpu.cycles,
    }
}
