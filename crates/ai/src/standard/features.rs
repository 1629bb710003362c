//! Board features after a placement, on row bitboards, defined as in Fahey's adaptation of
//! Dellacherie's code (plus the two extra BCTS features).

use playfield_standard::{Board, FULL_ROW, Shape, WIDTH};

/// Population counts of 12-bit values: the default x86-64 target has no popcnt instruction, and
/// every row value (with its two wall bits) fits in 12 bits.
static POP12: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut i = 0;
    while i < 4096 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Number of set bits of a value below 4096.
#[inline]
#[must_use]
pub(crate) fn pop12(x: u16) -> u32 {
    u32::from(POP12[usize::from(x & 0xFFF)])
}

/// Features of one placement: the piece's landing and the board after completed rows collapse.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Features {
    /// Twice the middle of the landed piece's rows, rows numbered 1 (bottom) up (Fahey's landing
    /// height is a multiple of one half; see [`Features::landing_height`]).
    pub landing_height_twice: i32,
    /// Rows completed by the piece times the piece's cells in those rows.
    pub eroded_cells: u32,
    /// Rows completed by the piece.
    pub rows_completed: u32,
    /// Filled/empty changes along each row, walls counted filled, an empty row counting 2.
    pub row_transitions: u32,
    /// Filled/empty changes down each column, floor counted filled, sky empty.
    pub column_transitions: u32,
    /// Empty cells with a filled cell somewhere above in their column.
    pub holes: u32,
    /// For each empty cell whose left and right neighbours are filled (walls filled), the run of
    /// empty cells from it downward (a clean well of depth d scores d(d+1)/2).
    pub wells: u32,
    /// For each hole, the filled cells above it in its column (BCTS).
    pub hole_depth: u32,
    /// Rows with at least one hole (BCTS).
    pub rows_with_holes: u32,
}

impl Features {
    /// Middle of the landed piece's rows, rows numbered 1 (bottom) up, as Fahey computes it.
    #[inline]
    #[must_use]
    pub fn landing_height(&self) -> f64 {
        f64::from(self.landing_height_twice) * 0.5
    }
}

/// Twice Fahey's landing height of a shape whose origin landed on row `oy` (0-based).
#[inline]
#[must_use]
pub fn landing_height_twice(shape: &Shape, oy: i32) -> i32 {
    2 * (oy + 1) + i32::from(shape.dy_min + shape.dy_max)
}

/// Drops `shape` at origin (`ox`, `oy`) onto `board` (which it must fit), collapses completed rows
/// and returns the new board with its features. `deep` asks for the BCTS-only features.
#[inline]
#[must_use]
pub fn place_and_measure(
    board: &Board,
    shape: &Shape,
    ox: i32,
    oy: i32,
    deep: bool,
) -> (Board, Features) {
    place_and_measure_with(board, board.pile_height(), shape, ox, oy, deep)
}

/// [`place_and_measure`] for a caller that knows `board`'s pile height.
#[inline]
#[must_use]
pub fn place_and_measure_with(
    board: &Board,
    pile_height: usize,
    shape: &Shape,
    ox: i32,
    oy: i32,
    deep: bool,
) -> (Board, Features) {
    let mut b = *board;
    b.add(shape, ox, oy);
    let bottom = (oy + i32::from(shape.dy_min)) as usize;
    let rows = shape.rows();
    let mut rows_completed = 0;
    let mut piece_cells = 0;
    for i in 0..rows {
        if b.rows()[bottom + i] == FULL_ROW {
            rows_completed += 1;
            piece_cells += pop12(shape.masks[i]);
        }
    }
    if rows_completed > 0 {
        b.collapse_completed_rows_in(bottom, bottom + rows);
    }
    let top = (oy + i32::from(shape.dy_max) + 1) as usize;
    let ph = pile_height.max(top) - rows_completed as usize;
    let mut f = measure_with(&b, ph, deep);
    f.landing_height_twice = landing_height_twice(shape, oy);
    f.rows_completed = rows_completed;
    f.eroded_cells = rows_completed * piece_cells;
    (b, f)
}

/// The board-only features (landing height and eroded cells left at zero).
#[must_use]
pub fn measure(board: &Board, deep: bool) -> Features {
    measure_with(board, board.pile_height(), deep)
}

/// [`measure`] for a caller that knows the pile height.
#[inline]
#[must_use]
pub fn measure_with(board: &Board, pile_height: usize, deep: bool) -> Features {
    let r = board.rows();
    let h = r.len();
    let ph = pile_height;
    let mut f = Features {
        row_transitions: 2 * (h - ph) as u32,
        ..Features::default()
    };
    const WALLS: u16 = 1 | (1 << (WIDTH + 1));
    const PAIRS: u16 = (1 << (WIDTH + 1)) - 1;
    // Column transitions: floor (filled) against row 0.
    let mut ct = pop12(!r.first().copied().unwrap_or(0) & FULL_ROW);
    let mut cover = 0u16;
    // Rows at and above the pile height are empty (the sky above the board too).
    let mut above = 0u16;
    let mut holes = 0;
    let mut rows_with_holes = 0;
    for y in (0..ph).rev() {
        let row = r[y];
        let e = (row << 1) | WALLS;
        f.row_transitions += pop12((e ^ (e >> 1)) & PAIRS);
        ct += pop12(row ^ above);
        above = row;
        let hole_bits = !row & cover & FULL_ROW;
        holes += pop12(hole_bits);
        rows_with_holes += u32::from(hole_bits != 0);
        cover |= row;
        // Well cells: empty with both neighbours filled (walls count as filled).
        let left = (row << 1) | 1;
        let right = (row >> 1) | (1 << (WIDTH - 1));
        let mut w = !row & left & right & FULL_ROW;
        while w != 0 {
            let bit = w & w.wrapping_neg();
            w &= w - 1;
            let mut depth = 0;
            let mut yy = y;
            loop {
                if r[yy] & bit != 0 {
                    break;
                }
                depth += 1;
                if yy == 0 {
                    break;
                }
                yy -= 1;
            }
            f.wells += depth;
        }
    }
    f.column_transitions = ct;
    f.holes = holes;
    // The BCTS-only features stay zero unless asked for, like on the incremental path.
    f.rows_with_holes = if deep { rows_with_holes } else { 0 };
    if deep && holes > 0 {
        for x in 0..WIDTH {
            let bit = 1u16 << x;
            let mut filled_above = 0;
            for y in (0..ph).rev() {
                if r[y] & bit != 0 {
                    filled_above += 1;
                } else {
                    f.hole_depth += filled_above;
                }
            }
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use playfield_standard::Piece;

    /// Straightforward per-cell versions of Fahey's board functions, to check the bit tricks.
    fn slow(board: &Board) -> Features {
        let h = board.height();
        let w = WIDTH;
        let cell = |x: i32, y: i32| -> bool {
            if x < 0 || x >= w as i32 || y < 0 {
                return false;
            }
            board.cell(x as usize, y as usize)
        };
        let ph = board.pile_height();
        let mut f = Features {
            row_transitions: 2 * (h - ph) as u32,
            ..Features::default()
        };
        for y in 0..ph as i32 {
            for x in 0..w as i32 - 1 {
                f.row_transitions += u32::from(cell(x, y) != cell(x + 1, y));
            }
            f.row_transitions += u32::from(!cell(0, y)) + u32::from(!cell(w as i32 - 1, y));
        }
        for x in 0..w as i32 {
            for y in 0..h as i32 - 1 {
                f.column_transitions += u32::from(cell(x, y) != cell(x, y + 1));
            }
            f.column_transitions += u32::from(!cell(x, 0)) + u32::from(cell(x, h as i32 - 1));
            let mut seen = false;
            let mut filled_above = 0;
            for y in (0..h as i32).rev() {
                if cell(x, y) {
                    seen = true;
                    filled_above += 1;
                } else if seen {
                    f.holes += 1;
                    f.hole_depth += filled_above;
                }
            }
            for y in (0..h as i32).rev() {
                let l = x == 0 || cell(x - 1, y);
                let r = x == w as i32 - 1 || cell(x + 1, y);
                if l && r {
                    let mut yy = y;
                    while yy >= 0 && !cell(x, yy) {
                        f.wells += 1;
                        yy -= 1;
                    }
                }
            }
        }
        for y in 0..h as i32 {
            let has = (0..w as i32).any(|x| !cell(x, y) && (y + 1..h as i32).any(|yy| cell(x, yy)));
            f.rows_with_holes += u32::from(has);
        }
        f
    }

    #[test]
    fn bit_features_match_cell_by_cell_definitions() {
        let mut rng = playfield_standard::SplitMix64::new(3);
        for _ in 0..2000 {
            let h = 4 + (rng.next_u64() % 17) as usize;
            let ph = (rng.next_u64() % (h as u64 + 1)) as usize;
            let rows: Vec<u16> = (0..ph)
                .map(|_| (rng.next_u64() as u16) & FULL_ROW & !(1 << (rng.next_u64() % 10)))
                .collect();
            let b = Board::from_rows(h, &rows).unwrap();
            assert_eq!(measure(&b, true), slow(&b), "{rows:?}");
        }
    }

    #[test]
    fn clean_well_scores_triangular_number() {
        // Column 0 empty to depth 3, everything else filled in rows 0..3.
        let row = FULL_ROW & !1;
        let b = Board::from_rows(20, &[row, row, row]).unwrap();
        let f = measure(&b, false);
        assert_eq!(f.wells, 3 + 2 + 1);
        assert_eq!(f.holes, 0);
        // Empty rows count 2 row transitions each; the three rows 2 each (wall|empty|filled).
        assert_eq!(f.row_transitions, 2 * 17 + 3 * 2);
    }

    #[test]
    fn landing_height_and_erosion() {
        // Rows 0 and 1 full except columns 0..2 (0-based): an O at origin x=1 completes both.
        let row = FULL_ROW & !0b11;
        let b = Board::from_rows(20, &[row, row]).unwrap();
        let o = Piece::O.shape(0);
        let y = b.drop_row(o, 1, 19);
        let (after, f) = place_and_measure(&b, o, 1, y, false);
        assert_eq!(f.rows_completed, 2);
        assert_eq!(f.eroded_cells, 2 * 4);
        assert_eq!(f.landing_height(), 1.5); // rows 1 and 2, 1-based
        assert_eq!(after.cell_count(), 0);
    }
}
