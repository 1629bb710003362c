//! The engine checked against the facts of seed 002 (each verified in the ROM by its authors),
//! one test per mechanic. The differential suite in `playfield-rom` checks everything against the
//! ROM itself; these tests say *which* rule broke when something does.

use playfield_nes::tables::{SPAWN_TABLE, TILE_EMPTY};
use playfield_nes::{Buttons, Events, Nes, game_mode, next_rng, play_state};

/// Drives the menus (one press at a time) until the first piece of a game is under control.
fn start_game(game_type: u8, level: u8) -> Nes {
    let mut nes = Nes::power_on();
    let mut last = Buttons::NONE;
    for _ in 0..5_000 {
        if nes.game_mode == game_mode::PLAY
            && nes.game_mode_state >= 2
            && nes.player.play_state == play_state::ACTIVE
        {
            return nes;
        }
        let want = match nes.game_mode {
            game_mode::GAME_TYPE_MENU if nes.game_type != game_type => Buttons::RIGHT,
            game_mode::LEVEL_MENU if nes.player1.start_level < level % 10 => Buttons::RIGHT,
            game_mode::LEVEL_MENU if level >= 10 && last == Buttons::A => {
                Buttons::A | Buttons::START
            }
            game_mode::LEVEL_MENU if level >= 10 => Buttons::A,
            _ => Buttons::START,
        };
        let buttons = if last.is_empty() || last == Buttons::A {
            want
        } else {
            Buttons::NONE
        };
        nes.step(buttons);
        last = buttons;
    }
    panic!("the menus did not reach a game");
}

/// Frames until `tetriminoY` changes, holding `buttons`.
fn frames_until_drop(nes: &mut Nes, buttons: Buttons) -> u32 {
    let y = nes.player.tetrimino_y;
    for frames in 1..1_000 {
        nes.step(buttons);
        if nes.player.tetrimino_y != y {
            return frames;
        }
    }
    panic!("the piece never fell");
}

#[test]
fn first_piece_waits_96_frames_then_falls_at_level_speed() {
    let mut nes = start_game(0, 0);
    // The opening delay: autorepeatY counts up from -96; the fall timer keeps counting meanwhile,
    // so the first row falls as soon as the delay ends.
    let first = frames_until_drop(&mut nes, Buttons::NONE);
    assert!(
        (95..=97).contains(&first),
        "first drop after {first} frames"
    );
    assert_eq!(frames_until_drop(&mut nes, Buttons::NONE), 48);
    assert_eq!(frames_until_drop(&mut nes, Buttons::NONE), 48);
}

#[test]
fn gravity_follows_the_table_at_every_start_level() {
    let table = [
        48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2,
    ];
    for (level, &expected) in table.iter().enumerate() {
        let mut nes = start_game(0, level as u8);
        assert_eq!(nes.player.level_number, level as u8);
        frames_until_drop(&mut nes, Buttons::NONE);
        assert_eq!(
            frames_until_drop(&mut nes, Buttons::NONE),
            expected,
            "level {level}"
        );
    }
}

#[test]
fn down_ends_the_opening_delay_and_soft_drops_every_second_frame() {
    let mut nes = start_game(0, 0);
    nes.step(Buttons::NONE);
    // Pressed on frame 1, the drop comes on the 3rd frame held, then every 2nd.
    assert_eq!(frames_until_drop(&mut nes, Buttons::DOWN), 3);
    assert_eq!(frames_until_drop(&mut nes, Buttons::DOWN), 2);
    assert_eq!(frames_until_drop(&mut nes, Buttons::DOWN), 2);
    assert!(nes.player.hold_down_points >= 3);
}

#[test]
fn das_moves_at_once_then_after_16_frames_then_every_6() {
    let mut nes = start_game(0, 0);
    let mut moves = Vec::new();
    let mut x = nes.player.tetrimino_x;
    for frame in 0..40 {
        nes.step(Buttons::RIGHT);
        if nes.player.tetrimino_x != x {
            moves.push(frame);
            x = nes.player.tetrimino_x;
        }
    }
    // Spawned at x = 5: three shifts reach the wall (frames 0, 16, 22), then DAS stays charged.
    assert_eq!(moves, vec![0, 16, 22]);
    assert_eq!(nes.player.autorepeat_x, 16, "charged against the wall");
}

#[test]
fn down_blocks_shifting() {
    let mut nes = start_game(0, 0);
    let x = nes.player.tetrimino_x;
    for _ in 0..30 {
        nes.step(Buttons::DOWN | Buttons::RIGHT);
    }
    assert_eq!(nes.player.tetrimino_x, x);
}

#[test]
fn a_rotates_clockwise_b_counter_clockwise_without_kicks() {
    let mut nes = start_game(0, 0);
    let spawn = nes.player.current_piece;
    nes.step(Buttons::A);
    let after_a = nes.player.current_piece;
    nes.step(Buttons::NONE);
    nes.step(Buttons::B);
    assert_eq!(nes.player.current_piece, spawn, "B undoes A");
    if spawn != 0x0A {
        assert_ne!(after_a, spawn, "every piece but O turns");
    }
}

#[test]
fn the_lfsr_has_period_32767_from_8988() {
    let mut seed = 0x8988u16;
    let mut steps = 0u32;
    loop {
        seed = next_rng(seed);
        steps += 1;
        if seed == 0x8988 {
            break;
        }
        assert!(steps < 70_000);
    }
    assert_eq!(steps, 32_767);
}

#[test]
fn the_randomizer_repeats_o_and_s_twice_as_often() {
    // pickRandomTetrimino over every generator state and pick count, as seed 002 computes it:
    // a repeat has probability 1/32, or 1/16 for O and S.
    let mut repeats = [0u64; 7];
    let mut totals = [0u64; 7];
    let mut seed = 0x8988u16;
    for _ in 0..32_767 {
        for spawn_count in 0..=255u8 {
            for (previous_index, &previous) in SPAWN_TABLE.iter().enumerate() {
                let index = (seed >> 8) as u8;
                let index = index.wrapping_add(spawn_count.wrapping_add(1)) & 7;
                let mut piece = if index == 7 {
                    None
                } else {
                    Some(SPAWN_TABLE[index as usize])
                };
                if piece == Some(previous) || piece.is_none() {
                    let rerolled = next_rng(seed);
                    let mut i = ((rerolled >> 8) as u8 & 7).wrapping_add(previous);
                    while i >= 7 {
                        i -= 7;
                    }
                    piece = Some(SPAWN_TABLE[i as usize]);
                }
                totals[previous_index] += 1;
                if piece == Some(previous) {
                    repeats[previous_index] += 1;
                }
            }
        }
        seed = next_rng(seed);
    }
    for (i, name) in ["T", "J", "Z", "O", "S", "L", "I"].iter().enumerate() {
        let rate = repeats[i] as f64 / totals[i] as f64;
        let expected = if *name == "O" || *name == "S" {
            1.0 / 16.0
        } else {
            1.0 / 32.0
        };
        assert!((rate - expected).abs() < 0.002, "{name}: {rate}");
    }
}

/// Fills rows so that the piece about to lock clears `lines` lines, and returns the game.
fn game_with_full_rows(level: u8, rows: usize) -> Nes {
    let mut nes = start_game(0, level);
    for row in 20 - rows..20 {
        for column in 0..10 {
            nes.playfield[row * 10 + column] = 0x7B;
        }
        // Leave column 0 open for an I piece to finish.
        nes.playfield[row * 10] = TILE_EMPTY;
    }
    nes
}

#[test]
fn a_tetris_scores_1200_times_level_plus_one() {
    for level in [0u8, 5, 9] {
        let mut nes = game_with_full_rows(level, 4);
        // Make the current piece a vertical I over column 0 and drop it.
        nes.player.current_piece = 0x11;
        nes.player.tetrimino_x = 0;
        nes.player.tetrimino_y = 2;
        nes.player.autorepeat_y = 0;
        nes.player1 = nes.player;
        let mut cleared = 0;
        for _ in 0..2_000 {
            let events = nes.step(Buttons::NONE);
            if events.has(Events::LINES_CLEARED) {
                cleared = events.lines_cleared;
                break;
            }
        }
        assert_eq!(cleared, 4, "level {level}");
        assert_eq!(nes.player.score_decimal(), 1200 * (u32::from(level) + 1));
        assert_eq!(nes.player.lines_decimal(), 4);
    }
}

#[test]
fn level_18_first_rises_at_130_lines() {
    // levelNumber is binary but lines are BCD: the level rises when it is below the BCD tens
    // digit pair read as binary, so from 18 the first rise waits for 130 lines ($13 = 19 > 18).
    let mut nes = start_game(0, 18);
    let mut level_ups = Vec::new();
    for lines in 1..=140u32 {
        // Clear one line at a time through the same routine the game uses.
        nes.player.completed_lines = 1;
        nes.player.play_state = play_state::UPDATE_LINES;
        nes.player1 = nes.player;
        loop {
            let events = nes.step(Buttons::NONE);
            if events.has(Events::LEVEL_UP) {
                level_ups.push(lines);
            }
            if events.has(Events::LINES_CLEARED) {
                break;
            }
        }
    }
    assert_eq!(level_ups.first(), Some(&130));
}
