//! The game (§5.4-§5.8): spawning, inputs, the falling iteration, landing, completed rows, score.

use crate::board::{Board, WIDTH};
use crate::error::Error;
use crate::piece::{Piece, Shape};
use crate::rules::{MAX_LEVEL, MIN_LEVEL, actual_level, point_award};
use crate::sequence::PieceSource;

/// The falling piece: kind, orientation (0-based, spawn = 0) and origin (0-based column and row,
/// row 0 at the bottom).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FallingPiece {
    /// Kind.
    pub kind: Piece,
    /// Orientation index, `0..kind.orientations()`.
    pub orientation: u8,
    /// Origin column.
    pub x: i32,
    /// Origin row.
    pub y: i32,
}

impl FallingPiece {
    /// The piece's current shape.
    #[must_use]
    pub fn shape(&self) -> &'static Shape {
        self.kind.shape(self.orientation)
    }

    /// The board cells (column, row) the piece covers.
    #[must_use]
    pub fn cells(&self) -> [(i32, i32); 4] {
        self.shape()
            .cells
            .map(|(dx, dy)| (self.x + i32::from(dx), self.y + i32::from(dy)))
    }
}

/// When a game ends because the pile is too high.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EndRule {
    /// Fahey's rule (§5.4): a new piece must appear at the spawn position.
    #[default]
    SpawnBlocked,
    /// The research benchmarks' rule (Thiery & Scherrer): the game goes on while the new piece
    /// fits at the top of the board in some orientation and column. A piece whose spawn position
    /// is blocked appears at the top of the first orientation (in rotation order) and column
    /// (left to right) where it fits.
    NoPlacement,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameOver {
    /// A new piece could not appear (§5.4).
    SpawnBlocked,
    /// A new piece fit nowhere at the top of the board ([`EndRule::NoPlacement`]).
    NoPlacement,
    /// A fixed piece sequence ran out.
    SequenceEnded,
}

/// A piece becoming part of the pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landing {
    /// The piece as it landed.
    pub piece: FallingPiece,
    /// Rows completed by it (0..=4).
    pub rows_completed: u32,
    /// Points awarded for it (§5.11).
    pub points: u32,
}

/// What one falling iteration did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Iteration {
    /// A new piece appeared at the top.
    Spawned(Piece),
    /// The piece fell one row.
    Fell,
    /// The piece was resting at the start of the iteration and landed.
    Landed(Landing),
    /// The game ended at this iteration.
    GameOver(GameOver),
    /// The game had already ended; nothing happened.
    Over,
}

/// One game of Standard Tetris.
#[derive(Debug, Clone)]
pub struct Game {
    board: Board,
    current: Option<FallingPiece>,
    next: Option<Piece>,
    source: PieceSource,
    initial_level: u8,
    lines: u64,
    score: u64,
    pieces: u64,
    free_fall_iterations: u32,
    piece_level: u8,
    over: Option<GameOver>,
    rows_at_once: [u64; 5],
    end_rule: EndRule,
}

impl Game {
    /// A new game on an empty board of `height` rows (20 for Standard Tetris). The first iteration
    /// spawns the first piece.
    ///
    /// # Errors
    /// [`Error::Height`] for an unsupported height, [`Error::Level`] for a level outside 1..=10.
    pub fn new(height: usize, initial_level: u8, mut source: PieceSource) -> Result<Game, Error> {
        if !(MIN_LEVEL..=MAX_LEVEL).contains(&initial_level) {
            return Err(Error::Level(initial_level));
        }
        let board = Board::new(height)?;
        let next = source.next_piece();
        Ok(Game {
            board,
            current: None,
            next,
            source,
            initial_level,
            lines: 0,
            score: 0,
            pieces: 0,
            free_fall_iterations: 0,
            piece_level: initial_level,
            over: None,
            rows_at_once: [0; 5],
            end_rule: EndRule::SpawnBlocked,
        })
    }

    /// The same game under `rule` (Fahey's [`EndRule::SpawnBlocked`] unless changed).
    #[must_use]
    pub fn with_end_rule(mut self, rule: EndRule) -> Game {
        self.end_rule = rule;
        self
    }

    /// The end rule.
    #[must_use]
    pub const fn end_rule(&self) -> EndRule {
        self.end_rule
    }

    /// The pile.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Replaces the pile (for tests and tools); the falling piece is kept only if it still fits.
    pub fn set_board(&mut self, board: Board) {
        self.board = board;
        if let Some(p) = self.current
            && !self.board.fits(p.shape(), p.x, p.y)
        {
            self.current = None;
        }
    }

    /// The falling piece, if any.
    #[must_use]
    pub const fn current(&self) -> Option<FallingPiece> {
        self.current
    }

    /// The next piece (the preview), if known.
    #[must_use]
    pub const fn next(&self) -> Option<Piece> {
        self.next
    }

    /// Completed lines.
    #[must_use]
    pub const fn lines(&self) -> u64 {
        self.lines
    }

    /// Score.
    #[must_use]
    pub const fn score(&self) -> u64 {
        self.score
    }

    /// Pieces landed.
    #[must_use]
    pub const fn pieces(&self) -> u64 {
        self.pieces
    }

    /// How many times 0, 1, 2, 3, 4 rows were completed by one landing.
    #[must_use]
    pub const fn rows_at_once(&self) -> [u64; 5] {
        self.rows_at_once
    }

    /// Free-fall iterations of the current piece so far.
    #[must_use]
    pub const fn free_fall_iterations(&self) -> u32 {
        self.free_fall_iterations
    }

    /// actualLevel.
    #[must_use]
    pub const fn level(&self) -> u8 {
        actual_level(self.initial_level, self.lines)
    }

    /// Why the game ended, if it has.
    #[must_use]
    pub const fn game_over(&self) -> Option<GameOver> {
        self.over
    }

    /// Column of the origin of a new piece: Fahey's 1 + width/2, 0-based.
    #[must_use]
    pub const fn spawn_x(&self) -> i32 {
        (WIDTH / 2) as i32
    }

    /// Row of the origin of a new piece: the top row.
    #[must_use]
    pub const fn spawn_y(&self) -> i32 {
        self.board.height() as i32 - 1
    }

    /// Input "left": translate one column left if the result is allowed.
    pub fn left(&mut self) -> bool {
        self.try_move(-1, 0, false)
    }

    /// Input "right": translate one column right if the result is allowed.
    pub fn right(&mut self) -> bool {
        self.try_move(1, 0, false)
    }

    /// Input "rotate": counter-clockwise rotation if the result is allowed. A new piece cannot
    /// rotate before it has fallen a row: every rotated orientation reaches above the top row.
    pub fn rotate(&mut self) -> bool {
        self.try_move(0, 0, true)
    }

    fn try_move(&mut self, dx: i32, dy: i32, rotate: bool) -> bool {
        let Some(mut p) = self.current else {
            return false;
        };
        p.x += dx;
        p.y += dy;
        if rotate {
            p.orientation = (p.orientation + 1) % p.kind.orientations();
        }
        if self.board.fits(p.shape(), p.x, p.y) {
            self.current = Some(p);
            true
        } else {
            false
        }
    }

    /// Input "drop": the piece falls as far as it can at once and lands.
    pub fn drop(&mut self) -> Option<Landing> {
        let mut p = self.current?;
        p.y = self
            .board
            .drop_row_above_pile(p.shape(), p.x, p.y, self.board.pile_height());
        self.current = Some(p);
        Some(self.land())
    }

    /// One falling iteration: spawn a piece if there is none, otherwise move it down one row, or
    /// land it if it is resting on something.
    pub fn iteration(&mut self) -> Iteration {
        if self.over.is_some() {
            return Iteration::Over;
        }
        match self.current {
            None => self.spawn(),
            Some(mut p) => {
                p.y -= 1;
                if self.board.fits(p.shape(), p.x, p.y) {
                    self.current = Some(p);
                    self.free_fall_iterations += 1;
                    Iteration::Fell
                } else {
                    Iteration::Landed(self.land())
                }
            }
        }
    }

    /// The simplified research move: the falling piece takes `orientation` and origin column `x`
    /// above the pile and drops straight down. Not a Standard Tetris input; used by the
    /// "simplified" move model. The piece must fit with its top cells in the top row.
    ///
    /// # Errors
    /// [`Error::Placement`] if there is no falling piece or the piece does not fit there.
    pub fn place(&mut self, orientation: u8, x: i32) -> Result<Landing, Error> {
        let Some(mut p) = self.current else {
            return Err(Error::Placement("no falling piece"));
        };
        p.orientation = orientation % p.kind.orientations();
        p.x = x;
        let shape = p.shape();
        p.y = self.spawn_y() - i32::from(shape.dy_max);
        if !self.board.fits(shape, p.x, p.y) {
            return Err(Error::Placement(
                "piece does not fit at the top of that column",
            ));
        }
        p.y = self
            .board
            .drop_row_above_pile(shape, p.x, p.y, self.board.pile_height());
        self.current = Some(p);
        Ok(self.land())
    }

    fn spawn(&mut self) -> Iteration {
        let Some(kind) = self.next else {
            self.over = Some(GameOver::SequenceEnded);
            return Iteration::GameOver(GameOver::SequenceEnded);
        };
        self.next = self.source.next_piece();
        let p = FallingPiece {
            kind,
            orientation: 0,
            x: self.spawn_x(),
            y: self.spawn_y(),
        };
        let p = if self.board.fits(p.shape(), p.x, p.y) {
            p
        } else {
            let end = match self.end_rule {
                EndRule::SpawnBlocked => GameOver::SpawnBlocked,
                EndRule::NoPlacement => match self.first_fit_at_top(kind) {
                    Some(p) => {
                        self.current = Some(p);
                        self.free_fall_iterations = 0;
                        self.piece_level = self.level();
                        return Iteration::Spawned(kind);
                    }
                    None => GameOver::NoPlacement,
                },
            };
            self.over = Some(end);
            return Iteration::GameOver(end);
        };
        self.current = Some(p);
        self.free_fall_iterations = 0;
        self.piece_level = self.level();
        Iteration::Spawned(kind)
    }

    /// The first orientation and column (in rotation order, left to right) where `kind` fits
    /// with its top on the board's top row.
    fn first_fit_at_top(&self, kind: Piece) -> Option<FallingPiece> {
        let top_row = self.spawn_y();
        (0..kind.orientations()).find_map(|orientation| {
            let shape = kind.shape(orientation);
            let y = top_row - i32::from(shape.dy_max);
            let columns = -i32::from(shape.dx_min)..WIDTH as i32 - i32::from(shape.dx_max);
            columns
                .into_iter()
                .find(|&x| self.board.fits(shape, x, y))
                .map(|x| FallingPiece {
                    kind,
                    orientation,
                    x,
                    y,
                })
        })
    }

    fn land(&mut self) -> Landing {
        let p = self
            .current
            .take()
            .expect("land is only called with a falling piece");
        self.board.add(p.shape(), p.x, p.y);
        let rows = self.board.collapse_completed_rows();
        let points = point_award(self.piece_level, self.free_fall_iterations);
        self.lines += u64::from(rows);
        self.score += u64::from(points);
        self.pieces += 1;
        self.rows_at_once[rows as usize] += 1;
        Landing {
            piece: p,
            rows_completed: rows,
            points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::FULL_ROW;

    fn game_with(pieces: &str, level: u8) -> Game {
        let seq = crate::sequence::parse_pieces(pieces, "test").unwrap();
        Game::new(20, level, PieceSource::fixed(seq)).unwrap()
    }

    #[test]
    fn end_rules_differ_only_when_the_spawn_position_is_blocked() {
        // Columns 4..=6 (0-based) filled up to the top: the spawn position is blocked, the
        // sides are free.
        let tower = 0b0001110000;
        let board = Board::from_rows(20, &[tower; 20]).unwrap();
        let mut fahey = game_with("O", 1);
        fahey.set_board(board);
        assert_eq!(
            fahey.iteration(),
            Iteration::GameOver(GameOver::SpawnBlocked)
        );
        let mut research = game_with("OO", 1).with_end_rule(EndRule::NoPlacement);
        research.set_board(board);
        assert_eq!(research.iteration(), Iteration::Spawned(Piece::O));
        // It appears at the top of the first column where it fits, on the board.
        let p = research.current().unwrap();
        assert!(research.board().fits(p.shape(), p.x, p.y));
        assert_eq!(p.y + i32::from(p.shape().dy_max), 19);
        let landing = research.place(0, 8).unwrap();
        assert_eq!(landing.rows_completed, 0);
        // With only columns 0..=3 and 7 free, the second O still fits (columns 0..=1 or 2..=3).
        assert_eq!(research.iteration(), Iteration::Spawned(Piece::O));
        // A board full to the top except one column: nothing fits, the game ends.
        let full = Board::from_rows(20, &[FULL_ROW & !1; 20]).unwrap();
        let mut research = game_with("O", 1).with_end_rule(EndRule::NoPlacement);
        research.set_board(full);
        assert_eq!(
            research.iteration(),
            Iteration::GameOver(GameOver::NoPlacement)
        );
    }

    #[test]
    fn spawn_position_is_column_6_row_20() {
        // §5.3: the origin coincides with board position (6, 20) (1-based) when a piece appears.
        let mut g = game_with("T", 1);
        assert_eq!(g.iteration(), Iteration::Spawned(Piece::T));
        let p = g.current().unwrap();
        assert_eq!((p.x + 1, p.y + 1), (6, 20));
        let mut cells = p.cells().to_vec();
        cells.sort_unstable();
        // T: three cells on the top row centred on column 6, one below.
        assert_eq!(cells, vec![(4, 19), (5, 18), (5, 19), (6, 19)]);
    }

    #[test]
    fn new_pieces_rotate_only_after_one_row() {
        for p in Piece::ALL {
            let mut g = game_with(&p.to_string(), 1);
            g.iteration();
            let rotated = g.rotate();
            // O's rotation changes nothing and is always allowed.
            assert_eq!(rotated, p == Piece::O, "{p} at spawn");
            assert_eq!(g.iteration(), Iteration::Fell);
            assert!(g.rotate(), "{p} after one row");
        }
    }

    #[test]
    fn score_table_free_fall_and_instant_drop() {
        // §5.11: on an empty board an unrotated non-I piece free-falls 18 rows.
        for level in 1..=10u8 {
            for p in [Piece::O, Piece::S, Piece::Z, Piece::L, Piece::J, Piece::T] {
                let mut g = game_with(&p.to_string(), level);
                g.iteration();
                let landing = loop {
                    if let Iteration::Landed(l) = g.iteration() {
                        break l;
                    }
                };
                assert_eq!(g.free_fall_iterations(), 18);
                assert_eq!(landing.points, 21 + 3 * u32::from(level) - 18);
                let mut h = game_with(&p.to_string(), level);
                h.iteration();
                assert_eq!(h.drop().unwrap().points, 21 + 3 * u32::from(level));
            }
        }
        let mut g = game_with("O", 1);
        g.iteration();
        while !matches!(g.iteration(), Iteration::Landed(_)) {}
        assert_eq!(g.score(), 6);
        let mut g = game_with("O", 10);
        g.iteration();
        g.drop();
        assert_eq!(g.score(), 51);
    }

    #[test]
    fn landing_happens_at_the_iteration_after_contact() {
        // §5.7: the iteration that brings the piece into contact only moves it; the next lands it.
        let mut g = game_with("O", 1);
        g.iteration();
        let mut fell = 0;
        loop {
            match g.iteration() {
                Iteration::Fell => fell += 1,
                Iteration::Landed(l) => {
                    assert_eq!(l.piece.y, 1);
                    break;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(fell, 18);
    }

    #[test]
    fn simultaneous_rows_table() {
        // §5.8: the most rows one piece can complete: O 2, I 4, S 2, Z 2, L 3, J 3, T 2.
        let table = [
            (Piece::O, 2),
            (Piece::I, 4),
            (Piece::S, 2),
            (Piece::Z, 2),
            (Piece::L, 3),
            (Piece::J, 3),
            (Piece::T, 2),
        ];
        for (p, max) in table {
            let mut best = 0;
            for o in 0..p.orientations() {
                let shape = p.shape(o);
                // Every choice of which spanned rows are filled around the piece's slot.
                for filled in 1u32..(1 << shape.rows()) {
                    for x in 0..WIDTH as i32 {
                        let mut b = Board::new(20).unwrap();
                        let oy = -i32::from(shape.dy_min);
                        if !b.fits(shape, x, oy) {
                            continue;
                        }
                        for y in 0..shape.rows() {
                            if filled >> y & 1 == 1 {
                                for c in 0..WIDTH {
                                    b.set(c, y, true);
                                }
                            }
                        }
                        for (dx, dy) in shape.cells {
                            let (cx, cy) = (x + i32::from(dx), oy + i32::from(dy));
                            b.set(cx as usize, cy as usize, false);
                        }
                        // Drop it straight from the top; count it only if it reaches its slot.
                        let mut g = game_with(&p.to_string(), 1);
                        g.set_board(b);
                        g.iteration();
                        if let Ok(landing) = g.place(o, x)
                            && landing.piece.y == oy
                        {
                            best = best.max(landing.rows_completed);
                        }
                    }
                }
            }
            assert_eq!(best, max, "{p}");
        }
    }

    #[test]
    fn game_over_when_spawn_is_blocked_or_sequence_ends() {
        let mut g = game_with("OO", 1);
        let mut b = Board::new(20).unwrap();
        b.set(5, 19, true);
        g.set_board(b);
        assert_eq!(g.iteration(), Iteration::GameOver(GameOver::SpawnBlocked));
        assert_eq!(g.iteration(), Iteration::Over);
        let mut g = game_with("I", 1);
        g.iteration();
        g.drop();
        assert_eq!(g.iteration(), Iteration::GameOver(GameOver::SequenceEnded));
    }

    #[test]
    fn lines_and_levels_advance() {
        let mut g = game_with("IIIIIIIIII", 1);
        let mut b = Board::new(20).unwrap();
        for y in 0..4 {
            b.set(0, y, false);
        }
        // Rows 0..4 full except column 9 (vertical I goes there).
        let rows: Vec<u16> = (0..4).map(|_| FULL_ROW & !(1 << 9)).collect();
        b = Board::from_rows(20, &rows).unwrap();
        g.set_board(b);
        g.iteration();
        g.iteration();
        assert!(g.rotate());
        while g.right() {}
        let l = g.drop().unwrap();
        assert_eq!(l.rows_completed, 4);
        assert_eq!(g.lines(), 4);
        assert_eq!(g.board().cell_count(), 0);
        assert_eq!(g.rows_at_once()[4], 1);
        assert_eq!(g.level(), 1);
    }
}
