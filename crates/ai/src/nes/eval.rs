//! Birken's evaluator: six features of a placement, weighted and minimised.

use playfield_nes::tables::{ORIENTATIONS, TILE_EMPTY};
use serde::{Deserialize, Serialize};

/// The features Birken's AI scores a placement by (`PlayfieldEvaluator` in his source).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// Lines the placement clears.
    pub lines_cleared: f64,
    /// How far the locked piece would still drop with all other cells removed (0 = on the floor).
    pub lock_height: f64,
    /// Empty cells above each column's surface whose left and right cells are filled (walls
    /// count as filled).
    pub well_cells: f64,
    /// Empty cells below a column's top filled cell.
    pub column_holes: f64,
    /// Filled/empty changes down each column from just below its top filled cell.
    pub column_transitions: f64,
    /// Filled/empty changes along each non-empty row, walls counted as filled.
    pub row_transitions: f64,
}

/// Feature weights (the cost is their dot product with [`Features`], minimised). Data, so other
/// weights can be loaded from JSON without touching code.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Weight of `lines_cleared`.
    pub lines_cleared: f64,
    /// Weight of `lock_height`.
    pub lock_height: f64,
    /// Weight of `well_cells`.
    pub well_cells: f64,
    /// Weight of `column_holes`.
    pub column_holes: f64,
    /// Weight of `column_transitions`.
    pub column_transitions: f64,
    /// Weight of `row_transitions`.
    pub row_transitions: f64,
}

impl Weights {
    /// Birken's weights, from his published source (docs/facts.md).
    pub const BIRKEN: Weights = Weights {
        lines_cleared: 1.0,
        lock_height: 12.885008263218383,
        well_cells: 15.842707182438396,
        column_holes: 26.89449650779595,
        column_transitions: 27.616914062397015,
        row_transitions: 30.18511071927904,
    };

    /// The cost of a set of features.
    #[must_use]
    pub fn cost(&self, f: &Features) -> f64 {
        self.lines_cleared * f.lines_cleared
            + self.lock_height * f.lock_height
            + self.well_cells * f.well_cells
            + self.column_holes * f.column_holes
            + self.column_transitions * f.column_transitions
            + self.row_transitions * f.row_transitions
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::BIRKEN
    }
}

fn filled(page: &[u8; 256], x: usize, y: usize) -> bool {
    page[y * 10 + x] != TILE_EMPTY
}

/// Lock height of a piece locked at (x, y, orientation): rows between its lowest mino and the
/// floor.
#[must_use]
pub fn lock_height(y: u8, orientation: u8) -> f64 {
    let bottom = ORIENTATIONS[usize::from(orientation)]
        .iter()
        .map(|m| i32::from(y as i8) + i32::from(m.dy))
        .max()
        .unwrap_or(0);
    f64::from(19 - bottom)
}

/// The four board features (wells, holes, column and row transitions) of the visible 10×20
/// field; lines and lock height belong to the placement and are added by the caller.
#[must_use]
pub fn board_features(page: &[u8; 256]) -> Features {
    let mut f = Features::default();
    for x in 0..10 {
        // Wells: scan down the column's empty cells above its surface.
        let mut y = 0;
        while y < 20 && !filled(page, x, y) {
            let left = x == 0 || filled(page, x - 1, y);
            let right = x == 9 || filled(page, x + 1, y);
            if left && right {
                f.well_cells += 1.0;
            }
            y += 1;
        }
        // Holes and column transitions below the top filled cell.
        let top = y;
        let mut prev = true;
        for y in top..20 {
            let cell = filled(page, x, y);
            if !cell {
                f.column_holes += 1.0;
            }
            if y > top && cell != prev {
                f.column_transitions += 1.0;
            }
            prev = cell;
        }
    }
    for y in 0..20 {
        if (0..10).all(|x| !filled(page, x, y)) {
            continue;
        }
        let mut prev = true;
        for x in 0..10 {
            let cell = filled(page, x, y);
            if cell != prev {
                f.row_transitions += 1.0;
            }
            prev = cell;
        }
        if !prev {
            f.row_transitions += 1.0;
        }
    }
    f
}

pub use playfield_nes::rules::lock_and_clear;
