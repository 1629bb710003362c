//! The playfield as row bitboards, for planning several pieces ahead quickly.
//!
//! The game's own rules (`playfield_nes::rules`) work on the 256-byte playfield page; planning
//! thousands of boards per piece wants bits. [`Field`] is a faster model of the same rules —
//! collision, lock, row clear — and the property test in this module proves it equal to
//! `rules::lock_and_clear` and `rules::is_position_valid` on random boards.

use playfield_nes::tables::ORIENTATIONS;
use playfield_nes::{Board, rules};

/// The ten columns of a full row.
pub const FULL_ROW: u16 = 0x3FF;

/// The visible 10×20 field: bit `x` of `rows[y]` is column `x` of row `y`, row 0 at the top.
/// Rows −2 and −1 above the field are always free (the ROM keeps them `tileEmpty`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Field {
    /// One row per entry, top first.
    pub rows: [u16; 20],
}

/// An orientation's minos as (column offset, row offset), from `orientationTable`.
#[inline]
fn minos(orientation: u8) -> [(i8, i8); 4] {
    ORIENTATIONS[usize::from(orientation)].map(|m| (m.dx, m.dy))
}

/// An orientation's minos as row masks, for testing a whole row of a piece at once: bit
/// `dx + 2` of `rows[i]` is the mino at column offset `dx` of the row `top + i`.
#[derive(Clone, Copy)]
struct Shape {
    rows: [u16; 4],
    /// The row offset of the lowest mino in column offset `dx` at index `dx + 2`
    /// ([`NO_MINO`] where the piece has none): a falling piece meets the stack there first,
    /// every tetrimino's minos being contiguous within a column.
    lowest: [i8; 5],
    top: i8,
    height: i8,
    min_dx: i8,
    max_dx: i8,
}

/// [`Shape::lowest`] of a column offset without a mino.
const NO_MINO: i8 = i8::MIN;

/// [`Shape`] of every orientation id of `orientationTable`.
const SHAPES: [Shape; ORIENTATIONS.len()] = {
    let mut out = [Shape {
        rows: [0; 4],
        lowest: [NO_MINO; 5],
        top: 0,
        height: 0,
        min_dx: 0,
        max_dx: 0,
    }; ORIENTATIONS.len()];
    let mut o = 0;
    while o < ORIENTATIONS.len() {
        let minos = &ORIENTATIONS[o];
        let (mut top, mut bottom, mut min_dx, mut max_dx) = (i8::MAX, i8::MIN, i8::MAX, i8::MIN);
        let mut i = 0;
        while i < 4 {
            let m = minos[i];
            if m.dy < top {
                top = m.dy;
            }
            if m.dy > bottom {
                bottom = m.dy;
            }
            if m.dx < min_dx {
                min_dx = m.dx;
            }
            if m.dx > max_dx {
                max_dx = m.dx;
            }
            i += 1;
        }
        let mut rows = [0u16; 4];
        let mut lowest = [NO_MINO; 5];
        let mut i = 0;
        while i < 4 {
            let m = minos[i];
            rows[(m.dy - top) as usize] |= 1 << (m.dx + 2);
            if m.dy > lowest[(m.dx + 2) as usize] {
                lowest[(m.dx + 2) as usize] = m.dy;
            }
            i += 1;
        }
        out[o] = Shape {
            rows,
            lowest,
            top,
            height: bottom - top + 1,
            min_dx,
            max_dx,
        };
        o += 1;
    }
    out
};

impl Field {
    /// The field of a playfield page (a cell is filled when its tile is below `tileEmpty`).
    #[must_use]
    pub fn from_page(page: &[u8; 256]) -> Field {
        Field {
            rows: Board::from_page(page).rows,
        }
    }

    /// `isPositionValid` on the field: every mino in columns 0-9 and rows −2..19, on an empty
    /// cell.
    #[inline]
    #[must_use]
    pub fn fits(&self, orientation: u8, x: i8, y: i8) -> bool {
        let shape = &SHAPES[usize::from(orientation)];
        if x + shape.min_dx < 0 || x + shape.max_dx > 9 {
            return false;
        }
        let top = y + shape.top;
        if top < -2 || top + shape.height > 20 {
            return false;
        }
        // Every orientation has a mino at or left of its centre, so x >= 0 here.
        let shift = x as u32;
        let mut i = 0;
        while i < shape.height {
            let row = top + i;
            if row >= 0
                && (u32::from(self.rows[row as usize]) << 2)
                    & (u32::from(shape.rows[i as usize]) << shift)
                    != 0
            {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The row a piece dropped straight down from row `y` comes to rest at (it must fit at `y`).
    #[inline]
    #[must_use]
    pub fn drop_row(&self, orientation: u8, x: i8, mut y: i8) -> i8 {
        while self.fits(orientation, x, y + 1) {
            y += 1;
        }
        y
    }

    /// Each column's cells as bits (bit `y` = row `y`), with bit 20 set as the floor: for
    /// [`Field::drop_row_by_columns`].
    #[must_use]
    pub fn columns(&self) -> [u32; 10] {
        let mut columns = [1u32 << 20; 10];
        for (y, &row) in self.rows.iter().enumerate() {
            let mut bits = row & FULL_ROW;
            while bits != 0 {
                columns[bits.trailing_zeros() as usize] |= 1 << y;
                bits &= bits - 1;
            }
        }
        columns
    }

    /// [`Field::drop_row`] from the field's [`Field::columns`]: each column of the piece falls
    /// to the first filled cell below its lowest mino, and the piece stops at the nearest.
    #[inline]
    #[must_use]
    pub fn drop_row_by_columns(columns: &[u32; 10], orientation: u8, x: i8, y: i8) -> i8 {
        let shape = &SHAPES[usize::from(orientation)];
        let mut land = i8::MAX;
        for (i, &dy) in shape.lowest.iter().enumerate() {
            if dy == NO_MINO {
                continue;
            }
            let column = columns[(x + i as i8 - 2) as usize];
            // The first filled row below the lowest mino (rows above the field are empty).
            let from = (y + dy + 1).max(0) as u32;
            let blocked = (column >> from).trailing_zeros() + from;
            land = land.min(blocked as i8 - 1 - dy);
        }
        land
    }

    /// Locks a piece and clears the full rows, as `playState_lockTetrimino` and
    /// `playState_checkForCompletedRows` leave the page. Returns the rows cleared, or `None` when
    /// a mino is above the field (the ROM would write it outside the visible page: a top-out
    /// for planning).
    #[inline]
    pub fn lock(&mut self, orientation: u8, x: i8, y: i8) -> Option<u8> {
        for (dx, dy) in minos(orientation) {
            if y + dy < 0 {
                return None;
            }
            self.rows[(y + dy) as usize] |= 1 << (x + dx);
        }
        // `playState_checkForCompletedRows` looks at the four rows from two above the piece's
        // centre; each full one goes, the rows above moving down (checked rows below it are
        // untouched, so removing them together is the same).
        let top = i32::from(rules::first_row_checked(y as u8));
        let mut clear = 0u32;
        for r in top..(top + 4).min(20) {
            if self.rows[r as usize] == FULL_ROW {
                clear |= 1 << r;
            }
        }
        if clear == 0 {
            return Some(0);
        }
        let mut write = 20;
        for read in (0..20).rev() {
            if clear >> read & 1 != 0 {
                continue;
            }
            write -= 1;
            self.rows[write] = self.rows[read];
        }
        for r in &mut self.rows[..write] {
            *r = 0;
        }
        Some(clear.count_ones() as u8)
    }

    /// Each column's height: 20 − the row of its top filled cell, 0 when empty.
    #[must_use]
    pub fn heights(&self) -> [u8; 10] {
        let mut heights = [0u8; 10];
        let mut seen = 0u16;
        for (y, &row) in self.rows.iter().enumerate() {
            let new = row & !seen;
            if new != 0 {
                let mut bits = new;
                while bits != 0 {
                    let x = bits.trailing_zeros() as usize;
                    heights[x] = (20 - y) as u8;
                    bits &= bits - 1;
                }
                seen |= new;
                if seen == FULL_ROW {
                    break;
                }
            }
        }
        heights
    }

    /// Filled cells.
    #[must_use]
    pub fn cell_count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }
}

/// The NES randomizer's probability that `next` follows `current` (piece indices T J Z O S L I),
/// from `pickRandomTetrimino` with the RNG's low bits taken as uniform: the first roll
/// `(rng + spawnCount) & 7` keeps a piece other than the last one; index 7 or a repeat rerolls
/// once to `(rng & 7 + last orientation id) mod 7`, which may repeat.
#[must_use]
pub fn transition_probability(current: usize, next: usize) -> f64 {
    use playfield_nes::tables::SPAWN_TABLE;
    let last_id = SPAWN_TABLE[current];
    let mut p = 0.0;
    for first in 0..8u8 {
        if first != 7 && SPAWN_TABLE[usize::from(first)] != last_id {
            if usize::from(first) == next {
                p += 1.0 / 8.0;
            }
            continue;
        }
        for roll in 0..8u8 {
            if usize::from((roll + last_id) % 7) == next {
                p += 1.0 / 64.0;
            }
        }
    }
    p
}

/// Checks the bitboard model against the game's rules on one board and placement. For the tests
/// (the `testing` feature).
#[doc(hidden)]
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn agrees_with_rules(page: &[u8; 256], orientation: u8, x: u8, y: u8) -> bool {
    let field = Field::from_page(page);
    let valid = rules::is_position_valid(page, x, y, orientation);
    if field.fits(orientation, x as i8, y as i8) != valid {
        return false;
    }
    if !valid || minos(orientation).iter().any(|&(_, dy)| (y as i8) + dy < 0) {
        return true;
    }
    let mut after = *page;
    let cleared = rules::lock_and_clear(&mut after, x, y, orientation);
    let mut model = field;
    model.lock(orientation, x as i8, y as i8) == Some(cleared) && model == Field::from_page(&after)
}

#[cfg(test)]
impl Field {
    /// A field whose column `c` is filled `heights[c]` rows from the floor but for the cells
    /// that `holes` leaves empty (bit `c` of `holes[y]`): stacks of any shape for the tests.
    pub(crate) fn with_columns(heights: &[u8], holes: &[u16]) -> Field {
        let mut field = Field::default();
        for (c, &h) in heights.iter().enumerate() {
            for (y, row) in field.rows.iter_mut().enumerate().skip(usize::from(20 - h)) {
                if holes[y] >> c & 1 == 0 {
                    *row |= 1 << c;
                }
            }
        }
        field
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playfield_nes::tables::TILE_EMPTY;
    use proptest::prelude::*;

    fn page_from(heights: &[u8], holes: &[u16]) -> [u8; 256] {
        let mut page = [TILE_EMPTY; 256];
        for (x, &h) in heights.iter().enumerate() {
            for y in (20 - usize::from(h))..20 {
                if holes[y] >> x & 1 == 0 {
                    page[y * 10 + x] = 0x7B;
                }
            }
        }
        page
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// The bitboard model equals the game's rules: collision, lock and clear.
        #[test]
        fn field_equals_the_rules(
            heights in prop::collection::vec(0u8..=20, 10),
            holes in prop::collection::vec(prop_oneof![Just(0u16), 0u16..0x400], 20),
            orientation in 0u8..19,
            x in 0u8..10,
            y in 0u8..20,
        ) {
            let page = page_from(&heights, &holes);
            prop_assert!(agrees_with_rules(&page, orientation, x, y));
            // And where the piece lands when dropped from the top.
            let field = Field::from_page(&page);
            if field.fits(orientation, x as i8, 0) {
                let land = field.drop_row(orientation, x as i8, 0);
                prop_assert!(agrees_with_rules(&page, orientation, x, land as u8));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// The row-mask collision test equals the mino-by-mino one everywhere, off the field too
        /// (the tap estimates try columns −1 and 10).
        #[test]
        fn fits_by_rows_equals_fits_by_minos(
            rows in prop::collection::vec(0u16..0x400, 20),
            orientation in 0u8..19,
            x in -4i8..14,
            y in -4i8..23,
        ) {
            let mut field = Field::default();
            field.rows.copy_from_slice(&rows);
            let by_minos = minos(orientation).iter().all(|&(dx, dy)| {
                let (cx, cy) = (x + dx, y + dy);
                (0..10).contains(&cx)
                    && (-2..20).contains(&cy)
                    && (cy < 0 || field.rows[cy as usize] >> cx & 1 == 0)
            });
            prop_assert_eq!(field.fits(orientation, x, y), by_minos);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// Dropping by columns lands where dropping row by row does.
        #[test]
        fn drop_by_columns_equals_drop_by_rows(
            heights in prop::collection::vec(0u8..=20, 10),
            holes in prop::collection::vec(prop_oneof![Just(0u16), 0u16..0x400], 20),
            orientation in 0u8..19,
            x in 0i8..10,
            y in -2i8..20,
        ) {
            let field = Field::from_page(&page_from(&heights, &holes));
            if field.fits(orientation, x, y) {
                prop_assert_eq!(
                    Field::drop_row_by_columns(&field.columns(), orientation, x, y),
                    field.drop_row(orientation, x, y)
                );
            }
        }
    }

    #[test]
    fn transition_probabilities_match_the_known_markov_chain() {
        // In 32nds: a repeat is 1/32 (O and S: 2/32), one successor 6/32, the others 5/32.
        for current in 0..7 {
            let total: f64 = (0..7).map(|n| transition_probability(current, n)).sum();
            assert!((total - 1.0).abs() < 1e-12);
            let repeat = transition_probability(current, current) * 32.0;
            let expected = if current == 3 || current == 4 {
                2.0
            } else {
                1.0
            };
            assert!(
                (repeat - expected).abs() < 1e-9,
                "piece {current}: {repeat}"
            );
        }
        // T → Z is the 6/32 successor of T.
        assert!((transition_probability(0, 2) * 32.0 - 6.0).abs() < 1e-9);
    }

    #[test]
    fn a_tetris_clears_four_rows() {
        let mut field = Field::default();
        for y in 16..20 {
            field.rows[y] = FULL_ROW & !(1 << 9);
        }
        field.rows[15] = 0b1;
        // Vertical I (orientation $11) in column 9, centre row 18: minos rows 16-19.
        assert!(field.fits(0x11, 9, 18));
        assert_eq!(field.drop_row(0x11, 9, 0), 18);
        assert_eq!(field.lock(0x11, 9, 18), Some(4));
        assert_eq!(field.rows[19], 0b1);
        assert_eq!(field.cell_count(), 1);
    }
}
