//! The game's rules as plain functions on the playfield page and the BCD counters, with the
//! ROM's 8-bit arithmetic. The engine runs them inside its routines (spread over frames as the
//! ROM spreads them), and the AI's planning calls the same functions, so no rule is written twice.

use crate::ram::player_vars::bcd;
use crate::tables::{ORIENTATIONS, POINTS_TABLE, TILE_EMPTY};
use crate::vocabulary::region::Region;

/// `generateNextPseudorandomNumber`: a 16-bit Fibonacci LFSR, bit 1 XOR bit 9 shifted in on top.
#[must_use]
pub const fn next_rng(seed: u16) -> u16 {
    let feedback = ((seed >> 9) ^ (seed >> 1)) & 1;
    (feedback << 15) | (seed >> 1)
}
pub use crate::movement::{
    Das, DropStep, DropTimerFields, Gravity, Moved, PieceFields, PieceState, control_frame,
    drop_tetrimino, drop_timers, rotate_tetrimino, shift_tetrimino,
};

/// `isPositionValid`: every mino inside rows −2..19 and columns 0..9, on a cell ≥ `tileEmpty`.
///
/// `page` is the whole playfield page ($0400-$04FF): rows −2 and −1 wrap to its bytes 236-255,
/// which stay `tileEmpty`, so they are free. An orientation id past the table is never valid.
/// The row and column tests depend only on the orientation and on `tetriminoY` or `tetriminoX`,
/// so they are looked up in `POSITION_BOUNDS`; the cells are read as the ROM reads them (the
/// answer does not depend on the order of the tests).
#[inline]
#[must_use]
pub fn is_position_valid(page: &[u8; 256], x: u8, y: u8, orientation: u8) -> bool {
    let Some(bounds) = POSITION_BOUNDS.get(usize::from(orientation)) else {
        return false;
    };
    if bounds[usize::from(x)] & (bounds[usize::from(y)] >> 1) & 1 == 0 {
        return false;
    }
    let origin = y.wrapping_mul(10).wrapping_add(x);
    MINO_CHECKS[usize::from(orientation)]
        .iter()
        .all(|mino| page[usize::from(mino.cell.wrapping_add(origin))] >= TILE_EMPTY)
}

/// `playState_lockTetrimino`'s copy of the piece's tiles into the page (same 8-bit cell index).
/// An orientation id past the table writes nothing.
#[inline]
pub fn lock_tetrimino(page: &mut [u8; 256], x: u8, y: u8, orientation: u8) {
    let Some(minos) = ORIENTATIONS.get(usize::from(orientation)) else {
        return;
    };
    let origin = y.wrapping_mul(10).wrapping_add(x);
    for mino in minos {
        let cell = (mino.dy as u8)
            .wrapping_mul(10)
            .wrapping_add(origin)
            .wrapping_add(mino.dx as u8);
        page[usize::from(cell)] = mino.tile;
    }
}

/// The first row `playState_checkForCompletedRows` looks at for a piece locked at row `y`: two
/// rows above it, or row 0 (the test is signed). It then checks four rows from there.
#[inline]
#[must_use]
pub const fn first_row_checked(y: u8) -> u8 {
    let top = y.wrapping_sub(2);
    if (top as i8) < 0 { 0 } else { top }
}

/// One row of `playState_checkForCompletedRows`: when `row` is full, `@movePlayfieldDownOneRow`
/// moves every cell above it ten cells down and row 0 is emptied. Returns whether it was full.
///
/// The copy index wraps at 8 bits, so a full row 0 shifts the whole page (the ROM then writes
/// into page 5, which is not modelled).
#[inline]
pub fn clear_row_if_complete(page: &mut [u8; 256], row: u8) -> bool {
    let start = row.wrapping_mul(10);
    let complete = (0..10u8).all(|i| page[usize::from(start.wrapping_add(i))] != TILE_EMPTY);
    if !complete {
        return false;
    }
    // The copy loop starts at cell start − 1 with an 8-bit index, so row 0 starts at 255.
    let end = if start == 0 { 256 } else { usize::from(start) };
    page.copy_within(0..end.min(256 - 10), 10);
    page[..10].fill(TILE_EMPTY);
    true
}

/// Locks a piece and clears its completed rows at once, as `playState_lockTetrimino` followed by
/// the four frames of `playState_checkForCompletedRows` leave the page. Returns the rows cleared.
/// For planning: the engine runs the same two rules a frame at a time.
pub fn lock_and_clear(page: &mut [u8; 256], x: u8, y: u8, orientation: u8) -> u8 {
    lock_tetrimino(page, x, y, orientation);
    let top = first_row_checked(y);
    let mut cleared = 0;
    for line_index in 0..4u8 {
        if clear_row_if_complete(page, top.wrapping_add(line_index)) {
            cleared += 1;
        }
    }
    cleared
}

/// `incrementLines`: one line added to the BCD count (low byte first), and the level check on
/// every tenth line. Returns whether the level went up.
///
/// The level rises when it is below lines / 10 compared signed (`bpl`): this is why a start at
/// level 18 first rises at 130 lines, and why levels wrap past 255.
#[inline]
pub fn increment_lines(lines: &mut [u8; 2], level: &mut u8) -> bool {
    lines[0] = lines[0].wrapping_add(1);
    if lines[0] & 0x0F >= 0x0A {
        lines[0] = lines[0].wrapping_add(6);
        if lines[0] & 0xF0 >= 0xA0 {
            lines[0] &= 0x0F;
            lines[1] = lines[1].wrapping_add(1);
        }
    }
    if lines[0] & 0x0F != 0 {
        return false;
    }
    let tens = ((u16::from(lines[1]) << 8 | u16::from(lines[0])) >> 4) as u8;
    if (level.wrapping_sub(tens) as i8) < 0 {
        *level = level.wrapping_add(1);
        return true;
    }
    false
}

/// The `lines` counter as a number of lines: the low byte's two BCD digits plus 100 per step of
/// the high byte, which `incrementLines` counts in binary. Up to 999 lines this is the displayed
/// count; past it, it stays the count the level-ups follow, where the displayed digits repeat.
#[must_use]
pub const fn lines_count(counter: [u8; 2]) -> u32 {
    counter[1] as u32 * 100 + bcd(counter[0])
}

/// The `lines` counter that holds `count` lines ([`lines_count`]'s inverse), as `incrementLines`
/// leaves it after counting them from zero.
#[must_use]
pub const fn lines_counter(count: u32) -> [u8; 2] {
    let low = count % 100;
    [(((low / 10) << 4) | (low % 10)) as u8, (count / 100) as u8]
}

/// `@lookupDropSpeed` for NTSC: frames per row, 1 from level 29 on.
#[inline]
#[must_use]
pub fn drop_speed(level: u8) -> u8 {
    Region::Ntsc.drop_speed(level)
}

/// `addHoldDownPoints`: adds rows soft-dropped − 1 (`holdDownPoints` ≥ 2) to the BCD score
/// (low byte first) with the ROM's flawed addition: when the low byte's tens digit overflows,
/// its units digit is lost. Returns whether it added anything.
#[inline]
pub fn add_hold_down_points(score: &mut [u8; 3], hold_down_points: u8) -> bool {
    if (hold_down_points.wrapping_sub(2) as i8) < 0 {
        return false;
    }
    score[0] = score[0].wrapping_sub(1);
    score[0] = hold_down_points.wrapping_add(score[0]);
    if score[0] & 0x0F >= 0x0A {
        score[0] = score[0].wrapping_add(6);
    }
    if score[0] & 0xF0 >= 0xA0 {
        score[0] = (score[0] & 0xF0).wrapping_add(0x60);
        score[1] = score[1].wrapping_add(1);
    }
    true
}

/// `addLineClearPoints`' loop: `pointsTable[completed]` added `level + 1` times (8-bit count, so
/// level 255 adds it 256 times) to the BCD score, low byte first.
///
/// `millions` `None` is the ROM: when the top byte overflows, the score becomes 999,999.
/// `Some` is the score without the cap (not the ROM): the overflow is carried into the count of
/// millions instead.
#[inline]
pub fn add_line_clear_points(
    score: &mut [u8; 3],
    completed: u8,
    level: u8,
    millions: Option<&mut u32>,
) {
    let points = POINTS_TABLE[usize::from(completed).min(4)];
    add_points_repeatedly(score, points, level.wrapping_add(1), millions);
}

/// The points a clear of `completed` rows adds at `level` without the 999,999 cap:
/// `pointsTable[completed]` × (level + 1), as `addLineClearPoints` adds it `level + 1` times
/// (the level counter is 8-bit, so level 255 adds it 256 times).
#[inline]
#[must_use]
pub fn line_clear_points(completed: u8, level: u8) -> u32 {
    let bcd = POINTS_TABLE[usize::from(completed).min(4)];
    let points = u32::from(bcd >> 12) * 1000
        + u32::from(bcd >> 8 & 0xF) * 100
        + u32::from(bcd >> 4 & 0xF) * 10
        + u32::from(bcd & 0xF);
    points * (u32::from(level) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drop_speed_rule_is_the_ntsc_table() {
        assert_eq!(drop_speed(18), 3);
        assert_eq!(drop_speed(19), Region::Ntsc.drop_speed(19));
    }

    #[test]
    fn the_line_count_follows_increment_lines_past_the_display() {
        let (mut counter, mut level) = ([0u8; 2], 0u8);
        for count in 1..=2_600u32 {
            increment_lines(&mut counter, &mut level);
            assert_eq!(lines_count(counter), count);
            assert_eq!(lines_counter(count), counter);
        }
    }

    #[test]
    fn a_start_at_18_first_levels_up_at_130_lines() {
        let mut lines = [0u8; 2];
        let mut level = 18u8;
        let mut ups = Vec::new();
        for n in 1..=200u32 {
            if increment_lines(&mut lines, &mut level) {
                ups.push(n);
            }
        }
        assert_eq!(ups, vec![130, 140, 150, 160, 170, 180, 190, 200]);
        assert_eq!(lines, [0x00, 0x02]);
    }

    #[test]
    fn a_tetris_at_level_18_is_22800_points() {
        assert_eq!(line_clear_points(4, 18), 22_800);
        assert_eq!(line_clear_points(1, 0), 40);
        assert_eq!(line_clear_points(0, 9), 0);
        assert_eq!(line_clear_points(4, 255), 1200 * 256);
    }

    #[test]
    fn the_uncapped_score_carries_into_millions_where_the_rom_caps() {
        let mut rom = [0x00, 0x80, 0x99]; // 998,000
        let mut wide = rom;
        let mut millions = 0;
        add_line_clear_points(&mut rom, 4, 18, None);
        add_line_clear_points(&mut wide, 4, 18, Some(&mut millions));
        assert_eq!(rom, [0x99; 3]);
        assert_eq!((millions, wide), (1, [0x00, 0x08, 0x02])); // 1,020,800
    }

    #[test]
    fn push_down_points_lose_the_units_digit_on_a_tens_overflow() {
        let mut score = [0x98, 0x00, 0x00];
        assert!(add_hold_down_points(&mut score, 5));
        assert_eq!(score, [0x00, 0x01, 0x00]); // 98 + 4 shows as 100, the 2 is lost
        assert!(!add_hold_down_points(&mut score, 1));
    }

    #[test]
    fn a_full_bottom_row_is_cleared_and_the_rest_moves_down() {
        let mut page = [TILE_EMPTY; 256];
        page[190..200].fill(0x7B);
        page[185] = 0x7C;
        assert!(clear_row_if_complete(&mut page, 19));
        assert_eq!(page[195], 0x7C);
        assert!(page[..195].iter().all(|&c| c == TILE_EMPTY));
        assert!(page[196..].iter().all(|&c| c == TILE_EMPTY));
        assert!(!clear_row_if_complete(&mut page, 19));
    }
}

/// One mino of `orientationTable` as `isPositionValid` uses it: the row and column offsets as the
/// bytes the ROM adds, and the cell offset `dy * 10 + dx` (wrapping, as the ROM's 8-bit index).
#[derive(Clone, Copy)]
struct MinoCheck {
    dy: u8,
    dx: u8,
    cell: u8,
}

/// `orientationTable` as [`MinoCheck`]s, for each orientation id and `hidden`.
static MINO_CHECKS: [[MinoCheck; 4]; 20] = {
    let mut table = [[MinoCheck {
        dy: 0,
        dx: 0,
        cell: 0,
    }; 4]; 20];
    let mut o = 0;
    while o < 20 {
        let mut i = 0;
        while i < 4 {
            let mino = ORIENTATIONS[o][i];
            table[o][i] = MinoCheck {
                dy: mino.dy as u8,
                dx: mino.dx as u8,
                cell: (mino.dy as u8).wrapping_mul(10).wrapping_add(mino.dx as u8),
            };
            i += 1;
        }
        o += 1;
    }
    table
};

/// The highest score the ROM shows: `addLineClearPoints` caps the six BCD digits at 999,999.
pub const SCORE_CAP: u32 = 999_999;

/// The score loop of `addLineClearPoints`: adds the BCD `points` to the BCD `score` `count` times
/// (256 times when `count` is 0), capping at 999,999 whenever the top digit passes 9, or with
/// `millions` carrying the top digit's overflow there (the uncapped score).
///
/// On a score of decimal digits, which is every score a game reaches, the loop's BCD additions
/// are exact and a capped score stays capped, so the result is the sum, computed at once (the
/// level makes the loop up to 256 passes long, the game's costliest routine in time). Any other
/// bytes take the ROM's loop.
fn add_points_repeatedly(score: &mut [u8; 3], points: u16, count: u8, millions: Option<&mut u32>) {
    let Some(sum) = decimal_sum(score, points, count) else {
        add_points_loop(score, points, count, millions);
        return;
    };
    let total = match millions {
        None => sum.min(SCORE_CAP),
        Some(m) => {
            *m += sum / 1_000_000;
            sum % 1_000_000
        }
    };
    *score = six_digits_bcd(total);
}

/// [`add_line_clear_points`] on the ROM's score (capped) and on the score without the cap
/// (`uncapped` and its `millions`) at once. When both hold the same decimal digits, which they
/// do until the cap, the sum is computed once; the results are those of the two calls.
#[inline]
pub(crate) fn add_line_clear_points_capped_and_uncapped(
    score: &mut [u8; 3],
    uncapped: &mut [u8; 3],
    millions: &mut u32,
    completed: u8,
    level: u8,
) {
    let points = POINTS_TABLE[usize::from(completed).min(4)];
    if points == 0 && is_decimal(score) && is_decimal(uncapped) {
        // No line (most locks): adding 0 leaves decimal digits as they are; the loop's fixups
        // change only digits above 9.
        return;
    }
    let count = level.wrapping_add(1);
    let shared = if *score == *uncapped {
        decimal_sum(score, points, count)
    } else {
        None
    };
    let Some(sum) = shared else {
        add_points_repeatedly(uncapped, points, count, Some(millions));
        add_points_repeatedly(score, points, count, None);
        return;
    };
    *millions += sum / 1_000_000;
    let low = sum % 1_000_000;
    let capped = sum.min(SCORE_CAP);
    *score = six_digits_bcd(capped);
    *uncapped = if low == capped {
        *score
    } else {
        six_digits_bcd(low)
    };
}

/// The score plus `count` times `points` (256 times when `count` is 0), in decimal, when the
/// score's bytes are decimal digits and `points` ends in a 0 digit (every entry of
/// `pointsTable`): the ROM's loop then adds exactly. `None` for any other bytes.
#[inline]
fn decimal_sum(score: &[u8; 3], points: u16, count: u8) -> Option<u32> {
    if !is_decimal(score) || points & 0x0F != 0 {
        return None;
    }
    let times = if count == 0 { 256 } else { u32::from(count) };
    let points = bcd((points >> 8) as u8) * 100 + bcd(points as u8);
    let value = bcd(score[2]) * 10_000 + bcd(score[1]) * 100 + bcd(score[0]);
    Some(value + points * times)
}

/// True when every digit of the BCD bytes is 0 to 9.
#[inline]
fn is_decimal(score: &[u8; 3]) -> bool {
    score.iter().all(|&b| b & 0x0F < 0x0A && b < 0xA0)
}

/// A number below 1,000,000 as three BCD bytes, low byte first.
#[inline]
fn six_digits_bcd(total: u32) -> [u8; 3] {
    let high = total / 10_000;
    let rest = total - high * 10_000;
    let middle = rest / 100;
    let low = rest - middle * 100;
    [
        TWO_DIGITS_BCD[low as usize],
        TWO_DIGITS_BCD[middle as usize],
        TWO_DIGITS_BCD[high as usize],
    ]
}

/// 0 to 99 as a BCD byte (a table: a score is converted at every line clear).
static TWO_DIGITS_BCD: [u8; 100] = {
    let mut table = [0u8; 100];
    let mut n = 0;
    while n < 100 {
        table[n] = (((n / 10) << 4) | (n % 10)) as u8;
        n += 1;
    }
    table
};

/// The ROM's score loop, pass by pass; with `millions`, the top byte's overflow is carried there
/// instead of capping (the uncapped score).
fn add_points_loop(score: &mut [u8; 3], points: u16, count: u8, mut millions: Option<&mut u32>) {
    let (lo, hi) = (points as u8, (points >> 8) as u8);
    let mut count = count;
    loop {
        score[0] = score[0].wrapping_add(lo);
        if score[0] >= 0xA0 {
            score[0] = score[0].wrapping_add(0x60);
            score[1] = score[1].wrapping_add(1);
        }
        score[1] = score[1].wrapping_add(hi);
        if score[1] & 0x0F >= 0x0A {
            score[1] = score[1].wrapping_add(6);
        }
        if score[1] & 0xF0 >= 0xA0 {
            score[1] = score[1].wrapping_add(0x60);
            score[2] = score[2].wrapping_add(1);
        }
        if score[2] & 0x0F >= 0x0A {
            score[2] = score[2].wrapping_add(6);
        }
        if score[2] & 0xF0 >= 0xA0 {
            match millions.as_deref_mut() {
                None => *score = [0x99; 3],
                Some(m) => {
                    score[2] = score[2].wrapping_add(0x60);
                    *m += 1;
                }
            }
        }
        count = count.wrapping_sub(1);
        if count == 0 {
            break;
        }
    }
}

#[cfg(test)]
mod score_loop_tests {
    use super::*;

    /// The capped and uncapped scores added at once equal the two additions one after the other,
    /// from equal and from different scores (decimal, capped, and not decimal).
    #[test]
    fn both_scores_at_once_equal_the_two_additions() {
        let scores: [[u8; 3]; 7] = [
            [0x00, 0x00, 0x00],
            [0x40, 0x12, 0x00],
            [0x80, 0x99, 0x99],
            [0x99, 0x99, 0x99],
            [0x00, 0x08, 0x02],
            [0x9A, 0x00, 0x10],
            [0x00, 0xA0, 0x99],
        ];
        for &score in &scores {
            for &low in &scores {
                for completed in 0..=5u8 {
                    for level in [0u8, 9, 18, 29, 99, 154, 255] {
                        let (mut a, mut b, mut millions_a) = (score, low, 3u32);
                        add_line_clear_points(&mut b, completed, level, Some(&mut millions_a));
                        add_line_clear_points(&mut a, completed, level, None);
                        let (mut c, mut d, mut millions_c) = (score, low, 3u32);
                        add_line_clear_points_capped_and_uncapped(
                            &mut c,
                            &mut d,
                            &mut millions_c,
                            completed,
                            level,
                        );
                        assert_eq!(
                            (a, b, millions_a),
                            (c, d, millions_c),
                            "score {score:02x?} uncapped {low:02x?} completed {completed} \
                             level {level}"
                        );
                    }
                }
            }
        }
    }

    /// Every decimal score on a grid that reaches the cap, every count and every entry of
    /// `pointsTable`: the computed sum equals the ROM's loop.
    #[test]
    fn computed_sum_equals_the_loop() {
        let mut checked = 0u32;
        for value in (0..=999_999u32)
            .step_by(4_999)
            .chain([999_999, 999_960, 998_800])
        {
            let digits = |n: u32| (((n / 10) << 4) | (n % 10)) as u8;
            let score = [
                digits(value % 100),
                digits(value / 100 % 100),
                digits(value / 10_000),
            ];
            for points in POINTS_TABLE {
                for count in 0..=255u8 {
                    let mut looped = score;
                    add_points_loop(&mut looped, points, count, None);
                    let mut computed = score;
                    add_points_repeatedly(&mut computed, points, count, None);
                    assert_eq!(
                        computed, looped,
                        "score {value}, points {points:#x}, count {count}"
                    );
                    // The uncapped score: the same sum, its overflow counted in millions.
                    let (mut looped, mut looped_millions) = (score, 7);
                    add_points_loop(&mut looped, points, count, Some(&mut looped_millions));
                    let (mut computed, mut computed_millions) = (score, 7);
                    add_points_repeatedly(
                        &mut computed,
                        points,
                        count,
                        Some(&mut computed_millions),
                    );
                    assert_eq!(
                        (computed, computed_millions),
                        (looped, looped_millions),
                        "uncapped score {value}, points {points:#x}, count {count}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 200_000);
    }

    /// Bytes that are not decimal digits take the loop itself.
    #[test]
    fn other_bytes_take_the_loop() {
        for score in [[0xFA, 0x00, 0x00], [0x00, 0xB0, 0x05], [0x00, 0x00, 0x9F]] {
            for count in [0u8, 1, 30] {
                let mut looped = score;
                add_points_loop(&mut looped, 0x0040, count, None);
                let mut computed = score;
                add_points_repeatedly(&mut computed, 0x0040, count, None);
                assert_eq!(computed, looped);
                let (mut looped, mut looped_millions) = (score, 0);
                add_points_loop(&mut looped, 0x0040, count, Some(&mut looped_millions));
                let (mut computed, mut computed_millions) = (score, 0);
                add_points_repeatedly(&mut computed, 0x0040, count, Some(&mut computed_millions));
                assert_eq!((computed, computed_millions), (looped, looped_millions));
            }
        }
    }
}

/// For each orientation id and each byte `v`: bit 0 set when every mino's column passes
/// `isPositionValid`'s test (`dx + tetriminoX < 10`, 8-bit) with `tetriminoX = v`, bit 1 set when
/// every mino's row passes (`clc; adc tetriminoY; adc #$02` then `< $16`, the second add taking
/// the first one's carry) with `tetriminoY = v`.
static POSITION_BOUNDS: [[u8; 256]; 20] = {
    let mut table = [[0u8; 256]; 20];
    let mut o = 0;
    while o < 20 {
        let mut v = 0;
        while v < 256 {
            let mut column_ok = true;
            let mut row_ok = true;
            let mut i = 0;
            while i < 4 {
                let mino = MINO_CHECKS[o][i];
                if mino.dx.wrapping_add(v as u8) >= 0x0A {
                    column_ok = false;
                }
                let (row, carry) = mino.dy.overflowing_add(v as u8);
                if row.wrapping_add(2).wrapping_add(carry as u8) >= 0x16 {
                    row_ok = false;
                }
                i += 1;
            }
            table[o][v] = column_ok as u8 | (row_ok as u8) << 1;
            v += 1;
        }
        o += 1;
    }
    table
};

#[cfg(test)]
mod position_tests {
    use super::*;
    use crate::tables::TILE1;

    /// `isPositionValid` as the ROM runs it, mino by mino.
    fn reference(page: &[u8; 256], x: u8, y: u8, orientation: u8) -> bool {
        let origin = y.wrapping_mul(10).wrapping_add(x);
        for mino in &ORIENTATIONS[usize::from(orientation)] {
            let (row, carry) = (mino.dy as u8).overflowing_add(y);
            if row.wrapping_add(2).wrapping_add(u8::from(carry)) >= 0x16 {
                return false;
            }
            let cell = (mino.dy as u8)
                .wrapping_mul(10)
                .wrapping_add(origin)
                .wrapping_add(mino.dx as u8);
            if page[usize::from(cell)] < TILE_EMPTY {
                return false;
            }
            if (mino.dx as u8).wrapping_add(x) >= 0x0A {
                return false;
            }
        }
        true
    }

    /// Every orientation at every byte of `tetriminoX` and `tetriminoY`, on an empty page and on
    /// a page with a scattered stack: the table lookup equals the ROM's mino-by-mino test.
    #[test]
    fn lookup_equals_the_rom_test() {
        let mut scattered = [TILE_EMPTY; 256];
        for (i, cell) in scattered.iter_mut().enumerate() {
            if (i * 7 + i / 10) % 3 == 0 {
                *cell = TILE1;
            }
        }
        let mut checked = 0u32;
        for page in [[TILE_EMPTY; 256], scattered] {
            for piece in 0..20u8 {
                for x in 0..=255u8 {
                    for y in 0..=255u8 {
                        assert_eq!(
                            is_position_valid(&page, x, y, piece),
                            reference(&page, x, y, piece),
                            "piece {piece} x {x} y {y}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 20 * 256 * 256);
        assert!(!is_position_valid(&[TILE_EMPTY; 256], 5, 5, 20));
    }
}
