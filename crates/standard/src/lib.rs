//! Colin Fahey's "Standard Tetris" rules: a 10 x 20 board, the seven pieces with Fahey's
//! orientation sets, counter-clockwise rotation, left/right/rotate/drop inputs acting on press, the
//! falling iteration, levels 1-10, iteration delay and score as in §5 of his specification.

pub mod board;
pub mod error;
pub mod game;
pub mod piece;
pub mod rules;
pub mod sequence;

pub use board::{Board, FULL_ROW, MAX_HEIGHT, MIN_HEIGHT, STANDARD_HEIGHT, WIDTH};
pub use error::Error;
pub use game::{EndRule, FallingPiece, Game, GameOver, Iteration, Landing};
pub use piece::{Piece, Shape};
pub use rules::{actual_level, earned_level, iteration_delay, point_award};
pub use sequence::{PieceSource, SplitMix64, game_seed, parse_pieces};
