//! A simple bot that plays the ROM through the gamepad, to record movies that clear lines.
//!
//! Random input (`playfield_nes::movies`) tops out without clearing lines, so it never reaches
//! scoring, level-ups, the BCD quirks or the line-clear animation. This bot reads the ROM's RAM
//! each frame (closed loop), picks a straight-drop placement for each new piece with a classic
//! four-feature evaluation, and walks the piece there with one press every other frame, then soft
//! drops. What it records is just input: replayed into the engine it must give the same states.
//! It is a test-input generator, not the AI player (`playfield-ai`).

use crate::emulator::Emulator;
use crate::rom::RomError;
use playfield_nes::Buttons;
use playfield_nes::movies::{GameSetup, GeneratedMovie, PlayStyle, to_game};

/// Cell offsets `(row, column)` of each orientation id ($00-$12), from the disassembly's
/// `orientationTable` (its y and x offsets).
const ORIENTATION_CELLS: [[(i8, i8); 4]; 19] = [
    [(0, -1), (0, 0), (0, 1), (-1, 0)],  // $00 T up
    [(-1, 0), (0, 0), (0, 1), (1, 0)],   // $01 T right
    [(0, -1), (0, 0), (0, 1), (1, 0)],   // $02 T down (spawn)
    [(-1, 0), (0, -1), (0, 0), (1, 0)],  // $03 T left
    [(-1, 0), (0, 0), (1, -1), (1, 0)],  // $04 J left
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // $05 J up
    [(-1, 0), (-1, 1), (0, 0), (1, 0)],  // $06 J right
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // $07 J down (spawn)
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // $08 Z horizontal (spawn)
    [(-1, 1), (0, 0), (0, 1), (1, 0)],   // $09 Z vertical
    [(0, -1), (0, 0), (1, -1), (1, 0)],  // $0A O
    [(0, 0), (0, 1), (1, -1), (1, 0)],   // $0B S horizontal (spawn)
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // $0C S vertical
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // $0D L right
    [(0, -1), (0, 0), (0, 1), (1, -1)],  // $0E L down (spawn)
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // $0F L left
    [(-1, 1), (0, -1), (0, 0), (0, 1)],  // $10 L up
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // $11 I vertical
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // $12 I horizontal (spawn)
];

/// The orientation ids of the piece an orientation belongs to.
fn orientations_of(piece: u8) -> std::ops::RangeInclusive<u8> {
    match piece {
        0..=3 => 0..=3,
        4..=7 => 4..=7,
        8..=9 => 8..=9,
        10 => 10..=10,
        11..=12 => 11..=12,
        13..=16 => 13..=16,
        _ => 17..=18,
    }
}

const EMPTY: u8 = 0xEF;

/// The playfield as 20 rows of 10 filled flags.
type Field = [[bool; 10]; 20];

fn field_from_ram(ram: &[u8; 0x800]) -> Field {
    let mut f = [[false; 10]; 20];
    for (r, row) in f.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = ram[0x400 + r * 10 + c] != EMPTY;
        }
    }
    f
}

/// Whether orientation `o` fits at (`x`, `y`); rows above the field are open, as in the ROM.
fn fits(f: &Field, o: u8, x: i8, y: i8) -> bool {
    ORIENTATION_CELLS[usize::from(o)].iter().all(|&(dy, dx)| {
        let (r, c) = (y + dy, x + dx);
        (0..10).contains(&c) && r < 20 && (r < 0 || !f[r as usize][c as usize])
    })
}

/// The classic evaluation: lines, aggregate height, holes, bumpiness (weights from the
/// well-known genetic-algorithm tuning; any sensible choice clears lines).
fn evaluate(f: &Field, lines: usize) -> f64 {
    let mut heights = [0i32; 10];
    let mut holes = 0;
    for c in 0..10 {
        let top = (0..20).find(|&r| f[r][c]);
        if let Some(top) = top {
            heights[c] = 20 - top as i32;
            holes += (top..20).filter(|&r| !f[r][c]).count();
        }
    }
    let aggregate: i32 = heights.iter().sum();
    let bumpiness: i32 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
    0.76 * lines as f64
        - 0.51 * f64::from(aggregate)
        - 0.36 * holes as f64
        - 0.18 * f64::from(bumpiness)
}

/// The best straight drop for the piece: `(orientation, x)`.
fn plan(f: &Field, piece: u8) -> Option<(u8, i8)> {
    let mut best: Option<(f64, u8, i8)> = None;
    for o in orientations_of(piece) {
        for x in 0..10i8 {
            if !fits(f, o, x, 0) {
                continue;
            }
            let mut y = 0;
            while fits(f, o, x, y + 1) {
                y += 1;
            }
            let mut g = *f;
            for &(dy, dx) in &ORIENTATION_CELLS[usize::from(o)] {
                let r = y + dy;
                if r >= 0 {
                    g[r as usize][(x + dx) as usize] = true;
                }
            }
            let full: Vec<usize> = (0..20).filter(|&r| g[r].iter().all(|&c| c)).collect();
            let mut cleared = [[false; 10]; 20];
            let mut dst = 19i32;
            for r in (0..20).rev() {
                if !full.contains(&r) {
                    cleared[dst as usize] = g[r];
                    dst -= 1;
                }
            }
            let score = evaluate(&cleared, full.len());
            if best.is_none_or(|(s, _, _)| score > s) {
                best = Some((score, o, x));
            }
        }
    }
    best.map(|(_, o, x)| (o, x))
}

/// SplitMix64, for the bot's occasional pauses and Select presses.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Drives the menus to `setup` (as `movies::to_game` does), then lets the bot play for
/// `play_frames` frames, restarting with Start whenever a game ends. Returns the recorded movie;
/// the emulator is left at its end. `each` sees the emulator after every input line (menus
/// included), so a caller can trace the ROM in the same pass.
///
/// # Errors
/// If the emulator fails.
pub fn bot_movie(
    emulator: &mut Emulator,
    setup: GameSetup,
    seed: u64,
    play_frames: usize,
    mut each: impl FnMut(&Emulator),
) -> Result<GeneratedMovie, RomError> {
    let mut movie = to_game(setup, seed, PlayStyle::Idle, 0, false);
    emulator.power_on();
    for &b in &movie.buttons {
        emulator.step(b)?;
        each(emulator);
    }
    let mut rng = Rng(seed ^ 0xb07);
    let mut last = Buttons::NONE;
    let mut spawn_seen: Option<u8> = None;
    let mut target: Option<(u8, i8)> = None;
    let mut idle = 0usize;
    let mut pause_left = 0usize;
    for _ in 0..play_frames {
        let ram = emulator.ram();
        let active = ram[0xC0] == 4 && ram[0x48] == 1;
        let mut b = Buttons::NONE;
        if pause_left > 0 {
            pause_left -= 1;
            if pause_left == 0 {
                b = Buttons::START;
            }
        } else if active {
            idle = 0;
            let fresh = spawn_seen != Some(ram[0x1A]);
            if fresh {
                spawn_seen = Some(ram[0x1A]);
                target = plan(&field_from_ram(&ram), ram[0x42]);
                match rng.next() % 40 {
                    0 => b = Buttons::SELECT,
                    1 => {
                        b = Buttons::START;
                        pause_left = 5 + (rng.next() % 60) as usize;
                    }
                    _ => {}
                }
            }
            let (piece, x) = (ram[0x42], ram[0x40] as i8);
            // Every press is followed by a released line so the next one is newly pressed; Down
            // is held, but let go for a new piece, whose soft drop needs a new press.
            let release =
                (!last.is_empty() && last != Buttons::DOWN) || (fresh && last == Buttons::DOWN);
            if b.is_empty() && !release {
                b = match target {
                    Some((o, _)) if piece != o => Buttons::A,
                    Some((_, tx)) if x < tx => Buttons::RIGHT,
                    Some((_, tx)) if x > tx => Buttons::LEFT,
                    _ => Buttons::DOWN,
                };
                if last == Buttons::DOWN && b != Buttons::DOWN {
                    b = Buttons::NONE;
                }
            }
        } else {
            // Curtain, high-score entry, level menu: Start now and then moves the game on.
            idle += 1;
            if idle > 120 && idle.is_multiple_of(40) {
                b = Buttons::START;
            }
        }
        emulator.step(b)?;
        each(emulator);
        movie.buttons.push(b);
        last = b;
    }
    movie.name = format!("bot-{}", movie.name);
    Ok(movie)
}

/// The bot games of the differential suite as `(setup, seed, play frames)` for [`bot_movie`],
/// about 100,000 frames: A-type from levels 0, 5, 9,
/// 12, 15, 18 and 19 (level-ups, every kind of line clear, scores past 30,000 and the A-type
/// ending) and B-type level 9 at heights 0 and 5 (25-line goal, B-type ending).
#[must_use]
pub fn bot_suite() -> Vec<(GameSetup, u64, usize)> {
    let a = |level, frames| {
        let setup = GameSetup {
            game_type: 0,
            music_type: level % 4,
            start_level: level,
            start_height: 0,
        };
        (setup, 3_000 + u64::from(level), frames)
    };
    let b = |height, frames| {
        let setup = GameSetup {
            game_type: 1,
            music_type: 0,
            start_level: 9,
            start_height: height,
        };
        (setup, 4_000 + u64::from(height), frames)
    };
    vec![
        a(0, 30_000),
        a(5, 20_000),
        a(9, 15_000),
        a(12, 10_000),
        a(15, 8_000),
        a(18, 6_000),
        a(19, 4_000),
        b(0, 5_000),
        b(5, 5_000),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_has_four_distinct_cells() {
        for cells in ORIENTATION_CELLS {
            for i in 0..4 {
                for j in i + 1..4 {
                    assert_ne!(cells[i], cells[j]);
                }
            }
        }
    }

    #[test]
    fn bot_suite_spans_levels_and_both_types() {
        let suite = bot_suite();
        let frames: usize = suite.iter().map(|&(_, _, f)| f).sum();
        assert!(frames >= 100_000, "{frames}");
        assert!(
            suite
                .iter()
                .any(|(s, _, _)| s.game_type == 1 && s.start_height == 5)
        );
        assert!(suite.iter().any(|(s, _, _)| s.start_level >= 18));
    }

    #[test]
    fn plans_fill_a_row_gap() {
        let mut f = [[false; 10]; 20];
        for (c, cell) in f[19].iter_mut().enumerate() {
            *cell = c != 4;
        }
        // An I piece stood upright fills the gap and clears the row.
        assert_eq!(plan(&f, 0x12), Some((0x11, 4)));
    }
}
