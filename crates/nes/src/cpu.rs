//! 6502 instructions with their cycle counts, for the routines whose timing the engine models
//! (see `lag`): the sound driver, the NMI handler and the main loop's work in the frames that can
//! outlast a frame.
//!
//! The routines are written out instruction by instruction after the disassembly, each call
//! naming the instruction's address: the address decides a taken branch's page-crossing cycle,
//! and it lets a test compare the engine's instructions with the ROM's, address and cycle, one
//! by one. Cycle counts are the 6502's (the 2A03 has no decimal mode): a read through an indexed
//! or indirect-indexed address takes one more cycle when the index crosses a page, a taken branch
//! one more, and one more again when it lands on another page.

/// What an instruction reads and writes: the console's RAM and, for tables, the ROM.
pub(crate) trait Mem {
    /// A read (`&mut`: a read of an unknown ROM byte is remembered).
    fn read(&mut self, addr: u16) -> u8;
    /// A write (to RAM; writes to the PPU and APU registers are dropped).
    fn write(&mut self, addr: u16, value: u8);
}

/// The 6502's registers, flags and cycle count, over some memory.
pub(crate) struct Cpu<'m, M: Mem> {
    pub(crate) a: u8,
    pub(crate) x: u8,
    pub(crate) y: u8,
    pub(crate) c: bool,
    pub(crate) z: bool,
    pub(crate) n: bool,
    pub(crate) v: bool,
    /// Cycles run.
    pub(crate) cycles: u64,
    pub(crate) mem: &'m mut M,
    /// Bytes pushed by `pha` (the routines here balance their pushes).
    stack: [u8; 8],
    depth: usize,
    /// Every instruction's address and the cycle count it started at, when recording.
    pub(crate) trace: Option<Vec<(u16, u64)>>,
}

/// The page of an address.
const fn page(addr: u16) -> u16 {
    addr >> 8
}

/// One more cycle when `base + index` is on another page than `base`.
const fn page_cross(base: u16, addr: u16) -> u64 {
    (page(base) != page(addr)) as u64
}

impl<'m, M: Mem> Cpu<'m, M> {
    pub(crate) fn new(mem: &'m mut M) -> Self {
        Cpu {
            a: 0,
            x: 0,
            y: 0,
            c: false,
            z: false,
            n: false,
            v: false,
            cycles: 0,
            mem,
            stack: [0; 8],
            depth: 0,
            trace: None,
        }
    }

    /// Starts an instruction at `at`.
    #[inline]
    fn at(&mut self, at: u16) {
        if let Some(t) = &mut self.trace {
            t.push((at, self.cycles));
        }
    }

    #[inline]
    fn nz(&mut self, v: u8) {
        self.n = v & 0x80 != 0;
        self.z = v == 0;
    }

    fn read16_zp(&mut self, zp: u8) -> u16 {
        let lo = self.mem.read(u16::from(zp));
        let hi = self.mem.read(u16::from(zp.wrapping_add(1)));
        u16::from(lo) | u16::from(hi) << 8
    }

    // ---- loads

    pub(crate) fn lda_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.a = v;
        self.nz(v);
        self.cycles += 2;
    }
    pub(crate) fn lda_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.a = v;
        self.nz(v);
        self.cycles += 3;
    }
    pub(crate) fn eor_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.a ^= self.mem.read(u16::from(zp));
        self.nz(self.a);
        self.cycles += 3;
    }
    pub(crate) fn eor_zpx(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.a ^= self.mem.read(u16::from(zp.wrapping_add(self.x)));
        self.nz(self.a);
        self.cycles += 4;
    }
    pub(crate) fn and_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.a &= self.mem.read(u16::from(zp));
        self.nz(self.a);
        self.cycles += 3;
    }
    pub(crate) fn and_zpx(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.a &= self.mem.read(u16::from(zp.wrapping_add(self.x)));
        self.nz(self.a);
        self.cycles += 4;
    }
    pub(crate) fn ror_zpx(&mut self, at: u16, zp: u8) {
        self.at(at);
        let addr = u16::from(zp.wrapping_add(self.x));
        let v = self.mem.read(addr);
        let r = (v >> 1) | (u8::from(self.c) << 7);
        self.c = v & 1 != 0;
        self.mem.write(addr, r);
        self.nz(r);
        self.cycles += 6;
    }
    pub(crate) fn sty_zpx(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.mem.write(u16::from(zp.wrapping_add(self.x)), self.y);
        self.cycles += 4;
    }
    pub(crate) fn lda_zpx(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp.wrapping_add(self.x)));
        self.a = v;
        self.nz(v);
        self.cycles += 4;
    }
    pub(crate) fn lda_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr);
        self.a = v;
        self.nz(v);
        self.cycles += 4;
    }
    pub(crate) fn lda_absx(&mut self, at: u16, base: u16) {
        self.at(at);
        let addr = base.wrapping_add(u16::from(self.x));
        let v = self.mem.read(addr);
        self.a = v;
        self.nz(v);
        self.cycles += 4 + page_cross(base, addr);
    }
    pub(crate) fn lda_absy(&mut self, at: u16, base: u16) {
        self.at(at);
        let addr = base.wrapping_add(u16::from(self.y));
        let v = self.mem.read(addr);
        self.a = v;
        self.nz(v);
        self.cycles += 4 + page_cross(base, addr);
    }
    pub(crate) fn lda_indy(&mut self, at: u16, zp: u8) {
        self.at(at);
        let base = self.read16_zp(zp);
        let addr = base.wrapping_add(u16::from(self.y));
        let v = self.mem.read(addr);
        self.a = v;
        self.nz(v);
        self.cycles += 5 + page_cross(base, addr);
    }
    pub(crate) fn ldx_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.x = v;
        self.nz(v);
        self.cycles += 2;
    }
    pub(crate) fn ldx_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.x = v;
        self.nz(v);
        self.cycles += 3;
    }
    pub(crate) fn ldx_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr);
        self.x = v;
        self.nz(v);
        self.cycles += 4;
    }
    pub(crate) fn ldy_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.y = v;
        self.nz(v);
        self.cycles += 2;
    }
    pub(crate) fn ldy_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.y = v;
        self.nz(v);
        self.cycles += 3;
    }
    pub(crate) fn ldy_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr);
        self.y = v;
        self.nz(v);
        self.cycles += 4;
    }
    pub(crate) fn ldy_absx(&mut self, at: u16, base: u16) {
        self.at(at);
        let addr = base.wrapping_add(u16::from(self.x));
        let v = self.mem.read(addr);
        self.y = v;
        self.nz(v);
        self.cycles += 4 + page_cross(base, addr);
    }

    // ---- stores

    pub(crate) fn sta_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.mem.write(u16::from(zp), self.a);
        self.cycles += 3;
    }
    pub(crate) fn sta_zpx(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.mem.write(u16::from(zp.wrapping_add(self.x)), self.a);
        self.cycles += 4;
    }
    pub(crate) fn sta_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        self.mem.write(addr, self.a);
        self.cycles += 4;
    }
    pub(crate) fn sta_absx(&mut self, at: u16, base: u16) {
        self.at(at);
        self.mem.write(base.wrapping_add(u16::from(self.x)), self.a);
        self.cycles += 5;
    }
    pub(crate) fn sta_absy(&mut self, at: u16, base: u16) {
        self.at(at);
        self.mem.write(base.wrapping_add(u16::from(self.y)), self.a);
        self.cycles += 5;
    }
    pub(crate) fn sta_indy(&mut self, at: u16, zp: u8) {
        self.at(at);
        let base = self.read16_zp(zp);
        self.mem.write(base.wrapping_add(u16::from(self.y)), self.a);
        self.cycles += 6;
    }
    pub(crate) fn stx_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.mem.write(u16::from(zp), self.x);
        self.cycles += 3;
    }
    pub(crate) fn stx_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        self.mem.write(addr, self.x);
        self.cycles += 4;
    }
    pub(crate) fn sty_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.mem.write(u16::from(zp), self.y);
        self.cycles += 3;
    }
    pub(crate) fn sty_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        self.mem.write(addr, self.y);
        self.cycles += 4;
    }

    // ---- read-modify-write

    pub(crate) fn inc_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp)).wrapping_add(1);
        self.mem.write(u16::from(zp), v);
        self.nz(v);
        self.cycles += 5;
    }
    pub(crate) fn dec_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp)).wrapping_sub(1);
        self.mem.write(u16::from(zp), v);
        self.nz(v);
        self.cycles += 5;
    }
    pub(crate) fn inc_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr).wrapping_add(1);
        self.mem.write(addr, v);
        self.nz(v);
        self.cycles += 6;
    }
    pub(crate) fn dec_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr).wrapping_sub(1);
        self.mem.write(addr, v);
        self.nz(v);
        self.cycles += 6;
    }
    pub(crate) fn inc_absx(&mut self, at: u16, base: u16) {
        self.at(at);
        let addr = base.wrapping_add(u16::from(self.x));
        let v = self.mem.read(addr).wrapping_add(1);
        self.mem.write(addr, v);
        self.nz(v);
        self.cycles += 7;
    }
    pub(crate) fn dec_absx(&mut self, at: u16, base: u16) {
        self.at(at);
        let addr = base.wrapping_add(u16::from(self.x));
        let v = self.mem.read(addr).wrapping_sub(1);
        self.mem.write(addr, v);
        self.nz(v);
        self.cycles += 7;
    }
    pub(crate) fn lsr_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.c = v & 1 != 0;
        let r = v >> 1;
        self.mem.write(u16::from(zp), r);
        self.nz(r);
        self.cycles += 5;
    }
    pub(crate) fn ror_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        let r = (v >> 1) | (u8::from(self.c) << 7);
        self.c = v & 1 != 0;
        self.mem.write(u16::from(zp), r);
        self.nz(r);
        self.cycles += 5;
    }

    // ---- accumulator and registers

    pub(crate) fn asl_a(&mut self, at: u16) {
        self.at(at);
        self.c = self.a & 0x80 != 0;
        self.a <<= 1;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn lsr_a(&mut self, at: u16) {
        self.at(at);
        self.c = self.a & 1 != 0;
        self.a >>= 1;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn rol_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        let r = (v << 1) | u8::from(self.c);
        self.c = v & 0x80 != 0;
        self.mem.write(u16::from(zp), r);
        self.nz(r);
        self.cycles += 5;
    }
    pub(crate) fn rol_a(&mut self, at: u16) {
        self.at(at);
        let c = self.a & 0x80 != 0;
        self.a = (self.a << 1) | u8::from(self.c);
        self.c = c;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn tax(&mut self, at: u16) {
        self.at(at);
        self.x = self.a;
        self.nz(self.x);
        self.cycles += 2;
    }
    pub(crate) fn tay(&mut self, at: u16) {
        self.at(at);
        self.y = self.a;
        self.nz(self.y);
        self.cycles += 2;
    }
    pub(crate) fn txa(&mut self, at: u16) {
        self.at(at);
        self.a = self.x;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn tya(&mut self, at: u16) {
        self.at(at);
        self.a = self.y;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn inx(&mut self, at: u16) {
        self.at(at);
        self.x = self.x.wrapping_add(1);
        self.nz(self.x);
        self.cycles += 2;
    }
    pub(crate) fn iny(&mut self, at: u16) {
        self.at(at);
        self.y = self.y.wrapping_add(1);
        self.nz(self.y);
        self.cycles += 2;
    }
    pub(crate) fn dex(&mut self, at: u16) {
        self.at(at);
        self.x = self.x.wrapping_sub(1);
        self.nz(self.x);
        self.cycles += 2;
    }
    pub(crate) fn dey(&mut self, at: u16) {
        self.at(at);
        self.y = self.y.wrapping_sub(1);
        self.nz(self.y);
        self.cycles += 2;
    }
    pub(crate) fn clc(&mut self, at: u16) {
        self.at(at);
        self.c = false;
        self.cycles += 2;
    }
    pub(crate) fn sec(&mut self, at: u16) {
        self.at(at);
        self.c = true;
        self.cycles += 2;
    }
    pub(crate) fn nop(&mut self, at: u16) {
        self.at(at);
        self.cycles += 2;
    }
    pub(crate) fn pha(&mut self, at: u16) {
        self.at(at);
        self.stack[self.depth & 7] = self.a;
        self.depth += 1;
        self.cycles += 3;
    }
    /// `pla` of a byte pushed elsewhere (by a `jsr` of the ROM's code): A becomes `v`.
    pub(crate) fn pla_value(&mut self, at: u16, v: u8) {
        self.at(at);
        self.a = v;
        self.nz(v);
        self.cycles += 4;
    }
    /// Cycles that are not an instruction (the interrupt sequence, a DMA).
    pub(crate) fn stall(&mut self, cycles: u64) {
        self.cycles += cycles;
    }
    pub(crate) fn pla(&mut self, at: u16) {
        self.at(at);
        self.depth = self.depth.wrapping_sub(1);
        self.a = self.stack[self.depth & 7];
        self.nz(self.a);
        self.cycles += 4;
    }

    // ---- arithmetic and logic

    fn adc_value(&mut self, v: u8) {
        let sum = u16::from(self.a) + u16::from(v) + u16::from(self.c);
        let r = sum as u8;
        self.v = (!(self.a ^ v) & (self.a ^ r) & 0x80) != 0;
        self.c = sum > 0xFF;
        self.a = r;
        self.nz(r);
    }
    fn sbc_value(&mut self, v: u8) {
        self.adc_value(!v);
    }
    fn compare(&mut self, reg: u8, v: u8) {
        self.c = reg >= v;
        self.nz(reg.wrapping_sub(v));
    }

    pub(crate) fn adc_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.adc_value(v);
        self.cycles += 2;
    }
    pub(crate) fn adc_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.adc_value(v);
        self.cycles += 3;
    }
    pub(crate) fn adc_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr);
        self.adc_value(v);
        self.cycles += 4;
    }
    pub(crate) fn sbc_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.sbc_value(v);
        self.cycles += 2;
    }
    pub(crate) fn sbc_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.sbc_value(v);
        self.cycles += 3;
    }
    pub(crate) fn sbc_abs(&mut self, at: u16, addr: u16) {
        self.at(at);
        let v = self.mem.read(addr);
        self.sbc_value(v);
        self.cycles += 4;
    }
    pub(crate) fn and_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.a &= v;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn ora_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.a |= v;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn ora_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        self.a |= self.mem.read(u16::from(zp));
        self.nz(self.a);
        self.cycles += 3;
    }
    pub(crate) fn eor_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.a ^= v;
        self.nz(self.a);
        self.cycles += 2;
    }
    pub(crate) fn cmp_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.compare(self.a, v);
        self.cycles += 2;
    }
    pub(crate) fn cmp_zp(&mut self, at: u16, zp: u8) {
        self.at(at);
        let v = self.mem.read(u16::from(zp));
        self.compare(self.a, v);
        self.cycles += 3;
    }
    pub(crate) fn cmp_absx(&mut self, at: u16, base: u16) {
        self.at(at);
        let addr = base.wrapping_add(u16::from(self.x));
        let v = self.mem.read(addr);
        self.compare(self.a, v);
        self.cycles += 4 + page_cross(base, addr);
    }
    pub(crate) fn cpx_imm(&mut self, at: u16, v: u8) {
        self.at(at);
        self.compare(self.x, v);
        self.cycles += 2;
    }

    // ---- control flow (the jumps themselves are the caller's Rust control flow)

    /// A conditional branch at `at` to `target`: 2 cycles, 3 when taken, 4 when taken to another
    /// page than the next instruction's. Returns whether it is taken.
    fn branch(&mut self, at: u16, target: u16, taken: bool) -> bool {
        self.at(at);
        self.cycles += 2;
        if taken {
            self.cycles += 1 + page_cross(at.wrapping_add(2), target);
        }
        taken
    }
    pub(crate) fn beq(&mut self, at: u16, target: u16) -> bool {
        self.branch(at, target, self.z)
    }
    pub(crate) fn bne(&mut self, at: u16, target: u16) -> bool {
        self.branch(at, target, !self.z)
    }
    pub(crate) fn bcc(&mut self, at: u16, target: u16) -> bool {
        self.branch(at, target, !self.c)
    }
    pub(crate) fn bcs(&mut self, at: u16, target: u16) -> bool {
        self.branch(at, target, self.c)
    }
    pub(crate) fn bpl(&mut self, at: u16, target: u16) -> bool {
        self.branch(at, target, !self.n)
    }
    pub(crate) fn bmi(&mut self, at: u16, target: u16) -> bool {
        self.branch(at, target, self.n)
    }
    pub(crate) fn jsr(&mut self, at: u16) {
        self.at(at);
        self.cycles += 6;
    }
    pub(crate) fn rts(&mut self, at: u16) {
        self.at(at);
        self.cycles += 6;
    }
    /// An `rts` whose fetch is delayed by `stall` cycles (a DMA).
    pub(crate) fn rts_after(&mut self, at: u16, stall: u64) {
        self.at(at);
        self.cycles += stall + 6;
    }
    pub(crate) fn jmp(&mut self, at: u16) {
        self.at(at);
        self.cycles += 3;
    }
    pub(crate) fn rti(&mut self, at: u16) {
        self.at(at);
        self.cycles += 6;
    }
    pub(crate) fn jmp_ind(&mut self, at: u16) {
        self.at(at);
        self.cycles += 5;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ram([u8; 0x10000]);
    impl Mem for Ram {
        fn read(&mut self, addr: u16) -> u8 {
            self.0[usize::from(addr)]
        }
        fn write(&mut self, addr: u16, value: u8) {
            self.0[usize::from(addr)] = value;
        }
    }

    #[test]
    fn page_crossings_cost_a_cycle() {
        let mut ram = Ram([0; 0x10000]);
        let mut c = Cpu::new(&mut ram);
        c.x = 0x10;
        c.lda_absx(0, 0x80F0);
        assert_eq!(c.cycles, 5);
        c.lda_absx(0, 0x8000);
        assert_eq!(c.cycles, 9);
        c.z = false;
        assert!(c.bne(0x80FC, 0x8100)); // next instruction at $80FE, target on the next page
        assert_eq!(c.cycles, 13);
        assert!(c.bne(0x8010, 0x8000));
        assert_eq!(c.cycles, 16);
        c.z = true;
        assert!(!c.bne(0x8010, 0x8000));
        assert_eq!(c.cycles, 18);
    }

    #[test]
    fn adc_and_compare_set_the_flags() {
        let mut ram = Ram([0; 0x10000]);
        let mut c = Cpu::new(&mut ram);
        c.a = 0x99;
        c.c = false;
        c.adc_imm(0, 0x67);
        assert_eq!((c.a, c.c, c.z), (0x00, true, true));
        c.a = 0x05;
        c.cmp_imm(0, 0x06);
        assert!(!c.c && c.n && !c.z);
        c.a = 0x10;
        c.c = true;
        c.sbc_imm(0, 0x01);
        assert_eq!((c.a, c.c), (0x0F, true));
    }
}
