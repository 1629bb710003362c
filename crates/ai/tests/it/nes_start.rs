//! Starting games from a shared level-menu state, or from the nearest state of its wait, gives
//! the same frames as from power-on.

use std::collections::HashSet;

use playfield_ai::nes::GameConfig;
use playfield_ai::nes::game::{
    LevelMenuWaits, MAX_MENU_WAIT, reach_level_menu, seed_with_menu_wait, split_mix, start_game,
    start_game_from,
};
use playfield_nes::GameType;

#[test]
fn the_benchmarks_1024_waits_start_1020_distinct_games_and_the_held_out_1024() {
    // `gameMode_levelMenu` first draws its screen (NMI waits, rendering off) and reads no
    // button before its navigation loop, so the driver's presses there are lost and pressed
    // again: waits 0, 1, 3 and 5 start one game, 2 and 4 another. Every later wait starts a
    // game of its own.
    // The benchmark's game: A-type from level 18.
    let base = GameConfig::a_type(18, 0);
    let waits = LevelMenuWaits::new(&base).expect("the level menu is reached");
    let start = |wait: u64, held_out: bool| {
        let config = GameConfig {
            seed: seed_with_menu_wait(wait),
            held_out,
            ..base
        };
        waits.start_game(&config).expect("starts").0
    };
    let first: Vec<_> = (0..6).map(|wait| start(wait, false)).collect();
    for wait in [1, 3, 5] {
        assert_eq!(first[wait], first[0], "wait {wait}");
    }
    assert_eq!(first[4], first[2]);
    assert_ne!(first[2], first[0]);
    let benchmark: HashSet<_> = (0..MAX_MENU_WAIT).map(|wait| start(wait, false)).collect();
    assert_eq!(benchmark.len(), 1_020);
    let held_out: HashSet<_> = (0..MAX_MENU_WAIT).map(|wait| start(wait, true)).collect();
    assert_eq!(held_out.len(), 1_024);
    assert!(held_out.is_disjoint(&benchmark));
}

#[test]
fn resumed_start_equals_power_on_start() {
    for (game_type, level, height, music) in [
        (GameType::A, 18u8, 0u8, 3u8),
        (GameType::A, 5, 0, 0),
        (GameType::B, 12, 3, 2),
    ] {
        let base = GameConfig {
            game_type,
            level,
            height,
            music,
            seed: 0,
            max_lines: None,
            max_frames: None,
            stop_at_max_score: false,
            double_speed_level: None,
            held_out: false,
            survive_at_max_score: false,
        };
        let (menu, menu_input) = reach_level_menu(&base).expect("the level menu is reached");
        let waits = LevelMenuWaits::new(&base).expect("the level menu is reached");
        // Seeds whose waits fall on and around the waits' strides, at both ends, and elsewhere.
        let mut seeds = vec![0u64, 1, 7, 12_345, u64::MAX];
        let wanted = [
            0,
            1,
            31,
            32,
            33,
            63,
            64,
            500,
            991,
            992,
            1_000,
            MAX_MENU_WAIT - 1,
        ];
        seeds.extend(wanted.iter().map(|&w| {
            (0..200_000u64)
                .find(|&s| split_mix(s) % MAX_MENU_WAIT == w)
                .expect("a seed with that wait")
        }));
        for seed in seeds {
            let config = GameConfig { seed, ..base };
            let (a, a_input) = start_game(&config).expect("starts");
            let (b, b_input) =
                start_game_from(menu.clone(), menu_input.clone(), &config).expect("starts");
            assert_eq!(a_input, b_input, "{config:?}");
            assert_eq!(a, b, "{config:?}");
            let (c, c_input) = waits.start_game(&config).expect("starts");
            assert_eq!(a_input, c_input, "{config:?} from the waits");
            assert_eq!(a, c, "{config:?} from the waits");
            // A held-out game waits past the last of the waits' states: the driver waits the
            // rest from there, and the frames are still power-on's.
            let held_out = GameConfig {
                held_out: true,
                ..config
            };
            assert_eq!(held_out.menu_wait(), config.menu_wait() + MAX_MENU_WAIT);
            let (d, d_input) = start_game(&held_out).expect("starts");
            let (e, e_input) = waits.start_game(&held_out).expect("starts");
            assert_eq!(d_input, e_input, "{held_out:?} from the waits");
            assert_eq!(d, e, "{held_out:?} from the waits");
            assert_ne!(d_input, a_input, "{held_out:?} is another game");
        }
    }
}
