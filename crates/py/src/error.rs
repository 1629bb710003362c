//! The errors of the bindings, as Rust types, and the Python exception each becomes: a bad
//! argument or an action refused is a `ValueError` (a wrong type a `TypeError`), what the engine
//! or the bindings themselves fail at is a `RuntimeError`.

use playfield_ai::nes::GameConfigError;
use playfield_ai::nes::InputModelError;
use playfield_ai::standard::moves::UnknownMoveModel;
use playfield_ai::standard::player::UnreachablePlacement;
use playfield_nes::fm2::Fm2Error;
use playfield_nes::raw::RamImportError;
use pyo3::PyErr;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use thiserror::Error;

/// What a game of an environment (`crate::game`) refuses or fails at.
#[derive(Debug, Error)]
pub enum GameError {
    /// A step before the first reset.
    #[error("the environment was never reset: call reset() first")]
    NotReset,
    /// A step after the episode ended.
    #[error("the episode is over: call reset()")]
    EpisodeOver,
    /// A placement action outside the action space.
    #[error("action {action} is outside the action space 0..{size}")]
    OutsideActionSpace {
        /// The action given.
        action: i64,
        /// The size of the action space.
        size: usize,
    },
    /// A frame action that is not a buttons byte.
    #[error("action {action} is outside the action space 0..256 (a buttons byte)")]
    NotAButtonsByte {
        /// The action given.
        action: i64,
    },
    /// A NES placement outside the action mask.
    #[error(
        "action {action} is not allowed now (outside the action mask: the piece cannot reach \
         that placement under the input model)"
    )]
    UnreachableNesPlacement {
        /// The action given.
        action: i64,
    },
    /// A Standard Tetris placement outside the action mask.
    #[error(
        "action {action} is not allowed now (outside the action mask: no such placement under \
         the move model)"
    )]
    UnreachableStandardPlacement {
        /// The action given.
        action: i64,
    },
    /// A reward name that is neither `score` nor `lines`.
    #[error("reward: unknown reward {0:?} (known: \"score\", \"lines\", \"score_no_pushdown\")")]
    UnknownReward(String),
    /// The engine did not get from power-on to the level menu.
    #[error("the engine did not reach the level menu from power-on")]
    NoLevelMenu,
    /// The engine did not get from the level menu to the first piece.
    #[error("the engine did not reach the first piece from power-on (it should)")]
    NoFirstPiece,
    /// A placement's buttons locked the piece elsewhere in the engine (a bug).
    #[error(
        "internal error: planned lock {want:?} (x, y, orientation), engine {got:?} at frame \
         {frame}"
    )]
    PlannedLockMissed {
        /// (x, y, orientation) planned.
        want: (u8, u8, u8),
        /// (x, y, orientation) of the engine's piece.
        got: (u8, u8, u8),
        /// The engine's frame.
        frame: u64,
    },
    /// A Standard Tetris game could not be set up.
    #[error(transparent)]
    Standard(#[from] playfield_standard::Error),
    /// A Standard Tetris placement's inputs did not land it where planned (a bug).
    #[error("internal error: the placement for {piece:?} was not reached: {source}")]
    StandardPlacementMissed {
        /// The piece played.
        piece: Option<playfield_standard::Piece>,
        /// What went wrong.
        source: UnreachablePlacement,
    },
    /// The error of one game of a vector environment.
    #[error("sub-environment {index}: {source}")]
    SubEnvironment {
        /// The game's index.
        index: usize,
        /// Its error.
        source: Box<GameError>,
    },
}

impl From<GameError> for PyErr {
    fn from(e: GameError) -> PyErr {
        let refused = match &e {
            GameError::SubEnvironment { source, .. } => is_refusal(source),
            other => is_refusal(other),
        };
        if refused {
            PyValueError::new_err(e.to_string())
        } else {
            PyRuntimeError::new_err(e.to_string())
        }
    }
}

/// Whether the error is the caller's (an action or a call refused), not the engine's.
fn is_refusal(e: &GameError) -> bool {
    matches!(
        e,
        GameError::NotReset
            | GameError::EpisodeOver
            | GameError::OutsideActionSpace { .. }
            | GameError::NotAButtonsByte { .. }
            | GameError::UnreachableNesPlacement { .. }
            | GameError::UnreachableStandardPlacement { .. }
            | GameError::UnknownReward(_)
            | GameError::Standard(_)
    )
}

/// A bad argument from Python, or what the bindings fail at outside a game.
#[derive(Debug, Error)]
pub enum ArgError {
    /// `game_type` of an environment outside 0-1.
    #[error("game_type must be 0 (A-type) or 1 (B-type), got {0}")]
    EnvGameType(u8),
    /// `game_type` of a benchmark game outside 0-1.
    #[error("game_type must be 0 (A) or 1 (B), got {0}")]
    GameType(u8),
    /// A game configuration out of the menus' ranges.
    #[error(transparent)]
    Config(#[from] GameConfigError),
    /// A bad input timeline.
    #[error(transparent)]
    InputModel(#[from] InputModelError),
    /// A player the registry does not have.
    #[error(transparent)]
    Player(#[from] playfield_ai::nes::PlayerError),
    /// A Standard Tetris move model name not known.
    #[error(transparent)]
    MoveModel(#[from] UnknownMoveModel),
    /// A Standard Tetris board that cannot be built.
    #[error(transparent)]
    Board(#[from] playfield_standard::Error),
    /// An end rule name not known.
    #[error("unknown end_rule {0:?} (known: \"spawn-blocked\", \"no-placement\")")]
    EndRule(String),
    /// The no-placement end rule with the standard move model, which the command line refuses
    /// too.
    #[error(
        "end_rule='no-placement' needs model='simplified': the standard model moves pieces from \
         the spawn position, which no-placement lets be blocked"
    )]
    NoPlacementNeedsSimplified,
    /// A Standard Tetris level outside 1-10.
    #[error("level must be 1-10 (Fahey's levels), got {0}")]
    StandardLevel(u8),
    /// A Standard Tetris AI name not known.
    #[error("unknown ai {0:?} (known: dellacherie, el-tetris, bcts)")]
    UnknownAi(String),
    /// A Birken weight name not known.
    #[error(
        "unknown weight {0:?} (known: lines_cleared, lock_height, well_cells, column_holes, \
         column_transitions, row_transitions)"
    )]
    UnknownWeight(String),
    /// A NaN or infinite weight.
    #[error("weights[{name:?}] must be a finite number, got {value}")]
    WeightNotFinite {
        /// The weight's name.
        name: String,
        /// The value given.
        value: f64,
    },
    /// A Standard Tetris piece index outside 0-6.
    #[error("piece must be 0-6 (O I S Z L J T, Fahey's order), got {0}")]
    Piece(i64),
    /// An array of the wrong shape.
    #[error("{name} must have shape {want}, got {got:?}")]
    Shape {
        /// The argument's name.
        name: &'static str,
        /// The shape wanted.
        want: Dims,
        /// The shape given.
        got: Vec<usize>,
    },
    /// A Standard Tetris board of the wrong shape.
    #[error("board must have shape (rows, 10), got {0:?}")]
    BoardShape(Vec<usize>),
    /// A batch of one value per sub-environment of the wrong length.
    #[error("{name} must have shape ({want},), got ({got},)")]
    BatchLength {
        /// The argument's name.
        name: &'static str,
        /// The number of sub-environments.
        want: usize,
        /// The length given.
        got: usize,
    },
    /// A 1-D array of the wrong length.
    #[error("{name} must have length {want}, got {got}")]
    Length {
        /// The argument's name.
        name: &'static str,
        /// The length wanted.
        want: usize,
        /// The length given.
        got: usize,
    },
    /// An array not laid out row by row in one block.
    #[error("{0} must be C-contiguous")]
    NotContiguous(&'static str),
    /// An int argument outside its range (`crate::args`).
    #[error("{name} must be {low}-{high}, got {got}")]
    OutOfRange {
        /// The argument's name.
        name: &'static str,
        /// The least value allowed.
        low: i128,
        /// The greatest value allowed.
        high: i128,
        /// The value given, as Python prints it.
        got: String,
    },
    /// An argument of the wrong type (`crate::args`).
    #[error("{name} must be {want}, got {kind} {repr}")]
    WrongType {
        /// The argument's name.
        name: &'static str,
        /// What it must be.
        want: &'static str,
        /// The Python type given.
        kind: String,
        /// The value given, as Python's `repr`.
        repr: String,
    },
    /// A count that must be positive.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// A thread count outside 1-256.
    #[error("num_threads must be 1-{max}, got {0}", max = crate::envs::MAX_THREADS)]
    ThreadCount(usize),
    /// The thread pool could not be started.
    #[error("cannot start threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The frame vector environment's threads could not be started.
    #[error("cannot start the vector environment's threads: {0}")]
    TeamThreads(#[from] std::io::Error),
    /// A frame vector environment made from another environment's template.
    #[error("FrameVectorCore needs a frame environment's template (EnvCore.nes_frames)")]
    NotFrames,
    /// A call of the NES placement environment on another environment.
    #[error("{0}() is for the NES placement environment")]
    NotPlacement(&'static str),
    /// A NES engine asked of an environment that has none.
    #[error("no NES game here (not started, or Standard)")]
    NoNesGame,
    /// Buttons given as something else than bytes.
    #[error(
        "buttons must be a one-dimensional numpy array of uint8 (one byte of buttons per frame) \
         or bytes; got {kind} {shape} {dtype}"
    )]
    ButtonsType {
        /// The Python type given.
        kind: String,
        /// Its `shape`, if it has one.
        shape: String,
        /// Its `dtype`, if it has one.
        dtype: String,
    },
    /// The ROM given with `rom` (or `PLAYFIELD_ROM`) cannot be read or is not Tetris (USA).
    #[error("rom: {0}")]
    Rom(String),
    /// A movie file that cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A movie that does not parse.
    #[error("bad .fm2 movie {name}: {source}")]
    Movie {
        /// The file, or `(text)`.
        name: String,
        /// Why.
        source: Fm2Error,
    },
    /// An engine without the input history a movie needs.
    #[error("this engine has no input history (built from RAM or resets)")]
    NoHistory,
    /// A RAM image of the wrong size.
    #[error("a RAM image is 2048 bytes, got {0}")]
    RamSize(usize),
    /// A RAM image the engine cannot start from.
    #[error(transparent)]
    Ram(#[from] RamImportError),
    /// A decision asked of a state without a piece under control.
    #[error("no piece is under control in this state (Nes.controllable is False)")]
    NotControllable,
    /// A game's record that cannot be written as JSON.
    #[error("cannot write {what}: {source}")]
    Json {
        /// What was written.
        what: &'static str,
        /// Why.
        source: serde_json::Error,
    },
}

/// An array shape, written as Python writes a tuple: `(3, 4)`, `(3,)`.
#[derive(Debug)]
pub struct Dims(pub Vec<usize>);

impl std::fmt::Display for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner: Vec<String> = self.0.iter().map(usize::to_string).collect();
        if inner.len() == 1 {
            write!(f, "({},)", inner[0])
        } else {
            write!(f, "({})", inner.join(", "))
        }
    }
}

impl From<ArgError> for PyErr {
    fn from(e: ArgError) -> PyErr {
        match e {
            ArgError::ButtonsType { .. } | ArgError::WrongType { .. } => {
                PyTypeError::new_err(e.to_string())
            }
            ArgError::Threads(_) | ArgError::TeamThreads(_) | ArgError::Json { .. } => {
                PyRuntimeError::new_err(e.to_string())
            }
            _ => PyValueError::new_err(e.to_string()),
        }
    }
}
