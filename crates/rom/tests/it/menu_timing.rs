//! The menu timings the movie generators rely on (`playfield_testkit::movies`), measured on the ROM:
//! the first line after a screen appears whose press the screen acts on.

use playfield_nes::Buttons;
use playfield_rom::{Emulator, rom_for_tests};
use playfield_testkit::movies::{
    GAME_TYPE_READ_DELAY, LEGAL_FIRST_SKIP_LINE, LEGAL_TIMEOUT_FRAME, LEVEL_MENU_READ_DELAY,
    TITLE_READ_DELAY, TITLE_READ_DELAY_AFTER_B,
};

const GAME_MODE: usize = 0xC0;
const N: Buttons = Buttons::NONE;

fn mode_after(e: &mut Emulator, lines: &[Buttons]) -> u8 {
    e.power_on();
    for &b in lines {
        e.step(b).unwrap();
    }
    e.ram()[GAME_MODE]
}

/// The fewest released lines after `prefix` before a press of `b` changes the game mode.
fn read_delay(e: &mut Emulator, prefix: &[Buttons], b: Buttons) -> usize {
    let mode = mode_after(e, prefix);
    // Try each delay on a copy of the console, so the prefix runs once.
    let mut waited = e.clone();
    (0..600)
        .find(|_| {
            let mut trial = waited.clone();
            trial.step(b).unwrap();
            trial.step(N).unwrap();
            let changed = trial.ram()[GAME_MODE] != mode;
            waited.step(N).unwrap();
            changed
        })
        .expect("the press is read within 600 lines")
}

fn then(prefix: &[Buttons], wait: usize, b: Buttons) -> Vec<Buttons> {
    let mut v = prefix.to_vec();
    v.extend(std::iter::repeat_n(N, wait));
    v.push(b);
    v
}

#[test]
fn legal_screen_window() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    assert_eq!(
        read_delay(&mut e, &[], Buttons::START),
        LEGAL_FIRST_SKIP_LINE
    );
    assert_eq!(mode_after(&mut e, &vec![N; LEGAL_TIMEOUT_FRAME - 1]), 0);
    assert_eq!(mode_after(&mut e, &vec![N; LEGAL_TIMEOUT_FRAME]), 1);
}

#[test]
fn menu_read_delays() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    let s = Buttons::START;
    // Each prefix ends with the press that makes the screen appear on the next frame.
    let title = then(&[], LEGAL_FIRST_SKIP_LINE, s);
    assert_eq!(read_delay(&mut e, &title, s), TITLE_READ_DELAY);
    let title_late = vec![N; LEGAL_TIMEOUT_FRAME];
    assert_eq!(read_delay(&mut e, &title_late, s), TITLE_READ_DELAY);
    let game_type = then(&title, TITLE_READ_DELAY, s);
    assert_eq!(read_delay(&mut e, &game_type, s), GAME_TYPE_READ_DELAY);
    for wait in [GAME_TYPE_READ_DELAY, GAME_TYPE_READ_DELAY + 5] {
        let title_again = then(&game_type, wait, Buttons::B);
        assert_eq!(
            read_delay(&mut e, &title_again, s),
            TITLE_READ_DELAY_AFTER_B
        );
    }
    for b_type in [false, true] {
        let mut typed = game_type.clone();
        typed.extend(std::iter::repeat_n(N, GAME_TYPE_READ_DELAY));
        if b_type {
            typed.extend([Buttons::RIGHT, N]);
        }
        let level = then(&typed, 0, s);
        assert_eq!(read_delay(&mut e, &level, s), LEVEL_MENU_READ_DELAY);
        let back = then(&level, LEVEL_MENU_READ_DELAY, Buttons::B);
        assert_eq!(read_delay(&mut e, &back, s), GAME_TYPE_READ_DELAY);
    }
}
