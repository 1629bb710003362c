//! Frame alignment of the emulator against the FCEUX convention (see `src/emulator.rs`).
//!
//! Frame `F` = the state after `F` input lines. The facts pinned here were measured on the ROM;
//! the FCEUX ones come from public FCEUX movies (meta_nestris' menu movies and the TAS 4853M),
//! which keep sync only with this alignment.

use playfield_nes::Buttons;
use playfield_rom::{Emulator, rom_for_tests};

/// `heldButtons_player1`, written by the NMI's `pollController`.
const HELD_BUTTONS_PLAYER1: usize = 0xF7;
/// `heldButtons`, the active player's copy made during play.
const HELD_BUTTONS: usize = 0xB6;
const FRAME_COUNTER: usize = 0xB1;
const GAME_MODE: usize = 0xC0;

/// Runs `lines` input lines from power-on, pressing `buttons` on the lines in `presses`.
fn run(emulator: &mut Emulator, lines: u64, presses: &[(u64, Buttons)]) {
    emulator.power_on();
    for k in 0..lines {
        let b = presses
            .iter()
            .filter(|(line, _)| *line == k)
            .fold(Buttons::NONE, |acc, (_, b)| acc | *b);
        emulator.step(b).expect("the ROM runs");
    }
}

/// The ROM's LFSR (`generateNextPseudorandomNumber`), to count steps from the seed $8988.
fn lfsr_steps_from_seed(target: u16) -> Option<u32> {
    let mut v: u16 = 0x8988;
    for n in 0..100_000 {
        if v == target {
            return Some(n);
        }
        let bit = ((v >> 9) ^ (v >> 1)) & 1;
        v = (v >> 1) | (bit << 15);
    }
    None
}

#[test]
fn a_button_on_line_k_shows_after_k_plus_1_lines() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    // (Line 4 shows after 5 lines too, but frame 6 has no NMI to clear it.)
    for k in [6, 7, 50, 266, 300] {
        run(&mut e, k, &[]);
        assert_eq!(e.ram()[HELD_BUTTONS_PLAYER1], 0);
        e.step(Buttons::SELECT).unwrap();
        assert_eq!(
            e.ram()[HELD_BUTTONS_PLAYER1],
            Buttons::SELECT.bits(),
            "line {k} not seen after {} lines",
            k + 1
        );
        e.step(Buttons::NONE).unwrap();
        assert_eq!(e.ram()[HELD_BUTTONS_PLAYER1], 0, "line {k} still held");
    }
}

#[test]
fn power_on_timeline() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    // Lines 0-3 come before the first NMI, and frame 6 has none (NMI off during the reset
    // code's nametable clearing): their buttons are never read.
    for k in [0, 1, 2, 3, 5] {
        let mut seen = false;
        run(&mut e, 0, &[]);
        for line in 0..12 {
            e.step(if line == k {
                Buttons::SELECT
            } else {
                Buttons::NONE
            })
            .unwrap();
            seen |= e.ram()[HELD_BUTTONS_PLAYER1] != 0;
        }
        assert!(!seen, "line {k} was read");
    }
    // frameCounter: 0 until frame 5, 1 at frames 5 and 6, then one more per frame.
    run(&mut e, 0, &[]);
    let mut counters = vec![];
    for _ in 0..10 {
        e.step(Buttons::NONE).unwrap();
        counters.push(e.ram()[FRAME_COUNTER]);
    }
    assert_eq!(counters, [0, 0, 0, 0, 1, 1, 2, 3, 4, 5]);
    // FCEUX (meta_nestris' model of it): after 267 lines the RNG has stepped 262 times from
    // $8988 and the legal screen still shows.
    run(&mut e, 267, &[]);
    let ram = e.ram();
    let rng = u16::from_be_bytes([ram[0x17], ram[0x18]]);
    assert_eq!(lfsr_steps_from_seed(rng), Some(262));
    assert_eq!(u16::from_le_bytes([ram[0xB1], ram[0xB2]]), 262);
    assert_eq!(ram[GAME_MODE], 0);
}

#[test]
fn legal_screen_start_window_matches_fceux_movies() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    // meta_nestris' copyright_next_early.fm2 (Start on lines 266-267) is still on the legal
    // screen at frame 280; its title_next_early.fm2 (Start on line 267) is on the title screen.
    run(&mut e, 281, &[(266, Buttons::START), (267, Buttons::START)]);
    assert_eq!(
        e.ram()[GAME_MODE],
        0,
        "Start on line 266 is in the unskippable phase"
    );
    run(&mut e, 268, &[(267, Buttons::START)]);
    assert_eq!(
        e.ram()[GAME_MODE],
        1,
        "Start on line 267 skips to the title at frame 268"
    );
    // Without Start the legal screen ends on its own at frame 523.
    run(&mut e, 522, &[]);
    assert_eq!(e.ram()[GAME_MODE], 0);
    e.step(Buttons::NONE).unwrap();
    assert_eq!(e.ram()[GAME_MODE], 1);
}

#[test]
fn in_play_one_frame_counter_step_and_held_buttons_per_line() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    // meta_nestris' gameplay.fm2: Start on lines 267, 272, 276, 281 reaches play.
    let starts = [267, 272, 276, 281].map(|k| (k, Buttons::START));
    run(&mut e, 282, &starts);
    assert_eq!(e.ram()[GAME_MODE], 4, "in play at frame 282");
    let mut previous = u16::from_le_bytes([e.ram()[0xB1], e.ram()[0xB2]]);
    for line in 282..700u64 {
        let b = if line == 400 {
            Buttons::SELECT
        } else {
            Buttons::NONE
        };
        e.step(b).unwrap();
        let ram = e.ram();
        let counter = u16::from_le_bytes([ram[0xB1], ram[0xB2]]);
        assert_eq!(counter, previous.wrapping_add(1), "frame {}", line + 1);
        previous = counter;
        let expect = if line == 400 {
            Buttons::SELECT.bits()
        } else {
            0
        };
        assert_eq!(
            ram[HELD_BUTTONS],
            expect,
            "heldButtons at frame {}",
            line + 1
        );
    }
}

#[test]
fn trace_frame_numbers_count_lines() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    assert_eq!(e.trace_frame().frame, 0);
    for f in 1..=10 {
        e.step(Buttons::NONE).unwrap();
        assert_eq!(e.trace_frame().frame, f);
        assert_eq!(e.frame(), f);
    }
    e.power_on();
    assert_eq!(e.frame(), 0);
    assert_eq!(e.ram(), [0; 0x800], "power-on RAM is zeroed");
}

#[test]
fn movie_commands_power_and_reset() {
    use playfield_nes::fm2::{Command, InputLine};
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    let mut fresh = Emulator::new(&rom).unwrap();
    run(&mut e, 300, &[(267, Buttons::START)]);
    // A power command starts over: the line carrying it is line 0 of a new power-on.
    let power = InputLine {
        command: Command::POWER,
        ..InputLine::new(Buttons::NONE)
    };
    e.step_line(&power).unwrap();
    fresh.step(Buttons::NONE).unwrap();
    assert_eq!(e.frame(), 1);
    for _ in 0..300 {
        e.step(Buttons::NONE).unwrap();
        fresh.step(Buttons::NONE).unwrap();
    }
    assert_eq!(e.ram(), fresh.ram());
    // A soft reset keeps RAM, so the reset code finds its magic bytes ($0750) and warm-boots.
    let reset = InputLine {
        command: Command::SOFT_RESET,
        ..InputLine::new(Buttons::NONE)
    };
    e.step_line(&reset).unwrap();
    for _ in 0..20 {
        e.step(Buttons::NONE).unwrap();
    }
    let ram = e.ram();
    assert_eq!(ram[GAME_MODE], 0, "back on the legal screen");
    assert_eq!(&ram[0x750..0x755], &[0x12, 0x34, 0x56, 0x78, 0x9A]);
}
