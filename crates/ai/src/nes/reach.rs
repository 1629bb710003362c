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
    DropPlan::new(spawn, gravity, &press_frames(model, 5)).drops(field)
}

/// The taps [`drops`] tries for one spawn orientation, gravity and input timeline, each with the
/// cells it tests on an empty field and where it gets the piece there: on a field with none of
/// those cells filled every test passes as it does on the empty field, so the tapping need not
/// be run again (the look-ahead asks for a piece's drops hundreds of thousands of times a
/// decision, mostly on stacks well below the taps).
#[derive(Clone, Debug)]
pub struct DropPlan {
    spawn: u8,
    gravity: Gravity,
    presses: [u32; 5],
    /// The (rotation, direction) runs in the order [`drops`] lists them: each a list of taps,
    /// one column farther each.
    runs: Vec<Vec<PlannedTap>>,
}

/// One way of tapping in a [`DropPlan`].
#[derive(Clone, Copy, Debug)]
struct PlannedTap {
    rotation: (u8, bool),
    dir: i8,
    taps: u8,
    /// The cells the taps test on an empty field and where they leave the piece there (before
    /// the drop; `dropped`: whether it then drops from there), or `None` when the taps fail even
    /// on the empty field.
    empty: Option<([u16; 20], Drop, bool)>,
}

impl DropPlan {
    /// The plan for a piece spawning in orientation `spawn` under `gravity`, tapped on `presses`
    /// ([`press_frames`], at least 5).
    #[must_use]
    pub fn new(spawn: u8, gravity: Gravity, presses: &[u32]) -> DropPlan {
        let mut first = [0; 5];
        first.copy_from_slice(&presses[..5]);
        let mut runs = Vec::new();
        for (_, rotation_presses, clockwise) in rotations(spawn) {
            for (dir, max_taps) in [(0i8, 0usize), (-1, 5), (1, 4)] {
                let run = (usize::from(dir != 0)..=max_taps)
                    .map(|taps| {
                        let rotation = (rotation_presses, clockwise);
                        let cells = std::cell::RefCell::new([0u16; 20]);
                        let empty = Field::default();
                        let on_empty = |land: &dyn Fn(u8, i8, i8) -> i8| {
                            tap_to(
                                |o, x, y| {
                                    mark_cells(&mut cells.borrow_mut(), o, x, y);
                                    empty.fits(o, x, y)
                                },
                                spawn,
                                rotation,
                                (dir, taps),
                                gravity,
                                &first,
                                land,
                            )
                        };
                        // Where the taps leave the piece, and whether it drops from there (a
                        // mark for the row it would drop to) or locked on the way.
                        let at = on_empty(&|_, _, y| y);
                        let dropped = on_empty(&|_, _, _| i8::MIN).is_some_and(|d| d.y == i8::MIN);
                        PlannedTap {
                            rotation,
                            dir,
                            taps: taps as u8,
                            empty: at.map(|d| (cells.into_inner(), d, dropped)),
                        }
                    })
                    .collect();
                runs.push(run);
            }
        }
        DropPlan {
            spawn,
            gravity,
            presses: first,
            runs,
        }
    }

    /// Every (orientation, column) the piece reaches on `field`, each with the row it drops to,
    /// as [`drops`] lists them.
    #[must_use]
    pub fn drops(&self, field: &Field) -> Vec<Drop> {
        let mut out = Vec::with_capacity(40);
        self.drops_into(field, &mut out);
        out
    }

    /// [`DropPlan::drops`] into `out` (cleared first).
    pub fn drops_into(&self, field: &Field, out: &mut Vec<Drop>) {
        out.clear();
        if !field.fits(self.spawn, 5, 0) {
            return;
        }
        let columns = field.columns();
        let land = |o: u8, x: i8, y: i8| Field::drop_row_by_columns(&columns, o, x, y);
        for run in &self.runs {
            for tap in run {
                let clear = tap
                    .empty
                    .filter(|(cells, _, _)| cells.iter().zip(&field.rows).all(|(c, r)| c & r == 0));
                let drop = match clear {
                    Some((_, d, true)) => Some(Drop {
                        y: land(d.orientation, d.x, d.y),
                        ..d
                    }),
                    Some((_, d, false)) => Some(d),
                    None => tap_to(
                        |o, x, y| field.fits(o, x, y),
                        self.spawn,
                        tap.rotation,
                        (tap.dir, usize::from(tap.taps)),
                        self.gravity,
                        &self.presses,
                        land,
                    ),
                };
                match drop {
                    Some(d) => out.push(d),
                    // Blocked on the way: farther columns are blocked too.
                    None => break,
                }
            }
        }
    }
}

/// [`DropPlan`]s for one input timeline, made as each (spawn orientation, gravity) is first
/// asked for: one look-ahead meets a few gravities at most.
#[derive(Debug)]
pub struct DropPlans {
    presses: Vec<u32>,
    plans: std::cell::RefCell<Vec<DropPlan>>,
}

impl DropPlans {
    /// No plans yet, for taps on `presses` ([`press_frames`], at least 5).
    #[must_use]
    pub fn new(presses: &[u32]) -> DropPlans {
        DropPlans {
            presses: presses.to_vec(),
            plans: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// [`drops`] of a piece spawning in orientation `spawn` on `field` under `gravity`.
    #[must_use]
    pub fn drops(&self, field: &Field, spawn: u8, gravity: Gravity) -> Vec<Drop> {
        let mut out = Vec::with_capacity(40);
        self.drops_into(field, spawn, gravity, &mut out);
        out
    }

    /// [`DropPlans::drops`] into `out` (cleared first).
    pub fn drops_into(&self, field: &Field, spawn: u8, gravity: Gravity, out: &mut Vec<Drop>) {
        let mut plans = self.plans.borrow_mut();
        let index = match plans
            .iter()
            .position(|p| p.spawn == spawn && p.gravity == gravity)
        {
            Some(i) => i,
            None => {
                plans.push(DropPlan::new(spawn, gravity, &self.presses));
                plans.len() - 1
            }
        };
        plans[index].drops_into(field, out);
    }
}

/// Adds the cells of the field (rows 0-19) that orientation `o` at (`x`, `y`) covers to `cells`.
fn mark_cells(cells: &mut [u16; 20], o: u8, x: i8, y: i8) {
    for m in playfield_nes::tables::ORIENTATIONS[usize::from(o)] {
        let (cx, cy) = (x + m.dx, y + m.dy);
        if (0..10).contains(&cx) && (0..20).contains(&cy) {
            cells[cy as usize] |= 1 << cx;
        }
    }
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
    if taps > presses.len() {
        return false;
    }
    let path = TapPath {
        spawn,
        rotation,
        dir,
        taps: taps as u8,
        gravity,
        presses: {
            let mut first = [0; 5];
            for (f, &p) in first.iter_mut().zip(presses.iter().take(taps.max(2))) {
                *f = p;
            }
            first
        },
    };
    // The cells the taps test on an empty field: when the field has none of them filled, every
    // test passes as it does there.
    if let Some(cells) = path_cells(&path)
        && cells.iter().zip(&field.rows).all(|(c, r)| c & r == 0)
    {
        return true;
    }
    taps_reach(field, &path, x)
}

/// Whether the taps of `path` get the piece to column `x` on `field`.
fn taps_reach(field: &Field, path: &TapPath, x: i8) -> bool {
    path.run(|o, x, y| field.fits(o, x, y))
        .is_some_and(|d| d.x == x)
}

/// One way of tapping a piece from spawn, as [`reaches`] tries it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TapPath {
    spawn: u8,
    rotation: (u8, bool),
    dir: i8,
    taps: u8,
    gravity: Gravity,
    /// The press frames the taps and rotations use (0 past them).
    presses: [u32; 5],
}

impl TapPath {
    /// The taps with `fits` as the collision test; where the piece would land does not matter
    /// here, only where the taps get it.
    fn run(&self, fits: impl Fn(u8, i8, i8) -> bool) -> Option<Drop> {
        tap_to(
            fits,
            self.spawn,
            self.rotation,
            (self.dir, usize::from(self.taps)),
            self.gravity,
            &self.presses,
            |_, _, y| y,
        )
    }
}

thread_local! {
    /// [`path_cells`] of the paths tried so far on this thread (a few dozen: they depend on the
    /// level's gravity and the input timeline only), newest first.
    static PATH_CELLS: std::cell::RefCell<Vec<(TapPath, Option<[u16; 20]>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The field cells (rows 0-19) that the taps of `path` test on an empty field, or `None` when
/// the piece does not get there even on an empty field.
fn path_cells(path: &TapPath) -> Option<[u16; 20]> {
    if let Some(known) = PATH_CELLS.with(|m| {
        m.borrow()
            .iter()
            .find(|(p, _)| p == path)
            .map(|&(_, cells)| cells)
    }) {
        return known;
    }
    let cells = std::cell::RefCell::new([0u16; 20]);
    let empty = Field::default();
    let target = 5 + path.dir * path.taps as i8;
    let result = path.run(|o, x, y| {
        mark_cells(&mut cells.borrow_mut(), o, x, y);
        empty.fits(o, x, y)
    });
    let known = result
        .is_some_and(|d| d.x == target)
        .then(|| cells.into_inner());
    PATH_CELLS.with(|m| m.borrow_mut().insert(0, (*path, known)));
    known
}

/// Taps `taps` times in direction `dir` and presses the rotation button `rotation.0` times,
/// on the press frames, against gravity; then drops (`land` gives the row it drops to from
/// (orientation, x, y)). `None` when a tap or a rotation is blocked, or the piece locks before
/// the last press.
fn tap_to(
    fits: impl Fn(u8, i8, i8) -> bool,
    spawn: u8,
    rotation: (u8, bool),
    (dir, taps): (i8, usize),
    gravity: Gravity,
    presses: &[u32],
    land: impl Fn(u8, i8, i8) -> i8,
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
                    if !fits(o, x + dir, y) {
                        return None;
                    }
                    x += dir;
                }
                if next < usize::from(rotation_presses) {
                    let r = ROTATION_TABLE[usize::from(o)][usize::from(clockwise)];
                    if !fits(r, x, y) {
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
                if !fits(o, x, y + 1) {
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
        y: land(o, x, y),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// The empty-field shortcut of `reaches` gives what tapping on the field gives.
        #[test]
        fn reaches_equals_tapping_on_the_field(
            heights in prop::collection::vec(0u8..=20, 10),
            x in 0i8..10,
            drop_speed in 1u8..4,
            double in any::<bool>(),
            timeline in prop_oneof![Just("X"), Just("X."), Just("X...")],
        ) {
            let mut field = Field::default();
            for (c, &h) in heights.iter().enumerate() {
                for row in &mut field.rows[usize::from(20 - h)..] {
                    *row |= 1 << c;
                }
            }
            let presses = press_frames(&InputModel::new(timeline, true, 0).unwrap(), 5);
            let gravity = Gravity { drop_speed, double };
            let (spawn, target) = (0x12, 0x11);
            let expected = field.fits(spawn, 5, 0)
                && taps_reach(
                    &field,
                    &TapPath {
                        spawn,
                        rotation: (1, true),
                        dir: (x - 5).signum(),
                        taps: (x - 5).unsigned_abs(),
                        gravity,
                        presses: {
                            let mut first = [0; 5];
                            first.copy_from_slice(&presses[..5]);
                            first
                        },
                    },
                    x,
                );
            prop_assert_eq!(reaches(&field, spawn, target, x, gravity, &presses), expected);
        }
    }

    /// [`drops`] as it was before [`DropPlan`]: every tap tried on the field itself.
    fn drops_by_tapping(field: &Field, spawn: u8, gravity: Gravity, presses: &[u32]) -> Vec<Drop> {
        let mut out = Vec::new();
        if !field.fits(spawn, 5, 0) {
            return out;
        }
        let columns = field.columns();
        let land = |o: u8, x: i8, y: i8| Field::drop_row_by_columns(&columns, o, x, y);
        for (_, rotation_presses, clockwise) in rotations(spawn) {
            for (dir, max_taps) in [(0i8, 0usize), (-1, 5), (1, 4)] {
                for taps in usize::from(dir != 0)..=max_taps {
                    match tap_to(
                        |o, x, y| field.fits(o, x, y),
                        spawn,
                        (rotation_presses, clockwise),
                        (dir, taps),
                        gravity,
                        presses,
                        land,
                    ) {
                        Some(d) => out.push(d),
                        None => break,
                    }
                }
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// A plan's drops, taken from the empty field where the taps meet no filled cell, are
        /// what tapping on the field itself gives, in the same order, on stacks of any height
        /// with holes and overhangs.
        #[test]
        fn planned_drops_equal_tapping_on_the_field(
            heights in prop::collection::vec(0u8..=20, 10),
            holes in prop::collection::vec(prop_oneof![Just(0u16), 0u16..0x400], 20),
            piece in 0usize..7,
            drop_speed in 1u8..4,
            double in any::<bool>(),
            timeline in prop_oneof![Just("X"), Just("X."), Just("X...")],
        ) {
            let field = Field::with_columns(&heights, &holes);
            let presses = press_frames(&InputModel::new(timeline, true, 0).unwrap(), 5);
            let gravity = Gravity { drop_speed, double };
            let spawn = playfield_nes::tables::SPAWN_TABLE[piece];
            let plans = DropPlans::new(&presses);
            prop_assert_eq!(
                plans.drops(&field, spawn, gravity),
                drops_by_tapping(&field, spawn, gravity, &presses)
            );
        }
    }

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
