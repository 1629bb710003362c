//! The engine against the real ROM: every movie is replayed in both from power-on and every
//! traced variable (the keys of `playfield nes replay --trace`) must be equal at every frame.
//!
//! Movies are generated here, seeded, never recorded from the ROM: the open-loop suite of
//! `playfield_testkit::movies` (random menu paths, all 20 start levels, A and B type with every height,
//! pauses, Select, soft drop, DAS, chaotic input, the demo) and closed-loop movies of the scripted
//! player `playfield_testkit::autoplay` (line clears, level-ups, push-down points, both endings, the
//! high-score screen, several games in a row, a soft reset); `suite.rs` lists them, one
//! test per movie, named after it. `golden.rs` checks the same movies without a ROM.
//!
//! Without a ROM the tests print that they were skipped; with PLAYFIELD_REQUIRE_ROM=1 they fail.

use std::sync::Arc;

use crate::suite::{for_each_movie, listed_names, movie};
use playfield_nes::fm2::InputLine;
use playfield_nes::{DemoData, Nes};
use playfield_rom::{Lockstep, LockstepError, Rom, rom_for_tests};
use playfield_testkit::movies::differential_suite;

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
                .map(|l| format!("{:02x}", l.buttons.bits()))
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

macro_rules! suite_tests {
    ($($test:ident: $name:literal,)*) => {$(
        #[test]
        fn $test() {
            let Some(rom) = rom_for_tests() else { return };
            let lines = movie($name).expect("the movie exists");
            let frames = assert_same_as_rom(&rom, $name, &lines);
            assert!(frames > 1_000, "{} is too short to mean anything", $name);
        }
    )*};
}

for_each_movie!(suite_tests);

#[test]
fn every_generated_movie_has_a_test() {
    let listed = listed_names();
    for m in differential_suite() {
        assert!(
            listed.contains(&m.name.as_str()),
            "{} is not in the list of tests",
            m.name
        );
    }
    for name in listed {
        assert!(
            movie(name).is_some(),
            "{name} is listed but no movie has that name"
        );
    }
}
