//! The facts of docs/facts.md (the document) that a console can be driven to,
//! each a function named after its fact id that sets up the document's situation on any
//! [`Console`] and asserts the document's figure: the `claims` tests of `playfield-nes` run them
//! on the engine, those of `playfield-rom` on the real ROM. `game(level)` gives a console with
//! the first piece of an A-type game at `level` under control.

use crate::claims::*;
use playfield_nes::raw::{addr, play_state};
use playfield_nes::rules::next_rng;
use playfield_nes::tables::{FRAMES_PER_DROP_NTSC, SPAWN_TABLE};
use playfield_nes::{Buttons, Nes};

/// The pieces' letters, in the order of `spawnTable`.
pub const NAMES: [&str; 7] = ["T", "J", "Z", "O", "S", "L", "I"];

/// Calls `$callback! { fact, ... }` with every fact of this file, so each console's test binary
/// makes one test per fact, named after it. (Test binaries that only need the helpers leave it
/// unused.)
#[macro_export]
macro_rules! for_each_fact {
    ($callback:ident) => {
        $callback! {
            frames_per_row,
            level_29_gravity,
            fall_timer,
            opening_delay,
            das,
            das_wall_charge,
            das_carry,
            down_blocks_shift,
            shift_blocks_soft_drop,
            soft_drop,
            no_hard_drop,
            tap_rate,
            spawn_columns,
            level_29_reach,
            kill_screen_das,
            no_wall_kick,
            next_preview,
            rng_every_frame,
            points,
            points_new_level,
            score_cap,
            level_transition,
            level_transition_rule,
            entry_delay_by_row,
            line_clear_delay,
            start_plus_10,
        }
    };
}
pub use crate::for_each_fact;

/// The document's `frames-per-row`.
pub fn frames_per_row<C: Console>(game: &impl Fn(u8) -> C) {
    let document = [
        48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 1,
    ];
    assert_eq!(FRAMES_PER_DROP_NTSC, document);
    // Levels 0-19 are started through the menus, as the document's probe did.
    for level in 0..20u8 {
        let mut c = game(level);
        assert_eq!(player(&c, LEVEL_NUMBER), level);
        frames_until_drop(&mut c, Buttons::NONE, 200).expect("the opening delay ends");
        for _ in 0..4 {
            assert_eq!(
                frames_until_drop(&mut c, Buttons::NONE, 100),
                Some(u32::from(document[usize::from(level)])),
                "level {level}"
            );
        }
    }
    // Levels 20-28 cannot be chosen on the menu (the document did not measure them): set in RAM.
    let mut c = game(19);
    for level in 20..29u8 {
        assert_eq!(
            measure_frames_per_row(&mut c, level),
            vec![2; 4],
            "level {level}"
        );
    }
}

/// Frames per row the active piece falls at `level`, four rows measured.
pub fn measure_frames_per_row(c: &mut impl Console, level: u8) -> Vec<u32> {
    crate::claims::frames_per_row(c, level)
}

/// The document's `level-29-gravity`.
pub fn level_29_gravity<C: Console>(game: &impl Fn(u8) -> C) {
    let mut c = game(19);
    for level in [29u8, 30, 100, 255] {
        assert_eq!(
            measure_frames_per_row(&mut c, level),
            vec![1; 4],
            "level {level}"
        );
    }
}

/// The document's `fall-timer`.
pub fn fall_timer<C: Console>(game: &impl Fn(u8) -> C) {
    // A resting piece locks one gravity interval after its last drop: at level 0, 48 frames.
    let mut c = game(0);
    let mut last_drop = 0u32;
    let mut y = player(&c, TETRIMINO_Y);
    for frame in 1..3_000u32 {
        c.step(Buttons::NONE);
        if player(&c, PLAY_STATE) != play_state::ACTIVE {
            assert_eq!(frame - last_drop, 48, "lock after the last drop");
            return;
        }
        if player(&c, TETRIMINO_Y) != y {
            y = player(&c, TETRIMINO_Y);
            last_drop = frame;
        }
    }
    panic!("the piece never locked");
}

/// The document's `opening-delay`.
pub fn opening_delay<C: Console>(game: &impl Fn(u8) -> C) {
    // The first piece hangs at every start level: counted from the first frame it is under
    // control, its first row falls 96 frames later (the fall timer keeps counting meanwhile, so
    // the row falls as soon as the wait ends).
    // INITIAL_AUTOREPEAT_Y is $A0 (-96), as the document says; Birken's text misprints $0A.
    for level in 0..20u8 {
        let mut c = game(level);
        assert_eq!(
            frames_until_drop(&mut c, Buttons::NONE, 200),
            Some(96),
            "level {level}"
        );
    }
    // Pressing Down ends the wait (and soft drops from then on).
    let mut c = game(0);
    assert_eq!(frames_until_drop(&mut c, Buttons::DOWN, 200), Some(3));
}

/// The document's `das`.
pub fn das<C: Console>(game: &impl Fn(u8) -> C) {
    // Right from x = 5: at once, 16 frames later, then every 6, until the wall (3 shifts).
    let mut c = game(0);
    assert_eq!(moves(&mut c, 40, |_| Buttons::RIGHT), vec![0, 16, 22]);
    // Then Left from the right wall: a new press zeroes the count again.
    assert_eq!(
        moves(&mut c, 60, |_| Buttons::LEFT),
        vec![0, 16, 22, 28, 34, 40, 46]
    );
}

/// The document's `das-wall-charge`.
pub fn das_wall_charge<C: Console>(game: &impl Fn(u8) -> C) {
    let mut c = game(0);
    moves(&mut c, 40, |_| Buttons::RIGHT);
    assert_eq!(player(&c, TETRIMINO_X), 8, "against the right wall");
    assert_eq!(player(&c, AUTOREPEAT_X), 16, "a blocked shift charges DAS");
    // Held against the wall it stays charged.
    moves(&mut c, 5, |_| Buttons::RIGHT);
    assert_eq!(player(&c, AUTOREPEAT_X), 16, "stays charged while held");
    // Against the stack too, and the piece moves on the first frame the way is clear.
    poke_player(&mut c, &[(TETRIMINO_X, 3), (TETRIMINO_Y, 10)]);
    fill(&mut c, (9..12).map(|row| (row, 5)));
    assert!(
        moves(&mut c, 5, |_| Buttons::RIGHT).is_empty(),
        "blocked by the stack"
    );
    assert_eq!(player(&c, AUTOREPEAT_X), 16);
    let clear: Vec<(usize, u8)> = (9..12)
        .map(|row| {
            (
                addr::PLAYFIELD + row * 10 + 5,
                playfield_nes::tables::TILE_EMPTY,
            )
        })
        .collect();
    c.poke(&clear);
    poke_player(&mut c, &[(TETRIMINO_Y, 10), (FALL_TIMER, 0)]);
    assert_eq!(
        moves(&mut c, 1, |_| Buttons::RIGHT),
        vec![0],
        "moves at once"
    );
}

/// The document's `das-carry`.
pub fn das_carry<C: Console>(game: &impl Fn(u8) -> C) {
    // Charge against the left wall, hold Left through the lock and the entry delay: the next
    // piece moves on its first frame and every 6 frames after.
    let mut c = game(19);
    let held = moves(&mut c, 40, |_| Buttons::LEFT);
    assert!(!held.is_empty());
    until_next_piece(&mut c, Buttons::LEFT);
    let x = player(&c, TETRIMINO_X);
    assert_eq!(x, 5);
    assert_eq!(
        player(&c, AUTOREPEAT_X),
        16,
        "the charge carried over the spawn"
    );
    // The frame the piece is first under control is the first frame it can move: count it as 0.
    let mut c2 = c;
    assert_eq!(moves(&mut c2, 20, |_| Buttons::LEFT), vec![0, 6, 12, 18]);
}

/// The document's `down-blocks-shift`.
pub fn down_blocks_shift<C: Console>(game: &impl Fn(u8) -> C) {
    let mut c = game(0);
    let x = player(&c, TETRIMINO_X);
    for _ in 0..30 {
        c.step(Buttons::DOWN | Buttons::RIGHT);
        assert_eq!(player(&c, TETRIMINO_X), x);
    }
}

/// The document's `shift-blocks-soft-drop`.
pub fn shift_blocks_soft_drop<C: Console>(game: &impl Fn(u8) -> C) {
    // After the opening delay, Down with Right held never soft drops: the piece falls at the
    // level's gravity only (48 frames at level 0), while Down alone drops every 2nd frame.
    let mut c = game(0);
    frames_until_drop(&mut c, Buttons::NONE, 200);
    c.step(Buttons::NONE);
    assert_eq!(
        frames_until_drop(&mut c, Buttons::DOWN | Buttons::RIGHT, 100),
        Some(47)
    );
    assert_eq!(
        frames_until_drop(&mut c, Buttons::DOWN | Buttons::RIGHT, 100),
        Some(48)
    );
}

/// The document's `soft-drop`.
pub fn soft_drop<C: Console>(game: &impl Fn(u8) -> C) {
    let mut c = game(0);
    // Pressed on the first frame of control: a row on the 3rd frame, then every 2nd.
    assert_eq!(frames_until_drop(&mut c, Buttons::DOWN, 10), Some(3));
    assert_eq!(frames_until_drop(&mut c, Buttons::DOWN, 10), Some(2));
    assert_eq!(frames_until_drop(&mut c, Buttons::DOWN, 10), Some(2));
    // Held through the lock, the next piece is not soft dropped: it needs a fresh press.
    until_next_piece(&mut c, Buttons::DOWN);
    assert_eq!(player(&c, AUTOREPEAT_Y), 0);
    assert_eq!(frames_until_drop(&mut c, Buttons::DOWN, 100), Some(48));
}

/// The document's `no-hard-drop`.
pub fn no_hard_drop<C: Console>(game: &impl Fn(u8) -> C) {
    // Up in play does nothing: held or tapped, the game goes exactly as with no input.
    for up in [Buttons::UP, Buttons::NONE] {
        let mut with_up = game(5);
        let mut without = game(5);
        for frame in 0..600u32 {
            let pressed = if up == Buttons::UP && frame.is_multiple_of(2) {
                Buttons::UP
            } else {
                up
            };
            with_up.step(pressed);
            without.step(Buttons::NONE);
            let (a, b) = (with_up.ram(), without.ram());
            assert_eq!(
                a[addr::PLAYER..addr::PLAYER + 32],
                b[addr::PLAYER..addr::PLAYER + 32]
            );
            assert_eq!(
                a[addr::PLAYFIELD..addr::PLAYFIELD + 200],
                b[addr::PLAYFIELD..addr::PLAYFIELD + 200]
            );
        }
    }
}

/// The document's `tap-rate`.
pub fn tap_rate<C: Console>(game: &impl Fn(u8) -> C) {
    // Right pressed on every other frame: a shift on every press, every 2 frames.
    let mut c = game(0);
    poke_player(&mut c, &[(TETRIMINO_X, 1)]);
    let on_even = |f: u32| {
        if f.is_multiple_of(2) {
            Buttons::RIGHT
        } else {
            Buttons::NONE
        }
    };
    assert_eq!(moves(&mut c, 14, on_even), vec![0, 2, 4, 6, 8, 10, 12]);
    // Left on every third frame: a shift on every press.
    let on_third = |f: u32| {
        if f.is_multiple_of(3) {
            Buttons::LEFT
        } else {
            Buttons::NONE
        }
    };
    assert_eq!(moves(&mut c, 18, on_third), vec![0, 3, 6, 9, 12, 15]);
}

/// The document's `spawn-columns`.
pub fn spawn_columns<C: Console>(game: &impl Fn(u8) -> C) {
    // Every piece spawns at column 5; T J Z S L cover 4-6 (3 shifts to the right wall, 4 to the
    // left), O covers 4-5 and I 3-6 (the document's "most pieces" leaves them out: measured
    // here, O needs 4 and 4, I 3 and 3).
    for (i, &piece) in SPAWN_TABLE.iter().enumerate() {
        let expected_columns = match NAMES[i] {
            "O" => (4, 5),
            "I" => (3, 6),
            _ => (4, 6),
        };
        assert_eq!(
            super::claims::spawn_columns(piece),
            expected_columns,
            "{}",
            NAMES[i]
        );
        let mut counts = Vec::new();
        for direction in [Buttons::RIGHT, Buttons::LEFT] {
            let mut c = game(0);
            assert_eq!(player(&c, TETRIMINO_X), 5);
            poke_player(&mut c, &[(CURRENT_PIECE, piece)]);
            let tap = |f: u32| {
                if f.is_multiple_of(2) {
                    direction
                } else {
                    Buttons::NONE
                }
            };
            counts.push(moves(&mut c, 30, tap).len());
        }
        let expected = match NAMES[i] {
            "O" => vec![4, 4],
            "I" => vec![3, 3],
            _ => vec![3, 4],
        };
        assert_eq!(
            counts, expected,
            "{}: shifts to the right and left walls",
            NAMES[i]
        );
    }
}

/// A level-29 game whose first piece has locked: the second piece is under control at row 0.
pub fn level_29_second_piece<C: Console>(game: &impl Fn(u8) -> C, charge: Option<Buttons>) -> C {
    let mut c = game(19);
    poke_player(&mut c, &[(LEVEL_NUMBER, 29), (AUTOREPEAT_Y, 0)]);
    let hold = charge.unwrap_or(Buttons::NONE);
    until_next_piece(&mut c, hold);
    c
}

/// A level-29 game whose second piece is under control with Left held since the first piece,
/// which had the opening delay's 96 frames to reach the left wall and charge DAS.
pub fn level_29_charged<C: Console>(game: &impl Fn(u8) -> C) -> C {
    let mut c = game(19);
    poke_player(&mut c, &[(LEVEL_NUMBER, 29)]);
    until_next_piece(&mut c, Buttons::LEFT);
    assert_eq!(player(&c, AUTOREPEAT_X), 16, "charged");
    clear_playfield(&mut c);
    c
}

/// Frames the piece is under control (play state 1), from its first frame to the lock, and the
/// shifts `input` makes meanwhile.
pub fn control_window(c: &mut impl Console, input: impl Fn(u32) -> Buttons) -> (u32, usize) {
    let mut shifts = 0;
    let mut x = player(c, TETRIMINO_X);
    for (frames, f) in (1..).zip(0..100) {
        c.step(input(f));
        if player(c, TETRIMINO_X) != x {
            shifts += 1;
            x = player(c, TETRIMINO_X);
        }
        if player(c, PLAY_STATE) != play_state::ACTIVE {
            return (frames, shifts);
        }
    }
    panic!("no lock at level 29");
}

/// The document's `level-29-reach`.
pub fn level_29_reach<C: Console>(game: &impl Fn(u8) -> C) {
    // Under control for 19 frames on an empty board.
    let mut c = level_29_second_piece(game, None);
    clear_playfield(&mut c);
    let (frames, _) = control_window(&mut c, |_| Buttons::NONE);
    assert_eq!(frames, 19);
    // Held from spawn (uncharged): 2 shifts (frames 0 and 16).
    let mut c = level_29_second_piece(game, None);
    clear_playfield(&mut c);
    poke_player(&mut c, &[(TETRIMINO_X, 5), (AUTOREPEAT_X, 0)]);
    let (_, held) = control_window(&mut c, |_| Buttons::LEFT);
    assert_eq!(held, 2);
    // Charged against the wall by the previous piece and held through the entry delay: 4 shifts
    // (frames 0, 6, 12, 18).
    let mut c = level_29_charged(game);
    let (_, charged) = control_window(&mut c, |_| Buttons::LEFT);
    assert_eq!(charged, 4);
    // Tapped: a shift every 2 frames (on every press, until a wall).
    let mut c = level_29_second_piece(game, None);
    clear_playfield(&mut c);
    let tapped = moves(&mut c, 8, |f| {
        if f.is_multiple_of(2) {
            Buttons::LEFT
        } else {
            Buttons::NONE
        }
    });
    assert_eq!(tapped, vec![0, 2, 4, 6]);
}

/// The document's `kill-screen-das`.
pub fn kill_screen_das<C: Console>(game: &impl Fn(u8) -> C) {
    // The press's claim that DAS cannot carry a piece to either edge at level 29 holds for DAS
    // started at the spawn (2 shifts; the edges need 3 and 4), but not for a charge carried over
    // from the previous piece: 4 shifts reach the left edge (the document's level-29-reach
    // figures say so too).
    let mut c = level_29_second_piece(game, None);
    clear_playfield(&mut c);
    poke_player(&mut c, &[(AUTOREPEAT_X, 0)]);
    control_window(&mut c, |_| Buttons::LEFT);
    for _ in 0..3 {
        c.step(Buttons::NONE);
    }
    let column_after_uncharged = lowest_column_of_last_lock(&c);
    assert!(
        column_after_uncharged > 0,
        "uncharged DAS does not reach the left edge"
    );
    let mut c = level_29_charged(game);
    control_window(&mut c, |_| Buttons::LEFT);
    for _ in 0..3 {
        c.step(Buttons::LEFT);
    }
    assert_eq!(
        lowest_column_of_last_lock(&c),
        0,
        "charged DAS reaches the left edge"
    );
}

/// The leftmost column holding a block in the bottom two rows.
pub fn lowest_column_of_last_lock(c: &impl Console) -> usize {
    let r = c.ram();
    (0..10)
        .find(|&col| {
            [18usize, 19]
                .iter()
                .any(|row| r[addr::PLAYFIELD + row * 10 + col] != playfield_nes::tables::TILE_EMPTY)
        })
        .expect("a locked piece")
}

/// The document's `no-wall-kick`.
pub fn no_wall_kick<C: Console>(game: &impl Fn(u8) -> C) {
    // Free, a piece turns: A one way, B back.
    let mut c = game(0);
    poke_player(&mut c, &[(CURRENT_PIECE, 0x02), (TETRIMINO_Y, 5)]);
    c.step(Buttons::A);
    assert_ne!(player(&c, CURRENT_PIECE), 0x02, "A turns a T");
    c.step(Buttons::NONE);
    c.step(Buttons::B);
    assert_eq!(player(&c, CURRENT_PIECE), 0x02, "B turns it back");
    // A vertical I against the left wall: turning it flat would overlap the wall, so the turn
    // is undone and nothing else is tried.
    let mut c = game(0);
    poke_player(
        &mut c,
        &[(CURRENT_PIECE, 0x11), (TETRIMINO_X, 0), (TETRIMINO_Y, 5)],
    );
    for button in [Buttons::A, Buttons::B] {
        c.step(button);
        assert_eq!(player(&c, CURRENT_PIECE), 0x11);
        assert_eq!(player(&c, TETRIMINO_X), 0);
        c.step(Buttons::NONE);
    }
    // Blocked by the stack the same way: a T beside a filled column cannot turn into it.
    let mut c = game(0);
    poke_player(
        &mut c,
        &[(CURRENT_PIECE, 0x03), (TETRIMINO_X, 5), (TETRIMINO_Y, 10)],
    );
    fill(&mut c, (8..13).map(|row| (row, 6)));
    c.step(Buttons::A);
    assert_eq!(
        player(&c, CURRENT_PIECE),
        0x03,
        "tLeft to tUp would overlap column 6"
    );
}

/// The document's `next-preview`.
pub fn next_preview<C: Console>(game: &impl Fn(u8) -> C) {
    let mut c = game(0);
    let shown = c.ram()[addr::DISPLAY_NEXT_PIECE];
    c.step(Buttons::SELECT);
    assert_eq!(c.ram()[addr::DISPLAY_NEXT_PIECE], shown ^ 1);
    c.step(Buttons::NONE);
    c.step(Buttons::SELECT);
    assert_eq!(c.ram()[addr::DISPLAY_NEXT_PIECE], shown);
}

/// `rng_seed` ($17-$18) as a 16-bit number, $17 the high byte.
pub fn rng(c: &impl Console) -> u16 {
    let r = c.ram();
    u16::from_be_bytes([r[addr::RNG_SEED], r[addr::RNG_SEED + 1]])
}

/// The document's `rng-every-frame`.
pub fn rng_every_frame<C: Console>(game: &impl Fn(u8) -> C) {
    // In play the generator steps once every frame (twice on a frame whose pick rerolls).
    let mut c = game(9);
    let mut steps = [0u32; 3];
    for _ in 0..3_000 {
        let before = rng(&c);
        c.step(Buttons::NONE);
        let after = rng(&c);
        let n = if after == next_rng(before) {
            1
        } else if after == next_rng(next_rng(before)) {
            2
        } else {
            panic!("the generator moved other than one or two steps")
        };
        steps[n] += 1;
    }
    assert!(steps[1] > 2_900, "{steps:?}");
    // So the time taken to place a piece changes the next piece: waiting 1-8 frames longer
    // before the same lock deals different pieces.
    let mut nexts = std::collections::BTreeSet::new();
    for wait in 0..8 {
        let mut c = game(9);
        poke_player(&mut c, &[(AUTOREPEAT_Y, 0)]);
        for _ in 0..wait {
            poke_player(&mut c, &[(FALL_TIMER, 0)]);
            c.step(Buttons::NONE);
        }
        until_next_piece(&mut c, Buttons::NONE);
        nexts.insert(c.ram()[addr::NEXT_PIECE]);
    }
    assert!(nexts.len() > 1, "{nexts:?}");
}

/// The engine's pick for every generator state on the cycle from $8988 (32,767), every pick
/// count (256) and every previous piece (7): counts[previous][next].
pub fn transition_counts() -> [[u64; 7]; 7] {
    let mut counts = [[0u64; 7]; 7];
    let mut nes = Nes::power_on();
    let mut seed = 0x8988u16;
    for _ in 0..32_767 {
        for spawn_count in 0..=255u8 {
            for (p, &previous) in SPAWN_TABLE.iter().enumerate() {
                let next = engine_pick(&mut nes, seed, spawn_count, previous);
                counts[p][spawn_index(next)] += 1;
            }
        }
        seed = next_rng(seed);
    }
    counts
}

/// The chain's long-run shares (power iteration to convergence).
pub fn stationary(counts: &[[u64; 7]; 7]) -> [f64; 7] {
    let mut pi = [1.0 / 7.0; 7];
    for _ in 0..10_000 {
        let mut next = [0.0; 7];
        for i in 0..7 {
            let total: u64 = counts[i].iter().sum();
            for j in 0..7 {
                next[j] += pi[i] * counts[i][j] as f64 / total as f64;
            }
        }
        pi = next;
    }
    pi
}

/// The long-run share of pieces that repeat the one before, from the transition counts and the
/// chain's long-run shares.
pub fn repeat_share(counts: &[[u64; 7]; 7], pi: &[f64; 7]) -> f64 {
    (0..7)
        .map(|i| pi[i] * counts[i][i] as f64 / counts[i].iter().sum::<u64>() as f64)
        .sum()
}

/// The pieces dealt in a run of games at level 19 without input, the board emptied in RAM
/// whenever the stack passes row 8 (so the game never ends), as the document's probe did.
pub fn dealt_pieces(c: &mut impl Console, pieces: usize) -> Vec<u8> {
    let mut dealt = Vec::with_capacity(pieces);
    while dealt.len() < pieces {
        until_next_piece(c, Buttons::NONE);
        dealt.push(spawn_index(player(c, CURRENT_PIECE)) as u8);
        let r = c.ram();
        if r[addr::PLAYFIELD..addr::PLAYFIELD + 90]
            .iter()
            .any(|&cell| cell != playfield_nes::tables::TILE_EMPTY)
        {
            clear_playfield(c);
        }
    }
    dealt
}

/// Fills the bottom `full` rows except column 0, puts a vertical I over column 0 and lets it
/// lock (clearing `full` lines), returning the points scored.
pub fn clear_lines_with_i(c: &mut impl Console, full: usize, delay: u32) -> (u32, u32, u16) {
    clear_playfield(c);
    fill(
        c,
        (20 - full..20).flat_map(|row| (1..10).map(move |col| (row, col))),
    );
    let before = score(c);
    // Column 0 is empty to the floor: start the I low so that it locks soon at any level.
    let (frames, phase) = lock_to_spawn(c, 0x11, 0, 17, delay);
    (score(c) - before, frames, phase)
}

/// The document's `points`.
pub fn points<C: Console>(game: &impl Fn(u8) -> C) {
    for level in [0u8, 1, 5, 9, 12, 18, 19, 29] {
        for (n, base) in [(1usize, 40u32), (2, 100), (3, 300), (4, 1_200)] {
            let mut c = game(0);
            poke_player(&mut c, &[(LEVEL_NUMBER, level)]);
            let (points, _, _) = clear_lines_with_i(&mut c, n, 0);
            assert_eq!(
                points,
                base * (u32::from(level) + 1),
                "{n} lines at level {level}"
            );
        }
    }
}

/// The document's `points-new-level`.
pub fn points_new_level<C: Console>(game: &impl Fn(u8) -> C) {
    // From level 0 with 8 lines, a double reaches 10 lines and level 1 and scores 100 x 2.
    let mut c = game(0);
    poke_player(&mut c, &[(LINES, 0x08)]);
    let (points, _, _) = clear_lines_with_i(&mut c, 2, 0);
    assert_eq!(player(&c, LEVEL_NUMBER), 1);
    assert_eq!(points, 200);
}

/// The document's `score-cap`.
pub fn score_cap<C: Console>(game: &impl Fn(u8) -> C) {
    // 990,000 + a Tetris at level 29 (36,000) stops at 999,999.
    let mut c = game(0);
    poke_player(
        &mut c,
        &[
            (LEVEL_NUMBER, 29),
            (SCORE, 0),
            (SCORE + 1, 0),
            (SCORE + 2, 0x99),
        ],
    );
    clear_lines_with_i(&mut c, 4, 0);
    assert_eq!(score(&c), 999_999);
    assert_eq!(
        c.ram()[addr::PLAYER + SCORE..addr::PLAYER + SCORE + 3],
        [0x99, 0x99, 0x99]
    );
}

/// Lines at which the level rose, clearing one line at a time from 0 through `up_to` lines at
/// level `level` (the line routine run on its own through the play state, as the game does).
pub fn level_ups(c: &mut impl Console, level: u8, up_to: u32) -> Vec<u32> {
    poke_player(c, &[(LEVEL_NUMBER, level), (LINES, 0), (LINES + 1, 0)]);
    let mut rises = Vec::new();
    for n in 1..=up_to {
        let before = player(c, LEVEL_NUMBER);
        poke_player(
            c,
            &[(COMPLETED_LINES, 1), (PLAY_STATE, play_state::UPDATE_LINES)],
        );
        c.step(Buttons::NONE);
        assert_eq!(lines(c), n);
        if player(c, LEVEL_NUMBER) != before {
            rises.push(n);
        }
        // Let the game spawn its next piece before the next line.
        until_active(c);
    }
    rises
}

/// Steps until play state 1.
pub fn until_active(c: &mut impl Console) {
    for _ in 0..100 {
        if player(c, PLAY_STATE) == play_state::ACTIVE {
            return;
        }
        c.step(Buttons::NONE);
    }
    panic!("never back under control");
}

/// The document's `level-transition`.
pub fn level_transition<C: Console>(game: &impl Fn(u8) -> C) {
    let document = [
        10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 100, 100, 100, 100, 100, 100, 110, 120, 130, 140,
    ];
    for level in 0..20u8 {
        let mut c = game(level);
        let first = document[usize::from(level)];
        let rises = level_ups(&mut c, level, first + 20);
        assert_eq!(
            rises,
            vec![first, first + 10, first + 20],
            "start level {level}"
        );
    }
}

/// The document's `level-transition-rule`.
pub fn level_transition_rule<C: Console>(game: &impl Fn(u8) -> C) {
    // When the ones digit turns 0, the level rises iff it is below the hundreds and tens digits
    // read as one hexadecimal byte (130 lines: $13 = 19).
    let mut c = game(0);
    for level in 0..30u8 {
        for tens in 0..30u32 {
            let lines_before = tens * 10 + 9;
            poke_player(
                &mut c,
                &[
                    (LEVEL_NUMBER, level),
                    (LINES, to_bcd(lines_before % 100)),
                    (LINES + 1, (lines_before / 100) as u8),
                    (COMPLETED_LINES, 1),
                    (PLAY_STATE, play_state::UPDATE_LINES),
                ],
            );
            c.step(Buttons::NONE);
            let after = lines_before + 1;
            let hex = ((after / 100) << 4 | (after / 10 % 10)) as u8;
            let expected = if level < hex { level + 1 } else { level };
            assert_eq!(
                player(&c, LEVEL_NUMBER),
                expected,
                "level {level}, {after} lines"
            );
            until_active(&mut c);
        }
    }
}

/// The entry delay of a horizontal I locking with its centre on `row` (columns 0-3, on blocks
/// under them; the next piece, a T, spawns clear of it).
pub fn entry_delay_at(c: &mut impl Console, row: u8, delay: u32) -> (u32, u16) {
    clear_playfield(c);
    let r = usize::from(row);
    fill(
        c,
        (r + 1..20).flat_map(|row| (0..4).map(move |col| (row, col))),
    );
    lock_to_spawn(c, 0x12, 2, row.saturating_sub(1), delay)
}

/// The entry delay the document gives for a lock at `row`, in frames.
pub fn document_entry_delay(row: u8) -> u32 {
    match row {
        0..=5 => 18,
        6..=9 => 16,
        10..=13 => 14,
        14..=17 => 12,
        _ => 10,
    }
}

/// The document's `entry-delay-by-row`.
pub fn entry_delay_by_row<C: Console>(game: &impl Fn(u8) -> C) {
    let mut c = game(19);
    for row in 0..20u8 {
        for delay in 0..4 {
            let (frames, phase) = entry_delay_at(&mut c, row, delay);
            assert_eq!(
                frames,
                document_entry_delay(row),
                "row {row}, frame counter phase {phase}"
            );
        }
    }
}

/// The document's `line-clear-delay`.
pub fn line_clear_delay<C: Console>(game: &impl Fn(u8) -> C) {
    // A clear adds 17-20 frames, by the frame counter's phase at the lock, whatever the number
    // of lines.
    let mut c = game(19);
    for full in 1..=4usize {
        let mut without = std::collections::BTreeMap::new();
        let mut with = std::collections::BTreeMap::new();
        // One run after another, so that the delay before each fall shifts its lock through
        // the four phases (alternating runs would couple the phases of the two kinds).
        for delay in 0..8 {
            let (_, frames, phase) = clear_lines_with_i(&mut c, 0, delay);
            without.insert(phase, frames);
        }
        for delay in 0..8 {
            let (_, frames, phase) = clear_lines_with_i(&mut c, full, delay);
            with.insert(phase, frames);
        }
        assert_eq!(
            without.len(),
            4,
            "locks at every phase of the frame counter"
        );
        assert_eq!(with.len(), 4, "locks at every phase of the frame counter");
        let extras: std::collections::BTreeMap<u16, u32> = with
            .iter()
            .map(|(phase, frames)| (*phase, frames - without[phase]))
            .collect();
        let values: std::collections::BTreeSet<u32> = extras.values().copied().collect();
        assert_eq!(values, (17..=20).collect(), "{full} lines: {extras:?}");
    }
}

/// The document's `start-plus-10`: A held on Start in the level menu adds 10.
pub fn start_plus_10<C: Console>(game: &impl Fn(u8) -> C) {
    for level in 10..20u8 {
        let c = game(level);
        assert_eq!(player(&c, LEVEL_NUMBER), level);
        assert_eq!(c.ram()[addr::PLAYER1 + START_LEVEL], level);
    }
}

/// The situation of the document's `crash-around-1550-lines`: 1,550 lines at `level`, the score
/// at its cap (every player who gets there has reached 999,999), four rows full but for column
/// 0 at the bottom and a vertical I above them at `start_row`, the frame counter at
/// `frame_counter`. Holding Down, the I drops, locks and clears a Tetris; the frame after the
/// clear animation adds its points `level + 1` times. The caller steps the console (holding Down)
/// and watches for lag frames and a crash its own way.
pub fn tetris_at_1550_lines(c: &mut impl Console, level: u8, start_row: u8, frame_counter: u16) {
    clear_playfield(c);
    fill(
        c,
        (16..20).flat_map(|row| (1..10).map(move |col| (row, col))),
    );
    poke_player(
        c,
        &[
            (TETRIMINO_X, 0),
            (TETRIMINO_Y, start_row),
            (CURRENT_PIECE, 0x11),
            (LEVEL_NUMBER, level),
            (FALL_TIMER, 0),
            (PLAY_STATE, play_state::ACTIVE),
            (AUTOREPEAT_Y, 0),
            (0x0F, 0), // holdDownPoints
            (LINES, 0x50),
            (LINES + 1, 15),
            (SCORE, 0x99),
            (SCORE + 1, 0x99),
            (SCORE + 2, 0x99),
            (COMPLETED_LINES, 0),
        ],
    );
    let [lo, hi] = frame_counter.to_le_bytes();
    c.poke(&[
        (addr::FRAME_COUNTER, lo),
        (addr::FRAME_COUNTER + 1, hi),
        (addr::DISPLAY_NEXT_PIECE, 0),
    ]);
}

/// The levels a game has at 1,550 lines: started at 0-9, at 18 or 19, at 29 (the level rises at
/// every tenth line once lines / 10 passes it).
pub const LEVELS_AT_1550_LINES: [u8; 3] = [155, 161, 165];

/// Runs of [`tetris_at_1550_lines`]: each start row from 2 to 15 at two frame-counter phases.
pub fn variants_1550() -> impl Iterator<Item = (u8, u16)> {
    (2u8..=15).flat_map(|row| [(row, 0x1234u16), (row, 0x5679)])
}
