//! Where a piece can still be put when time is short: the fastest taps toward each column under
//! the input timeline, against gravity, then a straight drop.
//!
//! This is the planner's estimate for pieces it has not seen move yet (the preview, and the
//! pieces after it): it lists (orientation, column, landing row) for every column the piece
//! reaches by tapping as fast as the timeline allows, rotating on the first press frames. It
//! finds no tucks or spins, so it never claims more than the frame-exact search
//! ([`super::search::Searcher`]) would (tested there); the piece actually played is always
//! searched exactly.

use playfield_nes::tables::ROTATION_TABLE;

use super::field::Field;
use super::input::InputModel;
use super::search::Gravity;

/// One place a piece can be dropped to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drop {
    /// Orientation id.
    pub orientation: u8,
    /// `tetriminoX`.
    pub x: i8,
    /// `tetriminoY` where it lands.
    pub y: i8,
}

/// The distinct orientations of a spawn orientation, each with the presses (A clockwise or B
/// counter-clockwise) that reach it: none, A, B, or A twice.
fn rotations(spawn: u8) -> Vec<(u8, u8, bool)> {
    // (orientation, presses, clockwise)
    let mut out = vec![(spawn, 0, true)];
    let a = ROTATION_TABLE[usize::from(spawn)][1];
    let b = ROTATION_TABLE[usize::from(spawn)][0];
    if a != spawn {
        out.push((a, 1, true));
    }
    if b != spawn && b != a {
        out.push((b, 1, false));
    }
    let aa = ROTATION_TABLE[usize::from(a)][1];
    if !out.iter().any(|&(o, _, _)| o == aa) {
        out.push((aa, 2, true));
    }
    out
}

/// The frames (1-based, from spawn) on which a tap, or a rotation press, may start: a new press
/// needs a frame the timeline allows and a release since the last press of that button, so
/// presses of one button are at least two frames apart.
#[must_use]
pub fn press_frames(model: &InputModel, count: usize) -> Vec<u32> {
    let mut frames = Vec::with_capacity(count);
    let mut frame = 1u32;
    while frames.len() < count {
        if model.may_press(frame) && frames.last().is_none_or(|&last| frame >= last + 2) {
            frames.push(frame);
        }
        frame += 1;
    }
    frames
}

/// Every (orientation, column) a piece spawned at (5, 0) reaches with the fastest taps, each
/// with the row it drops to. Rotations are pressed on the first press frames, with the taps.
#[must_use]
pub fn drops(field: &Field, spawn: u8, gravity: Gravity, model: &InputModel) -> Vec<Drop> {
    let mut out = Vec::with_capacity(40);
    if !field.fits(spawn, 5, 0) {
        return out;
    }
    let presses = press_frames(model, 5);
    for (target, rotation_presses, clockwise) in rotations(spawn) {
        for (dir, max_taps) in [(0i8, 0usize), (-1, 5), (1, 4)] {
            for taps in usize::from(dir != 0)..=max_taps {
                match tap_to(
                    field,
                    spawn,
                    (rotation_presses, clockwise),
                    (dir, taps),
                    gravity,
                    &presses,
                ) {
                    Some(d) => {
                        debug_assert_eq!(d.orientation, target);
                        out.push(d);
                    }
                    // Blocked on the way: farther columns are blocked too.
                    None => break,
                }
            }
        }
    }
    out
}

/// Whether a piece spawned at (5, 0) in orientation `spawn` gets to column `x` in orientation
/// `target` with the fastest taps (see [`drops`]); `presses` from [`press_frames`] (at least 5).
#[must_use]
pub fn reaches(
    field: &Field,
    spawn: u8,
    target: u8,
    x: i8,
    gravity: Gravity,
    presses: &[u32],
) -> bool {
    if !field.fits(spawn, 5, 0) {
        return false;
    }
    let a = ROTATION_TABLE[usize::from(spawn)][1];
    let rotation = if target == spawn {
        (0, true)
    } else if target == a {
        (1, true)
    } else if target == ROTATION_TABLE[usize::from(spawn)][0] {
        (1, false)
    } else {
        (2, true)
    };
    let dir = (x - 5).signum();
    let taps = usize::from((x - 5).unsigned_abs());
    taps <= presses.len()
        && tap_to(field, spawn, rotation, (dir, taps), gravity, presses).is_some_and(|d| d.x == x)
}

/// Taps `taps` times in direction `dir` and presses the rotation button `rotation.0` times,
/// on the press frames, against gravity; then drops. `None` when a tap or a rotation is
/// blocked, or the piece locks before the last press.
fn tap_to(
    field: &Field,
    spawn: u8,
    rotation: (u8, bool),
    (dir, taps): (i8, usize),
    gravity: Gravity,
    presses: &[u32],
) -> Option<Drop> {
    let (rotation_presses, clockwise) = rotation;
    let actions = taps.max(usize::from(rotation_presses));
    let (mut x, mut y, mut o) = (5i8, 0i8, spawn);
    let mut fall_timer = 0u8;
    if actions > 0 {
        let last = presses[actions - 1];
        let mut next = 0;
        for frame in 1..=last {
            fall_timer = fall_timer.wrapping_add(1);
            if next < actions && presses[next] == frame {
                // shift_tetrimino, then rotate_tetrimino, as the ROM orders them.
                if next < taps {
                    if !field.fits(o, x + dir, y) {
                        return None;
                    }
                    x += dir;
                }
                if next < usize::from(rotation_presses) {
                    let r = ROTATION_TABLE[usize::from(o)][usize::from(clockwise)];
                    if !field.fits(r, x, y) {
                        return None;
                    }
                    o = r;
                }
                next += 1;
            }
            let rows = if gravity.double {
                2
            } else if fall_timer >= gravity.drop_speed {
                1
            } else {
                0
            };
            if rows > 0 {
                fall_timer = 0;
            }
            for _ in 0..rows {
                if !field.fits(o, x, y + 1) {
                    // Locked here: fine only once every press is done.
                    return (frame == last).then_some(Drop {
                        orientation: o,
                        x,
                        y,
                    });
                }
                y += 1;
            }
        }
    }
    Some(Drop {
        orientation: o,
        x,
        y: field.drop_row(o, x, y),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_an_empty_field_every_column_is_reached_at_level_18() {
        let model = InputModel::new("X.", true, 0).unwrap();
        // Vertical I ($11): spawn is horizontal $12, one press away.
        let d = drops(&Field::default(), 0x12, Gravity::from(18), &model);
        let vertical: Vec<i8> = d
            .iter()
            .filter(|d| d.orientation == 0x11)
            .map(|d| d.x)
            .collect();
        assert_eq!(vertical, vec![5, 4, 3, 2, 1, 0, 6, 7, 8, 9]);
        assert!(
            d.iter()
                .all(|d| d.y == 18 || d.orientation == 0x12 && d.y == 19)
        );
    }

    #[test]
    fn at_double_speed_a_tall_stack_cuts_off_the_right_wall() {
        let model = InputModel::new("X.", true, 0).unwrap();
        let mut field = Field::default();
        for y in 8..20 {
            field.rows[y] = 0b01_1100_0000; // columns 6-8 twelve high
        }
        let gravity = Gravity {
            drop_speed: 1,
            double: true,
        };
        let d = drops(&field, 0x12, gravity, &model);
        assert!(!d.iter().any(|d| d.orientation == 0x11 && d.x == 9));
        assert!(d.iter().any(|d| d.orientation == 0x11 && d.x == 0));
    }
}
