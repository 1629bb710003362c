//! The movies of the differential suite, by name, shared by `differential.rs` (engine against
//! the ROM) and `golden.rs` (engine against checkpoints recorded from the ROM).
//!
//! Two kinds: the open-loop movies of `playfield_testkit::movies::differential_suite`, and
//! closed-loop movies of the scripted player `playfield_testkit::autoplay` (line clears, level-ups, push-down
//! points, both endings, the high-score screen, several games in a row, soft resets). A movie is
//! added by naming it in [`for_each_movie`] and saying here how it is made.

use playfield_nes::GameSetup;
use playfield_nes::fm2::{Command, InputLine};
use playfield_testkit::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_testkit::movies::differential_suite;

/// Calls `$callback! { test_name: "movie name", ... }` with every movie of the suite, so each
/// test binary makes one test per movie, named after it.
macro_rules! for_each_movie {
    ($callback:ident) => {
        $callback! {
            a_level_00_height_0_seed_1000: "a-level-00-height-0-seed-1000",
            a_level_01_height_0_seed_1001: "a-level-01-height-0-seed-1001",
            a_level_02_height_0_seed_1002: "a-level-02-height-0-seed-1002",
            a_level_03_height_0_seed_1003: "a-level-03-height-0-seed-1003",
            a_level_04_height_0_seed_1004: "a-level-04-height-0-seed-1004",
            a_level_05_height_0_seed_1005: "a-level-05-height-0-seed-1005",
            a_level_06_height_0_seed_1006: "a-level-06-height-0-seed-1006",
            a_level_07_height_0_seed_1007: "a-level-07-height-0-seed-1007",
            a_level_08_height_0_seed_1008: "a-level-08-height-0-seed-1008",
            a_level_09_height_0_seed_1009: "a-level-09-height-0-seed-1009",
            a_level_10_height_0_seed_1010: "a-level-10-height-0-seed-1010",
            a_level_11_height_0_seed_1011: "a-level-11-height-0-seed-1011",
            a_level_12_height_0_seed_1012: "a-level-12-height-0-seed-1012",
            a_level_13_height_0_seed_1013: "a-level-13-height-0-seed-1013",
            a_level_14_height_0_seed_1014: "a-level-14-height-0-seed-1014",
            a_level_15_height_0_seed_1015: "a-level-15-height-0-seed-1015",
            a_level_16_height_0_seed_1016: "a-level-16-height-0-seed-1016",
            a_level_17_height_0_seed_1017: "a-level-17-height-0-seed-1017",
            a_level_18_height_0_seed_1018: "a-level-18-height-0-seed-1018",
            a_level_19_height_0_seed_1019: "a-level-19-height-0-seed-1019",
            b_level_00_height_0_seed_2000: "b-level-00-height-0-seed-2000",
            b_level_05_height_1_seed_2001: "b-level-05-height-1-seed-2001",
            b_level_09_height_2_seed_2002: "b-level-09-height-2-seed-2002",
            b_level_12_height_3_seed_2003: "b-level-12-height-3-seed-2003",
            b_level_15_height_4_seed_2004: "b-level-15-height-4-seed-2004",
            b_level_19_height_5_seed_2005: "b-level-19-height-5-seed-2005",
            autoplay_level_0_two_games_with_level_ups: "autoplay-level-0-two-games",
            autoplay_level_18_reaches_130_lines_and_the_rocket: "autoplay-level-18-rocket",
            autoplay_level_19_with_noise_and_high_scores: "autoplay-level-19-noise",
            autoplay_b_type_level_9_height_0_ending: "autoplay-b-level-9-height-0",
            autoplay_b_type_level_5_height_3_ending: "autoplay-b-level-5-height-3",
            autoplay_b_type_level_2_height_1_ending: "autoplay-b-level-2-height-1",
            autoplay_with_soft_resets: "autoplay-soft-resets",
        }
    };
}
pub(crate) use for_each_movie;

/// The names [`for_each_movie`] lists, in its order.
#[allow(dead_code)]
pub fn listed_names() -> Vec<&'static str> {
    macro_rules! names {
        ($($test:ident: $name:literal,)*) => { vec![$($name),*] };
    }
    for_each_movie!(names)
}

/// The input lines of the movie called `name`, or `None` if no movie has that name.
pub fn movie(name: &str) -> Option<Vec<InputLine>> {
    if let Some(m) = differential_suite().into_iter().find(|m| m.name == name) {
        return Some(m.buttons.into_iter().map(InputLine::new).collect());
    }
    let autoplay = |config: AutoplayConfig| -> Vec<InputLine> {
        autoplay_movie(&config)
            .into_iter()
            .map(InputLine::new)
            .collect()
    };
    let b_type = |level: u8, height: u8, seed: u64| AutoplayConfig {
        setup: GameSetup::b_type(level, height),
        games: 1,
        max_frames: 15_000,
        seed,
        ..AutoplayConfig::default()
    };
    Some(match name {
        "autoplay-level-0-two-games" => autoplay(AutoplayConfig {
            setup: GameSetup::a_type(0),
            games: 2,
            max_frames: 40_000,
            seed: 4,
            ..AutoplayConfig::default()
        }),
        "autoplay-level-18-rocket" => autoplay(AutoplayConfig {
            setup: GameSetup {
                music: 2,
                ..GameSetup::a_type(18)
            },
            games: 2,
            max_frames: 45_000,
            seed: 5,
            ..AutoplayConfig::default()
        }),
        "autoplay-level-19-noise" => autoplay(AutoplayConfig {
            setup: GameSetup::a_type(19),
            games: 3,
            max_frames: 40_000,
            seed: 7,
            noise: true,
        }),
        "autoplay-b-level-9-height-0" => autoplay(b_type(9, 0, 2)),
        "autoplay-b-level-5-height-3" => autoplay(b_type(5, 3, 6)),
        "autoplay-b-level-2-height-1" => autoplay(b_type(2, 1, 1)),
        "autoplay-soft-resets" => {
            let mut lines = autoplay(AutoplayConfig {
                setup: GameSetup::a_type(9),
                games: 1,
                max_frames: 12_000,
                seed: 1,
                ..AutoplayConfig::default()
            });
            for at in [3_000usize, 7_500] {
                if let Some(line) = lines.get_mut(at) {
                    line.command = Command::SOFT_RESET;
                }
            }
            lines
        }
        _ => return None,
    })
}
