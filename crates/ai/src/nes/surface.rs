//! A value for the surface of the stack, in the spirit of StackRabbit's surface table: how many
//! pieces a surface takes without a hole, on average over the pieces the randomizer may deal,
//! computed exactly by value iteration over the height differences between neighbouring
//! columns.
//!
//! The stack is columns 1-9 (column 10 is the tetris well): its surface is the 8 differences of
//! neighbouring heights, each clamped to `-clamp..=clamp`. The value of a surface is
//!
//! `V(s) = 1/7 · Σ_piece max over its placements without a hole (1 + γ · V(s'))`,
//!
//! a piece with no such placement adding 0: the expected discounted number of pieces the surface
//! takes cleanly before one cannot be placed without a hole. A placement is without a hole when
//! the piece's bottom fits the surface under it exactly; one that would make a difference
//! beyond the clamp counts as none (the table cannot say what follows it). Lines cleared do not
//! change the differences (the well's column is not part of them), so heights do not matter.
//! Where a piece can reach under the gravity is not modelled: the value is the surface's alone.
//!
//! States: `(2·clamp + 1)^8`; clamp 2 gives 390,625, clamp 3 5,764,801. Each sweep visits every
//! state and every placement of the 19 orientations; the error after a sweep whose largest change
//! is `δ` is below `δ·γ/(1 − γ)`.

use std::sync::OnceLock;

use rayon::prelude::*;
use thiserror::Error;

/// Columns of the stack the surface covers (the well's column is not one of them).
pub const COLUMNS: usize = 9;
/// Height differences between them.
pub const DIFFS: usize = COLUMNS - 1;
/// The clamp of the table the evaluator uses.
pub const DEFAULT_CLAMP: u8 = 2;
/// The discount of the table the evaluator uses.
pub const DEFAULT_DISCOUNT: f64 = 0.9;
/// Largest change in a sweep at which the iteration stops.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// The tetrominoes' cells (x right, y up), one orientation each, by piece: the orientations
/// follow by rotation, and duplicates are dropped.
const PIECES: [[(i8, i8); 4]; 7] = [
    [(0, 0), (1, 0), (2, 0), (1, 1)], // T
    [(0, 0), (1, 0), (2, 0), (0, 1)], // J
    [(1, 0), (2, 0), (0, 1), (1, 1)], // Z
    [(0, 0), (1, 0), (0, 1), (1, 1)], // O
    [(0, 0), (1, 0), (1, 1), (2, 1)], // S
    [(0, 0), (1, 0), (2, 0), (2, 1)], // L
    [(0, 0), (1, 0), (2, 0), (3, 0)], // I
];

/// One orientation as the surface sees it: per column of the piece, its lowest and highest
/// cell (rows above the piece's bottom, the highest one past its top).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shape {
    bottom: Vec<i8>,
    top: Vec<i8>,
}

/// The shapes of each piece's distinct orientations.
fn shapes() -> Vec<Vec<Shape>> {
    PIECES
        .iter()
        .map(|cells| {
            let mut out: Vec<Shape> = Vec::new();
            let mut cells = cells.to_vec();
            for _ in 0..4 {
                let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
                let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
                let width = cells.iter().map(|c| c.0 - min_x).max().unwrap_or(0) + 1;
                let mut bottom = vec![i8::MAX; width as usize];
                let mut top = vec![i8::MIN; width as usize];
                for &(x, y) in &cells {
                    let c = (x - min_x) as usize;
                    bottom[c] = bottom[c].min(y - min_y);
                    top[c] = top[c].max(y - min_y + 1);
                }
                let shape = Shape { bottom, top };
                if !out.contains(&shape) {
                    out.push(shape);
                }
                // A quarter turn: (x, y) -> (y, -x).
                cells = cells.iter().map(|&(x, y)| (y, -x)).collect();
            }
            out
        })
        .collect()
}

/// A surface table that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SurfaceError {
    /// Not a table file.
    #[error("not a surface table: {0}")]
    Format(String),
}

/// The value of every clamped surface.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceTable {
    /// Differences are clamped to `-clamp..=clamp`.
    pub clamp: u8,
    /// γ.
    pub discount: f64,
    /// Sweeps the iteration took.
    pub sweeps: u32,
    /// The largest change of the last sweep.
    pub residual: f64,
    /// By state: digit `i` (base `2·clamp + 1`) is difference `i` plus `clamp`.
    pub values: Vec<f32>,
}

/// The magic line of a table file.
const MAGIC: &[u8; 8] = b"PFSURF1\n";

impl SurfaceTable {
    /// Computes the table by value iteration from zero until a sweep changes no value by more
    /// than `tolerance`, or after `max_sweeps`.
    #[must_use]
    pub fn compute(clamp: u8, discount: f64, tolerance: f64, max_sweeps: u32) -> SurfaceTable {
        Self::compute_on(clamp, discount, tolerance, max_sweeps, true)
    }

    /// [`SurfaceTable::compute`] on rayon's threads or on the calling thread alone.
    fn compute_on(
        clamp: u8,
        discount: f64,
        tolerance: f64,
        max_sweeps: u32,
        parallel: bool,
    ) -> SurfaceTable {
        let base = 2 * i64::from(clamp) + 1;
        let states = base.pow(DIFFS as u32) as usize;
        let mut powers = [0i64; DIFFS];
        let mut p = 1;
        for power in &mut powers {
            *power = p;
            p *= base;
        }
        let pieces = shapes();
        let clamp = i64::from(clamp);
        let mut values = vec![0.0f64; states];
        let mut next = vec![0.0f64; states];
        let (mut sweeps, mut residual) = (0, f64::INFINITY);
        while sweeps < max_sweeps && residual > tolerance {
            let value_of = |index: usize| {
                let mut diffs = [0i64; DIFFS];
                let mut rest = index as i64;
                for d in &mut diffs {
                    *d = rest % base - clamp;
                    rest /= base;
                }
                let mut total = 0.0;
                for shapes in &pieces {
                    let mut best: Option<f64> = None;
                    for shape in shapes {
                        let w = shape.bottom.len();
                        'x: for x in 0..=COLUMNS - w {
                            let mut to = index as i64;
                            for k in 0..w - 1 {
                                let need = i64::from(shape.bottom[k + 1] - shape.bottom[k]);
                                if diffs[x + k] != need {
                                    continue 'x;
                                }
                                let now = i64::from(shape.top[k + 1] - shape.top[k]);
                                if now.abs() > clamp {
                                    continue 'x;
                                }
                                to += (now - need) * powers[x + k];
                            }
                            if x > 0 {
                                let d = diffs[x - 1] + i64::from(shape.top[0] - shape.bottom[0]);
                                if d.abs() > clamp {
                                    continue 'x;
                                }
                                to += (d - diffs[x - 1]) * powers[x - 1];
                            }
                            if x + w < COLUMNS {
                                let grown = i64::from(shape.top[w - 1] - shape.bottom[w - 1]);
                                let d = diffs[x + w - 1] - grown;
                                if d.abs() > clamp {
                                    continue 'x;
                                }
                                to -= grown * powers[x + w - 1];
                            }
                            let v = 1.0 + discount * values[to as usize];
                            best = Some(best.map_or(v, |b: f64| b.max(v)));
                        }
                    }
                    total += best.unwrap_or(0.0);
                }
                total / pieces.len() as f64
            };
            if parallel {
                next.par_iter_mut()
                    .enumerate()
                    .for_each(|(index, out)| *out = value_of(index));
            } else {
                for (index, out) in next.iter_mut().enumerate() {
                    *out = value_of(index);
                }
            }
            residual = values
                .par_iter()
                .zip(&next)
                .map(|(a, b)| (a - b).abs())
                .reduce(|| 0.0, f64::max);
            std::mem::swap(&mut values, &mut next);
            sweeps += 1;
        }
        SurfaceTable {
            clamp: clamp as u8,
            discount,
            sweeps,
            residual,
            values: values.iter().map(|&v| v as f32).collect(),
        }
    }

    /// The table the evaluator uses ([`DEFAULT_CLAMP`], [`DEFAULT_DISCOUNT`]), computed once per
    /// process at first use (about 10 s of one core). On the calling thread alone: the first
    /// use is often a search on a rayon worker, which, waiting inside a parallel sweep, could
    /// take up another search that waits for this very table.
    #[must_use]
    pub fn shared() -> &'static SurfaceTable {
        static TABLE: OnceLock<SurfaceTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            SurfaceTable::compute_on(
                DEFAULT_CLAMP,
                DEFAULT_DISCOUNT,
                DEFAULT_TOLERANCE,
                1000,
                false,
            )
        })
    }

    /// The value of the surface of columns 1-9 of `heights`, each difference clamped.
    #[inline]
    #[must_use]
    pub fn value(&self, heights: &[u8; 10]) -> f64 {
        let clamp = i32::from(self.clamp);
        let base = 2 * clamp + 1;
        let mut index = 0i32;
        for x in (0..DIFFS).rev() {
            let d = (i32::from(heights[x + 1]) - i32::from(heights[x])).clamp(-clamp, clamp);
            index = index * base + d + clamp;
        }
        f64::from(self.values[index as usize])
    }

    /// The table as a file: a magic line, the clamp, γ, the sweeps, the residual, the values
    /// (little-endian `f32`).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(self.clamp);
        out.extend_from_slice(&self.discount.to_le_bytes());
        out.extend_from_slice(&self.sweeps.to_le_bytes());
        out.extend_from_slice(&self.residual.to_le_bytes());
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Reads [`SurfaceTable::to_bytes`]' format.
    ///
    /// # Errors
    /// When the bytes are not such a table.
    pub fn from_bytes(bytes: &[u8]) -> Result<SurfaceTable, SurfaceError> {
        let header = MAGIC.len() + 1 + 8 + 4 + 8;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err(SurfaceError::Format("no PFSURF1 header".into()));
        }
        let clamp = bytes[MAGIC.len()];
        let at = MAGIC.len() + 1;
        let f64_at = |i: usize| f64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let discount = f64_at(at);
        let sweeps = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().expect("4 bytes"));
        let residual = f64_at(at + 12);
        let states = (2 * u64::from(clamp) + 1).pow(DIFFS as u32);
        let body = &bytes[header..];
        if clamp == 0 || clamp > 6 || body.len() as u64 != states * 4 {
            return Err(SurfaceError::Format(format!(
                "clamp {clamp} needs {states} values, the file has {} bytes of them",
                body.len()
            )));
        }
        let values = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(SurfaceTable {
            clamp,
            discount,
            sweeps,
            residual,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seven_pieces_have_nineteen_orientations() {
        let s = shapes();
        let counts: Vec<usize> = s.iter().map(Vec::len).collect();
        assert_eq!(counts, [4, 4, 2, 1, 2, 4, 2]);
        // The vertical I: one column, four rows.
        assert!(s[6].contains(&Shape {
            bottom: vec![0],
            top: vec![4]
        }));
    }

    #[test]
    fn a_flat_surface_is_worth_more_than_a_jagged_one_and_the_table_has_converged() {
        let t = SurfaceTable::compute(1, 0.9, 1e-7, 1000);
        assert_eq!(t.values.len(), 3usize.pow(8));
        assert!(t.residual <= 1e-7 && t.sweeps < 1000);
        let flat = t.value(&[5; 10]);
        let jagged = t.value(&[5, 6, 5, 6, 5, 6, 5, 6, 5, 0]);
        assert!(flat > jagged, "{flat} {jagged}");
        // Every value is a discounted count of pieces: between 0 and 1 / (1 - γ).
        assert!(t.values.iter().all(|&v| (0.0..=10.0).contains(&v)));
        // Five pieces of seven fit a flat surface without a hole (S and Z do not).
        assert!(flat >= 5.0 / 7.0, "{flat}");
        // The well's column does not count.
        assert_eq!(t.value(&[5; 10]), t.value(&[5, 5, 5, 5, 5, 5, 5, 5, 5, 19]));
        assert_eq!(SurfaceTable::compute_on(1, 0.9, 1e-7, 1000, false), t);
        let back = SurfaceTable::from_bytes(&t.to_bytes()).unwrap();
        assert_eq!(back, t);
        assert!(SurfaceTable::from_bytes(b"nope").is_err());
    }
}
