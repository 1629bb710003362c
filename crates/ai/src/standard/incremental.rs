//! Fast features: the board's per-row and per-column terms are computed once per decision, and
//! each placement that completes no row only recomputes the rows and columns it touches. A
//! placement that completes rows (or asks for the BCTS-only features) takes the full path.

use super::features::{Features, place_and_measure_with, pop12};
use playfield_standard::{Board, FULL_ROW, MAX_HEIGHT, Shape, WIDTH};

const WALLS: u16 = 1 | (1 << (WIDTH + 1));
const PAIRS: u16 = (1 << (WIDTH + 1)) - 1;

/// Row transitions of one row, walls counted filled.
#[inline]
fn row_transitions(row: u16) -> u32 {
    let e = (row << 1) | WALLS;
    pop12((e ^ (e >> 1)) & PAIRS)
}

/// Fahey's wells of column `x` given column bitboards (bit y = row y) and the all-rows mask.
#[inline]
fn column_wells(cols: &[u32; WIDTH], x: usize, all: u32) -> u32 {
    let me = cols[x];
    let left = if x == 0 { all } else { cols[x - 1] };
    let right = if x == WIDTH - 1 { all } else { cols[x + 1] };
    let mut w = !me & left & right & all;
    let mut sum = 0;
    while w != 0 {
        let y = w.trailing_zeros();
        w &= w - 1;
        let below = me & ((1u32 << y) - 1);
        // Empty run from row y down to the first filled cell (or the floor).
        sum += if below == 0 {
            y + 1
        } else {
            y - (31 - below.leading_zeros())
        };
    }
    sum
}

/// Column height (top filled row + 1) minus filled cells: the column's holes.
#[inline]
fn column_holes(col: u32) -> u32 {
    (32 - col.leading_zeros()) - col.count_ones()
}

/// A board prepared for evaluating many placements on it.
#[derive(Debug, Clone)]
pub struct Prepared {
    board: Board,
    pile_height: usize,
    all: u32,
    cols: [u32; WIDTH],
    row_trans: [u8; MAX_HEIGHT],
    row_trans_total: u32,
    col_trans_total: u32,
    holes: u32,
    wells_by_col: [u32; WIDTH],
    wells: u32,
}

impl Prepared {
    /// Prepares `board`.
    #[must_use]
    pub fn new(board: &Board) -> Self {
        let h = board.height();
        let ph = board.pile_height();
        let r = board.rows();
        let mut cols = [0u32; WIDTH];
        let mut row_trans = [2u8; MAX_HEIGHT];
        let mut row_trans_total = 2 * (h - ph) as u32;
        let mut col_trans_total = pop12(!r[0] & FULL_ROW);
        for y in 0..ph {
            let row = r[y];
            let t = row_transitions(row);
            row_trans[y] = t as u8;
            row_trans_total += t;
            let above = if y + 1 < h { r[y + 1] } else { 0 };
            col_trans_total += pop12(row ^ above);
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                cols[x] |= 1 << y;
            }
        }
        let all = if h >= 32 { u32::MAX } else { (1u32 << h) - 1 };
        let mut wells_by_col = [0u32; WIDTH];
        let mut holes = 0;
        for x in 0..WIDTH {
            wells_by_col[x] = column_wells(&cols, x, all);
            holes += column_holes(cols[x]);
        }
        Prepared {
            board: *board,
            pile_height: ph,
            all,
            cols,
            row_trans,
            row_trans_total,
            col_trans_total,
            holes,
            wells_by_col,
            wells: wells_by_col.iter().sum(),
        }
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Its pile height.
    #[must_use]
    pub const fn pile_height(&self) -> usize {
        self.pile_height
    }

    /// Features of `shape` landed at (`ox`, `oy`); equal to [`super::features::place_and_measure`].
    #[inline]
    #[must_use]
    pub fn features(&self, shape: &Shape, ox: i32, oy: i32, deep: bool) -> Features {
        let left = ox + i32::from(shape.dx_min);
        let bottom = (oy + i32::from(shape.dy_min)) as usize;
        let n = shape.rows();
        let r = self.board.rows();
        let h = r.len();
        let mut new_rows = [0u16; 4];
        let mut full = false;
        for i in 0..n {
            new_rows[i] = r[bottom + i] | (shape.masks[i] << left);
            full |= new_rows[i] == FULL_ROW;
        }
        if full || deep {
            return place_and_measure_with(&self.board, self.pile_height, shape, ox, oy, deep).1;
        }
        let top = bottom + n; // first row above the piece
        // Row transitions: only the piece's rows change.
        let mut rt = self.row_trans_total;
        for (i, &row) in new_rows[..n].iter().enumerate() {
            rt = rt + row_transitions(row) - u32::from(self.row_trans[bottom + i]);
        }
        // Column transitions: the pairs (y, y + 1) for y from bottom - 1 to top - 1, and the
        // floor term when the piece touches row 0.
        let new_row = |y: usize| -> u16 {
            if y >= h {
                0
            } else if y >= bottom && y < top {
                new_rows[y - bottom]
            } else {
                r[y]
            }
        };
        let old_row = |y: usize| -> u16 { if y >= h { 0 } else { r[y] } };
        let mut ct = self.col_trans_total;
        let first = bottom.saturating_sub(1);
        for y in first..top {
            ct = ct + pop12(new_row(y) ^ new_row(y + 1)) - pop12(old_row(y) ^ old_row(y + 1));
        }
        if bottom == 0 {
            ct = ct + pop12(!new_rows[0] & FULL_ROW) - pop12(!r[0] & FULL_ROW);
        }
        // Columns: holes and wells change only in and next to the piece's columns.
        let mut cols = self.cols;
        for &(dx, dy) in &shape.cells {
            cols[(ox + i32::from(dx)) as usize] |= 1 << (oy + i32::from(dy));
        }
        let lo = left as usize;
        let hi = (ox + i32::from(shape.dx_max)) as usize;
        // Holes = sum over columns of (height - filled cells); the piece adds 4 cells.
        let mut holes = self.holes;
        for (new, old) in cols[lo..=hi].iter().zip(&self.cols[lo..=hi]) {
            holes += (32 - new.leading_zeros()) - (32 - old.leading_zeros());
        }
        holes -= 4;
        let mut wells = self.wells;
        for x in lo.saturating_sub(1)..=(hi + 1).min(WIDTH - 1) {
            wells = wells + column_wells(&cols, x, self.all) - self.wells_by_col[x];
        }
        Features {
            landing_height: f64::from(oy + 1) + f64::from(shape.dy_min + shape.dy_max) * 0.5,
            eroded_cells: 0,
            rows_completed: 0,
            row_transitions: rt,
            column_transitions: ct,
            holes,
            wells,
            hole_depth: 0,
            rows_with_holes: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standard::features::place_and_measure;
    use crate::standard::moves::{MoveModel, placements};
    use playfield_standard::{Piece, SplitMix64};

    #[test]
    fn incremental_features_equal_full_features() {
        let mut rng = SplitMix64::new(11);
        let mut checked = 0;
        for _ in 0..3000 {
            let h = 4 + (rng.next_u64() % 17) as usize;
            let ph = (rng.next_u64() % (h as u64 - 1)) as usize;
            let density = rng.next_u64() % 4;
            let rows: Vec<u16> = (0..ph)
                .map(|_| {
                    let mut r = rng.next_u64() as u16;
                    for _ in 0..density {
                        r |= rng.next_u64() as u16;
                    }
                    r & FULL_ROW & !(1 << (rng.next_u64() % 10))
                })
                .collect();
            let b = Board::from_rows(h, &rows).unwrap();
            let prep = Prepared::new(&b);
            for piece in Piece::ALL {
                for model in [MoveModel::Standard, MoveModel::Simplified] {
                    for p in placements(&b, piece, model).as_slice() {
                        let s = piece.shape(p.orientation);
                        for deep in [false, true] {
                            let want = place_and_measure(&b, s, p.x, p.y, deep).1;
                            let got = prep.features(s, p.x, p.y, deep);
                            assert_eq!(got, want, "{rows:?} {piece} {p:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
