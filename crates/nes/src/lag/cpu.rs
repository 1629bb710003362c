//! A 6502 that runs the ROM's own program bytes with their cycles, for the frames whose timing
//! the engine models (see `lag`): it decodes each opcode from memory and runs it.
//!
//! The NES's 2A03 has no decimal mode, so `adc`/`sbc` are binary whatever the D flag says. Only
//! the official opcodes run; cycle counts are the 6502's: a read through an indexed or
//! indirect-indexed address takes one more cycle when the index crosses a page, a taken branch
//! one more, and one more again when it lands on another page. Dummy reads have no effect here
//! (the memory the lag model gives the CPU has no register whose read has a side effect).

/// What the CPU reads and writes.
pub(crate) trait Bus {
    fn read(&mut self, addr: u16) -> u8;
    fn write(&mut self, addr: u16, value: u8);
}

/// An opcode the 6502 has no official instruction for: the program counter ran into data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unofficial {
    pub(crate) opcode: u8,
    pub(crate) at: u16,
}

/// The registers, flags and cycle count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Cpu {
    pub(crate) a: u8,
    pub(crate) x: u8,
    pub(crate) y: u8,
    pub(crate) sp: u8,
    pub(crate) pc: u16,
    pub(crate) c: bool,
    pub(crate) z: bool,
    pub(crate) i: bool,
    pub(crate) d: bool,
    pub(crate) v: bool,
    pub(crate) n: bool,
    /// Cycles run.
    pub(crate) cycles: u64,
}

/// The opcode of `rti`.
pub(crate) const RTI: u8 = 0x40;

#[derive(Clone, Copy)]
enum Mode {
    Imm,
    Zp,
    ZpX,
    ZpY,
    Abs,
    AbsX,
    AbsY,
    IndX,
    IndY,
}

impl Cpu {
    fn fetch<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let v = bus.read(self.pc);
        self.pc = self.pc.wrapping_add(1);
        v
    }

    fn fetch16<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let lo = self.fetch(bus);
        let hi = self.fetch(bus);
        u16::from_le_bytes([lo, hi])
    }

    fn read16_zp<B: Bus>(bus: &mut B, zp: u8) -> u16 {
        let lo = bus.read(u16::from(zp));
        let hi = bus.read(u16::from(zp.wrapping_add(1)));
        u16::from_le_bytes([lo, hi])
    }

    pub(crate) fn push<B: Bus>(&mut self, bus: &mut B, v: u8) {
        bus.write(0x100 | u16::from(self.sp), v);
        self.sp = self.sp.wrapping_sub(1);
    }

    fn pull<B: Bus>(&mut self, bus: &mut B) -> u8 {
        self.sp = self.sp.wrapping_add(1);
        bus.read(0x100 | u16::from(self.sp))
    }

    /// The status byte as pushed (`brk` and `php` set B).
    fn status(&self, brk: bool) -> u8 {
        u8::from(self.c)
            | u8::from(self.z) << 1
            | u8::from(self.i) << 2
            | u8::from(self.d) << 3
            | u8::from(brk) << 4
            | 0x20
            | u8::from(self.v) << 6
            | u8::from(self.n) << 7
    }

    fn set_status(&mut self, p: u8) {
        self.c = p & 0x01 != 0;
        self.z = p & 0x02 != 0;
        self.i = p & 0x04 != 0;
        self.d = p & 0x08 != 0;
        self.v = p & 0x40 != 0;
        self.n = p & 0x80 != 0;
    }

    /// An interrupt through the vector at `vector`: the return address and the status pushed,
    /// I set; `cycles` for its sequence (7, or 0 for one whose sequence a caller counted).
    pub(crate) fn interrupt<B: Bus>(&mut self, bus: &mut B, vector: u16, cycles: u64) {
        let [lo, hi] = self.pc.to_le_bytes();
        self.push(bus, hi);
        self.push(bus, lo);
        let p = self.status(false);
        self.push(bus, p);
        self.i = true;
        self.pc = u16::from_le_bytes([bus.read(vector), bus.read(vector.wrapping_add(1))]);
        self.cycles += cycles;
    }

    fn nz(&mut self, v: u8) {
        self.z = v == 0;
        self.n = v & 0x80 != 0;
    }

    /// The operand's address and whether indexing crossed a page.
    fn address<B: Bus>(&mut self, bus: &mut B, mode: Mode) -> (u16, bool) {
        match mode {
            Mode::Imm => {
                let at = self.pc;
                self.pc = self.pc.wrapping_add(1);
                (at, false)
            }
            Mode::Zp => (u16::from(self.fetch(bus)), false),
            Mode::ZpX => (u16::from(self.fetch(bus).wrapping_add(self.x)), false),
            Mode::ZpY => (u16::from(self.fetch(bus).wrapping_add(self.y)), false),
            Mode::Abs => (self.fetch16(bus), false),
            Mode::AbsX | Mode::AbsY => {
                let base = self.fetch16(bus);
                let index = if matches!(mode, Mode::AbsX) {
                    self.x
                } else {
                    self.y
                };
                let addr = base.wrapping_add(u16::from(index));
                (addr, addr >> 8 != base >> 8)
            }
            Mode::IndX => {
                let zp = self.fetch(bus).wrapping_add(self.x);
                (Self::read16_zp(bus, zp), false)
            }
            Mode::IndY => {
                let zp = self.fetch(bus);
                let base = Self::read16_zp(bus, zp);
                let addr = base.wrapping_add(u16::from(self.y));
                (addr, addr >> 8 != base >> 8)
            }
        }
    }

    /// A reading instruction: its cycles.
    fn read_op<B: Bus>(&mut self, bus: &mut B, mode: Mode, op: fn(&mut Cpu, u8)) -> u64 {
        let (addr, crossed) = self.address(bus, mode);
        let v = bus.read(addr);
        op(self, v);
        let base = match mode {
            Mode::Imm => 2,
            Mode::Zp => 3,
            Mode::ZpX | Mode::ZpY | Mode::Abs | Mode::AbsX | Mode::AbsY => 4,
            Mode::IndX => 6,
            Mode::IndY => 5,
        };
        base + u64::from(crossed)
    }

    /// A store: its cycles.
    fn store<B: Bus>(&mut self, bus: &mut B, mode: Mode, v: u8) -> u64 {
        let (addr, _) = self.address(bus, mode);
        bus.write(addr, v);
        match mode {
            Mode::Zp => 3,
            Mode::ZpX | Mode::ZpY | Mode::Abs => 4,
            Mode::AbsX | Mode::AbsY => 5,
            Mode::Imm | Mode::IndX | Mode::IndY => 6,
        }
    }

    /// A read-modify-write instruction on memory: its cycles.
    fn modify<B: Bus>(&mut self, bus: &mut B, mode: Mode, op: fn(&mut Cpu, u8) -> u8) -> u64 {
        let (addr, _) = self.address(bus, mode);
        let v = bus.read(addr);
        let r = op(self, v);
        bus.write(addr, r);
        match mode {
            Mode::Zp => 5,
            Mode::ZpX | Mode::Abs => 6,
            _ => 7,
        }
    }

    fn branch<B: Bus>(&mut self, bus: &mut B, taken: bool) -> u64 {
        let offset = self.fetch(bus) as i8;
        if !taken {
            return 2;
        }
        let target = self.pc.wrapping_add_signed(i16::from(offset));
        let crossed = target >> 8 != self.pc >> 8;
        self.pc = target;
        3 + u64::from(crossed)
    }

    fn lda(&mut self, v: u8) {
        self.a = v;
        self.nz(v);
    }
    fn ldx(&mut self, v: u8) {
        self.x = v;
        self.nz(v);
    }
    fn ldy(&mut self, v: u8) {
        self.y = v;
        self.nz(v);
    }
    fn and(&mut self, v: u8) {
        self.a &= v;
        self.nz(self.a);
    }
    fn ora(&mut self, v: u8) {
        self.a |= v;
        self.nz(self.a);
    }
    fn eor(&mut self, v: u8) {
        self.a ^= v;
        self.nz(self.a);
    }
    fn adc(&mut self, v: u8) {
        let sum = u16::from(self.a) + u16::from(v) + u16::from(self.c);
        let r = sum as u8;
        self.v = (!(self.a ^ v) & (self.a ^ r) & 0x80) != 0;
        self.c = sum > 0xFF;
        self.a = r;
        self.nz(r);
    }
    fn sbc(&mut self, v: u8) {
        self.adc(!v);
    }
    fn compare(&mut self, reg: u8, v: u8) {
        self.c = reg >= v;
        self.nz(reg.wrapping_sub(v));
    }
    fn cmp(&mut self, v: u8) {
        self.compare(self.a, v);
    }
    fn cpx(&mut self, v: u8) {
        self.compare(self.x, v);
    }
    fn cpy(&mut self, v: u8) {
        self.compare(self.y, v);
    }
    fn bit(&mut self, v: u8) {
        self.z = self.a & v == 0;
        self.v = v & 0x40 != 0;
        self.n = v & 0x80 != 0;
    }
    fn asl(&mut self, v: u8) -> u8 {
        self.c = v & 0x80 != 0;
        let r = v << 1;
        self.nz(r);
        r
    }
    fn lsr(&mut self, v: u8) -> u8 {
        self.c = v & 1 != 0;
        let r = v >> 1;
        self.nz(r);
        r
    }
    fn rol(&mut self, v: u8) -> u8 {
        let r = v << 1 | u8::from(self.c);
        self.c = v & 0x80 != 0;
        self.nz(r);
        r
    }
    fn ror(&mut self, v: u8) -> u8 {
        let r = v >> 1 | u8::from(self.c) << 7;
        self.c = v & 1 != 0;
        self.nz(r);
        r
    }
    fn inc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.nz(r);
        r
    }
    fn dec(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.nz(r);
        r
    }

    /// Runs the instruction at `pc`: its opcode.
    ///
    /// # Errors
    /// An opcode with no official instruction (the CPU state is then left at it).
    #[allow(clippy::too_many_lines)]
    pub(crate) fn step<B: Bus>(&mut self, bus: &mut B) -> Result<u8, Unofficial> {
        use Mode::{Abs, AbsX, AbsY, Imm, IndX, IndY, Zp, ZpX, ZpY};
        let at = self.pc;
        let opcode = self.fetch(bus);
        let cycles = match opcode {
            // Loads.
            0xA9 => self.read_op(bus, Imm, Cpu::lda),
            0xA5 => self.read_op(bus, Zp, Cpu::lda),
            0xB5 => self.read_op(bus, ZpX, Cpu::lda),
            0xAD => self.read_op(bus, Abs, Cpu::lda),
            0xBD => self.read_op(bus, AbsX, Cpu::lda),
            0xB9 => self.read_op(bus, AbsY, Cpu::lda),
            0xA1 => self.read_op(bus, IndX, Cpu::lda),
            0xB1 => self.read_op(bus, IndY, Cpu::lda),
            0xA2 => self.read_op(bus, Imm, Cpu::ldx),
            0xA6 => self.read_op(bus, Zp, Cpu::ldx),
            0xB6 => self.read_op(bus, ZpY, Cpu::ldx),
            0xAE => self.read_op(bus, Abs, Cpu::ldx),
            0xBE => self.read_op(bus, AbsY, Cpu::ldx),
            0xA0 => self.read_op(bus, Imm, Cpu::ldy),
            0xA4 => self.read_op(bus, Zp, Cpu::ldy),
            0xB4 => self.read_op(bus, ZpX, Cpu::ldy),
            0xAC => self.read_op(bus, Abs, Cpu::ldy),
            0xBC => self.read_op(bus, AbsX, Cpu::ldy),
            // Stores.
            0x85 => self.store(bus, Zp, self.a),
            0x95 => self.store(bus, ZpX, self.a),
            0x8D => self.store(bus, Abs, self.a),
            0x9D => self.store(bus, AbsX, self.a),
            0x99 => self.store(bus, AbsY, self.a),
            0x81 => self.store(bus, IndX, self.a),
            0x91 => self.store(bus, IndY, self.a),
            0x86 => self.store(bus, Zp, self.x),
            0x96 => self.store(bus, ZpY, self.x),
            0x8E => self.store(bus, Abs, self.x),
            0x84 => self.store(bus, Zp, self.y),
            0x94 => self.store(bus, ZpX, self.y),
            0x8C => self.store(bus, Abs, self.y),
            // Arithmetic and logic.
            0x69 => self.read_op(bus, Imm, Cpu::adc),
            0x65 => self.read_op(bus, Zp, Cpu::adc),
            0x75 => self.read_op(bus, ZpX, Cpu::adc),
            0x6D => self.read_op(bus, Abs, Cpu::adc),
            0x7D => self.read_op(bus, AbsX, Cpu::adc),
            0x79 => self.read_op(bus, AbsY, Cpu::adc),
            0x61 => self.read_op(bus, IndX, Cpu::adc),
            0x71 => self.read_op(bus, IndY, Cpu::adc),
            0xE9 => self.read_op(bus, Imm, Cpu::sbc),
            0xE5 => self.read_op(bus, Zp, Cpu::sbc),
            0xF5 => self.read_op(bus, ZpX, Cpu::sbc),
            0xED => self.read_op(bus, Abs, Cpu::sbc),
            0xFD => self.read_op(bus, AbsX, Cpu::sbc),
            0xF9 => self.read_op(bus, AbsY, Cpu::sbc),
            0xE1 => self.read_op(bus, IndX, Cpu::sbc),
            0xF1 => self.read_op(bus, IndY, Cpu::sbc),
            0x29 => self.read_op(bus, Imm, Cpu::and),
            0x25 => self.read_op(bus, Zp, Cpu::and),
            0x35 => self.read_op(bus, ZpX, Cpu::and),
            0x2D => self.read_op(bus, Abs, Cpu::and),
            0x3D => self.read_op(bus, AbsX, Cpu::and),
            0x39 => self.read_op(bus, AbsY, Cpu::and),
            0x21 => self.read_op(bus, IndX, Cpu::and),
            0x31 => self.read_op(bus, IndY, Cpu::and),
            0x09 => self.read_op(bus, Imm, Cpu::ora),
            0x05 => self.read_op(bus, Zp, Cpu::ora),
            0x15 => self.read_op(bus, ZpX, Cpu::ora),
            0x0D => self.read_op(bus, Abs, Cpu::ora),
            0x1D => self.read_op(bus, AbsX, Cpu::ora),
            0x19 => self.read_op(bus, AbsY, Cpu::ora),
            0x01 => self.read_op(bus, IndX, Cpu::ora),
            0x11 => self.read_op(bus, IndY, Cpu::ora),
            0x49 => self.read_op(bus, Imm, Cpu::eor),
            0x45 => self.read_op(bus, Zp, Cpu::eor),
            0x55 => self.read_op(bus, ZpX, Cpu::eor),
            0x4D => self.read_op(bus, Abs, Cpu::eor),
            0x5D => self.read_op(bus, AbsX, Cpu::eor),
            0x59 => self.read_op(bus, AbsY, Cpu::eor),
            0x41 => self.read_op(bus, IndX, Cpu::eor),
            0x51 => self.read_op(bus, IndY, Cpu::eor),
            0xC9 => self.read_op(bus, Imm, Cpu::cmp),
            0xC5 => self.read_op(bus, Zp, Cpu::cmp),
            0xD5 => self.read_op(bus, ZpX, Cpu::cmp),
            0xCD => self.read_op(bus, Abs, Cpu::cmp),
            0xDD => self.read_op(bus, AbsX, Cpu::cmp),
            0xD9 => self.read_op(bus, AbsY, Cpu::cmp),
            0xC1 => self.read_op(bus, IndX, Cpu::cmp),
            0xD1 => self.read_op(bus, IndY, Cpu::cmp),
            0xE0 => self.read_op(bus, Imm, Cpu::cpx),
            0xE4 => self.read_op(bus, Zp, Cpu::cpx),
            0xEC => self.read_op(bus, Abs, Cpu::cpx),
            0xC0 => self.read_op(bus, Imm, Cpu::cpy),
            0xC4 => self.read_op(bus, Zp, Cpu::cpy),
            0xCC => self.read_op(bus, Abs, Cpu::cpy),
            0x24 => self.read_op(bus, Zp, Cpu::bit),
            0x2C => self.read_op(bus, Abs, Cpu::bit),
            // Shifts, rotations, increments.
            0x0A => {
                self.a = self.asl(self.a);
                2
            }
            0x06 => self.modify(bus, Zp, Cpu::asl),
            0x16 => self.modify(bus, ZpX, Cpu::asl),
            0x0E => self.modify(bus, Abs, Cpu::asl),
            0x1E => self.modify(bus, AbsX, Cpu::asl),
            0x4A => {
                self.a = self.lsr(self.a);
                2
            }
            0x46 => self.modify(bus, Zp, Cpu::lsr),
            0x56 => self.modify(bus, ZpX, Cpu::lsr),
            0x4E => self.modify(bus, Abs, Cpu::lsr),
            0x5E => self.modify(bus, AbsX, Cpu::lsr),
            0x2A => {
                self.a = self.rol(self.a);
                2
            }
            0x26 => self.modify(bus, Zp, Cpu::rol),
            0x36 => self.modify(bus, ZpX, Cpu::rol),
            0x2E => self.modify(bus, Abs, Cpu::rol),
            0x3E => self.modify(bus, AbsX, Cpu::rol),
            0x6A => {
                self.a = self.ror(self.a);
                2
            }
            0x66 => self.modify(bus, Zp, Cpu::ror),
            0x76 => self.modify(bus, ZpX, Cpu::ror),
            0x6E => self.modify(bus, Abs, Cpu::ror),
            0x7E => self.modify(bus, AbsX, Cpu::ror),
            0xE6 => self.modify(bus, Zp, Cpu::inc),
            0xF6 => self.modify(bus, ZpX, Cpu::inc),
            0xEE => self.modify(bus, Abs, Cpu::inc),
            0xFE => self.modify(bus, AbsX, Cpu::inc),
            0xC6 => self.modify(bus, Zp, Cpu::dec),
            0xD6 => self.modify(bus, ZpX, Cpu::dec),
            0xCE => self.modify(bus, Abs, Cpu::dec),
            0xDE => self.modify(bus, AbsX, Cpu::dec),
            // Registers.
            0xE8 => {
                self.x = self.inc(self.x);
                2
            }
            0xCA => {
                self.x = self.dec(self.x);
                2
            }
            0xC8 => {
                self.y = self.inc(self.y);
                2
            }
            0x88 => {
                self.y = self.dec(self.y);
                2
            }
            0xAA => {
                self.ldx(self.a);
                2
            }
            0xA8 => {
                self.ldy(self.a);
                2
            }
            0x8A => {
                self.lda(self.x);
                2
            }
            0x98 => {
                self.lda(self.y);
                2
            }
            0xBA => {
                self.ldx(self.sp);
                2
            }
            0x9A => {
                self.sp = self.x;
                2
            }
            // Flags.
            0x18 => {
                self.c = false;
                2
            }
            0x38 => {
                self.c = true;
                2
            }
            0x58 => {
                self.i = false;
                2
            }
            0x78 => {
                self.i = true;
                2
            }
            0xB8 => {
                self.v = false;
                2
            }
            0xD8 => {
                self.d = false;
                2
            }
            0xF8 => {
                self.d = true;
                2
            }
            0xEA => 2,
            // Branches.
            0x10 => self.branch(bus, !self.n),
            0x30 => self.branch(bus, self.n),
            0x50 => self.branch(bus, !self.v),
            0x70 => self.branch(bus, self.v),
            0x90 => self.branch(bus, !self.c),
            0xB0 => self.branch(bus, self.c),
            0xD0 => self.branch(bus, !self.z),
            0xF0 => self.branch(bus, self.z),
            // The stack.
            0x48 => {
                self.push(bus, self.a);
                3
            }
            0x08 => {
                let p = self.status(true);
                self.push(bus, p);
                3
            }
            0x68 => {
                let v = self.pull(bus);
                self.lda(v);
                4
            }
            0x28 => {
                let p = self.pull(bus);
                self.set_status(p);
                4
            }
            // Jumps.
            0x4C => {
                self.pc = self.fetch16(bus);
                3
            }
            0x6C => {
                let ptr = self.fetch16(bus);
                // The 6502 does not carry into the pointer's high byte.
                let hi_at = (ptr & 0xFF00) | (ptr.wrapping_add(1) & 0x00FF);
                self.pc = u16::from_le_bytes([bus.read(ptr), bus.read(hi_at)]);
                5
            }
            0x20 => {
                let target = self.fetch16(bus);
                let [lo, hi] = self.pc.wrapping_sub(1).to_le_bytes();
                self.push(bus, hi);
                self.push(bus, lo);
                self.pc = target;
                6
            }
            0x60 => {
                let lo = self.pull(bus);
                let hi = self.pull(bus);
                self.pc = u16::from_le_bytes([lo, hi]).wrapping_add(1);
                6
            }
            RTI => {
                let p = self.pull(bus);
                self.set_status(p);
                let lo = self.pull(bus);
                let hi = self.pull(bus);
                self.pc = u16::from_le_bytes([lo, hi]);
                6
            }
            0x00 => {
                self.pc = self.pc.wrapping_add(1);
                let [lo, hi] = self.pc.to_le_bytes();
                self.push(bus, hi);
                self.push(bus, lo);
                let p = self.status(true);
                self.push(bus, p);
                self.i = true;
                self.pc = u16::from_le_bytes([bus.read(0xFFFE), bus.read(0xFFFF)]);
                7
            }
            _ => {
                self.pc = at;
                return Err(Unofficial { opcode, at });
            }
        };
        self.cycles += cycles;
        Ok(opcode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64 KiB of RAM.
    struct Flat(Vec<u8>);

    impl Bus for Flat {
        fn read(&mut self, addr: u16) -> u8 {
            self.0[usize::from(addr)]
        }
        fn write(&mut self, addr: u16, value: u8) {
            self.0[usize::from(addr)] = value;
        }
    }

    /// Runs `program` from $0200 until the `brk` it ends with: the CPU and memory.
    fn run(program: &[u8]) -> (Cpu, Flat) {
        let mut mem = Flat(vec![0; 0x1_0000]);
        mem.0[0x200..0x200 + program.len()].copy_from_slice(program);
        mem.0[0xFFFE] = 0x00;
        mem.0[0xFFFF] = 0xFF;
        let mut cpu = Cpu {
            pc: 0x200,
            sp: 0xFF,
            ..Cpu::default()
        };
        while cpu.pc != 0xFF00 {
            cpu.step(&mut mem).expect("official opcodes");
        }
        (cpu, mem)
    }

    #[test]
    fn a_loop_counts_its_cycles_with_the_branch_penalties() {
        // ldx #5; loop: dex; bne loop; brk
        let (cpu, _) = run(&[0xA2, 0x05, 0xCA, 0xD0, 0xFD, 0x00]);
        assert_eq!(cpu.x, 0);
        // ldx 2, 5 × dex 2, 4 taken bne 3, one untaken 2, brk 7.
        assert_eq!(cpu.cycles, 2 + 10 + 12 + 2 + 7);
    }

    #[test]
    fn indexed_reads_pay_for_a_page_crossing_and_stores_always() {
        // ldx #$10; lda $02F8,x (crosses); sta $02F8,x; brk
        let (cpu, mem) = run(&[0xA2, 0x10, 0xBD, 0xF8, 0x02, 0x9D, 0xF8, 0x02, 0x00]);
        assert_eq!(cpu.cycles, 2 + 5 + 5 + 7);
        assert_eq!(mem.0[0x308], cpu.a);
    }

    #[test]
    fn subroutines_and_arithmetic() {
        // jsr $0210; brk; ... $0210: lda #$50; clc; adc #$50; sec; sbc #$01; rts
        let mut program = vec![0x20, 0x10, 0x02, 0x00];
        program.resize(0x10, 0xEA);
        program.extend([0xA9, 0x50, 0x18, 0x69, 0x50, 0x38, 0xE9, 0x01, 0x60]);
        let (cpu, _) = run(&program);
        // 0x50 + 0x50 = 0xA0 overflows into the sign; 0xA0 - 1 borrows nothing and does not.
        assert_eq!(cpu.a, 0x9F);
        assert!(cpu.c && !cpu.v && cpu.n);
        assert_eq!(cpu.cycles, 6 + 2 + 2 + 2 + 2 + 2 + 6 + 7);
    }

    #[test]
    fn an_unofficial_opcode_is_refused_where_it_stands() {
        let mut mem = Flat(vec![0; 0x1_0000]);
        mem.0[0x300] = 0x02;
        let mut cpu = Cpu {
            pc: 0x300,
            ..Cpu::default()
        };
        assert_eq!(
            cpu.step(&mut mem),
            Err(Unofficial {
                opcode: 0x02,
                at: 0x300
            })
        );
        assert_eq!(cpu.pc, 0x300);
    }
}
