//! The frames of play that can outlast a frame, run instruction by instruction with their cycles
//! on a RAM image, from the frame's NMI to the main loop's next wait.
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
//! So the frame is run here as the ROM runs it: the routines written out instruction by
//! instruction after the disassembly (each instruction with its address, so tests compare them
//! with the ROM one by one), the NMI taken at the first instruction boundary after its edge, and
//! the run stopped there when the NMI needs the next frame's buttons. Only the frames that run
//! `playState_updateLinesAndStatistics` at a high level come here (see `lag`), so none of this
//! costs the ordinary frame anything.
//!
//! The run is the frame's timing. Its RAM is the frame's outcome only where an NMI lands in the
//! game's work or the game crashes, where the ROM's result depends on the interleaving; where the
//! run reaches the main loop's wait untouched, `lag` takes the outcome from the engine's own frame
//! of play, so the scoring rules keep their one home (`rules`).

use std::sync::Arc;

use crate::audio;
use crate::cpu::{Cpu, Mem};
use crate::program::ProgramData;
use crate::tables::{
    LEVEL_DISPLAY_TABLE, MULT_BY_10, MUSIC_SELECTION_TABLE, ORIENTATIONS, POINTS_TABLE,
};

/// PPU dots in the two lengths of an NTSC frame with rendering on (the odd frame skips a dot).
const FRAME_DOTS: [i64; 2] = [89_341, 89_342];

/// Thirds of a CPU cycle (PPU dots) from a frame's end, where tetanes and FCEUX end the frame
/// (scanline 240, dot 0), to its NMI edge (scanline 241, dot 1).
const FRAME_END_BEFORE_EDGE: i64 = 342;

/// The NMI is taken after an instruction that ends this many thirds of a cycle or more after
/// its edge (the edge must be seen by the end of the instruction's next-to-last cycle).
const NMI_DETECT: i64 = 4;

/// `switch_s_plus_2a`, the jump-table routine.
pub(crate) const SWITCH: u16 = 0xAC82;

/// The addresses in `switch_s_plus_2a` at which an NMI sends the main loop astray: the NMI's
/// own dispatch and random-number update rewrite `tmp1`/`tmp2` ($00-$01) while the routine still
/// needs them (the same offsets as `playfield-rom`'s probe, which finds them in the ROM).
pub(crate) const SWITCH_FATAL: [u16; 8] = [
    SWITCH + 6,
    SWITCH + 7,
    SWITCH + 9,
    SWITCH + 11,
    SWITCH + 12,
    SWITCH + 13,
    SWITCH + 17,
    SWITCH + 19,
];

/// The jump tables `switch_s_plus_2a` reads in play, by address: the routines they point at.
const JUMP_TABLES: [(u16, &[u16]); 4] = [
    // render
    (0x8050, &[0x82B1, 0x85DA, 0xA344, 0x94EE, 0x9F95]),
    // branchOnGameMode
    (
        0x8166,
        &[0x8200, 0x824F, 0x82D1, 0x83D7, 0x815D, 0x815D, 0x9DF6],
    ),
    // gameMode_playAndEndingHighScore
    (
        0x81A0,
        &[
            0x85F0, 0x86DC, 0x8884, 0x9CBF, 0x8174, 0x8186, 0x9E16, 0xA37F, 0x9E27,
        ],
    ),
    // branchOnPlayStatePlayer1
    (
        0x81B7,
        &[
            0x9E2F, 0x81CF, 0x99A2, 0x9A6B, 0x9E39, 0x9B58, 0xA3F2, 0x9B03, 0x988E, 0x9E39, 0x9A11,
            0x9E37,
        ],
    ),
];

/// The routine a jump table sends index `i` to.
fn jump_target(table: u16, i: u8) -> Option<u16> {
    JUMP_TABLES
        .iter()
        .find(|(at, _)| *at == table)
        .and_then(|(_, t)| t.get(usize::from(i)).copied())
}

/// `orientationToSpriteTable` ($8BE5).
const ORIENTATION_TO_SPRITE: [u8; 19] = [
    0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x09, 0x08, 0x00, 0x0B, 0x07, 0x00, 0x00, 0x0A, 0x00,
    0x00, 0x00, 0x0C,
];

/// `oamContentLookup` ($8C6C): where each sprite's data starts.
const OAM_CONTENT_LOOKUP: [u16; 14] = [
    0x8D20, 0x8D31, 0x8D3A, 0x8D3F, 0x8D54, 0x8D54, 0x8D69, 0x8D7A, 0x8D8B, 0x8D9C, 0x8DAD, 0x8DBE,
    0x8DCF, 0x8DE0,
];

/// The ROM bytes the frame's code reads, for a run without the user's ROM: the tables whose
/// values decide a branch or a count, and zero for the bytes that only reach the PPU (the
/// sprites' data but for the $FF that ends each, the palettes). `None` for a byte it does not
/// know.
fn rom_fact(addr: u16) -> Option<u8> {
    let byte = |word: u16, i: u16| {
        if i & 1 == 0 {
            word as u8
        } else {
            (word >> 8) as u8
        }
    };
    Some(match addr {
        0x8A9C..=0x8B8B => {
            let i = usize::from(addr - 0x8A9C);
            let mino = ORIENTATIONS[i / 12][i % 12 / 3];
            match i % 3 {
                0 => mino.dy as u8,
                1 => mino.tile,
                _ => mino.dx as u8,
            }
        }
        0x9CA5..=0x9CAE => {
            let i = addr - 0x9CA5;
            byte(POINTS_TABLE[usize::from(i / 2)], i)
        }
        0x96D6..=0x96E9 => MULT_BY_10[usize::from(addr - 0x96D6)],
        0x85D2..=0x85D9 => MUSIC_SELECTION_TABLE[usize::from(addr - 0x85D2)],
        0x96B8..=0x96D5 => LEVEL_DISPLAY_TABLE[usize::from(addr - 0x96B8)],
        0x96EA..=0x9711 => {
            let i = addr - 0x96EA;
            byte(0x20C6 + 0x20 * (i / 2), i)
        }
        0x8BE5..=0x8BF7 => ORIENTATION_TO_SPRITE[usize::from(addr - 0x8BE5)],
        0x8C6C..=0x8C87 => {
            let i = addr - 0x8C6C;
            byte(OAM_CONTENT_LOOKUP[usize::from(i / 2)], i)
        }
        // The next-piece sprites (4 entries each) and the pause sprite (5): $FF ends each.
        0x8D69..=0x8DDF => {
            if (addr - 0x8D69) % 17 == 16 {
                0xFF
            } else {
                0
            }
        }
        0x8D54..=0x8D68 => u8::from(addr == 0x8D68) * 0xFF,
        0x984C..=0x98FF => 0, // colorTable: palettes
        0x96AA..=0x96B7 => 0, // pieceToPpuStatAddr
        0x97FE..=0x9807 => 0, // leftColumns, rightColumns
        _ => {
            for (at, targets) in JUMP_TABLES {
                if (at..at + 2 * targets.len() as u16).contains(&addr) {
                    let i = addr - at;
                    return Some(byte(targets[usize::from(i / 2)], i));
                }
            }
            return None;
        }
    })
}

/// The console's memory for a run: the RAM image, the gamepad the NMI reads, the ROM.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RunMem {
    pub(crate) ram: Box<[u8; 0x800]>,
    prg: Option<Arc<ProgramData>>,
    /// Buttons the next controller read returns (our bit layout, A = $80).
    buttons: u8,
    /// Bits read since the strobe.
    joy_bit: u8,
    /// A ROM byte the engine does not have was read.
    pub(crate) unknown: bool,
    /// An address this model does not map was read or written.
    pub(crate) stray: bool,
}

impl Mem for RunMem {
    fn read(&mut self, addr: u16) -> u8 {
        match addr {
            0x0000..=0x07FF => self.ram[usize::from(addr)],
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
            0x8000..=0xFFFF => match &self.prg {
                Some(p) => p.byte(addr),
                None => match rom_fact(addr) {
                    Some(v) => v,
                    None => audio::prg_read(None, addr, &mut self.unknown),
                },
            },
            _ => {
                self.stray = true;
                0
            }
        }
    }
    fn write(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x07FF => self.ram[usize::from(addr)] = value,
            0x4016 => self.joy_bit = 0,
            0x2000..=0x3FFF | 0x4000..=0x4015 | 0x4017 | 0x8000..=0xFFFF => {}
            _ => self.stray = true,
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

/// A heavy frame's run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Run {
    pub(crate) mem: RunMem,
    a: u8,
    x: u8,
    y: u8,
    c: bool,
    z: bool,
    n: bool,
    v: bool,
    sp: u8,
    pub(crate) pc: u16,
    /// Cycles since the heavy frame's NMI handler started.
    pub(crate) cycles: u64,
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
}

impl Run {
    /// A run of the frame whose NMI is about to be taken, on this RAM.
    pub(crate) fn new(
        ram: Box<[u8; 0x800]>,
        prg: Option<Arc<ProgramData>>,
        phase: CpuPhase,
    ) -> Run {
        let first_edge = -i64::from(phase.nmi_delay_thirds);
        Run {
            mem: RunMem {
                ram,
                prg,
                buttons: 0,
                joy_bit: 0,
                unknown: false,
                stray: false,
            },
            a: 0,
            x: 0,
            y: 0,
            c: false,
            // The wait loop's `lda verticalBlankingInterval` read 0.
            z: true,
            n: false,
            v: false,
            sp: 0xF0,
            pc: if phase.interrupted_beq {
                0xAA39
            } else {
                0xAA37
            },
            cycles: 0,
            next_edge: first_edge,
            next_frame_long: phase.long_frame,
            dma_parity: None,
            dma_odd: phase.dma_odd,
            frame_end_ram: None,
            score_additions: 0,
            switch_table: 0,
            scored: None,
            trace: None,
        }
    }

    /// Thirds of a cycle from where the run stopped to the next NMI's edge.
    pub(crate) fn slack_thirds(&self) -> i64 {
        self.next_edge - 3 * self.cycles as i64
    }

    /// The jump table `switch_s_plus_2a` is reading (where a crash happens).
    pub(crate) fn switch_table(&self) -> u16 {
        self.switch_table
    }

    fn cpu(&mut self) -> Cpu<'_, RunMem> {
        let mut c = Cpu::new(&mut self.mem);
        c.a = self.a;
        c.x = self.x;
        c.y = self.y;
        c.c = self.c;
        c.z = self.z;
        c.n = self.n;
        c.v = self.v;
        c.cycles = self.cycles;
        c.trace = self.trace.take();
        c
    }

    fn save(
        &mut self,
        a: u8,
        x: u8,
        y: u8,
        flags: [bool; 4],
        cycles: u64,
        trace: Option<Vec<(u16, u64)>>,
    ) {
        self.a = a;
        self.x = x;
        self.y = y;
        [self.c, self.z, self.n, self.v] = flags;
        self.cycles = cycles;
        self.trace = trace;
    }

    /// Takes the due NMI with these buttons on gamepad 1 (the first call: the frame's own NMI,
    /// whose interrupt sequence is before the run's origin), then runs until the next stop.
    pub(crate) fn advance(&mut self, buttons: u8) -> Result<Stop, &'static str> {
        self.mem.buttons = buttons;
        self.frame_end_ram = None;
        let first = self.cycles == 0;
        self.next_edge += FRAME_DOTS[usize::from(self.next_frame_long)];
        self.next_frame_long = !self.next_frame_long;
        let frame_end = self.next_edge - FRAME_END_BEFORE_EDGE;
        // The NMI: registers saved by the handler and the interrupt's pushes, restored by rti.
        let (pc, a, x, y, flags) = (
            self.pc,
            self.a,
            self.x,
            self.y,
            [self.c, self.z, self.n, self.v],
        );
        {
            let dma_odd = self.dma_odd;
            let mut dma_parity = self.dma_parity;
            let mut c = self.cpu();
            if !first {
                c.stall(7);
            }
            nmi_handler(&mut c, &mut dma_parity, dma_odd)?;
            let (cycles, trace) = (c.cycles, c.trace.take());
            self.dma_parity = dma_parity;
            self.save(a, x, y, flags, cycles, trace);
        }
        self.pc = pc;
        loop {
            // The frame's end passes (the state a trace of this frame shows).
            if self.frame_end_ram.is_none() && 3 * self.cycles as i64 >= frame_end {
                self.frame_end_ram = Some(self.mem.ram.clone());
            }
            if 3 * self.cycles as i64 - self.next_edge >= NMI_DETECT {
                return Ok(self.nmi_due());
            }
            if let Some(stop) = self.step()? {
                if self.frame_end_ram.is_none() {
                    self.frame_end_ram = Some(self.mem.ram.clone());
                }
                return Ok(stop);
            }
        }
    }

    /// What the NMI due now does, at `self.pc`.
    fn nmi_due(&self) -> Stop {
        match self.pc {
            // Before `verticalBlankingInterval` is cleared: the main loop waits a frame more.
            0xAA32 | 0xAA34 | 0xAA48 | 0xAA4A => Stop::Waiting {
                wait: self.pc,
                lag_nmi_next: true,
            },
            // After: the NMI ends the wait as usual (at the `nop`, the loop then finds it set).
            0xAA36 | 0xAA37 | 0xAA39 | 0xAA4C | 0xAA4D | 0xAA4F => Stop::Waiting {
                wait: self.pc,
                lag_nmi_next: false,
            },
            pc if SWITCH_FATAL.contains(&pc) => Stop::Crash { pc },
            pc => Stop::NmiDue { pc },
        }
    }

    fn push(c: &mut Cpu<'_, RunMem>, sp: &mut u8, v: u8) {
        c.mem.write(0x100 | u16::from(*sp), v);
        *sp = sp.wrapping_sub(1);
    }

    fn pull(c: &mut Cpu<'_, RunMem>, sp: &mut u8) -> u8 {
        *sp = sp.wrapping_add(1);
        c.mem.read(0x100 | u16::from(*sp))
    }

    /// Runs the instruction at `self.pc`; `Some` when the main loop is waiting.
    fn step(&mut self) -> Result<Option<Stop>, &'static str> {
        let pc = self.pc;
        let mut sp = self.sp;
        let mut table = self.switch_table;
        let mut additions = 0;
        let mut c = self.cpu();
        let next = exec(&mut c, pc, &mut sp, &mut table, &mut additions)?;
        let flags = [c.c, c.z, c.n, c.v];
        let (a, x, y, cycles, trace) = (c.a, c.x, c.y, c.cycles, c.trace.take());
        self.save(a, x, y, flags, cycles, trace);
        self.sp = sp;
        self.switch_table = table;
        self.score_additions += additions;
        match next {
            Next::Pc(p) => {
                self.pc = p;
                Ok(None)
            }
            Next::Wait(w) => {
                self.pc = w;
                Ok(Some(Stop::Waiting {
                    wait: w,
                    lag_nmi_next: false,
                }))
            }
        }
    }

    /// Pushes the return address of the wait the frame starts in: `@mainLoop`'s
    /// `jsr updateAudioWaitForNmiAndResetOamStaging` at $813F.
    pub(crate) fn push_main_loop_return(&mut self) {
        // `@mainLoop`'s `jsr updateAudioWaitForNmiAndResetOamStaging` at $813F.
        let mut sp = self.sp;
        let mut c = Cpu::new(&mut self.mem);
        Run::push(&mut c, &mut sp, 0x81);
        Run::push(&mut c, &mut sp, 0x41);
        self.sp = sp;
    }
}

/// Where the instruction just run sends the CPU.
enum Next {
    Pc(u16),
    /// Into a wait loop for the next NMI.
    Wait(u16),
}

/// The NMI handler (`nmi`, $8005) in play, from its first instruction to its `rti`.
fn nmi_handler(
    c: &mut Cpu<'_, RunMem>,
    dma_parity: &mut Option<u8>,
    dma_odd: bool,
) -> Result<(), &'static str> {
    c.pha(0x8005);
    c.txa(0x8006);
    c.pha(0x8007);
    c.tya(0x8008);
    c.pha(0x8009);
    c.lda_imm(0x800A, 0x00);
    c.sta_zp(0x800C, 0xB3);
    c.jsr(0x800E);
    // render
    c.lda_zp(0x804B, 0xBD);
    c.jsr(0x804D);
    let target = switch_in_nmi(c, 0x804F)?;
    if target != 0x94EE {
        return Err("an NMI outside the play screen's rendering");
    }
    render_mode_play_and_demo(c)?;
    c.dec_zp(0x8011, 0xC3);
    c.lda_zp(0x8013, 0xC3);
    c.cmp_imm(0x8015, 0xFF);
    if !c.bne(0x8017, 0x801B) {
        c.inc_zp(0x8019, 0xC3);
    }
    c.jsr(0x801B);
    // copyOamStagingToOam
    c.lda_imm(0xAB5E, 0x00);
    c.sta_abs(0xAB60, 0x2003);
    c.lda_imm(0xAB63, 0x02);
    c.sta_abs(0xAB65, 0x4014);
    // The sprite DMA halts the CPU as it fetches the next instruction (the `rts`): 513 cycles,
    // one more to align with an odd cycle.
    let parity = *dma_parity.get_or_insert((c.cycles as u8 & 1) ^ u8::from(dma_odd));
    let dma = 513 + u64::from((c.cycles as u8 & 1) ^ parity);
    c.rts_after(0xAB68, dma);
    c.lda_zp(0x801E, 0xB1);
    c.clc(0x8020);
    c.adc_imm(0x8021, 0x01);
    c.sta_zp(0x8023, 0xB1);
    c.lda_imm(0x8025, 0x00);
    c.adc_zp(0x8027, 0xB2);
    c.sta_zp(0x8029, 0xB2);
    c.ldx_imm(0x802B, 0x17);
    c.ldy_imm(0x802D, 0x02);
    c.jsr(0x802F);
    // generateNextPseudorandomNumber
    c.lda_zpx(0xAB47, 0x00);
    c.and_imm(0xAB49, 0x02);
    c.sta_zp(0xAB4B, 0x00);
    c.lda_zpx(0xAB4D, 0x01);
    c.and_imm(0xAB4F, 0x02);
    c.eor_zp(0xAB51, 0x00);
    c.clc(0xAB53);
    if !c.beq(0xAB54, 0xAB57) {
        c.sec(0xAB56);
    }
    loop {
        c.ror_zpx(0xAB57, 0x00);
        c.inx(0xAB59);
        c.dey(0xAB5A);
        if !c.bne(0xAB5B, 0xAB57) {
            break;
        }
    }
    c.rts(0xAB5D);
    c.lda_imm(0x8032, 0x00);
    c.sta_zp(0x8034, 0xFD);
    c.sta_abs(0x8036, 0x2005);
    c.sta_zp(0x8039, 0xFC);
    c.sta_abs(0x803B, 0x2005);
    c.lda_imm(0x803E, 0x01);
    c.sta_zp(0x8040, 0x33);
    c.jsr(0x8042);
    // pollControllerButtons
    c.lda_zp(0x9D51, 0xC0);
    c.cmp_imm(0x9D53, 0x05);
    if c.beq(0x9D55, 0x9D5B) {
        return Err("the demo's controller read");
    }
    c.jsr(0x9D57);
    poll_controller(c);
    c.rts(0x9D5A);
    c.pla(0x8045);
    c.tay(0x8046);
    c.pla(0x8047);
    c.tax(0x8048);
    c.pla(0x8049);
    c.rti(0x804A);
    Ok(())
}

/// `switch_s_plus_2a` called with `jsr` from the NMI (its return address `ret`, the table
/// minus one): returns the routine it jumps to.
fn switch_in_nmi(c: &mut Cpu<'_, RunMem>, ret: u16) -> Result<u16, &'static str> {
    let index = c.a;
    c.asl_a(0xAC82);
    c.tay(0xAC83);
    c.iny(0xAC84);
    c.pla_value(0xAC85, ret as u8);
    c.sta_zp(0xAC86, 0x00);
    c.pla_value(0xAC88, (ret >> 8) as u8);
    c.sta_zp(0xAC89, 0x01);
    c.lda_indy(0xAC8B, 0x00);
    c.tax(0xAC8D);
    c.iny(0xAC8E);
    c.lda_indy(0xAC8F, 0x00);
    c.sta_zp(0xAC91, 0x01);
    c.stx_zp(0xAC93, 0x00);
    c.jmp_ind(0xAC95);
    jump_target(ret.wrapping_add(1), index).ok_or("a jump table the lag model does not know")
}

/// `pollController` ($AB9D), called with `jsr`, to its `rts` in `diffOldAndNewButtons`.
fn poll_controller(c: &mut Cpu<'_, RunMem>) {
    c.jsr(0xAB9D);
    actual_read(c);
    c.jsr(0xABA0);
    add_expansion(c);
    c.lda_zp(0xABA3, 0xF5);
    c.sta_zp(0xABA5, 0xA9);
    c.lda_zp(0xABA7, 0xF6);
    c.sta_zp(0xABA9, 0xAA);
    c.jsr(0xABAB);
    actual_read(c);
    c.jsr(0xABAE);
    add_expansion(c);
    c.lda_zp(0xABB1, 0xF5);
    c.and_zp(0xABB3, 0xA9);
    c.sta_zp(0xABB5, 0xF5);
    c.lda_zp(0xABB7, 0xF6);
    c.and_zp(0xABB9, 0xAA);
    c.sta_zp(0xABBB, 0xF6);
    // diffOldAndNewButtons
    c.ldx_imm(0xABBD, 0x01);
    loop {
        c.lda_zpx(0xABBF, 0xF5);
        c.tay(0xABC1);
        c.eor_zpx(0xABC2, 0xF7);
        c.and_zpx(0xABC4, 0xF5);
        c.sta_zpx(0xABC6, 0xF5);
        c.sty_zpx(0xABC8, 0xF7);
        c.dex(0xABCA);
        if !c.bpl(0xABCB, 0xABBF) {
            break;
        }
    }
    c.rts(0xABCD);
}

/// `pollController_actualRead` ($AB69) with its `rts`.
fn actual_read(c: &mut Cpu<'_, RunMem>) {
    c.ldx_zp(0xAB69, 0xFB);
    c.inx(0xAB6B);
    c.stx_abs(0xAB6C, 0x4016);
    c.dex(0xAB6F);
    c.stx_abs(0xAB70, 0x4016);
    c.ldx_imm(0xAB73, 0x08);
    loop {
        c.lda_abs(0xAB75, 0x4016);
        c.lsr_a(0xAB78);
        c.rol_zp(0xAB79, 0xF5);
        c.lsr_a(0xAB7B);
        c.rol_zp(0xAB7C, 0x00);
        c.lda_abs(0xAB7E, 0x4017);
        c.lsr_a(0xAB81);
        c.rol_zp(0xAB82, 0xF6);
        c.lsr_a(0xAB84);
        c.rol_zp(0xAB85, 0x01);
        c.dex(0xAB87);
        if !c.bne(0xAB88, 0xAB75) {
            break;
        }
    }
    c.rts(0xAB8A);
}

/// `addExpansionPortInputAsControllerInput` ($AB8B) with its `rts`.
fn add_expansion(c: &mut Cpu<'_, RunMem>) {
    c.lda_zp(0xAB8B, 0x00);
    c.ora_zp(0xAB8D, 0xF5);
    c.sta_zp(0xAB8F, 0xF5);
    c.lda_zp(0xAB91, 0x01);
    c.ora_zp(0xAB93, 0xF6);
    c.sta_zp(0xAB95, 0xF6);
    c.rts(0xAB97);
}

/// `render_mode_play_and_demo` ($94EE) for one player, with its `rts`.
fn render_mode_play_and_demo(c: &mut Cpu<'_, RunMem>) -> Result<(), &'static str> {
    c.lda_zp(0x94EE, 0x68);
    c.cmp_imm(0x94F0, 0x04);
    if c.bne(0x94F2, 0x9522) {
        c.lda_zp(0x9522, 0x69);
        c.sta_zp(0x9524, 0x49);
        c.lda_imm(0x9526, 0x04);
        c.sta_zp(0x9528, 0xB9);
        for at in [0x952A, 0x952D, 0x9530, 0x9533] {
            c.jsr(at);
            copy_playfield_row_to_vram(c);
        }
        c.lda_zp(0x9536, 0x49);
        c.sta_zp(0x9538, 0x69);
    } else {
        c.lda_imm(0x94F4, 0x04);
        c.sta_zp(0x94F6, 0xB9);
        c.lda_zp(0x94F8, 0x72);
        c.sta_zp(0x94FA, 0x52);
        c.lda_zp(0x94FC, 0x6A);
        c.sta_zp(0x94FE, 0x4A);
        c.lda_zp(0x9500, 0x6B);
        c.sta_zp(0x9502, 0x4B);
        c.lda_zp(0x9504, 0x6C);
        c.sta_zp(0x9506, 0x4C);
        c.lda_zp(0x9508, 0x6D);
        c.sta_zp(0x950A, 0x4D);
        c.lda_zp(0x950C, 0x68);
        c.sta_zp(0x950E, 0x48);
        c.jsr(0x9510);
        update_line_clearing_animation(c);
        c.lda_zp(0x9513, 0x52);
        c.sta_zp(0x9515, 0x72);
        c.lda_zp(0x9517, 0x48);
        c.sta_zp(0x9519, 0x68);
        c.lda_imm(0x951B, 0x00);
        c.sta_zp(0x951D, 0x69);
        c.jmp(0x951F);
    }
    // @renderPlayer2Playfield
    c.lda_zp(0x953A, 0xBE);
    c.cmp_imm(0x953C, 0x02);
    if !c.bne(0x953E, 0x958C) {
        return Err("two players");
    }
    // @renderLines
    c.lda_zp(0x958C, 0xA3);
    c.and_imm(0x958E, 0x01);
    if !c.beq(0x9590, 0x95E3) {
        c.lda_zp(0x9592, 0xBE);
        c.cmp_imm(0x9594, 0x02);
        c.beq(0x9596, 0x95B5);
        c.lda_imm(0x9598, 0x20);
        c.sta_abs(0x959A, 0x2006);
        c.lda_imm(0x959D, 0x73);
        c.sta_abs(0x959F, 0x2006);
        c.lda_zp(0x95A2, 0x71);
        c.sta_abs(0x95A4, 0x2007);
        c.lda_zp(0x95A7, 0x70);
        c.jsr(0x95A9);
        two_digs_to_ppu(c);
        c.lda_zp(0x95AC, 0xA3);
        c.and_imm(0x95AE, 0xFE);
        c.sta_zp(0x95B0, 0xA3);
        c.jmp(0x95B2);
    }
    // @renderLevel
    c.lda_zp(0x95E3, 0xA3);
    c.and_imm(0x95E5, 0x02);
    if !c.beq(0x95E7, 0x960E) {
        c.lda_zp(0x95E9, 0xBE);
        c.cmp_imm(0x95EB, 0x02);
        c.beq(0x95ED, 0x960E);
        c.ldx_zp(0x95EF, 0x64);
        c.lda_absx(0x95F1, 0x96B8);
        c.sta_zp(0x95F4, 0xA8);
        c.lda_imm(0x95F6, 0x22);
        c.sta_abs(0x95F8, 0x2006);
        c.lda_imm(0x95FB, 0xBA);
        c.sta_abs(0x95FD, 0x2006);
        c.lda_zp(0x9600, 0xA8);
        c.jsr(0x9602);
        two_digs_to_ppu(c);
        c.jsr(0x9605);
        update_palette_for_level(c);
        c.lda_zp(0x9608, 0xA3);
        c.and_imm(0x960A, 0xFD);
        c.sta_zp(0x960C, 0xA3);
    }
    // @renderScore
    c.lda_zp(0x960E, 0xBE);
    c.cmp_imm(0x9610, 0x02);
    c.beq(0x9612, 0x9639);
    c.lda_zp(0x9614, 0xA3);
    c.and_imm(0x9616, 0x04);
    if !c.beq(0x9618, 0x9639) {
        c.lda_imm(0x961A, 0x21);
        c.sta_abs(0x961C, 0x2006);
        c.lda_imm(0x961F, 0x18);
        c.sta_abs(0x9621, 0x2006);
        c.lda_zp(0x9624, 0x75);
        c.jsr(0x9626);
        two_digs_to_ppu(c);
        c.lda_zp(0x9629, 0x74);
        c.jsr(0x962B);
        two_digs_to_ppu(c);
        c.lda_zp(0x962E, 0x73);
        c.jsr(0x9630);
        two_digs_to_ppu(c);
        c.lda_zp(0x9633, 0xA3);
        c.and_imm(0x9635, 0xFB);
        c.sta_zp(0x9637, 0xA3);
    }
    // @renderStats
    c.lda_zp(0x9639, 0xBE);
    c.cmp_imm(0x963B, 0x02);
    c.beq(0x963D, 0x9673);
    c.lda_zp(0x963F, 0xA3);
    c.and_imm(0x9641, 0x40);
    if !c.beq(0x9643, 0x9673) {
        c.lda_imm(0x9645, 0x00);
        c.sta_zp(0x9647, 0xB0);
        loop {
            c.lda_zp(0x9649, 0xB0);
            c.asl_a(0x964B);
            c.tax(0x964C);
            c.lda_absx(0x964D, 0x96AA);
            c.sta_abs(0x9650, 0x2006);
            c.lda_absx(0x9653, 0x96AB);
            c.sta_abs(0x9656, 0x2006);
            c.lda_absx(0x9659, 0x03F1);
            c.sta_abs(0x965C, 0x2007);
            c.lda_absx(0x965F, 0x03F0);
            c.jsr(0x9662);
            two_digs_to_ppu(c);
            c.inc_zp(0x9665, 0xB0);
            c.lda_zp(0x9667, 0xB0);
            c.cmp_imm(0x9669, 0x07);
            if !c.bne(0x966B, 0x9649) {
                break;
            }
        }
        c.lda_zp(0x966D, 0xA3);
        c.and_imm(0x966F, 0xBF);
        c.sta_zp(0x9671, 0xA3);
    }
    // @renderTetrisFlashAndSound
    c.lda_imm(0x9673, 0x3F);
    c.sta_abs(0x9675, 0x2006);
    c.lda_imm(0x9678, 0x0E);
    c.sta_abs(0x967A, 0x2006);
    c.ldx_imm(0x967D, 0x00);
    c.lda_zp(0x967F, 0x56);
    c.cmp_imm(0x9681, 0x04);
    if !c.bne(0x9683, 0x9698) {
        c.lda_zp(0x9685, 0xB1);
        c.and_imm(0x9687, 0x03);
        if !c.bne(0x9689, 0x9698) {
            c.ldx_imm(0x968B, 0x30);
            c.lda_zp(0x968D, 0xB1);
            c.and_imm(0x968F, 0x07);
            if !c.bne(0x9691, 0x9698) {
                c.lda_imm(0x9693, 0x09);
                c.sta_abs(0x9695, 0x06F1);
            }
        }
    }
    c.stx_abs(0x9698, 0x2007);
    c.ldy_imm(0x969B, 0x00);
    c.sty_zp(0x969D, 0xFD);
    c.sty_abs(0x969F, 0x2005);
    c.ldy_imm(0x96A2, 0x00);
    c.sty_zp(0x96A4, 0xFC);
    c.sty_abs(0x96A6, 0x2005);
    c.rts(0x96A9);
    Ok(())
}

/// `copyPlayfieldRowToVRAM` ($9725) for one player, with its `rts`.
fn copy_playfield_row_to_vram(c: &mut Cpu<'_, RunMem>) {
    c.ldx_zp(0x9725, 0x49);
    c.cpx_imm(0x9727, 0x15);
    if c.bpl(0x9729, 0x977E) {
        c.rts(0x977E);
        return;
    }
    c.lda_absx(0x972B, 0x96D6);
    c.tay(0x972E);
    c.txa(0x972F);
    c.asl_a(0x9730);
    c.tax(0x9731);
    c.inx(0x9732);
    c.lda_absx(0x9733, 0x96EA);
    c.sta_abs(0x9736, 0x2006);
    c.dex(0x9739);
    c.lda_zp(0x973A, 0xBE);
    c.cmp_imm(0x973C, 0x01);
    c.beq(0x973E, 0x975E);
    c.lda_absx(0x975E, 0x96EA);
    c.clc(0x9761);
    c.adc_imm(0x9762, 0x06);
    c.sta_abs(0x9764, 0x2006);
    c.ldx_imm(0x9767, 0x0A);
    loop {
        c.lda_indy(0x9769, 0xB8);
        c.sta_abs(0x976B, 0x2007);
        c.iny(0x976E);
        c.dex(0x976F);
        if !c.bne(0x9770, 0x9769) {
            break;
        }
    }
    c.inc_zp(0x9772, 0x49);
    c.lda_zp(0x9774, 0x49);
    c.cmp_imm(0x9776, 0x14);
    if !c.bmi(0x9778, 0x977E) {
        c.lda_imm(0x977A, 0x20);
        c.sta_zp(0x977C, 0x49);
    }
    c.rts(0x977E);
}

/// `updateLineClearingAnimation` ($977F) for one player, with its `rts`.
fn update_line_clearing_animation(c: &mut Cpu<'_, RunMem>) {
    c.lda_zp(0x977F, 0xB1);
    c.and_imm(0x9781, 0x03);
    if c.bne(0x9783, 0x97FD) {
        c.rts(0x97FD);
        return;
    }
    c.lda_imm(0x9785, 0x00);
    c.sta_zp(0x9787, 0xAA);
    loop {
        c.ldx_zp(0x9789, 0xAA);
        c.lda_zpx(0x978B, 0x4A);
        if !c.beq(0x978D, 0x97EB) {
            c.asl_a(0x978F);
            c.tay(0x9790);
            c.lda_absy(0x9791, 0x96EA);
            c.sta_zp(0x9794, 0xA8);
            c.lda_zp(0x9796, 0xBE);
            c.cmp_imm(0x9798, 0x01);
            c.bne(0x979A, 0x97A6);
            c.lda_zp(0x979C, 0xA8);
            c.clc(0x979E);
            c.adc_imm(0x979F, 0x06);
            c.sta_zp(0x97A1, 0xA8);
            c.jmp(0x97A3);
            c.iny(0x97BD);
            c.lda_absy(0x97BE, 0x96EA);
            c.sta_zp(0x97C1, 0xA9);
            c.sta_abs(0x97C3, 0x2006);
            c.ldx_zp(0x97C6, 0x52);
            c.lda_absx(0x97C8, 0x97FE);
            c.clc(0x97CB);
            c.adc_zp(0x97CC, 0xA8);
            c.sta_abs(0x97CE, 0x2006);
            c.lda_imm(0x97D1, 0xFF);
            c.sta_abs(0x97D3, 0x2007);
            c.lda_zp(0x97D6, 0xA9);
            c.sta_abs(0x97D8, 0x2006);
            c.ldx_zp(0x97DB, 0x52);
            c.lda_absx(0x97DD, 0x9803);
            c.clc(0x97E0);
            c.adc_zp(0x97E1, 0xA8);
            c.sta_abs(0x97E3, 0x2006);
            c.lda_imm(0x97E6, 0xFF);
            c.sta_abs(0x97E8, 0x2007);
        }
        c.inc_zp(0x97EB, 0xAA);
        c.lda_zp(0x97ED, 0xAA);
        c.cmp_imm(0x97EF, 0x04);
        if !c.bne(0x97F1, 0x9789) {
            break;
        }
    }
    c.inc_zp(0x97F3, 0x52);
    c.lda_zp(0x97F5, 0x52);
    c.cmp_imm(0x97F7, 0x05);
    if !c.bmi(0x97F9, 0x97FD) {
        c.inc_zp(0x97FB, 0x48);
    }
    c.rts(0x97FD);
}

/// `twoDigsToPPU` ($9712) with its `rts`.
fn two_digs_to_ppu(c: &mut Cpu<'_, RunMem>) {
    c.sta_zp(0x9712, 0xA8);
    c.and_imm(0x9714, 0xF0);
    c.lsr_a(0x9716);
    c.lsr_a(0x9717);
    c.lsr_a(0x9718);
    c.lsr_a(0x9719);
    c.sta_abs(0x971A, 0x2007);
    c.lda_zp(0x971D, 0xA8);
    c.and_imm(0x971F, 0x0F);
    c.sta_abs(0x9721, 0x2007);
    c.rts(0x9724);
}

/// `updatePaletteForLevel` ($9808) with its `rts`.
fn update_palette_for_level(c: &mut Cpu<'_, RunMem>) {
    c.lda_zp(0x9808, 0x64);
    loop {
        c.cmp_imm(0x980A, 0x0A);
        if c.bmi(0x980C, 0x9814) {
            break;
        }
        c.sec(0x980E);
        c.sbc_imm(0x980F, 0x0A);
        c.jmp(0x9811);
    }
    c.asl_a(0x9814);
    c.asl_a(0x9815);
    c.tax(0x9816);
    c.lda_imm(0x9817, 0x00);
    c.sta_zp(0x9819, 0xA8);
    loop {
        c.lda_imm(0x981B, 0x3F);
        c.sta_abs(0x981D, 0x2006);
        c.lda_imm(0x9820, 0x08);
        c.clc(0x9822);
        c.adc_zp(0x9823, 0xA8);
        c.sta_abs(0x9825, 0x2006);
        c.lda_absx(0x9828, 0x984C);
        c.sta_abs(0x982B, 0x2007);
        c.lda_absx(0x982E, 0x984D);
        c.sta_abs(0x9831, 0x2007);
        c.lda_absx(0x9834, 0x984E);
        c.sta_abs(0x9837, 0x2007);
        c.lda_absx(0x983A, 0x984F);
        c.sta_abs(0x983D, 0x2007);
        c.lda_zp(0x9840, 0xA8);
        c.clc(0x9842);
        c.adc_imm(0x9843, 0x10);
        c.sta_zp(0x9845, 0xA8);
        c.cmp_imm(0x9847, 0x20);
        if !c.bne(0x9849, 0x981B) {
            break;
        }
    }
    c.rts(0x984B);
}

/// Runs the main loop's instruction at `pc` and says where the CPU goes next. Covers the main
/// loop in play through `gameModeState` 2 to 8 in a frame that runs
/// `playState_updateLinesAndStatistics`, up to the wait for the next NMI.
#[allow(clippy::too_many_lines)]
fn exec(
    c: &mut Cpu<'_, RunMem>,
    pc: u16,
    sp: &mut u8,
    table: &mut u16,
    additions: &mut u32,
) -> Result<Next, &'static str> {
    let jsr = |c: &mut Cpu<'_, RunMem>, sp: &mut u8, target: u16| {
        c.jsr(pc);
        let ret = pc.wrapping_add(2);
        Run::push(c, sp, (ret >> 8) as u8);
        Run::push(c, sp, ret as u8);
        Next::Pc(target)
    };
    let rts = |c: &mut Cpu<'_, RunMem>, sp: &mut u8| {
        c.rts(pc);
        let lo = Run::pull(c, sp);
        let hi = Run::pull(c, sp);
        Next::Pc((u16::from(hi) << 8 | u16::from(lo)).wrapping_add(1))
    };
    let branch = |taken: bool, target: u16| Next::Pc(if taken { target } else { pc + 2 });
    let next = |n: u16| Next::Pc(pc + n);
    Ok(match pc {
        // ---- updateAudioWaitForNmiAndResetOamStaging ($AA2F) and updateAudioAndWaitForNmi
        0xAA2F | 0xAA45 => {
            c.jsr(pc);
            c.jmp(0xE000);
            // The sound driver: no NMI work touches it, so it runs whole; an NMI inside it is
            // seen at the next instruction (a lag frame either way).
            let music = c.mem.prg.is_some();
            audio::run_update_audio(c, music);
            next(3)
        }
        0xAA32 | 0xAA48 => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0xAA34 | 0xAA4A => {
            c.sta_zp(pc, 0x33);
            next(2)
        }
        0xAA36 | 0xAA4C => {
            c.nop(pc);
            Next::Wait(pc + 1)
        }
        0xAA37 | 0xAA4D => {
            c.lda_zp(pc, 0x33);
            next(2)
        }
        0xAA39 | 0xAA4F => branch(c.beq(pc, pc - 2), pc - 2),
        0xAA3B => {
            c.lda_imm(pc, 0xFF);
            next(2)
        }
        0xAA3D => {
            c.ldx_imm(pc, 0x02);
            next(2)
        }
        0xAA3F => {
            c.ldy_imm(pc, 0x02);
            next(2)
        }
        0xAA41 => jsr(c, sp, 0xAC6A),
        0xAA44 | 0xAA51 => rts(c, sp),
        // ---- memset_page
        0xAC6A => {
            c.pha(pc);
            next(1)
        }
        0xAC6B => {
            c.txa(pc);
            next(1)
        }
        0xAC6C => {
            c.sty_zp(pc, 0x01);
            next(2)
        }
        0xAC6E => {
            c.clc(pc);
            next(1)
        }
        0xAC6F => {
            c.sbc_zp(pc, 0x01);
            next(2)
        }
        0xAC71 => {
            c.tax(pc);
            next(1)
        }
        0xAC72 => {
            c.pla(pc);
            next(1)
        }
        0xAC73 => {
            c.ldy_imm(pc, 0x00);
            next(2)
        }
        0xAC75 => {
            c.sty_zp(pc, 0x00);
            next(2)
        }
        0xAC77 => {
            c.sta_indy(pc, 0x00);
            next(2)
        }
        0xAC79 => {
            c.dey(pc);
            next(1)
        }
        0xAC7A => branch(c.bne(pc, 0xAC77), 0xAC77),
        0xAC7C => {
            c.dec_zp(pc, 0x01);
            next(2)
        }
        0xAC7E => {
            c.inx(pc);
            next(1)
        }
        0xAC7F => branch(c.bne(pc, 0xAC77), 0xAC77),
        0xAC81 => rts(c, sp),
        // ---- switch_s_plus_2a
        0xAC82 => {
            c.asl_a(pc);
            next(1)
        }
        0xAC83 => {
            c.tay(pc);
            next(1)
        }
        0xAC84 => {
            c.iny(pc);
            next(1)
        }
        0xAC85 | 0xAC88 => {
            let v = Run::pull(c, sp);
            c.pla_value(pc, v);
            next(1)
        }
        0xAC86 => {
            c.sta_zp(pc, 0x00);
            next(2)
        }
        0xAC89 => {
            c.sta_zp(pc, 0x01);
            let lo = c.mem.ram[0];
            *table = (u16::from(c.a) << 8 | u16::from(lo)).wrapping_add(1);
            next(2)
        }
        0xAC8B | 0xAC8F => {
            c.lda_indy(pc, 0x00);
            next(2)
        }
        0xAC8D => {
            c.tax(pc);
            next(1)
        }
        0xAC8E => {
            c.iny(pc);
            next(1)
        }
        0xAC91 => {
            c.sta_zp(pc, 0x01);
            next(2)
        }
        0xAC93 => {
            c.stx_zp(pc, 0x00);
            next(2)
        }
        0xAC95 => {
            c.jmp_ind(pc);
            let index = (c.y.wrapping_sub(2)) / 2;
            Next::Pc(jump_target(*table, index).ok_or("a jump table the lag model does not know")?)
        }
        // ---- @mainLoop
        0x8138 => jsr(c, sp, 0x8161),
        0x813B => {
            c.cmp_zp(pc, 0xA7);
            next(2)
        }
        0x813D => branch(c.bne(pc, 0x8142), 0x8142),
        0x813F => jsr(c, sp, 0xAA2F),
        0x8142 => {
            c.lda_zp(pc, 0xC0);
            next(2)
        }
        0x8144 => {
            c.cmp_imm(pc, 0x05);
            next(2)
        }
        0x8146 => {
            if c.bne(pc, 0x815A) {
                Next::Pc(0x815A)
            } else {
                return Err("the demo");
            }
        }
        0x815A => {
            c.jmp(pc);
            Next::Pc(0x8138)
        }
        // ---- branchOnGameMode, gameMode_playAndEndingHighScore(_jmp)
        0x8161 => {
            c.lda_zp(pc, 0xC0);
            next(2)
        }
        0x8163 | 0x819D | 0x81B4 => jsr(c, sp, SWITCH),
        0x815D => jsr(c, sp, 0x819B),
        0x8160 => rts(c, sp),
        0x819B => {
            c.lda_zp(pc, 0xA7);
            next(2)
        }
        // ---- gameModeState_updateCountersAndNonPlayerState
        0x8884 | 0x8889 => {
            c.lda_imm(pc, 0x03);
            next(2)
        }
        0x8886 => jsr(c, sp, 0xACB7),
        0x888B => jsr(c, sp, 0xACCB),
        0x888E => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0x8890 => {
            c.sta_zp(pc, 0xB3);
            next(2)
        }
        0x8892 => {
            c.inc_zp(pc, 0x65);
            next(2)
        }
        0x8894 => {
            c.inc_zp(pc, 0x85);
            next(2)
        }
        0x8896 => {
            c.lda_zp(pc, 0xA4);
            next(2)
        }
        0x8898 => branch(c.beq(pc, 0x889C), 0x889C),
        0x889A => {
            c.inc_zp(pc, 0xA4);
            next(2)
        }
        0x889C => {
            c.lda_zp(pc, 0xF5);
            next(2)
        }
        0x889E => {
            c.and_imm(pc, 0x20);
            next(2)
        }
        0x88A0 => branch(c.beq(pc, 0x88A8), 0x88A8),
        0x88A2 => {
            c.lda_zp(pc, 0xDF);
            next(2)
        }
        0x88A4 => {
            c.eor_imm(pc, 0x01);
            next(2)
        }
        0x88A6 => {
            c.sta_zp(pc, 0xDF);
            next(2)
        }
        0x88A8 => {
            c.inc_zp(pc, 0xA7);
            next(2)
        }
        0x88AA => rts(c, sp),
        // changeCHRBank0, changeCHRBank1: five MMC1 writes
        0xACB7 | 0xACBB | 0xACBF | 0xACC3 | 0xACC7 | 0xACCB | 0xACCF | 0xACD3 | 0xACD7 | 0xACDB => {
            let reg = if pc < 0xACCB { 0xBFFF } else { 0xDFFF };
            c.sta_abs(pc, reg);
            next(3)
        }
        0xACBA | 0xACBE | 0xACC2 | 0xACC6 | 0xACCE | 0xACD2 | 0xACD6 | 0xACDA => {
            c.lsr_a(pc);
            next(1)
        }
        0xACCA | 0xACDE => rts(c, sp),
        // ---- gameModeState_handleGameOver (not over, one player)
        0x9CBF => {
            c.lda_imm(pc, 0x05);
            next(2)
        }
        0x9CC1 => {
            c.sta_zp(pc, 0xA9);
            next(2)
        }
        0x9CC3 => {
            c.lda_zp(pc, 0x68);
            next(2)
        }
        0x9CC5 => {
            c.cmp_imm(pc, 0x00);
            next(2)
        }
        0x9CC7 => {
            if c.beq(pc, 0x9CD9) {
                return Err("game over");
            }
            next(2)
        }
        0x9CC9 => {
            c.lda_zp(pc, 0xBE);
            next(2)
        }
        0x9CCB => {
            c.cmp_imm(pc, 0x01);
            next(2)
        }
        0x9CCD => {
            if c.beq(pc, 0x9D14) {
                Next::Pc(0x9D14)
            } else {
                return Err("two players");
            }
        }
        0x9D14 => {
            c.inc_zp(pc, 0xA7);
            next(2)
        }
        0x9D16 => rts(c, sp),
        // ---- gameModeState_updatePlayer1
        0x8174 => jsr(c, sp, 0x8776),
        0x8177 => jsr(c, sp, 0x81B2),
        0x817A => jsr(c, sp, 0x8A0A),
        0x817D => jsr(c, sp, 0x87AE),
        0x8180 => jsr(c, sp, 0x8BCE),
        0x8183 => {
            c.inc_zp(pc, 0xA7);
            next(2)
        }
        0x8185 => rts(c, sp),
        // makePlayer1Active
        0x8776 => {
            c.lda_imm(pc, 0x01);
            next(2)
        }
        0x8778 => {
            c.sta_zp(pc, 0xB7);
            next(2)
        }
        0x877A => {
            c.lda_imm(pc, 0x04);
            next(2)
        }
        0x877C => {
            c.sta_zp(pc, 0xB9);
            next(2)
        }
        0x877E => {
            c.lda_zp(pc, 0xF5);
            next(2)
        }
        0x8780 => {
            c.sta_zp(pc, 0xB5);
            next(2)
        }
        0x8782 => {
            c.lda_zp(pc, 0xF7);
            next(2)
        }
        0x8784 => {
            c.sta_zp(pc, 0xB6);
            next(2)
        }
        0x8786 | 0x87AE => {
            c.ldx_imm(pc, 0x1F);
            next(2)
        }
        0x8788 => {
            c.lda_zpx(pc, 0x60);
            next(2)
        }
        0x878A => {
            c.sta_zpx(pc, 0x40);
            next(2)
        }
        0x878C | 0x87B4 => {
            c.dex(pc);
            next(1)
        }
        0x878D | 0x87B5 => {
            c.cpx_imm(pc, 0xFF);
            next(2)
        }
        0x878F => branch(c.bne(pc, 0x8788), 0x8788),
        0x8791 => rts(c, sp),
        // branchOnPlayStatePlayer1
        0x81B2 => {
            c.lda_zp(pc, 0x48);
            next(2)
        }
        0x9E39 => rts(c, sp),
        // ---- playState_updateLinesAndStatistics
        0x9B58 => jsr(c, sp, 0x9D17),
        0x9B5B => {
            c.lda_zp(pc, 0x56);
            next(2)
        }
        0x9B5D => branch(c.bne(pc, 0x9B62), 0x9B62),
        0x9B5F => {
            c.jmp(pc);
            Next::Pc(0x9BFE)
        }
        0x9B62 => {
            c.tax(pc);
            next(1)
        }
        0x9B63 => {
            c.dex(pc);
            next(1)
        }
        0x9B64 | 0x9B71 => {
            c.lda_zpx(pc, 0xD8);
            next(2)
        }
        0x9B66 | 0x9B73 => {
            c.clc(pc);
            next(1)
        }
        0x9B67 => {
            c.adc_imm(pc, 0x01);
            next(2)
        }
        0x9B69 | 0x9B76 => {
            c.sta_zpx(pc, 0xD8);
            next(2)
        }
        0x9B6B => {
            c.and_imm(pc, 0x0F);
            next(2)
        }
        0x9B6D => {
            c.cmp_imm(pc, 0x0A);
            next(2)
        }
        0x9B6F => branch(c.bmi(pc, 0x9B78), 0x9B78),
        0x9B74 => {
            c.adc_imm(pc, 0x06);
            next(2)
        }
        0x9B78 => {
            c.lda_zp(pc, 0xA3);
            next(2)
        }
        0x9B7A => {
            c.ora_imm(pc, 0x01);
            next(2)
        }
        0x9B7C => {
            c.sta_zp(pc, 0xA3);
            next(2)
        }
        0x9B7E => {
            c.lda_zp(pc, 0xC1);
            next(2)
        }
        0x9B80 => {
            if c.beq(pc, 0x9BA6) {
                Next::Pc(0x9BA6)
            } else {
                return Err("a B-type game");
            }
        }
        0x9BA6 => {
            c.ldx_zp(pc, 0x56);
            next(2)
        }
        // incrementLines
        0x9BA8 => {
            c.inc_zp(pc, 0x50);
            next(2)
        }
        0x9BAA | 0x9BB2 | 0x9BBF | 0x9BC7 | 0x9BD4 => {
            c.lda_zp(pc, 0x50);
            next(2)
        }
        0x9BAC | 0x9BC1 | 0x9BC9 => {
            c.and_imm(pc, 0x0F);
            next(2)
        }
        0x9BAE => {
            c.cmp_imm(pc, 0x0A);
            next(2)
        }
        0x9BB0 => branch(c.bmi(pc, 0x9BC7), 0x9BC7),
        0x9BB4 => {
            c.clc(pc);
            next(1)
        }
        0x9BB5 => {
            c.adc_imm(pc, 0x06);
            next(2)
        }
        0x9BB7 | 0x9BC3 => {
            c.sta_zp(pc, 0x50);
            next(2)
        }
        0x9BB9 => {
            c.and_imm(pc, 0xF0);
            next(2)
        }
        0x9BBB => {
            c.cmp_imm(pc, 0xA0);
            next(2)
        }
        0x9BBD => branch(c.bcc(pc, 0x9BC7), 0x9BC7),
        0x9BC5 => {
            c.inc_zp(pc, 0x51);
            next(2)
        }
        0x9BCB => branch(c.bne(pc, 0x9BFB), 0x9BFB),
        0x9BCD => {
            c.jmp(pc);
            Next::Pc(0x9BD0)
        }
        0x9BD0 => {
            c.lda_zp(pc, 0x51);
            next(2)
        }
        0x9BD2 => {
            c.sta_zp(pc, 0xA9);
            next(2)
        }
        0x9BD6 => {
            c.sta_zp(pc, 0xA8);
            next(2)
        }
        0x9BD8 | 0x9BDC | 0x9BE0 | 0x9BE4 => {
            c.lsr_zp(pc, 0xA9);
            next(2)
        }
        0x9BDA | 0x9BDE | 0x9BE2 | 0x9BE6 => {
            c.ror_zp(pc, 0xA8);
            next(2)
        }
        0x9BE8 => {
            c.lda_zp(pc, 0x44);
            next(2)
        }
        0x9BEA => {
            c.cmp_zp(pc, 0xA8);
            next(2)
        }
        0x9BEC => branch(c.bpl(pc, 0x9BFB), 0x9BFB),
        0x9BEE => {
            c.inc_zp(pc, 0x44);
            next(2)
        }
        0x9BF0 => {
            c.lda_imm(pc, 0x06);
            next(2)
        }
        0x9BF2 => {
            c.sta_abs(pc, 0x06F1);
            next(3)
        }
        0x9BF5 => {
            c.lda_zp(pc, 0xA3);
            next(2)
        }
        0x9BF7 => {
            c.ora_imm(pc, 0x02);
            next(2)
        }
        0x9BF9 => {
            c.sta_zp(pc, 0xA3);
            next(2)
        }
        0x9BFB => {
            c.dex(pc);
            next(1)
        }
        0x9BFC => branch(c.bne(pc, 0x9BA8), 0x9BA8),
        // addHoldDownPoints
        0x9BFE => {
            c.lda_zp(pc, 0x4F);
            next(2)
        }
        0x9C00 => {
            c.cmp_imm(pc, 0x02);
            next(2)
        }
        0x9C02 => branch(c.bmi(pc, 0x9C2D), 0x9C2D),
        0x9C04 | 0x9C13 | 0x9C20 => {
            c.clc(pc);
            next(1)
        }
        0x9C05 => {
            c.dec_zp(pc, 0x53);
            next(2)
        }
        0x9C07 => {
            c.adc_zp(pc, 0x53);
            next(2)
        }
        0x9C09 | 0x9C16 | 0x9C23 => {
            c.sta_zp(pc, 0x53);
            next(2)
        }
        0x9C0B => {
            c.and_imm(pc, 0x0F);
            next(2)
        }
        0x9C0D => {
            c.cmp_imm(pc, 0x0A);
            next(2)
        }
        0x9C0F => branch(c.bcc(pc, 0x9C18), 0x9C18),
        0x9C11 | 0x9C18 => {
            c.lda_zp(pc, 0x53);
            next(2)
        }
        0x9C14 => {
            c.adc_imm(pc, 0x06);
            next(2)
        }
        0x9C1A => {
            c.and_imm(pc, 0xF0);
            next(2)
        }
        0x9C1C => {
            c.cmp_imm(pc, 0xA0);
            next(2)
        }
        0x9C1E => branch(c.bcc(pc, 0x9C27), 0x9C27),
        0x9C21 => {
            c.adc_imm(pc, 0x60);
            next(2)
        }
        0x9C25 => {
            c.inc_zp(pc, 0x54);
            next(2)
        }
        0x9C27 => {
            c.lda_zp(pc, 0xA3);
            next(2)
        }
        0x9C29 => {
            c.ora_imm(pc, 0x04);
            next(2)
        }
        0x9C2B => {
            c.sta_zp(pc, 0xA3);
            next(2)
        }
        // addLineClearPoints
        0x9C2D => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0x9C2F => {
            c.sta_zp(pc, 0x4F);
            next(2)
        }
        0x9C31 => {
            c.lda_zp(pc, 0x44);
            next(2)
        }
        0x9C33 => {
            c.sta_zp(pc, 0xA8);
            next(2)
        }
        0x9C35 => {
            c.inc_zp(pc, 0xA8);
            next(2)
        }
        0x9C37 => {
            *additions += 1;
            c.lda_zp(pc, 0x56);
            next(2)
        }
        0x9C39 => {
            c.asl_a(pc);
            next(1)
        }
        0x9C3A => {
            c.tax(pc);
            next(1)
        }
        0x9C3B => {
            c.lda_absx(pc, 0x9CA5);
            next(3)
        }
        0x9C3E | 0x9C47 | 0x9C52 | 0x9C5F | 0x9C6E | 0x9C7F => {
            c.clc(pc);
            next(1)
        }
        0x9C3F => {
            c.adc_zp(pc, 0x53);
            next(2)
        }
        0x9C41 | 0x9C4A | 0x9C8E => {
            c.sta_zp(pc, 0x53);
            next(2)
        }
        0x9C43 => {
            c.cmp_imm(pc, 0xA0);
            next(2)
        }
        0x9C45 => branch(c.bcc(pc, 0x9C4E), 0x9C4E),
        0x9C48 | 0x9C6F => {
            c.adc_imm(pc, 0x60);
            next(2)
        }
        0x9C4C => {
            c.inc_zp(pc, 0x54);
            next(2)
        }
        0x9C4E => {
            c.inx(pc);
            next(1)
        }
        0x9C4F => {
            c.lda_absx(pc, 0x9CA5);
            next(3)
        }
        0x9C53 => {
            c.adc_zp(pc, 0x54);
            next(2)
        }
        0x9C55 | 0x9C62 | 0x9C71 | 0x9C90 => {
            c.sta_zp(pc, 0x54);
            next(2)
        }
        0x9C57 | 0x9C77 => {
            c.and_imm(pc, 0x0F);
            next(2)
        }
        0x9C59 | 0x9C79 => {
            c.cmp_imm(pc, 0x0A);
            next(2)
        }
        0x9C5B => branch(c.bcc(pc, 0x9C64), 0x9C64),
        0x9C5D | 0x9C64 | 0x9C6C => {
            c.lda_zp(pc, 0x54);
            next(2)
        }
        0x9C60 | 0x9C80 => {
            c.adc_imm(pc, 0x06);
            next(2)
        }
        0x9C66 | 0x9C86 => {
            c.and_imm(pc, 0xF0);
            next(2)
        }
        0x9C68 | 0x9C88 => {
            c.cmp_imm(pc, 0xA0);
            next(2)
        }
        0x9C6A => branch(c.bcc(pc, 0x9C75), 0x9C75),
        0x9C73 => {
            c.inc_zp(pc, 0x55);
            next(2)
        }
        0x9C75 | 0x9C7D | 0x9C84 => {
            c.lda_zp(pc, 0x55);
            next(2)
        }
        0x9C7B => branch(c.bcc(pc, 0x9C84), 0x9C84),
        0x9C82 | 0x9C92 => {
            c.sta_zp(pc, 0x55);
            next(2)
        }
        0x9C8A => branch(c.bcc(pc, 0x9C94), 0x9C94),
        0x9C8C => {
            c.lda_imm(pc, 0x99);
            next(2)
        }
        0x9C94 => {
            c.dec_zp(pc, 0xA8);
            next(2)
        }
        0x9C96 => branch(c.bne(pc, 0x9C37), 0x9C37),
        0x9C98 => {
            c.lda_zp(pc, 0xA3);
            next(2)
        }
        0x9C9A => {
            c.ora_imm(pc, 0x04);
            next(2)
        }
        0x9C9C => {
            c.sta_zp(pc, 0xA3);
            next(2)
        }
        0x9C9E => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0x9CA0 => {
            c.sta_zp(pc, 0x56);
            next(2)
        }
        0x9CA2 => {
            c.inc_zp(pc, 0x48);
            next(2)
        }
        0x9CA4 => rts(c, sp),
        // ---- updateMusicSpeed
        0x9D17 => {
            c.ldx_imm(pc, 0x05);
            next(2)
        }
        0x9D19 => {
            c.lda_absx(pc, 0x96D6);
            next(3)
        }
        0x9D1C => {
            c.tay(pc);
            next(1)
        }
        0x9D1D => {
            c.ldx_imm(pc, 0x0A);
            next(2)
        }
        0x9D1F => {
            c.lda_indy(pc, 0xB8);
            next(2)
        }
        0x9D21 => {
            c.cmp_imm(pc, 0xEF);
            next(2)
        }
        0x9D23 => branch(c.bne(pc, 0x9D3C), 0x9D3C),
        0x9D25 => {
            c.iny(pc);
            next(1)
        }
        0x9D26 => {
            c.dex(pc);
            next(1)
        }
        0x9D27 => branch(c.bne(pc, 0x9D1F), 0x9D1F),
        0x9D29 | 0x9D3C => {
            c.lda_zp(pc, 0xBA);
            next(2)
        }
        0x9D2B => branch(c.beq(pc, 0x9D50), 0x9D50),
        0x9D2D => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0x9D2F | 0x9D42 => {
            c.sta_zp(pc, 0xBA);
            next(2)
        }
        0x9D31 => {
            c.ldx_zp(pc, 0xC2);
            next(2)
        }
        0x9D33 | 0x9D4A => {
            c.lda_absx(pc, 0x85D2);
            next(3)
        }
        0x9D36 | 0x9D4D => jsr(c, sp, 0x9E07),
        0x9D39 => {
            c.jmp(pc);
            Next::Pc(0x9D50)
        }
        0x9D3E => branch(c.bne(pc, 0x9D50), 0x9D50),
        0x9D40 => {
            c.lda_imm(pc, 0xFF);
            next(2)
        }
        0x9D44 => {
            c.lda_zp(pc, 0xC2);
            next(2)
        }
        0x9D46 => {
            c.clc(pc);
            next(1)
        }
        0x9D47 => {
            c.adc_imm(pc, 0x04);
            next(2)
        }
        0x9D49 => {
            c.tax(pc);
            next(1)
        }
        0x9D50 => rts(c, sp),
        // setMusicTrack
        0x9E07 | 0x9E12 => {
            c.sta_abs(pc, 0x06F5);
            next(3)
        }
        0x9E0A => {
            c.lda_zp(pc, 0xC0);
            next(2)
        }
        0x9E0C => {
            c.cmp_imm(pc, 0x05);
            next(2)
        }
        0x9E0E => branch(c.bne(pc, 0x9E15), 0x9E15),
        0x9E10 => {
            c.lda_imm(pc, 0xFF);
            next(2)
        }
        0x9E15 => rts(c, sp),
        // ---- stageSpriteForCurrentPiece
        0x8A0A => {
            c.lda_zp(pc, 0x40);
            next(2)
        }
        0x8A0C | 0x8A0D | 0x8A0E | 0x8A8A | 0x8A8B | 0x8A8C => {
            c.asl_a(pc);
            next(1)
        }
        0x8A4E..=0x8A50 => {
            c.asl_a(pc);
            next(1)
        }
        0x8A0F => {
            c.adc_imm(pc, 0x60);
            next(2)
        }
        0x8A11 => {
            c.sta_zp(pc, 0xAA);
            next(2)
        }
        0x8A13 => {
            c.lda_zp(pc, 0xBE);
            next(2)
        }
        0x8A15 => {
            c.cmp_imm(pc, 0x01);
            next(2)
        }
        0x8A17 => {
            if c.beq(pc, 0x8A2C) {
                Next::Pc(0x8A2C)
            } else {
                return Err("two players");
            }
        }
        0x8A2C | 0x8A3A | 0x8A51 | 0x8A8D => {
            c.clc(pc);
            next(1)
        }
        0x8A2D => {
            c.lda_zp(pc, 0x41);
            next(2)
        }
        0x8A2F | 0x8A30 | 0x8A31 | 0x8A3D | 0x8A3E | 0x8A41 => {
            c.rol_a(pc);
            next(1)
        }
        0x8A32 => {
            c.adc_imm(pc, 0x2F);
            next(2)
        }
        0x8A34 => {
            c.sta_zp(pc, 0xAB);
            next(2)
        }
        0x8A36 => {
            c.lda_zp(pc, 0x42);
            next(2)
        }
        0x8A38 => {
            c.sta_zp(pc, 0xAC);
            next(2)
        }
        0x8A3B => {
            c.lda_zp(pc, 0xAC);
            next(2)
        }
        0x8A3F => {
            c.sta_zp(pc, 0xA8);
            next(2)
        }
        0x8A42 => {
            c.adc_zp(pc, 0xA8);
            next(2)
        }
        0x8A44 => {
            c.tax(pc);
            next(1)
        }
        0x8A45 => {
            c.ldy_zp(pc, 0xB3);
            next(2)
        }
        0x8A47 => {
            c.lda_imm(pc, 0x04);
            next(2)
        }
        0x8A49 => {
            c.sta_zp(pc, 0xA9);
            next(2)
        }
        0x8A4B | 0x8A5D | 0x8A87 => {
            c.lda_absx(pc, 0x8A9C);
            next(3)
        }
        0x8A52 => {
            c.adc_zp(pc, 0xAB);
            next(2)
        }
        0x8A54 | 0x8A60 | 0x8A69 | 0x8A77 | 0x8A7E | 0x8A90 => {
            c.sta_absy(pc, 0x0200);
            next(3)
        }
        0x8A57 => {
            c.sta_zp(pc, 0xAE);
            next(2)
        }
        0x8A59 | 0x8A63 | 0x8A72 | 0x8A84 | 0x8A93 => {
            c.inc_zp(pc, 0xB3);
            next(2)
        }
        0x8A5B | 0x8A65 | 0x8A7A | 0x8A7B | 0x8A86 | 0x8A95 => {
            c.iny(pc);
            next(1)
        }
        0x8A5C | 0x8A66 | 0x8A96 => {
            c.inx(pc);
            next(1)
        }
        0x8A67 => {
            c.lda_imm(pc, 0x02);
            next(2)
        }
        0x8A6C => {
            c.lda_zp(pc, 0xAE);
            next(2)
        }
        0x8A6E => {
            c.cmp_imm(pc, 0x2F);
            next(2)
        }
        0x8A70 => branch(c.bcs(pc, 0x8A84), 0x8A84),
        0x8A74 => {
            c.dey(pc);
            next(1)
        }
        0x8A75 => {
            c.lda_imm(pc, 0xFF);
            next(2)
        }
        0x8A7C => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0x8A81 => {
            c.jmp(pc);
            Next::Pc(0x8A93)
        }
        0x8A8E => {
            c.adc_zp(pc, 0xAA);
            next(2)
        }
        0x8A97 => {
            c.dec_zp(pc, 0xA9);
            next(2)
        }
        0x8A99 => branch(c.bne(pc, 0x8A4B), 0x8A4B),
        0x8A9B => rts(c, sp),
        // ---- savePlayer1State
        0x87B0 => {
            c.lda_zpx(pc, 0x40);
            next(2)
        }
        0x87B2 => {
            c.sta_zpx(pc, 0x60);
            next(2)
        }
        0x87B7 => branch(c.bne(pc, 0x87B0), 0x87B0),
        0x87B9 => {
            c.lda_zp(pc, 0xBE);
            next(2)
        }
        0x87BB => {
            c.cmp_imm(pc, 0x01);
            next(2)
        }
        0x87BD => {
            if c.beq(pc, 0x87C7) {
                Next::Pc(0x87C7)
            } else {
                return Err("two players");
            }
        }
        0x87C7 => rts(c, sp),
        // ---- stageSpriteForNextPiece, loadSpriteIntoOamStaging
        0x8BCE => {
            c.lda_zp(pc, 0xDF);
            next(2)
        }
        0x8BD0 => branch(c.bne(pc, 0x8BE4), 0x8BE4),
        0x8BD2 => {
            c.lda_imm(pc, 0xC8);
            next(2)
        }
        0x8BD4 => {
            c.sta_zp(pc, 0xA0);
            next(2)
        }
        0x8BD6 => {
            c.lda_imm(pc, 0x77);
            next(2)
        }
        0x8BD8 => {
            c.sta_zp(pc, 0xA1);
            next(2)
        }
        0x8BDA => {
            c.ldx_zp(pc, 0xBF);
            next(2)
        }
        0x8BDC => {
            c.lda_absx(pc, 0x8BE5);
            next(3)
        }
        0x8BDF => {
            c.sta_zp(pc, 0xA2);
            next(2)
        }
        0x8BE1 => {
            c.jmp(pc);
            Next::Pc(0x8C27)
        }
        0x8BE4 | 0x8C6B => rts(c, sp),
        0x8C27 | 0x8C41 | 0x8C59 | 0x8C63 => {
            c.clc(pc);
            next(1)
        }
        0x8C28 => {
            c.lda_zp(pc, 0xA2);
            next(2)
        }
        0x8C2A => {
            c.rol_a(pc);
            next(1)
        }
        0x8C2B => {
            c.tax(pc);
            next(1)
        }
        0x8C2C | 0x8C32 => {
            c.lda_absx(pc, 0x8C6C);
            next(3)
        }
        0x8C2F => {
            c.sta_zp(pc, 0xA8);
            next(2)
        }
        0x8C31 | 0x8C47 | 0x8C4E | 0x8C55 | 0x8C5F => {
            c.inx(pc);
            next(1)
        }
        0x8C35 => {
            c.sta_zp(pc, 0xA9);
            next(2)
        }
        0x8C37 => {
            c.ldx_zp(pc, 0xB3);
            next(2)
        }
        0x8C39 => {
            c.ldy_imm(pc, 0x00);
            next(2)
        }
        0x8C3B | 0x8C49 | 0x8C50 | 0x8C57 => {
            c.lda_indy(pc, 0xA8);
            next(2)
        }
        0x8C3D => {
            c.cmp_imm(pc, 0xFF);
            next(2)
        }
        0x8C3F => branch(c.beq(pc, 0x8C6B), 0x8C6B),
        0x8C42 => {
            c.adc_zp(pc, 0xA1);
            next(2)
        }
        0x8C44 | 0x8C4B | 0x8C52 | 0x8C5C => {
            c.sta_absx(pc, 0x0200);
            next(3)
        }
        0x8C48 | 0x8C4F | 0x8C56 | 0x8C60 => {
            c.iny(pc);
            next(1)
        }
        0x8C5A => {
            c.adc_zp(pc, 0xA0);
            next(2)
        }
        0x8C61 => {
            c.lda_imm(pc, 0x04);
            next(2)
        }
        0x8C64 => {
            c.adc_zp(pc, 0xB3);
            next(2)
        }
        0x8C66 => {
            c.sta_zp(pc, 0xB3);
            next(2)
        }
        0x8C68 => {
            c.jmp(pc);
            Next::Pc(0x8C3B)
        }
        // ---- gameModeState_updatePlayer2 (one player)
        0x8186 => {
            c.lda_zp(pc, 0xBE);
            next(2)
        }
        0x8188 => {
            c.cmp_imm(pc, 0x02);
            next(2)
        }
        0x818A => {
            if c.bne(pc, 0x8198) {
                Next::Pc(0x8198)
            } else {
                return Err("two players");
            }
        }
        0x8198 => {
            c.inc_zp(pc, 0xA7);
            next(2)
        }
        0x819A => rts(c, sp),
        // ---- gameModeState_checkForResetKeyCombo
        0x9E16 => {
            c.lda_zp(pc, 0xF7);
            next(2)
        }
        0x9E18 => {
            c.cmp_imm(pc, 0xF0);
            next(2)
        }
        0x9E1A => {
            if c.beq(pc, 0x9E1F) {
                return Err("the reset combination");
            }
            next(2)
        }
        0x9E1C => {
            c.inc_zp(pc, 0xA7);
            next(2)
        }
        0x9E1E => rts(c, sp),
        // ---- gameModeState_startButtonHandling
        0xA37F => {
            c.lda_zp(pc, 0xC0);
            next(2)
        }
        0xA381 => {
            c.cmp_imm(pc, 0x05);
            next(2)
        }
        0xA383 => {
            if c.bne(pc, 0xA392) {
                Next::Pc(0xA392)
            } else {
                return Err("the demo");
            }
        }
        0xA392 => {
            c.lda_zp(pc, 0xBD);
            next(2)
        }
        0xA394 => {
            c.cmp_imm(pc, 0x03);
            next(2)
        }
        0xA396 => branch(c.bne(pc, 0xA3EF), 0xA3EF),
        0xA398 => {
            c.lda_zp(pc, 0xF5);
            next(2)
        }
        0xA39A => {
            c.and_imm(pc, 0x10);
            next(2)
        }
        0xA39C => branch(c.bne(pc, 0xA3A1), 0xA3A1),
        0xA39E | 0xA3A7 => {
            c.jmp(pc);
            Next::Pc(0xA3EF)
        }
        0xA3A1 => {
            c.lda_zp(pc, 0x68);
            next(2)
        }
        0xA3A3 => {
            c.cmp_imm(pc, 0x0A);
            next(2)
        }
        0xA3A5 => branch(c.bne(pc, 0xA3AA), 0xA3AA),
        0xA3AA => {
            c.lda_imm(pc, 0x05);
            next(2)
        }
        0xA3AC => {
            c.sta_abs(pc, 0x068D);
            next(3)
        }
        0xA3AF => {
            c.lda_imm(pc, 0x00);
            next(2)
        }
        0xA3B1 => {
            c.sta_zp(pc, 0xBD);
            next(2)
        }
        0xA3B3 => jsr(c, sp, 0xAA45),
        0xA3EF => {
            c.inc_zp(pc, 0xA7);
            next(2)
        }
        0xA3F1 => rts(c, sp),
        // ---- gameModeState_vblankThenRunState2
        0x9E27 => {
            c.lda_imm(pc, 0x02);
            next(2)
        }
        0x9E29 => {
            c.sta_zp(pc, 0xA7);
            next(2)
        }
        0x9E2B => jsr(c, sp, 0x9874),
        0x9E2E | 0x9874 => rts(c, sp),
        _ => return Err("the main loop went where the lag model does not follow"),
    })
}

/// What [`probe_heavy_frame`] saw: where each call stopped, the instructions run (address,
/// cycle from the frame's NMI handler), and the RAM at each frame's end.
#[doc(hidden)]
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
pub fn probe_heavy_frame(
    ram: &[u8; 0x800],
    prg: Option<&ProgramData>,
    phase: CpuPhase,
    buttons: &[u8],
) -> HeavyProbe {
    let mut run = Run::new(Box::new(*ram), prg.map(|p| Arc::new(p.clone())), phase);
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
        cycles: run.cycles,
    }
}
