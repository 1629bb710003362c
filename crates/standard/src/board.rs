//! The board (§5.2): 10 columns, 20 rows by default, as row bitboards.

use crate::error::Error;
use crate::piece::Shape;

/// Columns on a Standard Tetris board.
pub const WIDTH: usize = 10;
/// Rows on a Standard Tetris board.
pub const STANDARD_HEIGHT: usize = 20;
/// The largest board height supported (rows are stored in a fixed array).
pub const MAX_HEIGHT: usize = 32;
/// The smallest board height supported: a piece must be able to appear, fall a row and rotate.
pub const MIN_HEIGHT: usize = 4;
/// A full row.
pub const FULL_ROW: u16 = (1 << WIDTH) - 1;

/// The board: `rows[0]` is the bottom row; bit `c` of a row is column `c` (0 = leftmost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    rows: [u16; MAX_HEIGHT],
    height: u8,
}

impl Board {
    /// An empty board of `height` rows.
    ///
    /// # Errors
    /// [`Error::Height`] unless `MIN_HEIGHT <= height <= MAX_HEIGHT`.
    pub fn new(height: usize) -> Result<Board, Error> {
        if !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height) {
            return Err(Error::Height {
                height,
                min: MIN_HEIGHT,
                max: MAX_HEIGHT,
            });
        }
        Ok(Board {
            rows: [0; MAX_HEIGHT],
            height: height as u8,
        })
    }

    /// A board from row bitboards, bottom row first.
    ///
    /// # Errors
    /// [`Error::Height`] for a bad height, [`Error::RowBits`] if a row has bits beyond column 10.
    pub fn from_rows(height: usize, rows: &[u16]) -> Result<Board, Error> {
        let mut b = Board::new(height)?;
        if rows.len() > height {
            return Err(Error::Height {
                height: rows.len(),
                min: MIN_HEIGHT,
                max: height,
            });
        }
        for (y, &r) in rows.iter().enumerate() {
            if r & !FULL_ROW != 0 {
                return Err(Error::RowBits { row: y, bits: r });
            }
            b.rows[y] = r;
        }
        Ok(b)
    }

    /// Number of rows.
    #[must_use]
    #[inline]
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// The rows in use, bottom first.
    #[must_use]
    #[inline]
    pub fn rows(&self) -> &[u16] {
        &self.rows[..self.height as usize]
    }

    /// Whether the cell at column `x`, row `y` (0-based, y up) is occupied; outside is empty.
    #[must_use]
    #[inline]
    pub fn cell(&self, x: usize, y: usize) -> bool {
        x < WIDTH && y < self.height() && self.rows[y] >> x & 1 == 1
    }

    /// Total occupied cells.
    #[must_use]
    pub fn cell_count(&self) -> u32 {
        self.rows().iter().map(|r| r.count_ones()).sum()
    }

    /// Height of the pile: index of the highest occupied row + 1 (0 when empty).
    #[must_use]
    #[inline]
    pub fn pile_height(&self) -> usize {
        self.rows()
            .iter()
            .rposition(|&r| r != 0)
            .map_or(0, |y| y + 1)
    }

    /// Whether `shape` with its origin at column `ox`, row `oy` lies inside the board and overlaps
    /// no occupied cell (§5.6: the only test for translations and rotations).
    #[must_use]
    #[inline]
    pub fn fits(&self, shape: &Shape, ox: i32, oy: i32) -> bool {
        let left = ox + i32::from(shape.dx_min);
        let bottom = oy + i32::from(shape.dy_min);
        if left < 0
            || ox + i32::from(shape.dx_max) >= WIDTH as i32
            || bottom < 0
            || oy + i32::from(shape.dy_max) >= i32::from(self.height)
        {
            return false;
        }
        let b = bottom as usize;
        (0..shape.rows()).all(|i| self.rows[b + i] & (shape.masks[i] << left) == 0)
    }

    /// The lowest origin row reachable by dropping straight down from `oy` (the piece must fit at
    /// `oy`).
    #[must_use]
    #[inline]
    pub fn drop_row(&self, shape: &Shape, ox: i32, mut oy: i32) -> i32 {
        while self.fits(shape, ox, oy - 1) {
            oy -= 1;
        }
        oy
    }

    /// [`Board::drop_row`] for a caller that knows the pile height: rows at and above it are
    /// empty, so the fall through them needs no tests.
    #[must_use]
    #[inline]
    pub fn drop_row_above_pile(&self, shape: &Shape, ox: i32, oy: i32, pile_height: usize) -> i32 {
        let clear = pile_height as i32 - i32::from(shape.dy_min);
        self.drop_row(shape, ox, oy.min(clear.max(-i32::from(shape.dy_min))))
    }

    /// Adds the piece's cells to the pile (no checks beyond the board edges: cells outside are
    /// dropped, as the game never asks for that).
    #[inline]
    pub fn add(&mut self, shape: &Shape, ox: i32, oy: i32) {
        let left = ox + i32::from(shape.dx_min);
        let bottom = oy + i32::from(shape.dy_min);
        for i in 0..shape.rows() {
            let y = bottom + i as i32;
            if (0..i32::from(self.height)).contains(&y) && left >= 0 {
                self.rows[y as usize] |= (shape.masks[i] << left) & FULL_ROW;
            }
        }
    }

    /// Removes every full row, moving the rows above down (§5.8); returns how many were removed.
    pub fn collapse_completed_rows(&mut self) -> u32 {
        let h = self.height();
        let mut write = 0;
        for read in 0..h {
            let r = self.rows[read];
            if r != FULL_ROW {
                self.rows[write] = r;
                write += 1;
            }
        }
        let removed = (h - write) as u32;
        for r in &mut self.rows[write..h] {
            *r = 0;
        }
        removed
    }

    /// Like [`Board::collapse_completed_rows`], but only rows `lo..hi` can be full (the rows the
    /// last piece touched), which the AI's hot path knows.
    #[inline]
    pub fn collapse_completed_rows_in(&mut self, lo: usize, hi: usize) -> u32 {
        let mut full = 0u32;
        for y in lo..hi.min(self.height()) {
            if self.rows[y] == FULL_ROW {
                full |= 1 << y;
            }
        }
        if full == 0 {
            return 0;
        }
        let h = self.height();
        let mut write = lo;
        for read in lo..h {
            if full >> read & 1 == 0 {
                self.rows[write] = self.rows[read];
                write += 1;
            }
        }
        for r in &mut self.rows[write..h] {
            *r = 0;
        }
        full.count_ones()
    }

    /// Sets one cell (for tests and tools).
    pub fn set(&mut self, x: usize, y: usize, occupied: bool) {
        if x < WIDTH && y < self.height() {
            if occupied {
                self.rows[y] |= 1 << x;
            } else {
                self.rows[y] &= !(1 << x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;

    #[test]
    fn heights_are_checked() {
        assert!(Board::new(3).is_err());
        assert!(Board::new(33).is_err());
        assert_eq!(Board::new(20).unwrap().height(), 20);
        assert!(Board::from_rows(20, &[0x400]).is_err());
    }

    #[test]
    fn fits_respects_edges_and_cells() {
        let mut b = Board::new(20).unwrap();
        let i = Piece::I.shape(0);
        assert!(b.fits(i, 2, 0));
        assert!(!b.fits(i, 1, 0)); // cell at -1
        assert!(b.fits(i, 8, 0));
        assert!(!b.fits(i, 9, 0)); // cell at 10
        assert!(b.fits(i, 5, 19));
        assert!(!b.fits(i, 5, 20));
        b.set(4, 0, true);
        assert!(!b.fits(i, 5, 0));
        assert_eq!(b.drop_row(i, 5, 19), 1);
        assert_eq!(b.drop_row_above_pile(i, 5, 19, b.pile_height()), 1);
        assert_eq!(b.drop_row_above_pile(i, 2, 19, b.pile_height()), 0);
    }

    #[test]
    fn collapse_moves_rows_down() {
        let mut b = Board::from_rows(20, &[FULL_ROW, 0b1, FULL_ROW, 0b10]).unwrap();
        assert_eq!(b.collapse_completed_rows(), 2);
        assert_eq!(&b.rows()[..3], &[0b1, 0b10, 0]);
        let mut c = Board::from_rows(20, &[FULL_ROW, 0b1, FULL_ROW, 0b10]).unwrap();
        assert_eq!(c.collapse_completed_rows_in(0, 4), 2);
        assert_eq!(b, c);
    }
}
