//! Every reachable placement of [`super::search::Searcher`], found by sweeping sets of columns
//! frame by frame: the same frame model, run on ten columns at once.
//!
//! The searcher visits one state at a time (x, y, orientation and the timers). Most states differ
//! only in x, and what a frame does to a piece is the same for every column except where the
//! stack blocks a shift, a rotation or the drop. The sweep keeps, for each frame, the set of
//! states reached at that frame as groups of equal (y, orientation, `autorepeatX`, `fallTimer`,
//! `autorepeatY`, held buttons) with a 10-bit mask of the columns, and steps a whole group with a
//! few mask operations against precomputed per-row collision masks (the ROM's `isPositionValid`
//! on the page, rows −2..−1 included, see [`FitMasks`]).
//!
//! Three kinds of steps are left out because another step of the same frame reaches at least as
//! much at least as early: holding on a direction that neither shifts nor is blocked, when every
//! autorepeat shift still to come falls on a frame that may carry a new press (at 60 Hz always;
//! at 30 Hz when the direction was last pressed, or last shifted, on such a frame, as 16 and 6
//! are even): the same state with the direction released presses it on those frames instead;
//! and a rotation that can only repeat one already stepped (the O, and B after A on a piece of
//! two orientations) when held A and B are forgotten on the next frame; and the columns where a
//! rotation did not turn the piece: they are where the same buttons without A or B leave it,
//! only holding A or B, which forbids nothing but a new press of it.
//! At level 18 with 30 Hz input, DAS and soft drop this steps about a quarter of the groups.
//!
//! What it returns: the same set of lock placements (x, y, orientation) as the searcher, each with
//! the same earliest lock frame (the searcher is breadth-first over frames, the sweep goes frame by
//! frame). The order and the buttons may differ from the searcher's (both are among the shortest
//! sequences; the searcher's are the first found in its breadth-first order). The buttons are
//! rebuilt on request from a parent link kept for every state, so a caller that needs one
//! placement's buttons pays for that one only. Property tests check
//! the set and the frames against the searcher and play found sequences through the engine
//! (`tests/it/nes_search.rs`).

use playfield_nes::rules::{Das, drop_timers, is_position_valid};
use playfield_nes::tables::{ROTATION_TABLE, TILE_EMPTY};
use playfield_nes::{Buttons, Region};

use super::input::InputModel;
use super::search::{Gravity, PieceState, Searcher};

const RIGHT: u8 = Buttons::RIGHT.bits();
const LEFT: u8 = Buttons::LEFT.bits();
const DOWN: u8 = Buttons::DOWN.bits();
const UP: u8 = Buttons::UP.bits();
const A: u8 = Buttons::A.bits();
const B: u8 = Buttons::B.bits();
const DPAD: u8 = RIGHT | LEFT | DOWN | UP;
/// The movement rule's DAS (the AI plays NTSC).
const DAS: Das = Das::of(Region::Ntsc);

/// The searcher's button choices, in its order: d-pad (nothing, Left, Right, Down) × rotation
/// (nothing, A, B).
const DPAD_CHOICES: [u8; 4] = [0, LEFT, RIGHT, DOWN];
const ROTATE_CHOICES: [u8; 3] = [0, A, B];

/// Rows of the collision masks: `tetriminoY` 0..=23 (no piece is valid from row 20 down; rows 20-23
/// are there so that the drop tests of rows 19-21 need no bounds check).
const MASK_ROWS: usize = 24;

/// `isPositionValid` for ten columns at once: for each orientation of a piece and each row, bit
/// `x` is set when the piece fits at (x, y). Built from the page as the ROM reads it: the cell of
/// a mino is `(y + dy) × 10 + x + dx` modulo 256, so rows −2 and −1 are the page's bytes 236-255.
#[derive(Clone, Debug, Default)]
pub struct FitMasks {
    /// The orientations (ROM ids) of the piece, in rotation order from the start orientation.
    orientations: [u8; 4],
    count: usize,
    /// `fit[i][y]` for orientation `orientations[i]`.
    fit: [[u16; MASK_ROWS]; 4],
    /// `turn[i][c]`: the index of `ROTATION_TABLE[orientations[i]][c]`.
    turn: [[u8; 2]; 4],
}

/// Per orientation id: the columns `x` (0-15) and the rows `y` (0-23) where every mino is inside
/// the field by `isPositionValid`'s bound tests (taken from the rules on an empty page).
fn bounds() -> &'static [(u16, u32); 19] {
    static BOUNDS: std::sync::OnceLock<[(u16, u32); 19]> = std::sync::OnceLock::new();
    BOUNDS.get_or_init(|| {
        let empty = [TILE_EMPTY; 256];
        let mut out = [(0u16, 0u32); 19];
        for (o, entry) in out.iter_mut().enumerate() {
            let o = o as u8;
            // Every orientation has its centre mino at (0, 0), so column 5 and row 10 pass the
            // other axis's test; the rules then decide each column and row.
            for x in 0..16u8 {
                if is_position_valid(&empty, x, 10, o) {
                    entry.0 |= 1 << x;
                }
            }
            for y in 0..MASK_ROWS as u8 {
                if is_position_valid(&empty, 5, y, o) {
                    entry.1 |= 1 << y;
                }
            }
        }
        out
    })
}

impl FitMasks {
    /// The masks of `orientation`'s piece (every orientation reachable by rotating it) on `page`.
    /// `None` for an orientation id outside the table.
    #[must_use]
    pub fn new(page: &[u8; 256], orientation: u8) -> Option<FitMasks> {
        let mut masks = FitMasks::default();
        masks.build(page, orientation).then_some(masks)
    }

    /// Rebuilds in place; false for an orientation id outside the table.
    fn build(&mut self, page: &[u8; 256], orientation: u8) -> bool {
        if usize::from(orientation) >= ROTATION_TABLE.len() {
            return false;
        }
        // Rotation closure, clockwise (A) from the start.
        self.count = 0;
        let mut o = orientation;
        while self.count < 4 && !self.orientations[..self.count].contains(&o) {
            self.orientations[self.count] = o;
            self.count += 1;
            o = ROTATION_TABLE[usize::from(o)][1];
        }
        // Free cells of rows −2..=21 as column bits (a cell is free when its tile is ≥
        // `tileEmpty`); row r is at index r + 2.
        let mut free = [0u16; MASK_ROWS + 2];
        for (i, row) in free.iter_mut().enumerate() {
            let base = (i as i32 - 2) * 10;
            for c in 0..10 {
                let cell = (base + c).rem_euclid(256) as usize;
                if page[cell] >= TILE_EMPTY {
                    *row |= 1 << c;
                }
            }
        }
        for i in 0..self.count {
            let row = ROTATION_TABLE[usize::from(self.orientations[i])];
            self.turn[i] = [self.index(row[0]) as u8, self.index(row[1]) as u8];
        }
        let bounds = bounds();
        for i in 0..self.count {
            let o = self.orientations[i];
            let (columns, rows) = bounds[usize::from(o)];
            let minos = playfield_nes::tables::ORIENTATIONS[usize::from(o)];
            for y in 0..MASK_ROWS {
                let mut m = 0;
                if rows >> y & 1 != 0 {
                    m = columns;
                    for mino in &minos {
                        // Valid rows keep y + dy within −2..=19.
                        let r = (y as i32 + i32::from(mino.dy) + 2) as usize;
                        let row = free[r];
                        m &= if mino.dx >= 0 {
                            row >> mino.dx
                        } else {
                            row << -mino.dx
                        };
                    }
                }
                self.fit[i][y] = m;
            }
        }
        true
    }

    /// The index of orientation `o` among the piece's orientations.
    #[inline]
    fn index(&self, o: u8) -> usize {
        let i = self.orientations[..self.count].iter().position(|&x| x == o);
        debug_assert!(i.is_some(), "orientation {o} outside the piece's rotations");
        i.unwrap_or(0)
    }

    /// The columns where orientation `o` fits at row `y` (0 from row 24 down).
    #[must_use]
    pub fn columns(&self, o: u8, y: u8) -> u16 {
        self.fit_at(self.index(o), y)
    }

    #[inline]
    fn fit_at(&self, index: usize, y: u8) -> u16 {
        self.fit[index].get(usize::from(y)).copied().unwrap_or(0)
    }
}

/// A group of states at one frame: everything but x (x is the group's column mask). `autorepeatX`
/// is 0 when neither Left nor Right is held, and A/B are dropped from the held buttons when the
/// next frame cannot carry a new press, as in the searcher's key: neither can change where the
/// piece goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    y: u8,
    /// Index among [`FitMasks`]' orientations (0-3).
    orientation: u8,
    autorepeat_x: u8,
    fall_timer: u8,
    autorepeat_y: u8,
    held: u8,
}

/// Bits of a group's key (with the timeline phase) below the search stamp of a table slot.
const KEY_BITS: u32 = 46;

impl Group {
    /// The group and the timeline's phase (0-15) in [`KEY_BITS`] bits.
    #[inline(always)]
    fn key(self, phase: u32) -> u64 {
        u64::from(self.y)
            | u64::from(self.orientation & 3) << 8
            | u64::from(self.autorepeat_x) << 10
            | u64::from(self.fall_timer) << 18
            | u64::from(self.autorepeat_y) << 26
            | u64::from(self.held) << 34
            | u64::from(phase & 15) << 42
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    group: Group,
    /// Columns reached.
    mask: u16,
}

/// What one frame did to part of a group.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    /// Columns after the frame.
    mask: u16,
    /// The shift applied (the columns before the frame are `mask` shifted back).
    dx: i8,
    orientation: u8,
    autorepeat_x: u8,
    y: u8,
    locked: bool,
}

/// Parts one frame can split a group into: shift moved/blocked × rotation done/blocked, each
/// with a locked part per drop (three drops a frame with the double-speed option) and what is
/// left.
const MAX_PARTS: usize = 16;

/// One placement found by the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SweepPlacement {
    /// `tetriminoX` at lock.
    pub x: u8,
    /// `tetriminoY` at lock.
    pub y: u8,
    /// Orientation id at lock.
    pub orientation: u8,
    /// Frames from the search's start to the frame the drop is blocked (the earliest).
    pub frames: u32,
    /// The entry and column of the state before the locking frame, and that frame's buttons.
    entry: u32,
    column: u8,
    buttons: u8,
}

/// A slot of the table of seen groups: the columns reached so far, and the entry of the frame
/// being built that the new ones go to.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// The group's key, tagged with the search's stamp above [`KEY_BITS`] (another stamp: free).
    key: u64,
    columns: u16,
    /// The frame (`layers.len()` while it is built) `entry` belongs to.
    layer: u16,
    entry: u32,
}

/// An open-addressing table of groups, emptied in O(1) by changing its stamp.
#[derive(Clone, Debug, Default)]
struct Table {
    slots: Vec<Seen>,
    len: usize,
    /// The tag of live slots (1 ..= 2^18 − 1), above [`KEY_BITS`] in their keys.
    stamp: u64,
}

impl Table {
    /// Empties the table.
    #[inline]
    fn restart(&mut self, min_slots: usize) {
        if self.slots.len() < min_slots {
            self.slots = vec![Seen::default(); min_slots];
            self.stamp = 0;
        }
        self.stamp += 1;
        if self.stamp >= 1 << (64 - KEY_BITS) {
            self.slots.fill(Seen::default());
            self.stamp = 1;
        }
        self.len = 0;
    }

    /// Doubles the table, keeping the live slots.
    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Seen::default(); size]);
        let mask = size - 1;
        for slot in old {
            if slot.key >> KEY_BITS == self.stamp {
                let mut i = slot_of(slot.key, mask);
                while self.slots[i].key >> KEY_BITS == self.stamp {
                    i = (i + 1) & mask;
                }
                self.slots[i] = slot;
            }
        }
    }
}

#[inline(always)]
fn slot_of(key: u64, slots: usize) -> usize {
    let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 40) as usize & slots
}

/// A parent link: the entry and column of the state one frame earlier, and the frame's buttons.
#[derive(Clone, Copy, Debug, Default)]
struct Link {
    entry: u32,
    column: u8,
    buttons: u8,
}

/// Frames a sweep may run before it hands over to the searcher (the frame numbers of the table
/// are 16-bit; a piece locks within about 1,300 frames even at level 0 after the opening delay).
const MAX_LAYERS: usize = u16::MAX as usize - 1;

/// Reusable sweep buffers (no allocation per search once warmed up).
#[derive(Default)]
pub struct Sweeper {
    masks: FitMasks,
    entries: Vec<Entry>,
    /// `links[entry][x]`: how the state (entry, x) was first reached in its frame.
    links: Vec<[Link; 10]>,
    /// Start of each frame's entries in `entries` (frame `i` = `layers[i]..layers[i + 1]`).
    layers: Vec<u32>,
    /// The groups seen in this search (with the timeline's phase), with soft drop.
    by_search: Table,
    /// The groups seen in the frame being built, without soft drop: then a piece's row and
    /// `fallTimer` follow from the frame alone, so no state recurs at another frame and a small
    /// table per frame dedups as well as one for the search.
    by_frame: Table,
    frame_mode: bool,
    /// The search's number, and the number of the search in which each (orientation index, y, x)
    /// was last seen locking.
    search_number: u64,
    lock_seen: Vec<u64>,
    placements: Vec<SweepPlacement>,
    /// Placements of a search handed to the searcher, with their buttons.
    fallback: Option<Box<(Searcher, Vec<Vec<Buttons>>)>>,
}

impl std::fmt::Debug for Sweeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sweeper")
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl Clone for Sweeper {
    /// A fresh sweeper (buffers are not copied; search again).
    fn clone(&self) -> Self {
        Sweeper::new()
    }
}

impl Sweeper {
    /// An empty sweeper.
    #[must_use]
    pub fn new() -> Self {
        Sweeper::default()
    }

    /// The placements the searcher finds from `start` (see [`Searcher::search`]): one per
    /// (x, y, orientation), each with its earliest lock frame, top-outs left out. The order is
    /// by lock frame, then the sweep's own order.
    pub fn search(
        &mut self,
        page: &[u8; 256],
        start: PieceState,
        gravity: impl Into<Gravity>,
        model: &InputModel,
    ) -> &[SweepPlacement] {
        let gravity = gravity.into();
        self.placements.clear();
        self.entries.clear();
        self.layers.clear();
        if start.piece.x >= 10
            || start.piece.y >= 20
            || !self.masks.build(page, start.piece.orientation.id())
        {
            return self.search_with_searcher(page, start, gravity, model);
        }
        self.fallback = None;
        self.search_number += 1;
        self.lock_seen.resize(4 * MASK_ROWS * 16, 0);
        self.frame_mode = !model.soft_drop;
        if self.frame_mode {
            self.by_frame.restart(1 << 8);
        } else {
            self.by_search.restart(1 << 12);
        }

        let period = model.timeline.len().clamp(1, 16) as u32;
        let mut press = [false; 16];
        for (p, &t) in press.iter_mut().zip(&model.timeline) {
            *p = t;
        }
        // Frame n (1-based) is at timeline position (n − 1) mod period.
        let may_press = |frame: u32| press[(frame.wrapping_sub(1) % period) as usize];
        // `held_is_dominated[phase][a]`: whether a state at a frame of timeline `phase` that
        // holds Left or Right with `autorepeatX` = `a` (1-15, its last shift not blocked) has
        // every coming autorepeat shift (`16 − a` frames on, then every 6) on a frame that may
        // carry a new press. Such a state can do nothing the same state with the direction
        // released cannot do as early: a new press on each of those frames shifts where the
        // autorepeat would, a blocked one charges `autorepeatX` to 16 as the autorepeat does, and
        // holding the direction meanwhile only forbids a new press of it.
        let mut held_is_dominated = [[false; 16]; 16];
        for (phase, row) in held_is_dominated
            .iter_mut()
            .enumerate()
            .take(period as usize)
        {
            for (a, dominated) in row.iter_mut().enumerate().skip(1) {
                let first = phase as u32 + 16 - a as u32;
                *dominated = (0..period).all(|k| may_press(first + 6 * k));
            }
        }
        // Taps only, no soft drop, and a timeline slower than 60 Hz: every state of a frame
        // shares its row and timers and holds nothing worth keeping (see `sweep_taps`).
        if !model.das && !model.soft_drop && period >= 2 && start.held & (DPAD | A | B) == 0 {
            return self.sweep_taps(page, start, gravity, model, period, &press);
        }
        let dpad_choices = if model.soft_drop {
            &DPAD_CHOICES[..]
        } else {
            &DPAD_CHOICES[..3]
        };

        // The start, with the parts that cannot change the future blanked as for every state.
        let start_group = Group {
            y: start.piece.y,
            orientation: 0,
            autorepeat_x: if start.held & (LEFT | RIGHT) != 0 {
                start.piece.autorepeat_x
            } else {
                0
            },
            fall_timer: start.piece.fall_timer,
            autorepeat_y: start.piece.autorepeat_y,
            held: if may_press(start.frame + 1) {
                start.held
            } else {
                start.held & !(A | B)
            },
        };
        self.layers.push(0);
        self.admit(start_group, start.frame % period, 1 << start.piece.x);
        self.layers.push(1);

        // The masks are read while the tables are written: out of `self` for the loop.
        let masks = std::mem::take(&mut self.masks);
        let mut parts = [Part::default(); MAX_PARTS];
        let mut frame = start.frame;
        let mut layer = 0usize;
        loop {
            let (begin, end) = (self.layers[layer], self.layers[layer + 1]);
            if begin == end {
                break;
            }
            if layer >= MAX_LAYERS {
                return self.hand_over(masks, page, start, gravity, model);
            }
            if self.frame_mode {
                self.by_frame.restart(1 << 8);
            }
            let this_press = may_press(frame + 1);
            let next_press = may_press(frame + 2);
            let phase = (frame + 1) % period;
            let elapsed = frame + 1 - start.frame;
            for index in begin..end {
                let Entry { group: g, mask } = self.entries[index as usize];
                let prev_dpad = g.held & (LEFT | RIGHT | DOWN);
                for &dpad in dpad_choices {
                    if dpad & !prev_dpad != 0 && !this_press {
                        continue;
                    }
                    if !model.das && dpad & (LEFT | RIGHT) != 0 && dpad & prev_dpad != 0 {
                        continue;
                    }
                    for &rot in &ROTATE_CHOICES {
                        if rot != 0 && (!this_press || g.held & rot != 0) {
                            continue;
                        }
                        // When the next frame forgets held A and B, a press that turns to the
                        // orientation the piece has (the O) or to the one A just turned to (a
                        // piece of two orientations) reaches exactly what was stepped already.
                        if !next_press && rot != 0 {
                            let turn = masks.turn[usize::from(g.orientation)];
                            let to = turn[usize::from(rot == A)];
                            if to == g.orientation || rot == B && g.held & A == 0 && to == turn[1] {
                                continue;
                            }
                        }
                        let buttons = dpad | rot;
                        let (count, fall_timer, autorepeat_y) =
                            step_group(&masks, g, mask, buttons, gravity, &mut parts);
                        let held = if next_press {
                            buttons
                        } else {
                            buttons & !(A | B)
                        };
                        let keep_autorepeat_x = buttons & (LEFT | RIGHT) != 0;
                        // Holding a direction held on the last frame: the parts it did not move
                        // (nor block) are the parts the same buttons without it reach, with the
                        // direction released; when that is at least as good, they are left out.
                        let held_on = buttons & g.held & (LEFT | RIGHT) != 0;
                        for part in &parts[..count] {
                            // A rotation that did not turn the piece leaves the state the same
                            // buttons without A or B reach (stepped just before), only holding
                            // A or B, which forbids nothing but a new press of it: that state
                            // reaches at least as much as early, and locks where this one does.
                            if rot != 0 && part.orientation == g.orientation {
                                continue;
                            }
                            if part.locked {
                                self.lock(&masks, part, elapsed, index, buttons);
                                continue;
                            }
                            if held_on
                                && part.dx == 0
                                && (1..16).contains(&part.autorepeat_x)
                                && held_is_dominated[(frame + 1) as usize % period as usize]
                                    [usize::from(part.autorepeat_x)]
                            {
                                continue;
                            }
                            let group = Group {
                                y: part.y,
                                orientation: part.orientation,
                                autorepeat_x: if keep_autorepeat_x {
                                    part.autorepeat_x
                                } else {
                                    0
                                },
                                fall_timer,
                                autorepeat_y,
                                held,
                            };
                            let Some((e, new)) = self.admit(group, phase, part.mask) else {
                                continue;
                            };
                            let links = &mut self.links[e];
                            let mut bits = new;
                            while bits != 0 {
                                let x = bits.trailing_zeros() as i8;
                                bits &= bits - 1;
                                links[x as usize] = Link {
                                    entry: index,
                                    column: (x - part.dx) as u8,
                                    buttons,
                                };
                            }
                        }
                    }
                }
            }
            self.layers.push(self.entries.len() as u32);
            layer += 1;
            frame += 1;
        }
        self.masks = masks;
        &self.placements
    }

    /// The sweep of the taps-only model without soft drop on a timeline of two frames or more
    /// (`X.`, the community's 30 Hz model), from a start that holds none of the d-pad, A or B.
    ///
    /// In that model a state holds nothing on a frame that cannot carry a new press (no DAS: a
    /// direction cannot be held on; no press: nothing else can start), so every frame after a
    /// press frame releases everything, and the press frame after it sees nothing held: every
    /// button may be pressed. Neither `autorepeatX` (every shift is a new press, which shifts
    /// whatever it was, and a released direction's value is forgotten) nor the held buttons
    /// then change a state's future beyond the next frame, and without Down the timers, and so
    /// the drops and the row, are the same for every state of a frame ([`frame_timers`] reads
    /// no other button than Down). So a frame's states are one column mask per orientation, and
    /// a frame is, for each orientation, the nine taps (nothing, Left, Right × nothing, A, B) on
    /// a press frame and nothing otherwise, each the shift then the rotation of
    /// [`step_group`] on the whole mask, then the drop of each orientation's union. The states
    /// this merges (the same column and orientation reached with different buttons at the same
    /// frame) have the same future, so the placements and their earliest frames are the general
    /// sweep's (the property tests hold both to the searcher); a blocked shift or rotation is
    /// not stepped at all, as it leaves the piece where pressing nothing does.
    fn sweep_taps(
        &mut self,
        page: &[u8; 256],
        start: PieceState,
        gravity: Gravity,
        model: &InputModel,
        period: u32,
        press: &[bool; 16],
    ) -> &[SweepPlacement] {
        let may_press = |frame: u32| press[(frame.wrapping_sub(1) % period) as usize];
        let mut y = start.piece.y;
        let mut fall_timer = start.piece.fall_timer;
        let mut autorepeat_y = start.piece.autorepeat_y;
        let group = |y: u8, orientation: u8, fall_timer: u8, autorepeat_y: u8| Group {
            y,
            orientation,
            autorepeat_x: 0,
            fall_timer,
            autorepeat_y,
            held: 0,
        };
        self.layers.push(0);
        self.push_entry(group(y, 0, fall_timer, autorepeat_y), 1 << start.piece.x);
        self.layers.push(1);
        let masks = std::mem::take(&mut self.masks);
        let count = masks.count;
        let mut links = [[Link::default(); 10]; 4];
        let mut frame = start.frame;
        let mut layer = 0usize;
        loop {
            let (begin, end) = (self.layers[layer], self.layers[layer + 1]);
            if begin == end {
                break;
            }
            if layer >= MAX_LAYERS {
                return self.hand_over(masks, page, start, gravity, model);
            }
            let this_press = may_press(frame + 1);
            let elapsed = frame + 1 - start.frame;
            let drops;
            (drops, fall_timer, autorepeat_y) =
                frame_timers(fall_timer, autorepeat_y, 0, 0, gravity);
            // Each orientation's columns after the shift and the rotation, and how each column
            // was first reached (`links` is kept from frame to frame: only the columns reached
            // in this frame are read).
            let mut reached = [0u16; 4];
            let mut take = |to: usize, mask: u16, dx: i8, index: u32, buttons: u8| {
                let new = mask & !reached[to];
                if new == 0 {
                    return;
                }
                reached[to] |= new;
                let mut bits = new;
                while bits != 0 {
                    let x = bits.trailing_zeros() as i8;
                    bits &= bits - 1;
                    links[to][x as usize] = Link {
                        entry: index,
                        column: (x - dx) as u8,
                        buttons,
                    };
                }
            };
            for index in begin..end {
                let Entry { group: g, mask } = self.entries[index as usize];
                let o = usize::from(g.orientation);
                if !this_press {
                    take(o, mask, 0, index, 0);
                    continue;
                }
                // shift_tetrimino: a new press of Left or Right shifts where the piece fits. The
                // columns where the shift is blocked stay where they are, in the state nothing
                // pressed reaches (only `autorepeatX` and the held direction differ, and the
                // next frame forgets both), so they are not taken again.
                let fit = masks.fit_at(o, y);
                let shifts = [
                    (mask, 0, 0),
                    ((mask >> 1) & fit, -1, LEFT),
                    ((mask << 1) & fit, 1, RIGHT),
                ];
                // rotate_tetrimino: A turns clockwise, B counterclockwise, where the turned
                // piece fits; elsewhere the piece keeps its orientation, as without the press
                // (taken already).
                let [turn_b, turn_a] = masks.turn[o];
                for (shifted, dx, dpad) in shifts {
                    if shifted == 0 {
                        continue;
                    }
                    take(o, shifted, dx, index, dpad);
                    for (rot, to) in [(A, turn_a), (B, turn_b)] {
                        let to = usize::from(to);
                        take(to, shifted & masks.fit_at(to, y), dx, index, dpad | rot);
                    }
                }
            }
            // drop_tetrimino: the same drops for every orientation; a blocked drop locks.
            for (o, &mask) in reached.iter().enumerate().take(count) {
                let mut mask = mask;
                let mut row = y;
                for _ in 0..drops {
                    if mask == 0 {
                        break;
                    }
                    let below = masks.fit_at(o, row.wrapping_add(1));
                    // A lock overlapping the stack (only a start that overlaps it) is a top-out.
                    let mut blocked = mask & !below & masks.fit_at(o, row);
                    mask &= below;
                    while blocked != 0 {
                        let x = blocked.trailing_zeros() as u8;
                        blocked &= blocked - 1;
                        let slot = (o * MASK_ROWS + usize::from(row)) * 16 + usize::from(x);
                        if self.lock_seen[slot] == self.search_number {
                            continue;
                        }
                        self.lock_seen[slot] = self.search_number;
                        let link = links[o][usize::from(x)];
                        self.placements.push(SweepPlacement {
                            x,
                            y: row,
                            orientation: masks.orientations[o],
                            frames: elapsed,
                            entry: link.entry,
                            column: link.column,
                            buttons: link.buttons,
                        });
                    }
                    row = row.wrapping_add(1);
                }
                if mask != 0 {
                    let e = self.entries.len();
                    self.push_entry(group(row, o as u8, fall_timer, autorepeat_y), mask);
                    self.links[e] = links[o];
                }
            }
            y = y.wrapping_add(drops);
            self.layers.push(self.entries.len() as u32);
            layer += 1;
            frame += 1;
        }
        self.masks = masks;
        &self.placements
    }

    /// Appends an entry, with room for its links.
    #[inline]
    fn push_entry(&mut self, group: Group, mask: u16) {
        self.entries.push(Entry { group, mask });
        if self.links.len() < self.entries.len() {
            self.links
                .resize(self.entries.len() * 2, [Link::default(); 10]);
        }
    }

    /// The search of a start the sweep does not cover, by the searcher itself.
    fn search_with_searcher(
        &mut self,
        page: &[u8; 256],
        start: PieceState,
        gravity: Gravity,
        model: &InputModel,
    ) -> &[SweepPlacement] {
        let fallback = self
            .fallback
            .get_or_insert_with(|| Box::new((Searcher::new(), Vec::new())));
        let (searcher, inputs) = &mut **fallback;
        inputs.clear();
        for (i, p) in searcher
            .search(page, start, gravity, model)
            .to_vec()
            .iter()
            .enumerate()
        {
            inputs.push(searcher.inputs(p));
            self.placements.push(SweepPlacement {
                x: p.x,
                y: p.y,
                orientation: p.orientation,
                frames: p.frames,
                entry: i as u32,
                column: 0,
                buttons: 0,
            });
        }
        &self.placements
    }

    /// Takes the columns `mask` of `group` (at timeline `phase`) into the frame being built: the
    /// entry they go to and those of them not seen yet (`None` when none is new): not at an
    /// earlier frame of the search, or not in this frame in frame mode. A state seen before has
    /// the same future, only later, so it is not stepped again.
    #[inline(always)]
    fn admit(&mut self, group: Group, phase: u32, mask: u16) -> Option<(usize, u16)> {
        let table = if self.frame_mode {
            &mut self.by_frame
        } else {
            &mut self.by_search
        };
        let key = group.key(phase) | table.stamp << KEY_BITS;
        if (table.len + 1) * 2 > table.slots.len() {
            table.grow();
        }
        let slots = table.slots.len() - 1;
        let mut i = slot_of(key, slots);
        let layer = self.layers.len() as u16;
        loop {
            let slot = &mut table.slots[i];
            if slot.key != key {
                if slot.key >> KEY_BITS == table.stamp {
                    i = (i + 1) & slots;
                    continue;
                }
                *slot = Seen {
                    key,
                    columns: 0,
                    layer: u16::MAX,
                    entry: 0,
                };
                table.len += 1;
            }
            let new = mask & !slot.columns;
            if new == 0 {
                return None;
            }
            slot.columns |= new;
            if slot.layer != layer {
                slot.layer = layer;
                slot.entry = self.entries.len() as u32;
                self.entries.push(Entry { group, mask: 0 });
                if self.links.len() < self.entries.len() {
                    self.links
                        .resize(self.entries.len() * 2, [Link::default(); 10]);
                }
            }
            let e = slot.entry as usize;
            self.entries[e].mask |= new;
            return Some((e, new));
        }
    }

    /// Records the placements of a locked part not seen before.
    #[inline]
    fn lock(&mut self, masks: &FitMasks, part: &Part, frames: u32, index: u32, buttons: u8) {
        // A lock overlapping the stack (only a start that overlaps it) is a top-out.
        let mut bits = part.mask & masks.fit_at(usize::from(part.orientation), part.y);
        while bits != 0 {
            let x = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let slot = (usize::from(part.orientation) * MASK_ROWS + usize::from(part.y)) * 16
                + usize::from(x);
            if self.lock_seen[slot] == self.search_number {
                continue;
            }
            self.lock_seen[slot] = self.search_number;
            self.placements.push(SweepPlacement {
                x,
                y: part.y,
                orientation: masks.orientations[usize::from(part.orientation)],
                frames,
                entry: index,
                column: (x as i8 - part.dx) as u8,
                buttons,
            });
        }
    }

    /// A search that ran past [`MAX_LAYERS`] frames: the masks taken out for the loop go back,
    /// and the searcher takes over from the start.
    fn hand_over(
        &mut self,
        masks: FitMasks,
        page: &[u8; 256],
        start: PieceState,
        gravity: Gravity,
        model: &InputModel,
    ) -> &[SweepPlacement] {
        self.masks = masks;
        self.placements.clear();
        self.entries.clear();
        self.layers.clear();
        self.search_with_searcher(page, start, gravity, model)
    }

    /// The placements of the last search.
    #[must_use]
    pub fn placements(&self) -> &[SweepPlacement] {
        &self.placements
    }

    /// Groups (states sharing everything but x, per frame) the last search stepped.
    #[must_use]
    pub fn groups_visited(&self) -> usize {
        self.entries.len()
    }

    /// The buttons for each frame from the search's start to `placement`'s lock frame (the
    /// last entry is the frame whose drop is blocked), appended to `out`.
    pub fn inputs_into(&self, placement: &SweepPlacement, out: &mut Vec<u8>) {
        if let Some(fallback) = &self.fallback {
            if let Some(inputs) = fallback.1.get(placement.entry as usize) {
                out.extend(inputs.iter().map(|b| b.bits()));
            }
            return;
        }
        let begin = out.len();
        out.push(placement.buttons);
        let (mut entry, mut column) = (placement.entry, placement.column);
        while entry != 0 {
            let link = self.links[entry as usize][usize::from(column)];
            out.push(link.buttons);
            entry = link.entry;
            column = link.column;
        }
        out[begin..].reverse();
    }

    /// The buttons for each frame from the search's start to `placement`'s lock frame.
    #[must_use]
    pub fn inputs(&self, placement: &SweepPlacement) -> Vec<Buttons> {
        let mut out = Vec::with_capacity(placement.frames as usize);
        self.inputs_into(placement, &mut out);
        out.into_iter().map(Buttons::from_bits_retain).collect()
    }
}

/// The parts of a frame being written by [`step_group`].
struct Parts<'a> {
    parts: &'a mut [Part; MAX_PARTS],
    count: usize,
    masks: &'a FitMasks,
    y: u8,
    orientation: u8,
    /// The orientation index A or B turns to this frame.
    turn: Option<u8>,
    /// Rows the piece tries to move down this frame.
    drops: u8,
}

impl Parts<'_> {
    /// The rotation and the drops of the columns one shift outcome left (`mask`, moved by `dx`,
    /// with its `autorepeatX`).
    #[inline(always)]
    fn rotate_and_drop(&mut self, mask: u16, dx: i8, autorepeat_x: u8) {
        if mask == 0 {
            return;
        }
        match self.turn {
            Some(r) => {
                let fit_r = self.masks.fit_at(usize::from(r), self.y);
                self.drop(mask & fit_r, r, dx, autorepeat_x);
                self.drop(mask & !fit_r, self.orientation, dx, autorepeat_x);
            }
            None => self.drop(mask, self.orientation, dx, autorepeat_x),
        }
    }

    /// The drops, row by row: the columns blocked lock, the others go on down.
    #[inline(always)]
    fn drop(&mut self, mut mask: u16, orientation: u8, dx: i8, autorepeat_x: u8) {
        let mut y = self.y;
        for _ in 0..self.drops {
            if mask == 0 {
                return;
            }
            let below = self
                .masks
                .fit_at(usize::from(orientation), y.wrapping_add(1));
            let blocked = mask & !below;
            if blocked != 0 {
                self.push(Part {
                    mask: blocked,
                    dx,
                    orientation,
                    autorepeat_x,
                    y,
                    locked: true,
                });
            }
            mask &= below;
            y = y.wrapping_add(1);
        }
        if mask != 0 {
            self.push(Part {
                mask,
                dx,
                orientation,
                autorepeat_x,
                y,
                locked: false,
            });
        }
    }

    #[inline(always)]
    fn push(&mut self, part: Part) {
        if let Some(slot) = self.parts.get_mut(self.count) {
            *slot = part;
            self.count += 1;
        }
    }
}

/// One frame of a group (`g` at `columns`) with `buttons` held, split by where the stack blocks
/// a shift, a rotation or the drop: the same steps as [`super::search::step_piece`] (which the
/// tests hold it to, column by column). Writes the parts into `parts` and returns how many, and
/// the frame's `fallTimer` and `autorepeatY`: the same for every part, as `drop_tetrimino`'s
/// timers depend on neither the column nor the shift and the rotation before it.
#[inline(always)]
fn step_group(
    masks: &FitMasks,
    g: Group,
    columns: u16,
    buttons: u8,
    gravity: Gravity,
    parts: &mut [Part; MAX_PARTS],
) -> (usize, u8, u8) {
    let newly = buttons & !g.held;
    let held = buttons;

    let (drops, fall_timer, autorepeat_y) =
        frame_timers(g.fall_timer, g.autorepeat_y, newly, held, gravity);

    // rotate_tetrimino: A (clockwise) wins over B.
    let o = g.orientation;
    let turn = if newly & A != 0 {
        Some(masks.turn[usize::from(o)][1])
    } else if newly & B != 0 {
        Some(masks.turn[usize::from(o)][0])
    } else {
        None
    };
    let mut out = Parts {
        parts,
        count: 0,
        masks,
        y: g.y,
        orientation: o,
        turn,
        drops,
    };
    // shift_tetrimino: the columns that moved and those blocked, with their autorepeatX.
    let (shift, autorepeat_x) = DAS.autorepeat(
        g.autorepeat_x,
        Buttons::from_bits_retain(newly),
        Buttons::from_bits_retain(held),
    );
    if shift {
        let fit = masks.fit_at(usize::from(o), g.y);
        if held & RIGHT != 0 {
            let moved = (columns << 1) & fit;
            out.rotate_and_drop(moved, 1, autorepeat_x);
            out.rotate_and_drop(columns & !(moved >> 1), 0, DAS.reset);
        } else {
            let moved = (columns >> 1) & fit;
            out.rotate_and_drop(moved, -1, autorepeat_x);
            out.rotate_and_drop(columns & !(moved << 1), 0, DAS.reset);
        }
    } else {
        out.rotate_and_drop(columns, 0, autorepeat_x);
    }
    let count = out.count;
    (count, fall_timer, autorepeat_y)
}

/// `drop_tetrimino`'s timers over a frame with `newly` pressed and `held` (the frame's buttons):
/// the rows the piece tries to move down, and `fallTimer` and `autorepeatY` after the frame. Of
/// the buttons only Down is read, and Left or Right only with a new press of Down.
#[inline(always)]
fn frame_timers(
    fall_timer: u8,
    autorepeat_y: u8,
    newly: u8,
    held: u8,
    gravity: Gravity,
) -> (u8, u8, u8) {
    let mut fall_timer = fall_timer.wrapping_add(1);
    let mut autorepeat_y = autorepeat_y;
    let mut drops = 0u8;
    let runs = if gravity.double { 3 } else { 1 };
    for run in 0..runs {
        if gravity.double && run < 2 {
            fall_timer = gravity.drop_speed;
        }
        if drop_timers(
            fall_timer,
            &mut autorepeat_y,
            Buttons::from_bits_retain(newly),
            Buttons::from_bits_retain(held),
            gravity.drop_speed,
        )
        .falls()
        {
            // `drop`: fallTimer cleared whether or not the row below is free.
            fall_timer = 0;
            drops += 1;
        }
    }
    (drops, fall_timer, autorepeat_y)
}

/// Checks [`step_group`] against [`super::search::step_piece`] for every column of a group:
/// the state each column ends in, and whether it locks. For the tests (the `testing` feature).
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn frame_parts_agree(
    page: &[u8; 256],
    state: PieceState,
    columns: u16,
    buttons: u8,
    gravity: Gravity,
) -> bool {
    use super::search::{FrameResult, step_piece};
    let Some(masks) = FitMasks::new(page, state.piece.orientation.id()) else {
        return true;
    };
    let group = Group {
        y: state.piece.y,
        orientation: 0,
        autorepeat_x: state.piece.autorepeat_x,
        fall_timer: state.piece.fall_timer,
        autorepeat_y: state.piece.autorepeat_y,
        held: state.held,
    };
    let columns = columns & 0x3FF;
    let mut parts = [Part::default(); MAX_PARTS];
    let (count, fall_timer, autorepeat_y) =
        step_group(&masks, group, columns, buttons, gravity, &mut parts);
    for x in 0..10u8 {
        if columns >> x & 1 == 0 {
            continue;
        }
        let mut s = state;
        s.piece.x = x;
        let locked = step_piece(page, &mut s, buttons, gravity) == FrameResult::Locked;
        let found: Vec<&Part> = parts[..count]
            .iter()
            .filter(|p| {
                let to = i32::from(x) + i32::from(p.dx);
                (0..16).contains(&to) && p.mask >> to & 1 != 0
            })
            .collect();
        let [p] = found[..] else {
            return false;
        };
        let o = masks.orientations[usize::from(p.orientation)];
        if (
            s.piece.x,
            s.piece.y,
            s.piece.orientation.id(),
            s.piece.autorepeat_x,
            locked,
        ) != (
            (i32::from(x) + i32::from(p.dx)) as u8,
            p.y,
            o,
            p.autorepeat_x,
            p.locked,
        ) || s.piece.fall_timer != fall_timer
            || s.piece.autorepeat_y != autorepeat_y
        {
            return false;
        }
    }
    true
}

/// Checks [`FitMasks`] against `isPositionValid` for every column 0-15 and row 0-23 of the
/// piece's orientations. For the tests (the `testing` feature).
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn fit_masks_agree(page: &[u8; 256], orientation: u8) -> bool {
    let Some(masks) = FitMasks::new(page, orientation) else {
        return true;
    };
    masks.orientations[..masks.count].iter().all(|&o| {
        (0..MASK_ROWS as u8).all(|y| {
            let m = masks.columns(o, y);
            (0..16u8).all(|x| (m >> x & 1 != 0) == is_position_valid(page, x, y, o))
        })
    })
}
