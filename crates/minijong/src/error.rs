//! Errors of the Minijong library.

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A slot given as level/row/column lies outside the board.
    #[error(
        "slot (level {level}, row {row}, col {col}) is outside the board (levels 0..3, level L is (7-2L)×(7-2L))"
    )]
    SlotOutOfRange {
        /// Level given.
        level: usize,
        /// Row given, in the level's own coordinates.
        row: usize,
        /// Column given, in the level's own coordinates.
        col: usize,
    },
    /// A position on the 7×7 grid is outside it.
    #[error("position (row {row}, col {col}) is outside the 7×7 grid")]
    PositionOutOfRange {
        /// Row given.
        row: usize,
        /// Column given.
        col: usize,
    },
    /// A face number that a tile cannot have (faces are screen codes 1..=63; 0 is empty).
    #[error("slot {slot}: face {face} is not a tile face (1..=63)")]
    BadFace {
        /// Slot index (0..83, in deal order).
        slot: usize,
        /// Face given.
        face: u8,
    },
    /// A tile that would float: the slot below it is empty.
    #[error(
        "slot (level {level}, row {row}, col {col}) holds a tile but the slot below it is empty"
    )]
    Floating {
        /// Level of the floating tile.
        level: usize,
        /// Row in the level's own coordinates.
        row: usize,
        /// Column in the level's own coordinates.
        col: usize,
    },
    /// A board given with the wrong number of slots.
    #[error("a board has {expected} slots, got {got}")]
    WrongSlotCount {
        /// Slots expected (83).
        expected: usize,
        /// Slots given.
        got: usize,
    },
    /// A pair that the rules do not allow.
    #[error("pair {a:?} / {b:?} is not a legal removal: {why}")]
    IllegalPair {
        /// First position (row, col).
        a: (usize, usize),
        /// Second position (row, col).
        b: (usize, usize),
        /// Why not.
        why: &'static str,
    },
}

/// Result with the Minijong [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
