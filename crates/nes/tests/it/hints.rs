//! The engine's hint about the next frame (the steady frame of play, a lock waiting for
//! `vramRow`, the frame after Right+Left+Down ended a frame early, a paused frame) changes
//! nothing: an engine whose hint is cleared before every frame ([`Nes::raw_mut`]), so that
//! every frame takes the dispatch on `wait` and the routines as the ROM orders them, stays equal
//! to one that keeps it, variable for variable, at every frame.

use playfield_nes::fm2::InputLine;
use playfield_nes::{Buttons, GameSetup, Nes};
use playfield_testkit::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_testkit::public_movies;
use proptest::prelude::*;

/// Runs `lines` on an engine that keeps its hint and on one that loses it before every frame;
/// the first frame where the two engines or their events differ, described.
fn first_difference(lines: &[InputLine]) -> Option<String> {
    let mut hinted = Nes::power_on();
    let mut plain = Nes::power_on();
    for (i, line) in lines.iter().enumerate() {
        let hinted_events = hinted.step_line(line);
        plain.raw_mut();
        let plain_events = plain.step_line(line);
        if hinted_events != plain_events || hinted != plain {
            let (a, b) = (hinted.ram(), plain.ram());
            let address = (0..a.len()).find(|&at| a[at] != b[at]);
            return Some(format!(
                "line {i}: events {hinted_events:?} / {plain_events:?}, first RAM byte that \
                 differs: {}",
                address.map_or("none (a state outside the RAM)".to_string(), |at| format!(
                    "${at:04X} ({:#04x} / {:#04x})",
                    a[at], b[at]
                ))
            ));
        }
    }
    None
}

#[test]
fn the_hint_changes_nothing_in_the_public_movies() {
    let names = public_movies::movie_names();
    assert_eq!(names.len(), 33, "the 33 public movies");
    let failures: Vec<String> = names
        .iter()
        .filter_map(|name| {
            first_difference(&public_movies::load(name)).map(|why| format!("{name}: {why}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Games played with random taps, pauses and Select presses, several in a row (game overs,
    /// curtains, the menus again), with stretches of Right+Left+Down held (the frames that end
    /// early) laid over them.
    #[test]
    fn the_hint_changes_nothing_in_noisy_games(
        seed in 1u64..1_000_000,
        level in prop::sample::select(vec![0u8, 5, 9, 15, 18, 19]),
        b_type in any::<bool>(),
        early in prop::collection::vec((0usize..12_000, 1usize..60), 0..12),
    ) {
        let setup = if b_type {
            GameSetup::b_type(level % 10, (seed % 6) as u8)
        } else {
            GameSetup::a_type(level)
        };
        let mut movie = autoplay_movie(&AutoplayConfig {
            setup,
            seed,
            games: 2,
            max_frames: 12_000,
            noise: true,
        });
        for &(start, length) in &early {
            let end = (start + length).min(movie.len());
            for buttons in movie.iter_mut().take(end).skip(start) {
                *buttons = Buttons::RIGHT | Buttons::LEFT | Buttons::DOWN;
            }
        }
        let lines: Vec<InputLine> = movie.into_iter().map(InputLine::new).collect();
        let difference = first_difference(&lines);
        prop_assert!(difference.is_none(), "{}", difference.unwrap_or_default());
    }
}
