//! The sound driver (`updateAudio`, $E216), instruction by instruction with its cycles.
//!
//! The engine does not make sound. It runs the driver for its timing: at the highest levels the
//! main loop's work can outlast the frame, and whether the NMI then interrupts the driver (a lag
//! frame) or finds the loop waiting depends on how long the driver ran, which depends on the
//! sound effects and the music playing. So the driver's state ($0680-$06FF and the zero-page
//! temporaries $E0-$EF) is kept, and each call returns the cycles it took.
//!
//! The sound effects' code and the few table bytes their branches read are written here after
//! the disassembly. The music scores are ROM data playfield does not ship: the music part runs
//! only with [`ProgramData`] from the user's ROM; without it the music's cycles are estimated
//! and the call reports itself inexact.
//!
//! APU register writes are dropped; the DMC, which would steal cycles, is never started by the
//! music of a game (measured on the ROM for all four music types).

use crate::cpu::{Cpu, Mem};
use crate::program::ProgramData;

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

/// `soundEffectSlot1_lineClearing_vol` ($E4B0): the effect ends at its 0.
const LINE_CLEARING_VOL: [u8; 9] = [0x9E, 0x9B, 0x99, 0x96, 0x94, 0x93, 0x92, 0x91, 0x00];
/// `soundEffectSlot1_levelUp_lo` ($E4F3) up to the 0 that ends the effect.
const LEVEL_UP_LO: [u8; 10] = [0x69, 0xA8, 0x69, 0xA8, 0x8D, 0x53, 0x8D, 0x53, 0x8D, 0x00];
/// `trilo_table` ($E57C).
const TRILO: [u8; 4] = [0x72, 0x74, 0x77, 0x00];

/// A read of the ROM: the user's bytes when given; otherwise the few sound-effect table bytes
/// whose values decide a branch, zero for the sound-effect bytes that only reach the APU, and
/// `unknown` for anything else (the music).
pub(crate) fn prg_read(prg: Option<&ProgramData>, addr: u16, unknown: &mut bool) -> u8 {
    if let Some(p) = prg {
        return p.byte(addr);
    }
    match addr {
        0xE4B0..=0xE4B8 => LINE_CLEARING_VOL[usize::from(addr - 0xE4B0)],
        0xE4F3..=0xE4FC => LEVEL_UP_LO[usize::from(addr - 0xE4F3)],
        0xE57C..=0xE57F => TRILO[usize::from(addr - 0xE57C)],
        0xE000..=0xE5AA => 0,
        _ => {
            *unknown = true;
            0
        }
    }
}

/// The driver's memory on its own: its RAM, the APU (writes dropped) and the ROM.
pub(crate) struct AudioMem<'a> {
    pub(crate) ram: &'a mut AudioRam,
    pub(crate) prg: Option<&'a ProgramData>,
    /// A ROM byte the engine does not have was read.
    pub(crate) unknown: bool,
    /// A RAM byte outside the driver's was touched (the transcription is wrong).
    pub(crate) stray: bool,
}

impl Mem for AudioMem<'_> {
    fn read(&mut self, addr: u16) -> u8 {
        match addr {
            0x00E0..=0x00EF => self.ram.zp[usize::from(addr - 0xE0)],
            0x0680..=0x06FF => self.ram.page[usize::from(addr - 0x680)],
            0x8000..=0xFFFF => prg_read(self.prg, addr, &mut self.unknown),
            _ => {
                self.stray = true;
                0
            }
        }
    }
    fn write(&mut self, addr: u16, value: u8) {
        match addr {
            0x00E0..=0x00EF => self.ram.zp[usize::from(addr - 0xE0)] = value,
            0x0680..=0x06FF => self.ram.page[usize::from(addr - 0x680)] = value,
            0x4000..=0x4017 => {}
            _ => self.stray = true,
        }
    }
}

/// Cycles of `updateMusic` when the music cannot be run (no [`ProgramData`]): the median of the
/// calls measured on the ROM during play with music 1.
pub(crate) const MUSIC_ESTIMATE: u64 = 1_000;

/// What one call of the driver did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AudioCall {
    /// Cycles from `updateAudio`'s first instruction to its `rts` included.
    pub(crate) cycles: u64,
    /// False when the music part was estimated or the driver went where this transcription does
    /// not follow.
    pub(crate) exact: bool,
}

/// Runs `updateAudio` on the driver's RAM alone.
pub(crate) fn update_audio(ram: &mut AudioRam, prg: Option<&ProgramData>) -> AudioCall {
    let mut mem = AudioMem {
        ram,
        prg,
        unknown: false,
        stray: false,
    };
    let mut c = Cpu::new(&mut mem);
    let exact = run_update_audio(&mut c, prg.is_some());
    let cycles = c.cycles;
    let exact = exact && !mem.unknown && !mem.stray;
    AudioCall { cycles, exact }
}

/// `updateAudio` on any memory; `music` false skips the music (its cycles estimated). Returns
/// false when the driver went where this transcription does not follow.
pub(crate) fn run_update_audio<M: Mem>(c: &mut Cpu<'_, M>, music: bool) -> bool {
    let mut ok = true;
    c.lda_imm(0xE216, 0xC0);
    c.sta_abs(0xE218, 0x4017);
    c.lda_abs(0xE21B, 0x068D);
    c.cmp_imm(0xE21E, 0x05);
    if c.beq(0xE220, 0xE1EF) {
        update_audio_pause(c);
        return ok;
    }
    c.lda_imm(0xE222, 0x00);
    c.sta_abs(0xE224, 0x0682);
    c.sta_abs(0xE227, 0x068B);
    c.jsr(0xE22A);
    ok &= update_sound_effect_slot(c, Slot::Two);
    c.jsr(0xE22D);
    ok &= update_sound_effect_slot(c, Slot::Zero);
    c.jsr(0xE230);
    ok &= update_sound_effect_slot(c, Slot::Three);
    c.jsr(0xE233);
    ok &= update_sound_effect_slot(c, Slot::One);
    c.jsr(0xE236);
    if music {
        ok &= update_music(c);
    } else {
        c.cycles += MUSIC_ESTIMATE;
        ok = false;
    }
    c.lda_imm(0xE239, 0x00);
    c.ldx_imm(0xE23B, 0x06);
    loop {
        c.sta_absx(0xE23D, 0x06EF);
        c.dex(0xE240);
        if !c.bne(0xE241, 0xE23D) {
            break;
        }
    }
    c.rts(0xE243);
    ok
}

/// `updateAudio_pause` ($E1EF), reached by a branch from `updateAudio`; ends with its `rts`.
fn update_audio_pause<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_abs(0xE1EF, 0x0682);
    if c.beq(0xE1F2, 0xE1E5) {
        // initAudioAndMarkInited
        c.inc_abs(0xE1E5, 0x0682);
        c.jsr(0xE1E8);
        mute_audio(c);
        c.sta_abs(0xE1EB, 0x0683);
        c.rts(0xE1EE);
        return;
    }
    c.lda_abs(0xE1F4, 0x0683);
    c.cmp_imm(0xE1F7, 0x12);
    if c.beq(0xE1F9, 0xE215) {
        c.rts(0xE215);
        return;
    }
    c.and_imm(0xE1FB, 0x03);
    c.cmp_imm(0xE1FD, 0x03);
    if !c.bne(0xE1FF, 0xE212) {
        c.inc_abs(0xE201, 0x068B);
        c.ldy_imm(0xE204, 0x10); // <music_pause_sq1_odd
        c.lda_abs(0xE206, 0x068B);
        c.and_imm(0xE209, 0x01);
        if !c.bne(0xE20B, 0xE20F) {
            c.ldy_imm(0xE20D, 0x0C); // <music_pause_sq1_even
        }
        c.jsr(0xE20F);
        copy_to_channel(c, 0xE04B);
    }
    c.inc_abs(0xE212, 0x0683);
    c.rts(0xE215);
}

/// `muteAudio` ($E271) with its `rts`.
fn mute_audio<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_imm(0xE271, 0x00);
    c.sta_abs(0xE273, 0x4011);
    c.lda_imm(0xE276, 0x10);
    c.sta_abs(0xE278, 0x4000);
    c.sta_abs(0xE27B, 0x4004);
    c.sta_abs(0xE27E, 0x400C);
    c.lda_imm(0xE281, 0x00);
    c.sta_abs(0xE283, 0x4008);
    c.rts(0xE286);
}

/// `soundEffectSlot2_makesNoSound` ($E244): `LE253`, then `muteAudioAndClearTriControl`.
fn makes_no_sound<M: Mem>(c: &mut Cpu<'_, M>) {
    c.jsr(0xE244);
    // LE253
    c.lda_imm(0xE253, 0x00);
    c.sta_abs(0xE255, 0x06C8);
    c.sta_abs(0xE258, 0x06C9);
    c.sta_abs(0xE25B, 0x06CA);
    c.sta_abs(0xE25E, 0x068C);
    c.sta_abs(0xE261, 0x068A);
    c.tay(0xE264);
    loop {
        c.lda_imm(0xE265, 0x00);
        c.sta_absy(0xE267, 0x06F8);
        c.iny(0xE26A);
        c.tya(0xE26B);
        c.cmp_imm(0xE26C, 0x06);
        if !c.bne(0xE26E, 0xE265) {
            break;
        }
    }
    c.rts(0xE270);
    mute_audio_and_clear_tri_control(c);
}

/// `soundEffectSlot2_makesNoSound` called by the game code (`updateAudio2`) on the driver's RAM.
pub(crate) fn makes_no_sound_on(ram: &mut AudioRam) {
    let mut mem = AudioMem {
        ram,
        prg: None,
        unknown: false,
        stray: false,
    };
    let mut c = Cpu::new(&mut mem);
    makes_no_sound(&mut c);
}

/// `muteAudioAndClearTriControl` ($E247) with its `rts`.
fn mute_audio_and_clear_tri_control<M: Mem>(c: &mut Cpu<'_, M>) {
    c.jsr(0xE247);
    mute_audio(c);
    c.lda_imm(0xE24A, 0x00);
    c.sta_abs(0xE24C, 0x4011);
    c.sta_abs(0xE24F, 0x069C);
    c.rts(0xE252);
}

/// The copy routines into an APU channel: `copyToSq1Channel` ($E04B), `copyToTriChannel`
/// ($E04F), `copyToNoiseChannel` ($E053), `copyToSq2Channel` ($E057); each ends with the `rts`
/// of `copyToApuChannel`, leaving Z set.
fn copy_to_channel<M: Mem>(c: &mut Cpu<'_, M>, entry: u16) {
    match entry {
        0xE04B => {
            c.lda_imm(0xE04B, 0x00);
            c.beq(0xE04D, 0xE059);
        }
        0xE04F => {
            c.lda_imm(0xE04F, 0x08);
            c.bne(0xE051, 0xE059);
        }
        0xE053 => {
            c.lda_imm(0xE053, 0x0C);
            c.bne(0xE055, 0xE059);
        }
        _ => c.lda_imm(0xE057, 0x04),
    }
    c.sta_zp(0xE059, 0xE0);
    c.lda_imm(0xE05B, 0x40);
    c.sta_zp(0xE05D, 0xE1);
    c.sty_zp(0xE05F, 0xE2);
    c.lda_imm(0xE061, 0xE1);
    c.sta_zp(0xE063, 0xE3);
    c.ldy_imm(0xE065, 0x00);
    loop {
        c.lda_indy(0xE067, 0xE2);
        c.sta_indy(0xE069, 0xE0);
        c.iny(0xE06B);
        c.tya(0xE06C);
        c.cmp_imm(0xE06D, 0x04);
        if !c.bne(0xE06F, 0xE067) {
            break;
        }
    }
    c.rts(0xE071);
}

/// The five slots' update routines: which init and playing tables they dispatch through.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Zero,
    One,
    Two,
    Three,
}

/// The routines the slots' address tables ($E009-$E04A, 33 entries in this order) point at.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Handler {
    Slot0MakesNoSound,
    Slot0GameOverCurtainInit,
    Slot0EndingRocketInit,
    Slot0AdvanceWithoutUpdate,
    Slot0Apu,
    MenuOptionSelectInit,
    MenuScreenSelectInit,
    ShiftTetriminoInit,
    TetrisAchievedInit,
    RotateTetriminoInit,
    LevelUpInit,
    LockTetriminoInit,
    ChirpChirpInit,
    LineClearingInit,
    LineCompletedInit,
    MenuOptionSelectPlaying,
    MenuScreenSelectPlaying,
    Slot1PlayingAdvance,
    TetrisAchievedPlaying,
    RotateTetriminoPlaying,
    LevelUpPlaying,
    ChirpChirpPlaying,
    LineClearingPlaying,
    LineCompletedPlaying,
    FallingAlien,
    Donk,
    Slot3Apu,
    Slot3PlayingAdvance,
    Slot2MakesNoSound,
    LowBuzz,
    MediumBuzz,
}

/// The 33 entries from $E009.
const HANDLERS: [Handler; 33] = {
    use Handler::*;
    [
        Slot0MakesNoSound,
        Slot0GameOverCurtainInit,
        Slot0EndingRocketInit,
        Slot0AdvanceWithoutUpdate,
        Slot0Apu,
        Slot0AdvanceWithoutUpdate,
        MenuOptionSelectInit,
        MenuScreenSelectInit,
        ShiftTetriminoInit,
        TetrisAchievedInit,
        RotateTetriminoInit,
        LevelUpInit,
        LockTetriminoInit,
        ChirpChirpInit,
        LineClearingInit,
        LineCompletedInit,
        MenuOptionSelectPlaying,
        MenuScreenSelectPlaying,
        Slot1PlayingAdvance,
        TetrisAchievedPlaying,
        RotateTetriminoPlaying,
        LevelUpPlaying,
        Slot1PlayingAdvance,
        ChirpChirpPlaying,
        LineClearingPlaying,
        LineCompletedPlaying,
        FallingAlien,
        Donk,
        Slot3Apu,
        Slot3PlayingAdvance,
        Slot2MakesNoSound,
        LowBuzz,
        MediumBuzz,
    ]
};

/// `updateSoundEffectSlotN` and `updateSoundEffectSlotShared`, ending with the `rts` of the
/// routine they dispatch to. Returns false where the transcription does not follow the ROM.
fn update_sound_effect_slot<M: Mem>(c: &mut Cpu<'_, M>, slot: Slot) -> bool {
    // (slot, init table, playing table) as the low bytes of $E0xx.
    let (x, init_table, playing_table) = match slot {
        Slot::Two => {
            c.ldx_imm(0xE194, 0x02);
            c.lda_imm(0xE196, 0x45);
            c.ldy_imm(0xE198, 0x45);
            c.bne(0xE19A, 0xE1BF);
            (2u8, 0x45u8, 0x45u8)
        }
        Slot::Three => {
            c.ldx_imm(0xE19C, 0x03);
            c.lda_imm(0xE19E, 0x3D);
            c.ldy_imm(0xE1A0, 0x41);
            c.bne(0xE1A2, 0xE1BF);
            (3, 0x3D, 0x41)
        }
        Slot::One => {
            c.lda_abs(0xE1AC, 0x06FC);
            if c.bne(0xE1AF, 0xE1D7) {
                c.rts(0xE1D7);
                return true;
            }
            c.ldx_imm(0xE1B1, 0x01);
            c.lda_imm(0xE1B3, 0x15);
            c.ldy_imm(0xE1B5, 0x29);
            c.bne(0xE1B7, 0xE1BF);
            (1, 0x15, 0x29)
        }
        Slot::Zero => {
            c.ldx_imm(0xE1B9, 0x00);
            c.lda_imm(0xE1BB, 0x09);
            c.ldy_imm(0xE1BD, 0x0F);
            (0, 0x09, 0x0F)
        }
    };
    debug_assert_eq!(c.x, x);
    let _ = (init_table, playing_table);
    c.sta_zp(0xE1BF, 0xE0);
    c.stx_zp(0xE1C1, 0xED);
    c.lda_absx(0xE1C3, 0x06F0);
    if !c.beq(0xE1C6, 0xE1CE) {
        c.jsr(0xE1C8);
        return compute_and_execute(c);
    }
    c.lda_absx(0xE1CE, 0x06F8);
    if c.beq(0xE1D1, 0xE1D7) {
        c.rts(0xE1D7);
        return true;
    }
    c.sty_zp(0xE1D3, 0xE0);
    c.bne(0xE1D5, 0xE1C8);
    c.jsr(0xE1C8);
    compute_and_execute(c)
}

/// `computeSoundEffMethod` ($E072) then `jmp (AUDIOTMP3)` ($E1CB) into the routine found.
fn compute_and_execute<M: Mem>(c: &mut Cpu<'_, M>) -> bool {
    let table_low = c.mem.read(0x00E0);
    c.sta_zp(0xE072, 0xEF);
    c.pha(0xE074);
    c.ldy_imm(0xE075, 0xE0);
    c.sty_zp(0xE077, 0xE1);
    c.ldy_imm(0xE079, 0x00);
    let found = loop {
        c.dec_zp(0xE07B, 0xEF);
        if c.beq(0xE07D, 0xE092) {
            break true;
        }
        c.iny(0xE07F);
        c.iny(0xE080);
        c.tya(0xE081);
        c.cmp_imm(0xE082, 0x22);
        if !c.bne(0xE084, 0xE07B) {
            break false;
        }
    };
    let entry = usize::from(table_low.wrapping_sub(0x09) / 2) + usize::from(c.y / 2);
    if found {
        c.lda_indy(0xE092, 0xE0);
        c.sta_zp(0xE094, 0xE2);
        c.iny(0xE096);
        c.lda_indy(0xE097, 0xE0);
        c.sta_zp(0xE099, 0xE3);
        c.jmp(0xE09B);
    } else {
        c.lda_imm(0xE086, 0x91);
        c.sta_zp(0xE088, 0xE2);
        c.lda_imm(0xE08A, 0xE0);
        c.sta_zp(0xE08C, 0xE3);
    }
    c.pla(0xE08E);
    c.sta_zp(0xE08F, 0xEF);
    c.rts(0xE091);
    c.jmp_ind(0xE1CB);
    if !found {
        // $E091 is the rts just run: the jump lands on it again.
        c.rts(0xE091);
        return true;
    }
    match HANDLERS.get(entry) {
        Some(&h) => {
            run_handler(c, h);
            true
        }
        None => false,
    }
}

/// `advanceAudioSlotFrame` ($E0B5), called with `jsr`: Z set when the effect's frame count is
/// reached (the counter back to 0).
fn advance_audio_slot_frame<M: Mem>(c: &mut Cpu<'_, M>, at: u16) {
    c.jsr(at);
    c.ldx_zp(0xE0B5, 0xED);
    c.inc_absx(0xE0B7, 0x06DA);
    c.lda_absx(0xE0BA, 0x06DA);
    c.cmp_absx(0xE0BD, 0x06D5);
    if !c.bne(0xE0C0, 0xE0C7) {
        c.lda_imm(0xE0C2, 0x00);
        c.sta_absx(0xE0C4, 0x06DA);
    }
    c.rts(0xE0C7);
}

/// `initSoundEffectShared` ($E287) with its `rts`.
fn init_sound_effect_shared<M: Mem>(c: &mut Cpu<'_, M>) {
    c.ldx_zp(0xE287, 0xED);
    c.sta_absx(0xE289, 0x06D5);
    c.txa(0xE28C);
    c.sta_absx(0xE28D, 0x06C7);
    c.tya(0xE290);
    if !c.beq(0xE291, 0xE2B5) {
        c.txa(0xE293);
        if c.beq(0xE294, 0xE2B2) {
            c.jsr(0xE2B2);
            copy_to_channel(c, 0xE053);
        } else {
            c.cmp_imm(0xE296, 0x01);
            if c.beq(0xE298, 0xE2A3) {
                c.jsr(0xE2A3);
                copy_to_channel(c, 0xE04B);
                c.beq(0xE2A6, 0xE2B5);
            } else {
                c.cmp_imm(0xE29A, 0x02);
                if c.beq(0xE29C, 0xE2A8) {
                    c.jsr(0xE2A8);
                    copy_to_channel(c, 0xE057);
                    c.beq(0xE2AB, 0xE2B5);
                } else {
                    c.cmp_imm(0xE29E, 0x03);
                    if !c.beq(0xE2A0, 0xE2AD) {
                        c.rts(0xE2A2);
                        return;
                    }
                    c.jsr(0xE2AD);
                    copy_to_channel(c, 0xE04F);
                    c.beq(0xE2B0, 0xE2B5);
                }
            }
        }
    }
    c.lda_zp(0xE2B5, 0xEF);
    c.sta_absx(0xE2B7, 0x06F8);
    c.lda_imm(0xE2BA, 0x00);
    c.sta_absx(0xE2BC, 0x06DA);
    c.sta_absx(0xE2BF, 0x06DF);
    c.sta_absx(0xE2C2, 0x06E3);
    c.sta_absx(0xE2C5, 0x06E7);
    c.sta_abs(0xE2C8, 0x068A);
    c.rts(0xE2CB);
}

/// `LE33B` ($E33B), called with `jsr`: Z set when slot 1 plays the tetris, level-up, line
/// clearing or line completed effect, which the lock, shift and rotate effects do not cut.
fn slot1_protected<M: Mem>(c: &mut Cpu<'_, M>, at: u16) {
    c.jsr(at);
    c.lda_abs(0xE33B, 0x06F9);
    c.cmp_imm(0xE33E, 0x04);
    if !c.beq(0xE340, 0xE34E) {
        c.cmp_imm(0xE342, 0x06);
        if !c.beq(0xE344, 0xE34E) {
            c.cmp_imm(0xE346, 0x09);
            if !c.beq(0xE348, 0xE34E) {
                c.cmp_imm(0xE34A, 0x0A);
                c.beq(0xE34C, 0xE34E);
            }
        }
    }
    c.rts(0xE34E);
}

/// `soundEffectSlot1Playing_stop` ($E3A1) with its `rts`.
fn slot1_playing_stop<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_imm(0xE3A1, 0x10);
    c.sta_abs(0xE3A3, 0x4000);
    c.lda_imm(0xE3A6, 0x00);
    c.sta_abs(0xE3A8, 0x06C8);
    c.sta_abs(0xE3AB, 0x06F9);
    c.inc_abs(0xE3AE, 0x068A);
    c.rts(0xE3B1);
}

/// `soundEffectSlot3Playing_stop` ($E540) with its `rts`.
fn slot3_playing_stop<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_imm(0xE540, 0x00);
    c.sta_abs(0xE542, 0x4008);
    c.sta_abs(0xE545, 0x06CA);
    c.sta_abs(0xE548, 0x06FB);
    c.lda_imm(0xE54B, 0x18);
    c.sta_abs(0xE54D, 0x400B);
    c.rts(0xE550);
}

/// `stopSoundEffectSlot0` ($E2E9) with its `rts`.
fn stop_slot0<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_imm(0xE2E9, 0x00);
    c.sta_abs(0xE2EB, 0x06F8);
    c.lda_imm(0xE2EE, 0x10);
    c.sta_abs(0xE2F0, 0x400C);
    c.rts(0xE2F3);
}

/// `getSoundEffectNoiseNibble` ($E31A), called with `jsr`.
fn get_noise_nibble<M: Mem>(c: &mut Cpu<'_, M>, at: u16) {
    c.jsr(at);
    c.stx_zp(0xE31A, 0xE0);
    c.ldy_imm(0xE31C, 0xE1);
    c.sty_zp(0xE31E, 0xE1);
    c.ldx_abs(0xE320, 0x06DF);
    c.txa(0xE323);
    c.lsr_a(0xE324);
    c.tay(0xE325);
    c.lda_indy(0xE326, 0xE0);
    c.sta_zp(0xE328, 0xE4);
    c.txa(0xE32A);
    c.and_imm(0xE32B, 0x01);
    if !c.beq(0xE32D, 0xE334) {
        c.lda_zp(0xE32F, 0xE4);
        c.and_imm(0xE331, 0x0F);
        c.rts(0xE333);
        return;
    }
    c.lda_zp(0xE334, 0xE4);
    c.lsr_a(0xE336);
    c.lsr_a(0xE337);
    c.lsr_a(0xE338);
    c.lsr_a(0xE339);
    c.rts(0xE33A);
}

/// The tail shared by the tetris, line completed and line clearing effects: `LE442` ($E442),
/// reached with Y set.
fn line_clearing_tail<M: Mem>(c: &mut Cpu<'_, M>) {
    c.jsr(0xE442);
    copy_to_channel(c, 0xE04B);
    c.clc(0xE445);
    c.lda_abs(0xE446, 0x06E4);
    c.adc_abs(0xE449, 0x06E0);
    c.tay(0xE44C);
    c.lda_absy(0xE44D, 0xE4B9);
    c.sta_abs(0xE450, 0x4002);
    c.ldy_abs(0xE453, 0x06E0);
    c.lda_absy(0xE456, 0xE4B0);
    c.sta_abs(0xE459, 0x4000);
    if c.bne(0xE45C, 0xE46F) {
        c.inc_abs(0xE46F, 0x06E0);
        c.rts(0xE472);
        return;
    }
    c.lda_abs(0xE45E, 0x06F9);
    c.cmp_imm(0xE461, 0x04);
    if c.bne(0xE463, 0xE46C) {
        c.jmp(0xE46C);
        slot1_playing_stop(c);
        return;
    }
    c.lda_imm(0xE465, 0x09);
    c.sta_zp(0xE467, 0xEF);
    c.jmp(0xE469);
    line_clearing_init(c);
}

/// `soundEffectSlot1_lineClearingInit` ($E42E).
fn line_clearing_init<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_imm(0xE42E, 0x04);
    c.ldy_imm(0xE430, 0x38);
    c.jsr(0xE432);
    c.jmp(0xE417);
    init_sound_effect_shared(c);
    c.lda_imm(0xE435, 0x00);
    c.sta_abs(0xE437, 0x06E4);
    c.rts(0xE43A);
}

/// The routine an address table entry points at, ending with its `rts`.
fn run_handler<M: Mem>(c: &mut Cpu<'_, M>, handler: Handler) {
    use Handler::*;
    match handler {
        Slot0MakesNoSound => {
            c.lda_imm(0xE2DD, 0x10);
            c.ldy_imm(0xE2DF, 0x00);
            c.jmp(0xE2E1);
            init_sound_effect_shared(c);
        }
        Slot0GameOverCurtainInit => {
            c.lda_imm(0xE2F8, 0x40);
            c.ldy_imm(0xE2FA, 0x04);
            c.jmp(0xE2FC);
            init_sound_effect_shared(c);
        }
        Slot0EndingRocketInit => {
            c.lda_imm(0xE2CC, 0x20);
            c.ldy_imm(0xE2CE, 0x08);
            c.jmp(0xE2D0);
            init_sound_effect_shared(c);
        }
        Slot0AdvanceWithoutUpdate => {
            advance_audio_slot_frame(c, 0xE2E4);
            if c.bne(0xE2E7, 0xE2F3) {
                c.rts(0xE2F3);
            } else {
                stop_slot0(c);
            }
        }
        Slot0Apu => {
            advance_audio_slot_frame(c, 0xE2FF);
            if !c.bne(0xE302, 0xE307) {
                c.jmp(0xE304);
                stop_slot0(c);
                return;
            }
            // updateSoundEffectNoiseAudio
            c.ldx_imm(0xE307, 0x54);
            c.jsr(0xE309);
            get_noise_nibble(c, 0xE2D7);
            c.jmp(0xE2DA);
            c.sta_abs(0xE2D3, 0x400E);
            c.rts(0xE2D6);
            c.ldx_imm(0xE30C, 0x74);
            get_noise_nibble(c, 0xE30E);
            c.ora_imm(0xE311, 0x10);
            c.sta_abs(0xE313, 0x400C);
            c.inc_abs(0xE316, 0x06DF);
            c.rts(0xE319);
        }
        MenuOptionSelectInit => {
            c.lda_imm(0xE3CA, 0x03);
            c.ldy_imm(0xE3CC, 0x24);
            c.bne(0xE3CE, 0xE417);
            c.jmp(0xE417);
            init_sound_effect_shared(c);
        }
        MenuScreenSelectInit => {
            c.lda_imm(0xE473, 0x03);
            c.ldy_imm(0xE475, 0x2C);
            c.jsr(0xE477);
            init_sound_effect_shared(c);
            c.lda_abs(0xE47A, 0xE12E);
            c.sta_abs(0xE47D, 0x06E0);
            c.rts(0xE480);
        }
        ShiftTetriminoInit => {
            slot1_protected(c, 0xE390);
            if c.beq(0xE393, 0xE3B1) {
                c.rts(0xE3B1);
                return;
            }
            c.lda_imm(0xE395, 0x02);
            c.ldy_imm(0xE397, 0x44);
            c.jmp(0xE399);
            init_sound_effect_shared(c);
        }
        TetrisAchievedInit => {
            c.lda_imm(0xE403, 0x05);
            c.ldy_imm(0xE405, 0x30);
            c.jsr(0xE407);
            c.jmp(0xE417);
            init_sound_effect_shared(c);
            c.lda_imm(0xE40A, 0x10);
            c.bne(0xE40C, 0xE437);
            c.sta_abs(0xE437, 0x06E4);
            c.rts(0xE43A);
        }
        RotateTetriminoInit => {
            slot1_protected(c, 0xE3D1);
            if c.beq(0xE3D4, 0xE3D0) {
                c.rts(0xE3D0);
                return;
            }
            c.lda_imm(0xE3D6, 0x04);
            c.ldy_imm(0xE3D8, 0x14);
            c.jsr(0xE3DA);
            c.jmp(0xE417);
            init_sound_effect_shared(c);
            rotate_playing(c);
        }
        LevelUpInit => {
            c.lda_imm(0xE4EC, 0x06);
            c.ldy_imm(0xE4EE, 0x1C);
            c.jmp(0xE4F0);
            init_sound_effect_shared(c);
        }
        LockTetriminoInit => {
            slot1_protected(c, 0xE384);
            if c.beq(0xE387, 0xE3B1) {
                c.rts(0xE3B1);
                return;
            }
            c.lda_imm(0xE389, 0x0F);
            c.ldy_imm(0xE38B, 0x20);
            c.jmp(0xE38D);
            init_sound_effect_shared(c);
        }
        ChirpChirpInit => {
            c.ldy_imm(0xE37F, 0x3C);
            c.jmp(0xE381);
            init_sound_effect_shared(c);
        }
        LineClearingInit => line_clearing_init(c),
        LineCompletedInit => {
            c.lda_imm(0xE41A, 0x05);
            c.ldy_imm(0xE41C, 0x34);
            c.jsr(0xE41E);
            c.jmp(0xE417);
            init_sound_effect_shared(c);
            c.lda_imm(0xE421, 0x08);
            c.bne(0xE423, 0xE437);
            c.sta_abs(0xE437, 0x06E4);
            c.rts(0xE43A);
        }
        MenuOptionSelectPlaying => {
            advance_audio_slot_frame(c, 0xE3B3);
            if c.bne(0xE3B6, 0xE3B2) {
                c.rts(0xE3B2);
                return;
            }
            c.inc_abs(0xE3B8, 0x06E0);
            c.lda_abs(0xE3BB, 0x06E0);
            c.cmp_imm(0xE3BE, 0x02);
            if !c.bne(0xE3C0, 0xE3C5) {
                c.jmp(0xE3C2);
                slot1_playing_stop(c);
                return;
            }
            c.ldy_imm(0xE3C5, 0x28);
            c.jmp(0xE3C7);
            copy_to_channel(c, 0xE04B);
        }
        MenuScreenSelectPlaying => {
            advance_audio_slot_frame(c, 0xE481);
            if c.bne(0xE484, 0xE472) {
                c.rts(0xE472);
                return;
            }
            c.inc_abs(0xE486, 0x06E4);
            c.lda_abs(0xE489, 0x06E4);
            c.cmp_imm(0xE48C, 0x04);
            if !c.bne(0xE48E, 0xE493) {
                c.jmp(0xE490);
                slot1_playing_stop(c);
                return;
            }
            c.lda_abs(0xE493, 0x06E0);
            c.lsr_a(0xE496);
            c.lsr_a(0xE497);
            c.lsr_a(0xE498);
            c.lsr_a(0xE499);
            c.sta_abs(0xE49A, 0x06E8);
            c.lda_abs(0xE49D, 0x06E0);
            c.clc(0xE4A0);
            c.sbc_abs(0xE4A1, 0x06E8);
            c.sta_abs(0xE4A4, 0x06E0);
            c.sta_abs(0xE4A7, 0x4002);
            c.lda_imm(0xE4AA, 0x28);
            c.sta_abs(0xE4AC, 0x4003);
            c.rts(0xE4AF);
        }
        Slot1PlayingAdvance => {
            advance_audio_slot_frame(c, 0xE39C);
            if c.bne(0xE39F, 0xE3B1) {
                c.rts(0xE3B1);
            } else {
                slot1_playing_stop(c);
            }
        }
        TetrisAchievedPlaying => {
            advance_audio_slot_frame(c, 0xE40E);
            if c.bne(0xE411, 0xE43A) {
                c.rts(0xE43A);
                return;
            }
            c.ldy_imm(0xE413, 0x30);
            c.bne(0xE415, 0xE442);
            line_clearing_tail(c);
        }
        RotateTetriminoPlaying => rotate_playing(c),
        LevelUpPlaying => {
            advance_audio_slot_frame(c, 0xE4D1);
            if c.bne(0xE4D4, 0xE4AF) {
                c.rts(0xE4AF);
                return;
            }
            c.ldy_abs(0xE4D6, 0x06E0);
            c.inc_abs(0xE4D9, 0x06E0);
            c.lda_absy(0xE4DC, 0xE4F3);
            if c.beq(0xE4DF, 0xE4E9) {
                c.jmp(0xE4E9);
                slot1_playing_stop(c);
                return;
            }
            c.sta_abs(0xE4E1, 0x4002);
            c.lda_imm(0xE4E4, 0x28);
            c.jmp(0xE4E6);
            c.sta_abs(0xE4AC, 0x4003);
            c.rts(0xE4AF);
        }
        ChirpChirpPlaying => {
            c.lda_abs(0xE34F, 0x06E4);
            if !c.beq(0xE352, 0xE361) {
                c.inc_abs(0xE354, 0x06E0);
                c.lda_abs(0xE357, 0x06E0);
                c.cmp_imm(0xE35A, 0x16);
                if c.bne(0xE35C, 0xE3B1) {
                    c.rts(0xE3B1);
                    return;
                }
                c.jmp(0xE35E);
                slot1_playing_stop(c);
                return;
            }
            c.lda_abs(0xE361, 0x06E0);
            c.and_imm(0xE364, 0x03);
            c.tay(0xE366);
            c.lda_absy(0xE367, 0xE150);
            c.sta_abs(0xE36A, 0x4000);
            c.inc_abs(0xE36D, 0x06E0);
            c.lda_abs(0xE370, 0x06E0);
            c.cmp_imm(0xE373, 0x08);
            if c.bne(0xE375, 0xE3B1) {
                c.rts(0xE3B1);
                return;
            }
            c.inc_abs(0xE377, 0x06E4);
            c.ldy_imm(0xE37A, 0x40);
            c.jmp(0xE37C);
            copy_to_channel(c, 0xE04B);
        }
        LineClearingPlaying => {
            advance_audio_slot_frame(c, 0xE43B);
            if c.bne(0xE43E, 0xE43A) {
                c.rts(0xE43A);
                return;
            }
            c.ldy_imm(0xE440, 0x38);
            line_clearing_tail(c);
        }
        LineCompletedPlaying => {
            advance_audio_slot_frame(c, 0xE425);
            if c.bne(0xE428, 0xE43A) {
                c.rts(0xE43A);
                return;
            }
            c.ldy_imm(0xE42A, 0x34);
            c.bne(0xE42C, 0xE442);
            line_clearing_tail(c);
        }
        FallingAlien => {
            c.lda_imm(0xE56E, 0x06);
            c.ldy_imm(0xE570, 0x48);
            c.jsr(0xE572);
            init_sound_effect_shared(c);
            c.lda_abs(0xE575, 0xE14A);
            c.sta_abs(0xE578, 0x06E6);
            c.rts(0xE57B);
        }
        Donk => {
            c.lda_imm(0xE534, 0x02);
            c.ldy_imm(0xE536, 0x4C);
            c.jmp(0xE538);
            init_sound_effect_shared(c);
        }
        Slot3Apu => {
            advance_audio_slot_frame(c, 0xE551);
            if c.bne(0xE554, 0xE550) {
                c.rts(0xE550);
                return;
            }
            c.ldy_abs(0xE556, 0x06E2);
            c.inc_abs(0xE559, 0x06E2);
            c.lda_absy(0xE55C, 0xE57C);
            if c.beq(0xE55F, 0xE540) {
                slot3_playing_stop(c);
                return;
            }
            c.sta_abs(0xE561, 0x400A);
            c.sta_abs(0xE564, 0x06E6);
            c.lda_abs(0xE567, 0xE14B);
            c.sta_abs(0xE56A, 0x400B);
            c.rts(0xE56D);
        }
        Slot3PlayingAdvance => {
            advance_audio_slot_frame(c, 0xE53B);
            if c.bne(0xE53E, 0xE550) {
                c.rts(0xE550);
            } else {
                slot3_playing_stop(c);
            }
        }
        Slot2MakesNoSound => makes_no_sound(c),
        LowBuzz | MediumBuzz => {
            if handler == MediumBuzz {
                c.lda_imm(0xE50B, 0x3F);
                c.ldy_imm(0xE50D, 0x60);
                c.ldx_imm(0xE50F, 0x0F);
                c.bne(0xE511, 0xE51B);
            } else {
                c.lda_imm(0xE513, 0x3F);
                c.ldy_imm(0xE515, 0x60);
                c.ldx_imm(0xE517, 0x0E);
                c.bne(0xE519, 0xE51B);
            }
            c.sta_abs(0xE51B, 0x4013);
            c.sty_abs(0xE51E, 0x4012);
            c.stx_abs(0xE521, 0x4010);
            c.lda_imm(0xE524, 0x0F);
            c.sta_abs(0xE526, 0x4015);
            c.lda_imm(0xE529, 0x00);
            c.sta_abs(0xE52B, 0x4011);
            c.lda_imm(0xE52E, 0x1F);
            c.sta_abs(0xE530, 0x4015);
            c.rts(0xE533);
        }
    }
}

/// `soundEffectSlot1_rotateTetriminoPlaying` ($E3DD).
fn rotate_playing<M: Mem>(c: &mut Cpu<'_, M>) {
    advance_audio_slot_frame(c, 0xE3DD);
    if c.bne(0xE3E0, 0xE3D0) {
        c.rts(0xE3D0);
        return;
    }
    c.lda_abs(0xE3E2, 0x06E0);
    c.inc_abs(0xE3E5, 0x06E0);
    // The flags here are the inc's, but A holds the counter before it.
    let stage = if c.beq(0xE3E8, 0xE3FE) {
        3
    } else {
        c.cmp_imm(0xE3EA, 0x01);
        if c.beq(0xE3EC, 0xE3F9) {
            2
        } else {
            c.cmp_imm(0xE3EE, 0x02);
            if c.beq(0xE3F0, 0xE3FE) {
                3
            } else {
                c.cmp_imm(0xE3F2, 0x03);
                if c.bne(0xE3F4, 0xE3D0) {
                    c.rts(0xE3D0);
                    return;
                }
                c.jmp(0xE3F6);
                slot1_playing_stop(c);
                return;
            }
        }
    };
    if stage == 2 {
        c.ldy_imm(0xE3F9, 0x14);
        c.jmp(0xE3FB);
    } else {
        c.ldy_imm(0xE3FE, 0x18);
        c.jmp(0xE400);
    }
    copy_to_channel(c, 0xE04B);
}

// ---- the music

/// `updateMusic` ($E583), ending with its `rts` (or the `rts` of the routine it jumps to).
fn update_music<M: Mem>(c: &mut Cpu<'_, M>) -> bool {
    c.lda_abs(0xE583, 0x06F5);
    c.tay(0xE586);
    c.cmp_imm(0xE587, 0xFF);
    if c.beq(0xE589, 0xE580) {
        c.jmp(0xE580);
        makes_no_sound(c);
        return true;
    }
    c.cmp_imm(0xE58B, 0x00);
    if c.beq(0xE58D, 0xE5A5) {
        c.lda_abs(0xE5A5, 0x06FD);
        if !c.bne(0xE5A8, 0xE5A2) {
            c.rts(0xE5AA);
            return true;
        }
    } else {
        c.sta_zp(0xE58F, 0xEF);
        c.sta_abs(0xE591, 0x06CC);
        c.dec_abs(0xE594, 0x06CC);
        c.lda_imm(0xE597, 0x7F);
        c.sta_abs(0xE599, 0x06C0);
        c.sta_abs(0xE59C, 0x06C1);
        c.jsr(0xE59F);
        load_music_track(c);
    }
    c.jmp(0xE5A2);
    update_music_frame(c)
}

/// `loadMusicTrack` ($E6D7) with its `rts`.
fn load_music_track<M: Mem>(c: &mut Cpu<'_, M>) {
    c.jsr(0xE6D7);
    mute_audio_and_clear_tri_control(c);
    c.lda_zp(0xE6DA, 0xEF);
    c.sta_abs(0xE6DC, 0x06FD);
    c.lda_abs(0xE6DF, 0x06CC);
    c.tay(0xE6E2);
    c.lda_absy(0xE6E3, 0xEC23);
    c.tay(0xE6E6);
    c.ldx_imm(0xE6E7, 0x00);
    loop {
        c.lda_absy(0xE6E9, 0xEC2D);
        c.sta_absx(0xE6EC, 0x0690);
        c.iny(0xE6EF);
        c.inx(0xE6F0);
        c.txa(0xE6F1);
        c.cmp_imm(0xE6F2, 0x0A);
        if !c.bne(0xE6F4, 0xE6E9) {
            break;
        }
    }
    c.lda_imm(0xE6F6, 0x01);
    c.sta_abs(0xE6F8, 0x06B4);
    c.sta_abs(0xE6FB, 0x06B5);
    c.sta_abs(0xE6FE, 0x06B6);
    c.sta_abs(0xE701, 0x06B7);
    c.lda_imm(0xE704, 0x00);
    c.sta_zp(0xE706, 0xEA);
    c.ldy_imm(0xE708, 0x08);
    loop {
        c.sta_absy(0xE70A, 0x06A7);
        c.dey(0xE70D);
        if !c.bne(0xE70E, 0xE70A) {
            break;
        }
    }
    c.tax(0xE710);
    // derefNextAddr
    loop {
        c.lda_absx(0xE711, 0x0692);
        c.sta_zp(0xE714, 0xE6);
        c.lda_absx(0xE716, 0x0693);
        c.cmp_imm(0xE719, 0xFF);
        if c.beq(0xE71B, 0xE6D0) {
            c.lda_imm(0xE6D0, 0xFF);
            c.sta_absx(0xE6D2, 0x06A0);
            c.bne(0xE6D5, 0xE72A);
        } else {
            c.sta_zp(0xE71D, 0xE7);
            c.ldy_abs(0xE71F, 0x06A8);
            c.lda_indy(0xE722, 0xE6);
            c.sta_absx(0xE724, 0x06A0);
            c.iny(0xE727);
            c.lda_indy(0xE728, 0xE6);
        }
        c.sta_absx(0xE72A, 0x06A1);
        c.inx(0xE72D);
        c.inx(0xE72E);
        c.txa(0xE72F);
        c.cmp_imm(0xE730, 0x08);
        if !c.bne(0xE732, 0xE711) {
            break;
        }
    }
    c.rts(0xE734);
}

/// `initSq12IfTrashedBySoundEffect` ($E735), called with `jsr` from $E840.
fn init_sq12_if_trashed<M: Mem>(c: &mut Cpu<'_, M>) {
    c.jsr(0xE840);
    c.lda_abs(0xE735, 0x068A);
    if c.beq(0xE738, 0xE765) {
        c.rts(0xE765);
        return;
    }
    c.cmp_imm(0xE73A, 0x01);
    if !c.beq(0xE73C, 0xE74F) {
        c.lda_imm(0xE73E, 0x7F);
        c.sta_abs(0xE740, 0x4005);
        c.lda_abs(0xE743, 0x0684);
        c.sta_abs(0xE746, 0x4006);
        c.lda_abs(0xE749, 0x0685);
        c.sta_abs(0xE74C, 0x4007);
    }
    c.lda_imm(0xE74F, 0x7F);
    c.sta_abs(0xE751, 0x4001);
    c.lda_abs(0xE754, 0x0680);
    c.sta_abs(0xE757, 0x4002);
    c.lda_abs(0xE75A, 0x0681);
    c.sta_abs(0xE75D, 0x4003);
    c.lda_imm(0xE760, 0x00);
    c.sta_abs(0xE762, 0x068A);
    c.rts(0xE765);
}

/// `musicGetNextInstructionByte` ($EA41), called with `jsr` at `at`.
fn next_instruction_byte<M: Mem>(c: &mut Cpu<'_, M>, at: u16) {
    c.jsr(at);
    c.ldy_absx(0xEA41, 0x06AC);
    c.inc_absx(0xEA44, 0x06AC);
    c.lda_indy(0xEA47, 0xE6);
    c.rts(0xEA49);
}

/// Where `updateMusicFrame`'s code goes next.
#[derive(Clone, Copy)]
enum MusicAt {
    UpdateChannel,
    IncSlot,
    IncSlotFromOffset,
    ProcessInstruction,
    ProgNextRoutine,
    ProgLoadRoutine,
    ProgLoadNextScript,
    NoteAndMaybeDuration,
    LoadNextAsNote,
    ProcessNote,
    CopyDurationToRemaining,
}

/// `updateMusicFrame` ($E840), ending with an `rts`. Returns false where it goes beyond what is
/// transcribed (the music's end, which mutes the driver, is followed).
fn update_music_frame<M: Mem>(c: &mut Cpu<'_, M>) -> bool {
    init_sq12_if_trashed(c);
    c.lda_imm(0xE843, 0x00);
    c.tax(0xE845);
    c.sta_zp(0xE846, 0xEE);
    c.beq(0xE848, 0xE85A);
    let mut at = MusicAt::UpdateChannel;
    let mut steps = 0u32;
    loop {
        steps += 1;
        if steps > 10_000 {
            return false;
        }
        at = match at {
            MusicAt::IncSlotFromOffset => {
                c.txa(0xE84A);
                c.lsr_a(0xE84B);
                c.tax(0xE84C);
                MusicAt::IncSlot
            }
            MusicAt::IncSlot => {
                c.inx(0xE84D);
                c.txa(0xE84E);
                c.cmp_imm(0xE84F, 0x04);
                if c.beq(0xE851, 0xE7FE) {
                    c.rts(0xE7FE);
                    return true;
                }
                c.lda_zp(0xE853, 0xEE);
                c.clc(0xE855);
                c.adc_imm(0xE856, 0x04);
                c.sta_zp(0xE858, 0xEE);
                MusicAt::UpdateChannel
            }
            MusicAt::UpdateChannel => {
                c.txa(0xE85A);
                c.asl_a(0xE85B);
                c.tax(0xE85C);
                c.lda_absx(0xE85D, 0x06A0);
                c.sta_zp(0xE860, 0xE6);
                c.lda_absx(0xE862, 0x06A1);
                c.sta_zp(0xE865, 0xE7);
                c.lda_absx(0xE867, 0x06A1);
                c.cmp_imm(0xE86A, 0xFF);
                if c.beq(0xE86C, 0xE84A) {
                    MusicAt::IncSlotFromOffset
                } else {
                    c.txa(0xE86E);
                    c.lsr_a(0xE86F);
                    c.tax(0xE870);
                    c.dec_absx(0xE871, 0x06B4);
                    if c.bne(0xE874, 0xE8BF) {
                        // @updateChannelFrame
                        c.jsr(0xE8BF);
                        set_chan_vol(c);
                        c.jsr(0xE8C2);
                        set_chan_lo(c);
                        c.jmp(0xE8C5);
                        MusicAt::IncSlot
                    } else {
                        c.lda_imm(0xE876, 0x00);
                        c.sta_absx(0xE878, 0x06CD);
                        c.sta_absx(0xE87B, 0x06D1);
                        MusicAt::ProcessInstruction
                    }
                }
            }
            MusicAt::ProcessInstruction => {
                next_instruction_byte(c, 0xE87E);
                if c.beq(0xE881, 0xE83D) {
                    c.jmp(0xE83D);
                    MusicAt::ProgNextRoutine
                } else {
                    c.cmp_imm(0xE883, 0x9F);
                    if c.beq(0xE885, 0xE8CE) {
                        next_instruction_byte(c, 0xE8CE);
                        c.sta_absx(0xE8D1, 0x069A);
                        next_instruction_byte(c, 0xE8D4);
                        c.sta_absx(0xE8D7, 0x069D);
                        c.jmp(0xE8DA);
                        MusicAt::ProcessInstruction
                    } else {
                        c.cmp_imm(0xE887, 0x9E);
                        if c.beq(0xE889, 0xE8E6) {
                            next_instruction_byte(c, 0xE8E6);
                            c.sta_abs(0xE8E9, 0x0691);
                            c.jmp(0xE8EC);
                            MusicAt::ProcessInstruction
                        } else {
                            c.cmp_imm(0xE88B, 0x9C);
                            if c.beq(0xE88D, 0xE8EF) {
                                next_instruction_byte(c, 0xE8EF);
                                c.sta_abs(0xE8F2, 0x0690);
                                c.jmp(0xE8F5);
                                MusicAt::ProcessInstruction
                            } else {
                                c.tay(0xE88F);
                                c.cmp_imm(0xE890, 0xFF);
                                if c.beq(0xE892, 0xE89D) {
                                    // @endLoop
                                    c.lda_absx(0xE89D, 0x06BC);
                                    if !c.beq(0xE8A0, 0xE8BC) {
                                        c.dec_absx(0xE8A2, 0x06BC);
                                        c.lda_absx(0xE8A5, 0x06B0);
                                        c.sta_absx(0xE8A8, 0x06AC);
                                        if !c.bne(0xE8AB, 0xE8BC) {
                                            // A loop back to offset 0 would fall into
                                            // @startForLoop; the scores never do.
                                            return false;
                                        }
                                    }
                                    c.jmp(0xE8BC);
                                    MusicAt::ProcessInstruction
                                } else {
                                    c.and_imm(0xE894, 0xC0);
                                    c.cmp_imm(0xE896, 0xC0);
                                    if c.beq(0xE898, 0xE8AD) {
                                        // @startForLoop
                                        c.tya(0xE8AD);
                                        c.and_imm(0xE8AE, 0x3F);
                                        c.sta_absx(0xE8B0, 0x06BC);
                                        c.dec_absx(0xE8B3, 0x06BC);
                                        c.lda_absx(0xE8B6, 0x06AC);
                                        c.sta_absx(0xE8B9, 0x06B0);
                                        c.jmp(0xE8BC);
                                        MusicAt::ProcessInstruction
                                    } else {
                                        c.jmp(0xE89A);
                                        MusicAt::NoteAndMaybeDuration
                                    }
                                }
                            }
                        }
                    }
                }
            }
            MusicAt::ProgNextRoutine => {
                c.txa(0xE7FF);
                c.asl_a(0xE800);
                c.tax(0xE801);
                c.lda_absx(0xE802, 0x0692);
                c.sta_zp(0xE805, 0xE6);
                c.lda_absx(0xE807, 0x0693);
                c.sta_zp(0xE80A, 0xE7);
                c.txa(0xE80C);
                c.lsr_a(0xE80D);
                c.tax(0xE80E);
                c.inc_absx(0xE80F, 0x06A8);
                c.inc_absx(0xE812, 0x06A8);
                c.ldy_absx(0xE815, 0x06A8);
                MusicAt::ProgLoadRoutine
            }
            MusicAt::ProgLoadRoutine => {
                c.txa(0xE818);
                c.asl_a(0xE819);
                c.tax(0xE81A);
                c.lda_indy(0xE81B, 0xE6);
                c.sta_absx(0xE81D, 0x06A0);
                c.iny(0xE820);
                c.lda_indy(0xE821, 0xE6);
                c.sta_absx(0xE823, 0x06A1);
                c.cmp_imm(0xE826, 0x00);
                if c.beq(0xE828, 0xE7FB) {
                    // updateMusicFrame_progEnd: the driver goes silent and the frame ends.
                    c.jsr(0xE7FB);
                    makes_no_sound(c);
                    c.rts(0xE7FE);
                    return true;
                }
                c.cmp_imm(0xE82A, 0xFF);
                if c.beq(0xE82C, 0xE7D9) {
                    MusicAt::ProgLoadNextScript
                } else {
                    c.txa(0xE82E);
                    c.lsr_a(0xE82F);
                    c.tax(0xE830);
                    c.lda_imm(0xE831, 0x00);
                    c.sta_absx(0xE833, 0x06AC);
                    c.lda_imm(0xE836, 0x01);
                    c.sta_absx(0xE838, 0x06B4);
                    c.bne(0xE83B, 0xE85A);
                    MusicAt::UpdateChannel
                }
            }
            MusicAt::ProgLoadNextScript => {
                c.iny(0xE7D9);
                c.lda_indy(0xE7DA, 0xE6);
                c.sta_absx(0xE7DC, 0x0692);
                c.iny(0xE7DF);
                c.lda_indy(0xE7E0, 0xE6);
                c.sta_absx(0xE7E2, 0x0693);
                c.lda_absx(0xE7E5, 0x0692);
                c.sta_zp(0xE7E8, 0xE6);
                c.lda_absx(0xE7EA, 0x0693);
                c.sta_zp(0xE7ED, 0xE7);
                c.txa(0xE7EF);
                c.lsr_a(0xE7F0);
                c.tax(0xE7F1);
                c.lda_imm(0xE7F2, 0x00);
                c.tay(0xE7F4);
                c.sta_absx(0xE7F5, 0x06A8);
                c.jmp(0xE7F8);
                MusicAt::ProgLoadRoutine
            }
            MusicAt::NoteAndMaybeDuration => {
                c.tya(0xE8F8);
                c.and_imm(0xE8F9, 0xB0);
                c.cmp_imm(0xE8FB, 0xB0);
                if c.bne(0xE8FD, 0xE917) {
                    MusicAt::ProcessNote
                } else {
                    c.tya(0xE8FF);
                    c.and_imm(0xE900, 0x0F);
                    c.clc(0xE902);
                    c.adc_abs(0xE903, 0x0691);
                    c.tay(0xE906);
                    c.lda_absy(0xE907, 0xEBAF);
                    c.sta_absx(0xE90A, 0x06B8);
                    c.tay(0xE90D);
                    c.txa(0xE90E);
                    c.cmp_imm(0xE90F, 0x02);
                    if c.beq(0xE911, 0xE8CB) {
                        c.jmp(0xE8CB);
                        apply_duration_for_tri(c);
                        MusicAt::LoadNextAsNote
                    } else {
                        MusicAt::LoadNextAsNote
                    }
                }
            }
            MusicAt::LoadNextAsNote => {
                next_instruction_byte(c, 0xE913);
                c.tay(0xE916);
                MusicAt::ProcessNote
            }
            MusicAt::ProcessNote => {
                c.tya(0xE917);
                c.sta_absx(0xE918, 0x06C3);
                c.txa(0xE91B);
                c.cmp_imm(0xE91C, 0x03);
                if c.beq(0xE91E, 0xE8C8) {
                    c.jmp(0xE8C8);
                    // @playDmcAndNoise
                    c.tya(0xE9DC);
                    c.pha(0xE9DD);
                    c.jsr(0xE9DE);
                    if !play_dmc(c) {
                        return false;
                    }
                    c.pla(0xE9E1);
                    c.and_imm(0xE9E2, 0x3F);
                    c.tay(0xE9E4);
                    c.jsr(0xE9E5);
                    play_noise(c);
                    c.jmp(0xE9E8);
                    MusicAt::CopyDurationToRemaining
                } else {
                    process_note_channel(c);
                    MusicAt::CopyDurationToRemaining
                }
            }
            MusicAt::CopyDurationToRemaining => {
                c.lda_absx(0xE9A3, 0x06B8);
                c.sta_absx(0xE9A6, 0x06B4);
                c.jmp(0xE9A9);
                MusicAt::IncSlot
            }
        };
    }
}

/// `@applyDurationForTri` ($E9B2), ending with its `jmp @loadNextAsNote`.
fn apply_duration_for_tri<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_abs(0xE9B2, 0x069C);
    c.and_imm(0xE9B5, 0x1F);
    if !c.bne(0xE9B7, 0xE9D6) {
        c.lda_abs(0xE9B9, 0x069C);
        c.and_imm(0xE9BC, 0xC0);
        let use_duration = if c.bne(0xE9BE, 0xE9C3) {
            // @highCtrlImpliesOn
            c.cmp_imm(0xE9C3, 0xC0);
            if c.beq(0xE9C5, 0xE9C0) {
                true
            } else {
                c.lda_imm(0xE9C7, 0xFF);
                c.bne(0xE9C9, 0xE9D6);
                false
            }
        } else {
            true
        };
        if use_duration {
            c.tya(0xE9C0);
            if c.bne(0xE9C1, 0xE9CB) {
                c.clc(0xE9CB);
                c.adc_imm(0xE9CC, 0xFF);
                c.asl_a(0xE9CE);
                c.asl_a(0xE9CF);
                c.cmp_imm(0xE9D0, 0x3C);
                if !c.bcc(0xE9D2, 0xE9D6) {
                    c.lda_imm(0xE9D4, 0x3C);
                }
            } else {
                // A zero duration falls into @highCtrlImpliesOn with A = 0.
                c.cmp_imm(0xE9C3, 0xC0);
                c.beq(0xE9C5, 0xE9C0);
                c.lda_imm(0xE9C7, 0xFF);
                c.bne(0xE9C9, 0xE9D6);
            }
        }
    }
    c.sta_abs(0xE9D6, 0x069F);
    c.jmp(0xE9D9);
}

/// `@processNote` for the square and triangle channels, from $E920 to the APU writes, ending at
/// `@copyDurationToRemaining`.
fn process_note_channel<M: Mem>(c: &mut Cpu<'_, M>) {
    c.pha(0xE920);
    c.ldx_zp(0xE921, 0xEE);
    c.lda_absy(0xE923, 0xEB14);
    if !c.beq(0xE926, 0xE94C) {
        c.lda_abs(0xE928, 0x0690);
        if c.bpl(0xE92B, 0xE938) {
            c.tya(0xE938);
            c.clc(0xE939);
            c.adc_abs(0xE93A, 0x0690);
        } else {
            c.and_imm(0xE92D, 0x7F);
            c.sta_zp(0xE92F, 0xE3);
            c.tya(0xE931);
            c.clc(0xE932);
            c.sbc_zp(0xE933, 0xE3);
            c.jmp(0xE935);
        }
        c.tay(0xE93D);
        c.lda_absy(0xE93E, 0xEB14);
        c.sta_absx(0xE941, 0x0680);
        c.lda_absy(0xE944, 0xEB13);
        c.ora_imm(0xE947, 0x08);
        c.sta_absx(0xE949, 0x0681);
    }
    // @determineVolume
    c.tay(0xE94C);
    c.pla(0xE94D);
    c.tax(0xE94E);
    c.tya(0xE94F);
    if c.bne(0xE950, 0xE961) {
        c.lda_absx(0xE961, 0x069D);
        c.sta_zp(0xE964, 0xE0);
    } else {
        c.lda_imm(0xE952, 0x00);
        c.sta_zp(0xE954, 0xE0);
        c.txa(0xE956);
        c.cmp_imm(0xE957, 0x02);
        if !c.beq(0xE959, 0xE966) {
            c.lda_imm(0xE95B, 0x10);
            c.sta_zp(0xE95D, 0xE0);
            c.bne(0xE95F, 0xE966);
        }
    }
    // @checkChanControl
    c.txa(0xE966);
    c.dec_absx(0xE967, 0x06C8);
    c.cmp_absx(0xE96A, 0x06C8);
    if c.beq(0xE96D, 0xE9AC) {
        c.inc_absx(0xE9AC, 0x06C8);
        c.jmp(0xE9AF);
        return;
    }
    c.inc_absx(0xE96F, 0x06C8);
    c.ldy_zp(0xE972, 0xEE);
    c.txa(0xE974);
    c.cmp_imm(0xE975, 0x02);
    let direct = if c.beq(0xE977, 0xE98C) {
        true
    } else {
        c.lda_absx(0xE979, 0x069A);
        c.and_imm(0xE97C, 0x1F);
        if c.beq(0xE97E, 0xE98C) {
            true
        } else {
            c.lda_zp(0xE980, 0xE0);
            c.cmp_imm(0xE982, 0x10);
            if !c.beq(0xE984, 0xE98E) {
                c.and_imm(0xE986, 0xF0);
                c.ora_imm(0xE988, 0x00);
                if !c.bne(0xE98A, 0xE98E) {
                    // A zero volume falls through into @useDirectVolume.
                    c.lda_zp(0xE98C, 0xE0);
                }
            }
            false
        }
    };
    if direct {
        c.lda_zp(0xE98C, 0xE0);
    }
    c.sta_absy(0xE98E, 0x4000);
    c.lda_absx(0xE991, 0x06C0);
    c.sta_absy(0xE994, 0x4001);
    c.lda_absy(0xE997, 0x0680);
    c.sta_absy(0xE99A, 0x4002);
    c.lda_absy(0xE99D, 0x0681);
    c.sta_absy(0xE9A0, 0x4003);
}

/// `playDmc` ($EA03) with its `rts`; false when it would start the DMC (whose cycle stealing is
/// not modelled).
fn play_dmc<M: Mem>(c: &mut Cpu<'_, M>) -> bool {
    c.tya(0xEA03);
    c.and_imm(0xEA04, 0xC0);
    c.cmp_imm(0xEA06, 0x40);
    if !c.beq(0xEA08, 0xEA0F) {
        c.cmp_imm(0xEA0A, 0x80);
        if !c.beq(0xEA0C, 0xEA19) {
            c.rts(0xEA0E);
            return true;
        }
    }
    false
}

/// `playNoise` ($E9EB) with its `rts`.
fn play_noise<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_abs(0xE9EB, 0x06F8);
    if c.bne(0xE9EE, 0xEA02) {
        c.rts(0xEA02);
        return;
    }
    c.lda_absy(0xE9F0, 0xE5AB);
    c.sta_abs(0xE9F3, 0x400C);
    c.lda_absy(0xE9F6, 0xE5AC);
    c.sta_abs(0xE9F9, 0x400E);
    c.lda_absy(0xE9FC, 0xE5AD);
    c.sta_abs(0xE9FF, 0x400F);
    c.rts(0xEA02);
}

/// `updateMusicFrame_setChanVol` ($E766) with its `rts`.
fn set_chan_vol<M: Mem>(c: &mut Cpu<'_, M>) {
    c.txa(0xE766);
    c.cmp_imm(0xE767, 0x02);
    if c.bcs(0xE769, 0xE765) {
        c.rts(0xE765);
        return;
    }
    c.lda_absx(0xE76B, 0x069A);
    c.and_imm(0xE76E, 0x1F);
    if c.beq(0xE770, 0xE7CB) {
        c.rts(0xE7CB);
        return;
    }
    c.sta_zp(0xE772, 0xE1);
    c.lda_absx(0xE774, 0x06C3);
    c.cmp_imm(0xE777, 0x02);
    enum Then {
        Advance,
        SetVol,
    }
    let then = if c.beq(0xE779, 0xE7D5) {
        c.ldy_imm(0xE7D5, 0x10);
        c.bne(0xE7D7, 0xE7BD);
        Then::Advance
    } else {
        c.ldy_imm(0xE77B, 0x00);
        loop {
            c.dec_zp(0xE77D, 0xE1);
            if c.beq(0xE77F, 0xE785) {
                break;
            }
            c.iny(0xE781);
            c.iny(0xE782);
            c.bne(0xE783, 0xE77D);
        }
        c.lda_absy(0xE785, 0xEA4A);
        c.sta_zp(0xE788, 0xE2);
        c.lda_absy(0xE78A, 0xEA4B);
        c.sta_zp(0xE78D, 0xE3);
        c.lda_absx(0xE78F, 0x06CD);
        c.lsr_a(0xE792);
        c.tay(0xE793);
        c.lda_indy(0xE794, 0xE2);
        c.sta_zp(0xE796, 0xE4);
        c.cmp_imm(0xE798, 0xFF);
        if c.beq(0xE79A, 0xE7CC) {
            c.ldy_absx(0xE7CC, 0x069D);
            if !c.bne(0xE7CF, 0xE7C0) {
                c.ldy_imm(0xE7D1, 0x10);
                c.bne(0xE7D3, 0xE7C0);
            }
            Then::SetVol
        } else {
            c.cmp_imm(0xE79C, 0xF0);
            if c.beq(0xE79E, 0xE7D1) {
                c.ldy_imm(0xE7D1, 0x10);
                c.bne(0xE7D3, 0xE7C0);
                Then::SetVol
            } else {
                c.lda_absx(0xE7A0, 0x06CD);
                c.and_imm(0xE7A3, 0x01);
                if !c.bne(0xE7A5, 0xE7AF) {
                    c.lsr_zp(0xE7A7, 0xE4);
                    c.lsr_zp(0xE7A9, 0xE4);
                    c.lsr_zp(0xE7AB, 0xE4);
                    c.lsr_zp(0xE7AD, 0xE4);
                }
                c.lda_zp(0xE7AF, 0xE4);
                c.and_imm(0xE7B1, 0x0F);
                c.sta_zp(0xE7B3, 0xE0);
                c.lda_absx(0xE7B5, 0x069D);
                c.and_imm(0xE7B8, 0xF0);
                c.ora_zp(0xE7BA, 0xE0);
                c.tay(0xE7BC);
                Then::Advance
            }
        }
    };
    if let Then::Advance = then {
        c.inc_absx(0xE7BD, 0x06CD);
    }
    c.lda_absx(0xE7C0, 0x06C8);
    if c.bne(0xE7C3, 0xE7CB) {
        c.rts(0xE7CB);
        return;
    }
    c.tya(0xE7C5);
    c.ldy_zp(0xE7C6, 0xEE);
    c.sta_absy(0xE7C8, 0x4000);
    c.rts(0xE7CB);
}

/// `updateMusicFrame_setChanLo` ($E5D0) with its `rts`.
fn set_chan_lo<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_abs(0xE5D0, 0x06FD);
    c.cmp_imm(0xE5D3, 0x01);
    if c.beq(0xE5D5, 0xE5F9) {
        c.rts(0xE5F9);
        return;
    }
    c.txa(0xE5D7);
    c.cmp_imm(0xE5D8, 0x03);
    if c.beq(0xE5DA, 0xE5F9) {
        c.rts(0xE5F9);
        return;
    }
    c.lda_absx(0xE5DC, 0x069A);
    c.and_imm(0xE5DF, 0xE0);
    if c.beq(0xE5E1, 0xE5F9) {
        c.rts(0xE5F9);
        return;
    }
    c.sta_zp(0xE5E3, 0xE0);
    c.lda_absx(0xE5E5, 0x06C3);
    c.cmp_imm(0xE5E8, 0x02);
    if !c.beq(0xE5EA, 0xE5F6) {
        c.ldy_zp(0xE5EC, 0xEE);
        c.lda_absy(0xE5EE, 0x0680);
        c.sta_zp(0xE5F1, 0xE1);
        c.jsr(0xE5F3);
        set_chan_lo_offset(c);
    }
    c.inc_absx(0xE5F6, 0x06D1);
    c.rts(0xE5F9);
}

/// `updateMusicFrame_setChanLoOffset` ($E637) and the `musicLoOffset_*` routines it branches to,
/// with the final `rts`.
fn set_chan_lo_offset<M: Mem>(c: &mut Cpu<'_, M>) {
    c.lda_absx(0xE637, 0x06D1);
    c.sta_zp(0xE63A, 0xE2);
    c.lda_zp(0xE63C, 0xE0);
    c.cmp_imm(0xE63E, 0x20);
    enum To {
        TwoAndE,
        A,
        Minus2,
        Four,
        EightAndC,
    }
    let to = if c.beq(0xE640, 0xE656) {
        To::TwoAndE
    } else {
        c.cmp_imm(0xE642, 0xA0);
        if c.beq(0xE644, 0xE665) {
            To::A
        } else {
            c.cmp_imm(0xE646, 0x60);
            if c.beq(0xE648, 0xE628) {
                To::Minus2
            } else {
                c.cmp_imm(0xE64A, 0x40);
                if c.beq(0xE64C, 0xE617) {
                    To::Four
                } else {
                    c.cmp_imm(0xE64E, 0x80);
                    if c.beq(0xE650, 0xE5FA) {
                        To::EightAndC
                    } else {
                        c.cmp_imm(0xE652, 0xC0);
                        if c.beq(0xE654, 0xE5FA) {
                            To::EightAndC
                        } else {
                            To::TwoAndE
                        }
                    }
                }
            }
        }
    };
    // Whether the value in A goes through musicLoOffset_setLoAndSaveFrameCounter (saving Y).
    let save = match to {
        To::TwoAndE => {
            c.lda_zp(0xE656, 0xE2);
            c.cmp_imm(0xE658, 0x0A);
            if !c.bne(0xE65A, 0xE65E) {
                c.lda_imm(0xE65C, 0x00);
            }
            c.tay(0xE65E);
            c.lda_absy(0xE65F, 0xE6B6);
            c.jmp(0xE662);
            true
        }
        To::A => {
            c.lda_zp(0xE665, 0xE2);
            c.cmp_imm(0xE667, 0x2B);
            if !c.bne(0xE669, 0xE66D) {
                c.lda_imm(0xE66B, 0x21);
            }
            c.tay(0xE66D);
            c.lda_absy(0xE66E, 0xE695);
            true
        }
        To::Minus2 => {
            c.lda_absx(0xE628, 0x06C3);
            c.cmp_imm(0xE62B, 0x4C);
            if c.bcc(0xE62D, 0xE633) {
                c.lda_imm(0xE633, 0xFE);
                c.bne(0xE635, 0xE677);
            } else {
                c.lda_imm(0xE62F, 0xFE);
                c.bne(0xE631, 0xE677);
            }
            false
        }
        To::Four => {
            c.lda_zp(0xE617, 0xE2);
            c.tay(0xE619);
            c.cmp_imm(0xE61A, 0x10);
            if c.bcs(0xE61C, 0xE624) {
                c.lda_imm(0xE624, 0xF6);
                c.bne(0xE626, 0xE677);
            } else {
                c.lda_absy(0xE61E, 0xE6C0);
                c.jmp(0xE621);
            }
            false
        }
        To::EightAndC => {
            c.lda_zp(0xE5FA, 0xE2);
            c.cmp_imm(0xE5FC, 0x31);
            if !c.bne(0xE5FE, 0xE602) {
                c.lda_imm(0xE600, 0x27);
            }
            c.tay(0xE602);
            c.lda_absy(0xE603, 0xE689);
            c.pha(0xE606);
            c.lda_absx(0xE607, 0x06C3);
            c.cmp_imm(0xE60A, 0x46);
            if c.bne(0xE60C, 0xE613) {
                c.pla(0xE613);
                c.jmp(0xE614);
            } else {
                c.pla(0xE60E);
                c.lda_imm(0xE60F, 0x00);
                c.beq(0xE611, 0xE671);
            }
            true
        }
    };
    if save {
        // musicLoOffset_setLoAndSaveFrameCounter
        c.pha(0xE671);
        c.tya(0xE672);
        c.sta_absx(0xE673, 0x06D1);
        c.pla(0xE676);
    }
    // musicLoOffset_setLo
    c.pha(0xE677);
    c.lda_absx(0xE678, 0x06C8);
    if c.bne(0xE67B, 0xE687) {
        c.pla(0xE687);
        c.rts(0xE688);
        return;
    }
    c.pla(0xE67D);
    c.clc(0xE67E);
    c.adc_zp(0xE67F, 0xE1);
    c.ldy_zp(0xE681, 0xEE);
    c.sta_absy(0xE683, 0x4002);
    c.rts(0xE686);
}

/// For the ROM comparison tests (`playfield-rom`): runs `updateAudio` on the driver's bytes of a
/// RAM image and returns its cycles, whether the run is exact, and every instruction's address
/// and starting cycle.
#[doc(hidden)]
pub fn probe_update_audio(
    ram: &mut [u8; 0x800],
    prg: Option<&ProgramData>,
) -> (u64, bool, Vec<(u16, u64)>) {
    let mut audio = AudioRam::from_ram(ram);
    let mut mem = AudioMem {
        ram: &mut audio,
        prg,
        unknown: false,
        stray: false,
    };
    let mut c = Cpu::new(&mut mem);
    c.trace = Some(Vec::new());
    let ok = run_update_audio(&mut c, prg.is_some());
    let cycles = c.cycles;
    let trace = c.trace.take().unwrap_or_default();
    let exact = ok && !mem.unknown && !mem.stray;
    audio.to_ram(ram);
    (cycles, exact, trace)
}
