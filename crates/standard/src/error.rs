//! Errors of the Standard Tetris engine.

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A board height outside the supported range.
    #[error("board height {height} is not supported (allowed: {min}..={max})")]
    Height {
        /// The height asked for.
        height: usize,
        /// Smallest allowed.
        min: usize,
        /// Largest allowed.
        max: usize,
    },
    /// A row bitboard with cells beyond the 10 columns.
    #[error("row {row} has bits beyond column 10: {bits:#06x}")]
    RowBits {
        /// Row index (0 = bottom).
        row: usize,
        /// The bad row.
        bits: u16,
    },
    /// An initial level outside 1..=10.
    #[error("initial level {0} is not in 1..=10")]
    Level(u8),
    /// A character in a piece-sequence file that is neither a piece letter nor whitespace.
    #[error(
        "{source_name}:{line}:{column}: unexpected character {found:?} (expected one of O I S Z L J T)"
    )]
    PieceLetter {
        /// File name (or other description of the text).
        source_name: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// The character found.
        found: char,
    },
    /// A piece-sequence file without any piece.
    #[error("{0}: no pieces in the sequence")]
    NoPieces(String),
    /// A placement that the rules do not allow from the current state.
    #[error("placement not allowed: {0}")]
    Placement(&'static str),
}
