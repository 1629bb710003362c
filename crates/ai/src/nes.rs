//! Players for NES Tetris (USA) that play through the gamepad, on `playfield-nes`.
//!
//! - [`search`]: every lock placement a piece can reach with gamepad input, with the exact
//!   per-frame buttons, under an [`InputModel`].
//! - [`sweep`]: the same placements found ten columns at a time, for callers that need the set
//!   and the buttons of a few (the Python environments).
//! - [`eval`]: Birken's six features and weights.
//! - [`player`]: a player = evaluator + lookahead depth + input model ([`Player::score`],
//!   [`Player::birken`]); its decision and its ranking of every placement, term by term.
//! - [`players`]: the registry of players by name, the default (`score`) first.
//! - [`game`]: whole games from power-on through the menus, recorded frame by frame.
//! - [`bench`]: a batch of games, its settings and its report.

pub mod bands;
pub mod bench;
pub mod cmaes;
pub mod compare;
mod decide;
pub mod eval;
pub mod field;
pub mod game;
pub mod input;
pub mod learned;
pub mod player;
pub mod players;
pub mod reach;
pub mod score;
mod score_player;
pub mod search;
pub mod segments;
pub mod surface;
pub mod sweep;
pub mod terms;
pub mod tune;

pub use eval::{Features, Weights};
pub use game::{
    Console, CrashRisk, GameConfig, GameConfigError, GameEnd, GameResult, Mismatch, Pilot,
    crash_free, game_seed, play_game, play_game_beside, play_game_with_rom,
};
pub use input::{InputModel, InputModelError};
pub use player::{Decision, Evaluator, Player, Ranked, Situation, Workspace};
pub use players::{DEFAULT_PLAYER, PLAYERS, PlayerError, PlayerInfo};
pub use score::ScoreWeights;
pub use search::{PieceState, Placement, Searcher};
pub use sweep::{SweepPlacement, Sweeper};
pub use terms::Term;
