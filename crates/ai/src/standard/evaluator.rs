//! Linear evaluators over [`Features`]: Dellacherie (as Fahey implemented it), El-Tetris, BCTS.

use super::features::Features;
use std::fmt;
use std::str::FromStr;

/// Weights of a linear evaluation; the rating is the weighted sum, higher is better.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Landing height.
    pub landing_height: f64,
    /// Eroded piece cells.
    pub eroded_cells: f64,
    /// Rows completed by the piece.
    pub rows_completed: f64,
    /// Row transitions.
    pub row_transitions: f64,
    /// Column transitions.
    pub column_transitions: f64,
    /// Holes (Fahey: buried holes).
    pub holes: f64,
    /// Wells.
    pub wells: f64,
    /// Hole depth.
    pub hole_depth: f64,
    /// Rows with holes.
    pub rows_with_holes: f64,
}

impl Weights {
    /// Whether the BCTS-only features are needed.
    #[must_use]
    pub fn deep(&self) -> bool {
        self.hole_depth != 0.0 || self.rows_with_holes != 0.0
    }

    /// The rating of one placement.
    #[inline]
    #[must_use]
    pub fn rate(&self, f: &Features) -> f64 {
        self.landing_height * f.landing_height()
            + self.eroded_cells * f64::from(f.eroded_cells)
            + self.rows_completed * f64::from(f.rows_completed)
            + self.row_transitions * f64::from(f.row_transitions)
            + self.column_transitions * f64::from(f.column_transitions)
            + self.holes * f64::from(f.holes)
            + self.wells * f64::from(f.wells)
            + self.hole_depth * f64::from(f.hole_depth)
            + self.rows_with_holes * f64::from(f.rows_with_holes)
    }
}

/// A linear rating the fast search can use.
pub trait Rater {
    /// The rating's type.
    type Score: Copy + PartialOrd;
    /// Below every rating.
    const LOWEST: Self::Score;
    /// The rating of one placement's features.
    fn score(&self, f: &Features) -> Self::Score;
    /// Whether more wells never raise the rating (then a lower bound on the wells gives an
    /// upper bound on the rating; rounding is monotone, so this holds for `f64` sums too).
    fn wells_never_help(&self) -> bool;
}

impl Rater for Weights {
    type Score = f64;
    const LOWEST: f64 = f64::NEG_INFINITY;
    #[inline(always)]
    fn score(&self, f: &Features) -> f64 {
        self.rate(f)
    }
    #[inline(always)]
    fn wells_never_help(&self) -> bool {
        self.wells <= 0.0
    }
}

impl Rater for DoubledWeights {
    type Score = i32;
    const LOWEST: i32 = i32::MIN;
    #[inline(always)]
    fn score(&self, f: &Features) -> i32 {
        self.rate_twice(f)
    }
    #[inline(always)]
    fn wells_never_help(&self) -> bool {
        self.wells <= 0
    }
}

/// Weights whose ratings are exact in integers: twice the rating is an integer sum. Comparing
/// these sums gives the same order and the same ties as Fahey's `double` ratings (every term is
/// a small multiple of one half, so the doubles are exact too), and is faster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DoubledWeights {
    landing_height: i32,
    eroded_cells: i32,
    rows_completed: i32,
    row_transitions: i32,
    column_transitions: i32,
    holes: i32,
    wells: i32,
    hole_depth: i32,
    rows_with_holes: i32,
}

impl DoubledWeights {
    /// Twice the rating of one placement.
    #[inline]
    #[must_use]
    pub fn rate_twice(&self, f: &Features) -> i32 {
        self.landing_height * f.landing_height_twice
            + self.eroded_cells * f.eroded_cells as i32
            + self.rows_completed * f.rows_completed as i32
            + self.row_transitions * f.row_transitions as i32
            + self.column_transitions * f.column_transitions as i32
            + self.holes * f.holes as i32
            + self.wells * f.wells as i32
            + self.hole_depth * f.hole_depth as i32
            + self.rows_with_holes * f.rows_with_holes as i32
    }
}

impl Weights {
    /// The integer form of these weights, if the landing height weight is a small integer and
    /// every other weight a small multiple of one half (Dellacherie's are).
    #[must_use]
    pub fn doubled(&self) -> Option<DoubledWeights> {
        // Small enough that no sum over a 32-row board overflows an i32.
        let int =
            |w: f64| -> Option<i32> { (w.fract() == 0.0 && w.abs() <= 1000.0).then_some(w as i32) };
        let twice = |w: f64| int(w * 2.0);
        Some(DoubledWeights {
            landing_height: int(self.landing_height)?,
            eroded_cells: twice(self.eroded_cells)?,
            rows_completed: twice(self.rows_completed)?,
            row_transitions: twice(self.row_transitions)?,
            column_transitions: twice(self.column_transitions)?,
            holes: twice(self.holes)?,
            wells: twice(self.wells)?,
            hole_depth: twice(self.hole_depth)?,
            rows_with_holes: twice(self.rows_with_holes)?,
        })
    }
}

const ZERO: Weights = Weights {
    landing_height: 0.0,
    eroded_cells: 0.0,
    rows_completed: 0.0,
    row_transitions: 0.0,
    column_transitions: 0.0,
    holes: 0.0,
    wells: 0.0,
    hole_depth: 0.0,
    rows_with_holes: 0.0,
};

/// Pierre Dellacherie's weights as in Fahey's code: -1 landing height, +1 eroded cells, -1 row
/// transitions, -1 column transitions, -4 buried holes, -1 wells.
pub const DELLACHERIE: Weights = Weights {
    landing_height: -1.0,
    eroded_cells: 1.0,
    row_transitions: -1.0,
    column_transitions: -1.0,
    holes: -4.0,
    wells: -1.0,
    ..ZERO
};

/// El-Tetris (Islam El-Ashi's tuned weights; "rows eliminated" in place of eroded cells), digits
/// as published.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
pub const EL_TETRIS: Weights = Weights {
    landing_height: -4.500158825082766,
    rows_completed: 3.4181268101392694,
    row_transitions: -3.2178882868487753,
    column_transitions: -9.348695305445199,
    holes: -7.899265427351652,
    wells: -3.3855972247263626,
    ..ZERO
};

/// BCTS (Thiery & Scherrer): Dellacherie's features plus hole depth and rows with holes.
pub const BCTS: Weights = Weights {
    landing_height: -12.63,
    eroded_cells: 6.60,
    row_transitions: -9.22,
    column_transitions: -19.77,
    holes: -13.08,
    wells: -10.49,
    hole_depth: -1.61,
    rows_with_holes: -24.04,
    rows_completed: 0.0,
};

/// The named evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Evaluator {
    /// [`DELLACHERIE`].
    Dellacherie,
    /// [`EL_TETRIS`].
    ElTetris,
    /// [`BCTS`].
    Bcts,
}

impl Evaluator {
    /// All evaluators.
    pub const ALL: [Evaluator; 3] = [Evaluator::Dellacherie, Evaluator::ElTetris, Evaluator::Bcts];

    /// The evaluator's weights.
    #[must_use]
    pub const fn weights(self) -> Weights {
        match self {
            Evaluator::Dellacherie => DELLACHERIE,
            Evaluator::ElTetris => EL_TETRIS,
            Evaluator::Bcts => BCTS,
        }
    }

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Evaluator::Dellacherie => "dellacherie",
            Evaluator::ElTetris => "el-tetris",
            Evaluator::Bcts => "bcts",
        }
    }
}

impl fmt::Display for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown evaluator name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown AI {0:?} (known: dellacherie, el-tetris, bcts)")]
pub struct UnknownEvaluator(pub String);

impl FromStr for Evaluator {
    type Err = UnknownEvaluator;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "dellacherie" => Ok(Evaluator::Dellacherie),
            "el-tetris" | "eltetris" => Ok(Evaluator::ElTetris),
            "bcts" => Ok(Evaluator::Bcts),
            _ => Err(UnknownEvaluator(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Evaluator::ALL {
            assert_eq!(e.name().parse::<Evaluator>(), Ok(e));
        }
        assert!("bogus".parse::<Evaluator>().is_err());
    }

    #[test]
    fn dellacherie_rating_is_the_stated_sum() {
        let f = Features {
            landing_height_twice: 5,
            eroded_cells: 4,
            rows_completed: 1,
            row_transitions: 10,
            column_transitions: 12,
            holes: 2,
            wells: 3,
            hole_depth: 5,
            rows_with_holes: 1,
        };
        assert_eq!(DELLACHERIE.rate(&f), -2.5 + 4.0 - 10.0 - 12.0 - 8.0 - 3.0);
        assert!(!DELLACHERIE.deep());
        let doubled = DELLACHERIE.doubled().unwrap();
        assert_eq!(
            f64::from(doubled.rate_twice(&f)),
            2.0 * DELLACHERIE.rate(&f)
        );
        assert!(EL_TETRIS.doubled().is_none());
        assert!(BCTS.doubled().is_none());
        assert!(BCTS.deep());
    }
}
