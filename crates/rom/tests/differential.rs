//! The engine against the real ROM: every movie is replayed in both from power-on and every
//! traced variable (the keys of `playfield nes replay --trace`) must be equal at every frame.
//!
//! Movies are generated here, seeded, never recorded from the ROM: the open-loop suite of
//! `playfield_nes::movies` (random menu paths, all 20 start levels, A and B type with every height,
//! pauses, Select, soft drop, DAS, chaotic input, the demo) and closed-loop movies of the scripted
//! player `playfield_nes::autoplay` (line clears, level-ups, push-down points, both endings, the
//! high-score screen, several games in a row, a soft reset).
//!
//! Without a ROM the tests print that they were skipped; with PLAYFIELD_REQUIRE_ROM=1 they fail.

use std::sync::Arc;

use playfield_nes::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_nes::fm2::{Command, InputLine};
use playfield_nes::movies::differential_suite;
use playfield_nes::{Buttons, DemoData, Nes};
use playfield_rom::{Lockstep, LockstepError, Rom, rom_for_tests};

/// Replays `lines` in the engine and the ROM and panics at the first frame where they differ.
/// Returns the number of frames compared.
fn assert_same_as_rom(rom: &Rom, name: &str, lines: &[InputLine]) -> usize {
    let mut lockstep = Lockstep::new(rom).expect("the ROM loads");
    let mut nes = Nes::power_on();
    nes.set_demo_data(Some(Arc::new(
        DemoData::from_ines(rom.bytes()).expect("the ROM has the demo tables"),
    )));
    let mut recent: Vec<InputLine> = Vec::new();
    for line in lines {
        nes.step_line(line);
        recent.push(*line);
        let step = lockstep.step_line(line, &nes);
        if let Err(LockstepError::Rom(e)) = &step {
            panic!("{name}: the ROM stopped: {e}");
        }
        if let Err(LockstepError::Diverged(difference)) = step {
            let tail: Vec<String> = recent
                .iter()
                .rev()
                .take(8)
                .map(|l| format!("{:02x}", l.buttons.0))
                .collect();
            panic!(
                "{name}: engine and ROM differ: {difference}\n  engine unsupported: {:?}\n  last \
                 buttons (newest first): {}",
                nes.unsupported(),
                tail.join(" ")
            );
        }
        assert!(
            nes.unsupported().is_none(),
            "{name}: frame {}: the engine stopped: {:?}",
            nes.frame(),
            nes.unsupported()
        );
    }
    lines.len()
}

fn plain(buttons: Vec<Buttons>) -> Vec<InputLine> {
    buttons.into_iter().map(InputLine::new).collect()
}

macro_rules! suite_tests {
    ($($name:ident: $index:expr,)*) => {$(
        #[test]
        fn $name() {
            let Some(rom) = rom_for_tests() else { return };
            let movie = &differential_suite()[$index];
            let frames = assert_same_as_rom(&rom, &movie.name, &plain(movie.buttons.clone()));
            assert!(frames > 1_000, "{} is too short to mean anything", movie.name);
        }
    )*};
}

suite_tests! {
    suite_00: 0, suite_01: 1, suite_02: 2, suite_03: 3, suite_04: 4, suite_05: 5, suite_06: 6,
    suite_07: 7, suite_08: 8, suite_09: 9, suite_10: 10, suite_11: 11, suite_12: 12,
    suite_13: 13, suite_14: 14, suite_15: 15, suite_16: 16, suite_17: 17, suite_18: 18,
    suite_19: 19, suite_20: 20, suite_21: 21, suite_22: 22, suite_23: 23, suite_24: 24,
    suite_25: 25,
}

#[test]
fn the_suite_covers_the_issue() {
    let suite = differential_suite();
    assert!(suite.len() >= 20);
    let frames: usize = suite.iter().map(|m| m.buttons.len()).sum();
    assert!(frames >= 200_000, "{frames} frames");
    let levels: std::collections::BTreeSet<u8> =
        suite.iter().map(|m| m.setup.start_level).collect();
    assert_eq!(levels.len(), 20, "every start level 0-19");
    let heights: std::collections::BTreeSet<u8> = suite
        .iter()
        .filter(|m| m.setup.game_type == 1)
        .map(|m| m.setup.start_height)
        .collect();
    assert_eq!(heights.len(), 6, "every B-type height 0-5");
}

fn autoplay(config: AutoplayConfig) -> Vec<InputLine> {
    plain(autoplay_movie(&config))
}

#[test]
fn autoplay_level_0_two_games_with_level_ups() {
    let Some(rom) = rom_for_tests() else { return };
    let lines = autoplay(AutoplayConfig {
        start_level: 0,
        games: 2,
        max_frames: 40_000,
        seed: 11,
        ..AutoplayConfig::default()
    });
    assert_same_as_rom(&rom, "autoplay level 0", &lines);
}

#[test]
fn autoplay_level_18_reaches_130_lines_and_the_rocket() {
    let Some(rom) = rom_for_tests() else { return };
    let lines = autoplay(AutoplayConfig {
        start_level: 18,
        games: 2,
        max_frames: 45_000,
        seed: 5,
        music_type: 2,
        ..AutoplayConfig::default()
    });
    assert_same_as_rom(&rom, "autoplay level 18", &lines);
}

#[test]
fn autoplay_level_19_with_noise_and_high_scores() {
    let Some(rom) = rom_for_tests() else { return };
    let lines = autoplay(AutoplayConfig {
        start_level: 19,
        games: 3,
        max_frames: 40_000,
        seed: 7,
        noise: true,
        ..AutoplayConfig::default()
    });
    assert_same_as_rom(&rom, "autoplay level 19 noise", &lines);
}

#[test]
fn autoplay_b_type_endings() {
    let Some(rom) = rom_for_tests() else { return };
    for (level, height, seed) in [(9u8, 0u8, 5u64), (5, 3, 6), (2, 1, 8)] {
        let lines = autoplay(AutoplayConfig {
            game_type: 1,
            start_level: level,
            height,
            games: 1,
            max_frames: 15_000,
            seed,
            ..AutoplayConfig::default()
        });
        assert_same_as_rom(&rom, &format!("autoplay B-type {level}/{height}"), &lines);
    }
}

#[test]
fn autoplay_with_soft_resets() {
    let Some(rom) = rom_for_tests() else { return };
    let mut lines = autoplay(AutoplayConfig {
        start_level: 9,
        games: 1,
        max_frames: 12_000,
        seed: 21,
        ..AutoplayConfig::default()
    });
    for at in [3_000usize, 7_500] {
        if let Some(line) = lines.get_mut(at) {
            line.command = Command::SOFT_RESET;
        }
    }
    assert_same_as_rom(&rom, "autoplay with soft resets", &lines);
}
