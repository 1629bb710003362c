//! The public movies of `playfield-nes`'s `tests/movies/` (TASVideos publications and
//! meta_nestris' menu and death movies) on the real ROM: every traced variable of the engine equal
//! to the ROM's at every frame, and every checkpoint of `checkpoints.txt` reached on the ROM too.
//!
//! Each movie runs up to its last checkpoint (past its last input line with empty input, as the
//! checkpoints ask). Movies longer than [`CI_FRAMES`] — the seven random-input death movies, 18,000
//! to 77,000 frames — are compared over that prefix only, to keep the suite within CI time (all
//! TAS, B-type, menu and the other death movies run in full); their later checkpoints are then
//! checked by the engine alone (`playfield-nes`'s tests). `PLAYFIELD_FULL_MOVIES=1` compares every
//! movie in full.
//!
//! Without a ROM the tests print that they were skipped; with PLAYFIELD_REQUIRE_ROM=1 they fail.

use std::sync::Arc;

use playfield_nes::trace::TraceFrame;
use playfield_nes::{DemoData, Nes};
use playfield_rom::{Emulator, rom_for_tests};
use playfield_testkit::public_movies::{self, checkpoints, failed_check, load};

/// Frames compared per movie in CI.
const CI_FRAMES: usize = 15_000;

fn compare_with_rom(movie: &str) {
    let Some(rom) = rom_for_tests() else { return };
    let full = std::env::var("PLAYFIELD_FULL_MOVIES").is_ok_and(|v| v == "1");
    let lines = load(movie);
    let mine: Vec<_> = checkpoints()
        .into_iter()
        .filter(|c| c.movie == movie)
        .collect();
    let last = mine.iter().map(|c| c.frame).max().expect("checkpoints");
    let frames = if full { last } else { last.min(CI_FRAMES) };
    let mut emulator = Emulator::new(&rom).expect("the ROM loads");
    let mut nes = Nes::power_on();
    nes.set_demo_data(Some(Arc::new(
        DemoData::from_ines(rom.bytes()).expect("the ROM has the demo tables"),
    )));
    let mut checked = 0;
    for frame in 1..=frames {
        let line = lines.get(frame - 1).copied().unwrap_or_default();
        emulator.step_line(&line).expect("the ROM runs");
        nes.step_line(&line);
        assert!(
            nes.unsupported().is_none(),
            "{movie}: frame {frame}: the engine stopped: {:?}",
            nes.unsupported()
        );
        let expected = emulator.trace_frame();
        let actual = TraceFrame::from_ram(nes.frame(), &nes.ram());
        if let Some(difference) = actual.first_difference(&expected) {
            panic!("{movie}: engine and ROM differ: {difference}");
        }
        for c in mine.iter().filter(|c| c.frame == frame) {
            if let Some(why) = failed_check(emulator.ram_ref(), &c.checks) {
                panic!("{movie}: frame {frame} on the ROM: {why}");
            }
            checked += 1;
        }
    }
    eprintln!(
        "{movie}: {frames} of {last} frames equal to the ROM, {checked} of {} checkpoints on the ROM",
        mine.len()
    );
}

macro_rules! movie_tests {
    ($($name:ident: $movie:expr,)*) => {$(
        #[test]
        fn $name() {
            compare_with_rom($movie);
        }
    )*};
}

movie_tests! {
    menu_copyright_next_early: "menuing/copyright_next_early.fm2",
    menu_title_next_early: "menuing/title_next_early.fm2",
    menu_title_next_early_after_timeout: "menuing/title_next_early_after_timeout.fm2",
    menu_title_backtrack: "menuing/title_backtrack.fm2",
    menu_title_random_input: "menuing/title_random_input.fm2",
    menu_game_type_next_early: "menuing/game_type_next_early.fm2",
    menu_game_type_previous_early: "menuing/game_type_previous_early.fm2",
    menu_game_type_random_input: "menuing/game_type_random_input.fm2",
    menu_level_select_next_early: "menuing/level_select_next_early.fm2",
    menu_level_select_previous_early: "menuing/level_select_previous_early.fm2",
    menu_level_select_random_input: "menuing/level_select_random_input.fm2",
    menu_gameplay: "menuing/gameplay.fm2",
    menu_gameplay_with_timeout: "menuing/gameplay_with_timeout.fm2",
    menu_gameplay_with_backtrack: "menuing/gameplay_with_backtrack.fm2",
    tas_1596m: "a_type_999999_score/tasvideos_1596m.fm2",
    tas_4853m: "a_type_999999_score/tasvideos_4853m.fm2",
    tas_239m: "a_type_999999_score/tasvideos_239m.fm2",
    tas_386m: "a_type_999999_score/tasvideos_386m.fm2",
    tas_399m: "a_type_999999_score/tasvideos_399m.fm2",
    tas_924m: "a_type_999999_score/tasvideos_924m.fm2",
    tas_920m_b_type: "b_type_clear/tasvideos_920m.fm2",
    tas_925m_b_type: "b_type_clear/tasvideos_925m.fm2",
    tas_4210m_b_type: "b_type_clear/tasvideos_4210m_converted.fm2",
    death_no_i_pieces: "death/no_i_pieces.fm2",
    death_no_input: "death/no_input.fm2",
    death_normal_play: "death/normal_play.fm2",
    death_random_input_0: "death/random_input_0.fm2",
    death_random_input_1: "death/random_input_1.fm2",
    death_random_input_2: "death/random_input_2.fm2",
    death_random_input_3: "death/random_input_3.fm2",
    death_random_input_4: "death/random_input_4.fm2",
    death_random_input_5: "death/random_input_5.fm2",
    death_random_input_6: "death/random_input_6.fm2",
}

#[test]
fn every_public_movie_has_a_test() {
    let source = include_str!("public_movies.rs");
    for name in public_movies::movie_names() {
        assert!(
            source.contains(&format!("\"{name}\"")),
            "{name} has no test"
        );
    }
}
