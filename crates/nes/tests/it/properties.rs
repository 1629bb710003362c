//! Invariants of the engine under arbitrary input.

use playfield_nes::raw::addr;
use playfield_nes::trace::TraceFrame;
use playfield_nes::{Buttons, GameMode, GameSetup, Nes, Region};
use playfield_testkit::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_testkit::claims::{engine, frames_until_drop, moves, start_game};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any input, including impossible pad states (Left+Right, Up+Down), never panics, and
    /// replaying the same input gives the same states (determinism).
    #[test]
    fn any_input_is_deterministic_and_never_panics(input in prop::collection::vec(any::<u8>(), 0..6_000)) {
        let mut a = Nes::power_on();
        let mut b = Nes::power_on();
        for &byte in &input {
            a.step(Buttons::from_bits_retain(byte));
        }
        for &byte in &input {
            b.step(Buttons::from_bits_retain(byte));
        }
        prop_assert_eq!(a, b);
    }

    /// A RAM image taken between frames of play resumes identically: the import is exact for
    /// everything the trace compares.
    #[test]
    fn ram_import_resumes_play(seed in 1u64..1_000, cut in 1_000usize..6_000) {
        let movie = autoplay_movie(&AutoplayConfig { setup: GameSetup::a_type(5), seed, max_frames: 8_000, ..AutoplayConfig::default() });
        let mut original = Nes::power_on();
        for &b in &movie[..cut.min(movie.len())] {
            original.step(b);
        }
        prop_assume!(original.game_mode() == GameMode::Play && original.ram()[addr::GAME_MODE_STATE] == 2);
        let mut copy = Nes::from_ram(&original.ram(), Region::Ntsc).expect("play imports");
        for (i, &b) in movie[cut.min(movie.len())..].iter().enumerate() {
            original.step(b);
            copy.step(b);
            let left = TraceFrame::from_ram(0, &original.ram());
            let right = TraceFrame::from_ram(0, &copy.ram());
            prop_assert!(left == right, "frame {} after the import: {:?}", i, left.first_difference(&right));
        }
    }
}

#[test]
fn pal_runs_with_its_own_timing() {
    // No PAL ROM is available: the PAL option is checked against the disassembly's PAL build.
    // Its opening delay is $B4 (76 frames), gravity at level 0 is 36 frames a row, DAS 12 then 4.
    let mut c = engine(Region::Pal);
    start_game(&mut c, 0, 0);
    let mut ntsc = engine(Region::Ntsc);
    start_game(&mut ntsc, 0, 0);
    assert_eq!(frames_until_drop(&mut c, Buttons::NONE, 200), Some(76));
    assert_eq!(frames_until_drop(&mut ntsc, Buttons::NONE, 200), Some(96));
    assert_eq!(frames_until_drop(&mut c, Buttons::NONE, 100), Some(36));
    assert_eq!(moves(&mut c, 20, |_| Buttons::RIGHT), vec![0, 12, 16]);
    assert_eq!(c.nes.region(), Region::Pal);
}

#[test]
fn ram_import_rejects_a_screen_transition() {
    let mut nes = Nes::power_on();
    nes.step(Buttons::NONE);
    let err = Nes::from_ram(&nes.ram(), Region::Ntsc).unwrap_err();
    assert!(err.to_string().contains("gameMode 0"), "{err}");
}
