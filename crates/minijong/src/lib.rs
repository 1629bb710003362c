//! Minijong: Bill Kendrick's 10-line TurboBASIC XL Mahjong solitaire (NOMAM 2014), exactly as
//! the Minijong document (a line-by-line description of the original) describes it, plus an
//! exact solver, hints, undo and solvable-only deals.
//!
//! The board is three levels deep: 7×7 at the bottom (level 0), 5×5 above it (level 1) and 3×3
//! on top (level 2), centred, 83 tiles. Only the topmost tile of each of the 49 positions of the
//! 7×7 grid is visible. A tile is *free* when the position to its left or right is empty or shows a
//! tile of a different level (the seed's rule, quirk included: a taller neighbour does not block).
//!
//! - [`board`]: the geometry (levels, slots, positions), the pool and the deal.
//! - [`rng`]: the seeded random source used by the deal (not Atari's POKEY RANDOM).
//! - [`rules`]: the free-tile rule and legal pairs on a compact position (stack heights).
//! - [`game`]: the game as played: cursor, fire, buzz, removal, end detection, undo.
//! - [`solver`]: exact memoised search; winnable, a solution, best reachable result, hints.

pub mod board;
pub mod error;
pub mod game;
pub mod rng;
pub mod rules;
pub mod solver;

pub use board::{Board, Face, Slot};
pub use error::{Error, Result};
pub use game::{Direction, FireOutcome, Game};
pub use rules::{Heights, Pair};
pub use solver::{Solution, solvable_deal, solve, solve_from, solve_limited};
