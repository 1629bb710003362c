//! Every mechanical fact of the NES facts in docs/facts.md (the document), one test per
//! fact id (`tetris-nes/das-wall-charge` is `das_wall_charge`), on the engine. Each test sets up
//! the situation the document describes and asserts the figure it states; where the document is
//! disputed or wrong, the test asserts what the ROM does and its comment says how the document
//! differs. The situations a console can be driven to are in `playfield_testkit::facts` (on top
//! of the console helpers of `playfield_testkit::claims`), shared with `playfield-rom`'s
//! `claims` tests, which run the same ones on the real ROM; the computations over the randomizer, the
//! 4,800-piece measurement and the PAL facts are here. Two names say more than their id:
//! `entry-delay` is `entry_delay_by_row` and `piece-frequency` is `piece_frequency_long_run`.
//!
//! Not tested, because they are about history, players or words, not the game's mechanics:
//! `release` (November 1989), `ctwc-version`, `kill-screen-name`, `das-term`, `vibrating-dpad`,
//! `hypertapping`, `rolling`. `rom-is-disassembly` is a fact about the ROM file, checked only in
//! `playfield-rom`'s `claims` tests.

use std::sync::Arc;

use playfield_nes::raw::addr;
use playfield_nes::rules::next_rng;
use playfield_nes::tables::SPAWN_TABLE;
use playfield_nes::{Buttons, Nes, PlayState, ProgramData, Region};
use playfield_testkit::claims::*;
use playfield_testkit::facts::{self, *};
use playfield_testkit::rom::program_for_tests;

/// The engine in an A-type game at `level`, its first piece under control.
fn engine_game(level: u8) -> Engine {
    let mut c = engine(Region::Ntsc);
    start_game(&mut c, 0, level);
    c
}

/// One test per fact of `playfield_testkit::facts`, run on the engine.
macro_rules! on_the_engine {
    ($($fact:ident,)*) => {$(
        #[test]
        fn $fact() {
            facts::$fact(&engine_game);
        }
    )*};
}

facts::for_each_fact!(on_the_engine);

#[test]
fn lfsr() {
    let mut nes = Nes::power_on();
    for _ in 0..4 {
        nes.step(Buttons::NONE);
    }
    assert_eq!(
        nes.ram()[addr::RNG_SEED..addr::RNG_SEED + 2],
        [0x89, 0x88],
        "the seed"
    );
    let mut seed = 0x8988u16;
    let mut steps = 0u32;
    loop {
        seed = next_rng(seed);
        steps += 1;
        if seed == 0x8988 {
            break;
        }
    }
    assert_eq!(steps, 32_767);
    // Each step shifts right and feeds bit 1 XOR bit 9 into bit 15.
    for s in [0x8988u16, 0x0002, 0x0200, 0x0202, 0xFFFF] {
        let feedback = (s >> 1 ^ s >> 9) & 1;
        assert_eq!(next_rng(s), s >> 1 | feedback << 15);
    }
}

#[test]
fn randomizer_roll() {
    // The routine as the document describes it: spawnCount + 1 added to the generator's high
    // byte, low 3 bits; 7 or the previous piece rerolls once: step the generator, high byte's
    // low 3 bits plus the previous orientation id, modulo 7, no further check.
    let mut nes = Nes::power_on();
    let mut seed = 0x8988u16;
    let mut second_roll = [[0u32; 7]; 7];
    for _ in 0..32_767 {
        for spawn_count in 0..=255u8 {
            for (p, &previous) in SPAWN_TABLE.iter().enumerate() {
                let first = ((seed >> 8) as u8).wrapping_add(spawn_count.wrapping_add(1)) & 7;
                let described = if first != 7 && SPAWN_TABLE[usize::from(first)] != previous {
                    SPAWN_TABLE[usize::from(first)]
                } else {
                    let reroll = ((next_rng(seed) >> 8) as u8 & 7) + previous;
                    let piece = SPAWN_TABLE[usize::from(reroll % 7)];
                    second_roll[p][spawn_index(piece)] += 1;
                    piece
                };
                assert_eq!(
                    engine_pick(&mut nes, seed, spawn_count, previous),
                    described
                );
                assert_eq!(nes.ram()[addr::SPAWN_COUNT], spawn_count.wrapping_add(1));
            }
        }
        seed = next_rng(seed);
    }
    // Disputed by the Tetris Wiki ("generates a value 0-6 and deals that piece", a uniform
    // pick): the second roll is not uniform; for every previous piece one result is twice as
    // likely as each other (2 of its 8 values).
    for (p, row) in second_roll.iter().enumerate() {
        let min = row.iter().min().copied().unwrap_or(0);
        let max = row.iter().max().copied().unwrap_or(0);
        assert_eq!(row.iter().filter(|&&n| n == max).count(), 1, "{}", NAMES[p]);
        let ratio = f64::from(max) / f64::from(min);
        assert!((ratio - 2.0).abs() < 0.05, "{}: {row:?}", NAMES[p]);
    }
}

#[test]
fn reroll_bias() {
    // The doubled reroll result after each piece: T, J, Z, L, I double Z, T, J, T, S; O and S
    // double themselves ($0A mod 7 = 3, $0B mod 7 = 4).
    let expected = ["Z", "T", "J", "O", "S", "T", "S"];
    for (p, &previous) in SPAWN_TABLE.iter().enumerate() {
        let mut hits = [0u32; 7];
        for value in 0..8u8 {
            hits[usize::from((value + previous) % 7)] += 1;
        }
        let doubled = hits
            .iter()
            .position(|&n| n == 2)
            .expect("one doubled result");
        assert_eq!(NAMES[doubled], expected[p], "after {}", NAMES[p]);
    }
}

#[test]
fn randomizer_exact() {
    let counts = transition_counts();
    let picks_per_previous = 32_767u64 * 256;
    // A repeat: 1/4 x 1/8 = 1/32 for T J Z L I, 1/4 x 2/8 = 1/16 for O and S, exactly up to
    // the one generator state ($0000) missing from the cycle.
    for i in 0..7 {
        assert_eq!(counts[i].iter().sum::<u64>(), picks_per_previous);
        let rate = counts[i][i] as f64 / picks_per_previous as f64;
        let document = if NAMES[i] == "O" || NAMES[i] == "S" {
            0.0625
        } else {
            0.0313
        };
        assert!((rate - document).abs() < 0.00005, "{}: {rate}", NAMES[i]);
    }
    let pi = stationary(&counts);
    let document = [0.1467, 0.1429, 0.1430, 0.1429, 0.1468, 0.1389, 0.1389];
    for i in 0..7 {
        assert!(
            (pi[i] - document[i]).abs() < 0.00005,
            "{}: {}",
            NAMES[i],
            pi[i]
        );
    }
    let repeat = repeat_share(&counts, &pi);
    assert!((repeat - 0.0403).abs() < 0.00005, "{repeat}");
    println!("exact shares {pi:?}, repeat rate {repeat:.5}");
}

#[test]
fn piece_frequency_long_run() {
    // T and S most often (14.67 %, 14.68 %), L and I least (13.89 %), J Z O 14.29-14.30 %.
    // Birken's 14.73 % / 13.84 % (disputed in the document) averages the reroll over the
    // previous pieces equally; the exact chain gives the document's figures.
    let pi = stationary(&transition_counts());
    let percent: Vec<f64> = pi.iter().map(|p| (p * 10_000.0).round() / 100.0).collect();
    assert_eq!(
        percent,
        vec![14.67, 14.29, 14.30, 14.29, 14.68, 13.89, 13.89]
    );
}

#[test]
fn repeat_rate() {
    // 4.03 % of pieces repeat the one before (uniform memoryless: 1/7 = 14.3 %); a little above
    // 9/224 because O and S, which repeat at 1/16, come 28.97 % of the time.
    let counts = transition_counts();
    let pi = stationary(&counts);
    let repeat = repeat_share(&counts, &pi);
    assert_eq!((repeat * 10_000.0).round() / 100.0, 4.03);
    assert!(repeat > 9.0 / 224.0);
    assert_eq!(((pi[3] + pi[4]) * 10_000.0).round() / 100.0, 28.97);
}

#[test]
fn randomizer_measured() {
    // The document's probe dealt 4,800 pieces in the ROM: 4.46 % repeats (O and S 6.29 %,
    // others 3.76 %). Its inputs are not published, so this reproduces the method with its own
    // run (level 19, no input, the board emptied past row 8) and reports the figures; the
    // assertion is that they agree with the exact 4.03 % within sampling error (99.9 %).
    let mut c = engine_game(19);
    let dealt = dealt_pieces(&mut c, 4_800);
    let mut repeats = [0u32; 2];
    let mut totals = [0u32; 2];
    for pair in dealt.windows(2) {
        let o_or_s = usize::from(pair[1] == 3 || pair[1] == 4);
        totals[o_or_s] += 1;
        if pair[0] == pair[1] {
            repeats[o_or_s] += 1;
        }
    }
    let rate = f64::from(repeats[0] + repeats[1]) / f64::from(totals[0] + totals[1]);
    let os = f64::from(repeats[1]) / f64::from(totals[1]);
    let others = f64::from(repeats[0]) / f64::from(totals[0]);
    println!(
        "4,800 pieces: {:.2} % repeated (O and S {:.2} %, others {:.2} %)",
        rate * 100.0,
        os * 100.0,
        others * 100.0
    );
    let sd = (0.0403 * (1.0 - 0.0403) / 4_799.0f64).sqrt();
    assert!((rate - 0.0403).abs() < 3.3 * sd, "{rate}");
}

#[test]
fn pal_das() {
    // No PAL ROM is available: this checks the engine's PAL option against the disassembly's
    // PAL constants (DAS_RESET 12, DAS_DELAY 8), as the document states them.
    let mut c = engine(Region::Pal);
    start_game(&mut c, 0, 0);
    assert_eq!(moves(&mut c, 40, |_| Buttons::RIGHT), vec![0, 12, 16]);
    assert_eq!(
        moves(&mut c, 40, |_| Buttons::LEFT),
        vec![0, 12, 16, 20, 24, 28, 32]
    );
}

#[test]
fn pal_gravity() {
    // No PAL ROM is available: the engine's PAL option against the document's table.
    let document = [
        36, 32, 29, 25, 22, 18, 15, 11, 7, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1,
    ];
    assert_eq!(*Region::Pal.frames_per_drop(), document);
    for level in 0..20u8 {
        let mut c = engine(Region::Pal);
        start_game(&mut c, 0, level);
        frames_until_drop(&mut c, Buttons::NONE, 300).expect("the opening delay ends");
        assert_eq!(
            frames_until_drop(&mut c, Buttons::NONE, 100),
            Some(u32::from(document[usize::from(level)])),
            "PAL level {level}"
        );
    }
}

#[test]
fn ntsc_frame_rate() {
    // The engine counts frames; the rate it declares for NTSC is the document's.
    assert_eq!(Region::Ntsc.frames_per_second(), 60.0988);
}

/// The runs of `crash_around_1550_lines` at levels 164-170 that crash on the ROM, measured
/// (`playfield-rom`'s `claims` tests print them): (level, start row, frame counter).
const ROM_CRASHES_164_TO_170: [(u8, u8, u16); 52] = [
    (166, 2, 0x1234),
    (166, 2, 0x5679),
    (166, 3, 0x1234),
    (166, 4, 0x5679),
    (166, 5, 0x5679),
    (166, 6, 0x5679),
    (166, 7, 0x5679),
    (166, 8, 0x1234),
    (166, 8, 0x5679),
    (166, 9, 0x1234),
    (166, 10, 0x1234),
    (166, 11, 0x1234),
    (166, 12, 0x1234),
    (166, 13, 0x5679),
    (166, 14, 0x5679),
    (168, 2, 0x1234),
    (169, 3, 0x5679),
    (169, 4, 0x5679),
    (169, 5, 0x5679),
    (169, 6, 0x5679),
    (169, 7, 0x5679),
    (169, 8, 0x1234),
    (169, 8, 0x5679),
    (169, 9, 0x1234),
    (169, 10, 0x1234),
    (169, 11, 0x1234),
    (169, 12, 0x1234),
    (169, 14, 0x5679),
    (169, 15, 0x5679),
    (170, 2, 0x1234),
    (170, 2, 0x5679),
    (170, 3, 0x1234),
    (170, 3, 0x5679),
    (170, 4, 0x1234),
    (170, 4, 0x5679),
    (170, 5, 0x5679),
    (170, 6, 0x1234),
    (170, 6, 0x5679),
    (170, 7, 0x1234),
    (170, 7, 0x5679),
    (170, 8, 0x1234),
    (170, 8, 0x5679),
    (170, 9, 0x1234),
    (170, 9, 0x5679),
    (170, 10, 0x1234),
    (170, 10, 0x5679),
    (170, 11, 0x1234),
    (170, 11, 0x5679),
    (170, 12, 0x1234),
    (170, 12, 0x5679),
    (170, 13, 0x5679),
    (170, 14, 0x5679),
];

/// A run of [`facts::tetris_at_1550_lines`] on the engine, Down held until the next piece is under
/// control: (lag frames, crashed).
fn engine_tetris_at_1550(
    program: &Arc<ProgramData>,
    level: u8,
    row: u8,
    frame_counter: u16,
) -> (usize, bool) {
    let mut c = engine_game(19);
    facts::tetris_at_1550_lines(&mut c, level, row, frame_counter);
    // After the RAM writes, which import a new engine.
    c.nes.set_program_data(Some(program.clone()));
    let (mut lags, mut locked) = (0, false);
    for _ in 0..150 {
        let events = c.nes.step(Buttons::DOWN);
        if events.crashed() {
            return (lags, true);
        }
        lags += usize::from(events.lagged());
        if !matches!(c.nes.play_state(), PlayState::GameOver | PlayState::Active) {
            locked = true;
        } else if locked {
            break;
        }
    }
    (lags, false)
}

#[test]
fn crash_around_1550_lines() {
    // The document: the game breaks down around 1,550 lines, usually freezing, because the score
    // loop runs once per level. The ROM (`playfield-rom`'s `claims` tests, the same runs): at 1,550 lines (level
    // 155, 161 or 165 by the start level) every Tetris's scoring frame lags and none crashes;
    // from level 166 some crash (52 of the 196 runs at levels 164-170). The engine, running the
    // ROM's program without knowing the console's cycle phase (see `lag` in the engine), gives
    // the same at 1,550 lines, and crashes at those levels too; which of those runs crash
    // depends on the phase (the others sit where the phase decides). Without the ROM the engine
    // does not model lag frames and crashes.
    let Some(program) = program_for_tests() else {
        return;
    };
    let (mut runs, mut lagging, mut crashing) = (0, 0, 0);
    for level in facts::LEVELS_AT_1550_LINES {
        for (row, fc) in facts::variants_1550() {
            let (lags, crashed) = engine_tetris_at_1550(&program, level, row, fc);
            runs += 1;
            lagging += usize::from(lags > 0);
            crashing += usize::from(crashed);
        }
    }
    let later: Vec<(u8, u8, u16)> = (164u8..=170)
        .flat_map(|level| facts::variants_1550().map(move |(row, fc)| (level, row, fc)))
        .filter(|&(level, row, fc)| engine_tetris_at_1550(&program, level, row, fc).1)
        .collect();
    eprintln!(
        "at 1,550 lines: {runs} runs, {lagging} with lag frames, {crashing} crashes; levels \
         164-170: {} crashes of 196: {later:?}",
        later.len()
    );
    assert_eq!((lagging, crashing), (runs, 0));
    let agree = (164u8..=170)
        .flat_map(|level| facts::variants_1550().map(move |(row, fc)| (level, row, fc)))
        .filter(|run| later.contains(run) == ROM_CRASHES_164_TO_170.contains(run))
        .count();
    eprintln!("crash or not as the ROM in {agree} of 196 runs at levels 164-170");
    assert!(
        agree >= 180,
        "crash or not as the ROM in {agree} of 196 runs"
    );
}
