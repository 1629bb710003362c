//! Players for Standard Tetris: board features, the Dellacherie, El-Tetris and BCTS evaluators,
//! the "standard" and "simplified" move models, one- and two-piece search.

pub mod evaluator;
pub mod features;
pub mod incremental;
pub mod moves;
pub mod player;

pub use evaluator::{BCTS, DELLACHERIE, EL_TETRIS, Evaluator, Weights};
pub use features::{Features, measure, place_and_measure};
pub use incremental::Prepared;
pub use moves::{MoveModel, Placement, Placements, placements};
pub use player::{GameRecord, Player, PlayerConfig, UnreachablePlacement};
