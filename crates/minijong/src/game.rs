//! The game as the seed's main loop plays it: a cursor on the 7×7 grid that wraps on all four
//! sides, fire to select / unselect / remove, the buzzer, removal revealing the tile underneath,
//! plus undo, hints and end detection.

use crate::board::{Board, Face, SIDE, Slot};
use crate::error::{Error, Result};
use crate::rules::{self, Heights, Pair};
use crate::solver;

/// A joystick direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Row - 1, wrapping to the bottom.
    Up,
    /// Row + 1, wrapping to the top.
    Down,
    /// Column - 1, wrapping to the right.
    Left,
    /// Column + 1, wrapping to the left.
    Right,
}

/// Why the buzzer sounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buzz {
    /// The tile under the cursor is not free.
    NotFree,
    /// The tile is free but its face differs from the selected tile's.
    Mismatch,
}

/// What pressing fire did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireOutcome {
    /// Fire over an empty position: nothing happens.
    Nothing,
    /// The tile under the cursor is now the selected (first) tile.
    Selected,
    /// Fire on the selected tile again: it is unselected.
    Unselected,
    /// The pair was removed.
    Removed(Pair),
    /// The buzzer sounded; the selection (if any) is kept.
    Buzz(Buzz),
}

/// One game of Minijong.
#[derive(Debug, Clone)]
pub struct Game {
    board: Board,
    heights: Heights,
    /// Cursor (row, col) on the 7×7 grid.
    cursor: (usize, usize),
    /// The seed's `SZ(0)` while `P = 1`: the position of the first selected tile.
    selected: Option<usize>,
    /// Removed pairs, newest last, for undo.
    history: Vec<Pair>,
}

impl Game {
    /// A new game on `board`. The cursor starts at the top-left (the BASIC variables start at 0;
    /// the seed does not say where the cursor starts).
    #[must_use]
    pub fn new(board: Board) -> Self {
        let heights = board.initial_heights();
        Self {
            board,
            heights,
            cursor: (0, 0),
            selected: None,
            history: Vec::new(),
        }
    }

    /// A new game on the deal of `seed`.
    #[must_use]
    pub fn deal(seed: u64) -> Self {
        Self::new(Board::deal(seed))
    }

    /// The dealt board (all tiles, removed or not).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Tiles standing on each position now.
    #[must_use]
    pub fn heights(&self) -> &Heights {
        &self.heights
    }

    /// Cursor (row, col).
    #[must_use]
    pub fn cursor(&self) -> (usize, usize) {
        self.cursor
    }

    /// Puts the cursor at (row, col).
    pub fn set_cursor(&mut self, row: usize, col: usize) -> Result<()> {
        if row >= SIDE || col >= SIDE {
            return Err(Error::PositionOutOfRange { row, col });
        }
        self.cursor = (row, col);
        Ok(())
    }

    /// Position (row, col) of the selected first tile, if any.
    #[must_use]
    pub fn selected(&self) -> Option<(usize, usize)> {
        self.selected.map(|p| (p / SIDE, p % SIDE))
    }

    /// The visible tile at (row, col): its level and face, `None` if empty or off the grid.
    #[must_use]
    pub fn visible(&self, row: usize, col: usize) -> Option<(usize, Face)> {
        if row >= SIDE || col >= SIDE {
            return None;
        }
        let pos = row * SIDE + col;
        let level = rules::visible_level(&self.heights, pos)?;
        Some((level, rules::visible_face(&self.board, &self.heights, pos)?))
    }

    /// Whether the tile at (row, col) is free.
    #[must_use]
    pub fn is_free(&self, row: usize, col: usize) -> bool {
        row < SIDE && col < SIDE && rules::is_free(&self.heights, row * SIDE + col)
    }

    /// Moves the cursor one step; it wraps around on all four sides (the seed adds `max - 1` and
    /// takes `MOD`).
    pub fn move_cursor(&mut self, dir: Direction) {
        let (r, c) = self.cursor;
        self.cursor = match dir {
            Direction::Up => ((r + SIDE - 1) % SIDE, c),
            Direction::Down => ((r + 1) % SIDE, c),
            Direction::Left => (r, (c + SIDE - 1) % SIDE),
            Direction::Right => (r, (c + 1) % SIDE),
        };
    }

    /// Fire, as the seed's main loop handles it.
    pub fn fire(&mut self) -> FireOutcome {
        let pos = self.cursor.0 * SIDE + self.cursor.1;
        let Some(face) = rules::visible_face(&self.board, &self.heights, pos) else {
            return FireOutcome::Nothing;
        };
        if self.selected == Some(pos) {
            self.selected = None;
            return FireOutcome::Unselected;
        }
        if !rules::is_free(&self.heights, pos) {
            return FireOutcome::Buzz(Buzz::NotFree);
        }
        match self.selected {
            None => {
                self.selected = Some(pos);
                FireOutcome::Selected
            }
            Some(first) => {
                let first_face = rules::visible_face(&self.board, &self.heights, first);
                if first_face != Some(face) {
                    return FireOutcome::Buzz(Buzz::Mismatch);
                }
                let pair = Pair {
                    a: rules::top_slot(&self.heights, first),
                    b: rules::top_slot(&self.heights, pos),
                };
                self.remove(pair);
                FireOutcome::Removed(pair)
            }
        }
    }

    /// Removes a pair given by slots, if the rules allow it (used to replay solutions and hints).
    pub fn play(&mut self, pair: Pair) -> Result<()> {
        let (a, b) = (pair.a.position(), pair.b.position());
        let rc = |p: usize| (p / SIDE, p % SIDE);
        let illegal = |why| Error::IllegalPair {
            a: rc(a),
            b: rc(b),
            why,
        };
        for s in [pair.a, pair.b] {
            if self.heights[s.position()] as usize != s.level as usize + 1 {
                return Err(illegal("a slot is not the visible tile of its position"));
            }
        }
        if let Some(why) = rules::pair_problem(&self.board, &self.heights, a, b) {
            return Err(illegal(why));
        }
        self.remove(pair);
        Ok(())
    }

    fn remove(&mut self, pair: Pair) {
        // The tile underneath each (if any) becomes visible: the stack gets one shorter.
        self.heights[pair.a.position()] -= 1;
        self.heights[pair.b.position()] -= 1;
        self.selected = None;
        self.history.push(pair);
    }

    /// Takes back the last removal (and any selection). Returns the pair put back.
    pub fn undo(&mut self) -> Option<Pair> {
        let pair = self.history.pop()?;
        self.heights[pair.a.position()] += 1;
        self.heights[pair.b.position()] += 1;
        self.selected = None;
        Some(pair)
    }

    /// Pairs removed so far, in order.
    #[must_use]
    pub fn history(&self) -> &[Pair] {
        &self.history
    }

    /// Every legal pair now.
    #[must_use]
    pub fn legal_pairs(&self) -> Vec<Pair> {
        rules::legal_pairs(&self.board, &self.heights)
    }

    /// Tiles left on the board.
    #[must_use]
    pub fn tiles_left(&self) -> usize {
        rules::tiles_left(&self.heights)
    }

    /// The game has ended: no free matching pair is left.
    #[must_use]
    pub fn is_over(&self) -> bool {
        !rules::has_pair(&self.board, &self.heights)
    }

    /// Cleared: at most the odd tile remains (83 tiles always leave one).
    #[must_use]
    pub fn is_cleared(&self) -> bool {
        self.tiles_left() <= 1
    }

    /// A hint: a pair that keeps the game winnable when it still is, otherwise one on the way to the
    /// best reachable result. `None` when the game is over.
    #[must_use]
    pub fn hint(&self) -> Option<Pair> {
        solver::solve_from(&self.board, &self.heights)
            .moves
            .first()
            .copied()
    }

    /// Slot of the visible tile at (row, col).
    #[must_use]
    pub fn visible_slot(&self, row: usize, col: usize) -> Option<Slot> {
        let (level, _) = self.visible(row, col)?;
        Slot::at(row * SIDE + col, level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board with the given (level 0 row, col, face) tiles only.
    fn flat(tiles: &[(usize, usize, Face)]) -> Game {
        let mut faces = [0u8; 83];
        for &(r, c, f) in tiles {
            faces[Slot::new(0, r, c).unwrap().index()] = f;
        }
        Game::new(Board::from_faces(&faces).unwrap())
    }

    #[test]
    fn cursor_wraps_on_all_four_sides() {
        let mut g = Game::deal(1);
        assert_eq!(g.cursor(), (0, 0));
        g.move_cursor(Direction::Left);
        assert_eq!(g.cursor(), (0, 6));
        g.move_cursor(Direction::Right);
        assert_eq!(g.cursor(), (0, 0));
        g.move_cursor(Direction::Up);
        assert_eq!(g.cursor(), (6, 0));
        g.move_cursor(Direction::Down);
        assert_eq!(g.cursor(), (0, 0));
        for _ in 0..7 {
            g.move_cursor(Direction::Right);
        }
        assert_eq!(g.cursor(), (0, 0));
    }

    #[test]
    fn fire_on_empty_does_nothing() {
        let mut g = flat(&[(0, 0, 1), (0, 6, 1)]);
        g.set_cursor(3, 3).unwrap();
        assert_eq!(g.fire(), FireOutcome::Nothing);
        assert_eq!(g.selected(), None);
    }

    #[test]
    fn fire_twice_on_same_tile_unselects() {
        let mut g = flat(&[(0, 0, 1), (0, 6, 1)]);
        assert_eq!(g.fire(), FireOutcome::Selected);
        assert_eq!(g.selected(), Some((0, 0)));
        assert_eq!(g.fire(), FireOutcome::Unselected);
        assert_eq!(g.selected(), None);
        assert_eq!(g.tiles_left(), 2);
    }

    #[test]
    fn not_free_buzzes_and_keeps_selection() {
        let mut g = flat(&[(0, 0, 1), (0, 1, 1), (0, 2, 2), (0, 6, 2)]);
        g.set_cursor(0, 1).unwrap();
        assert_eq!(g.fire(), FireOutcome::Buzz(Buzz::NotFree));
        assert_eq!(g.selected(), None);
        g.set_cursor(0, 6).unwrap();
        assert_eq!(g.fire(), FireOutcome::Selected);
        g.set_cursor(0, 1).unwrap();
        assert_eq!(g.fire(), FireOutcome::Buzz(Buzz::NotFree));
        assert_eq!(g.selected(), Some((0, 6)));
    }

    #[test]
    fn mismatch_buzzes_and_keeps_selection() {
        let mut g = flat(&[(0, 0, 1), (0, 6, 2)]);
        assert_eq!(g.fire(), FireOutcome::Selected);
        g.set_cursor(0, 6).unwrap();
        assert_eq!(g.fire(), FireOutcome::Buzz(Buzz::Mismatch));
        assert_eq!(g.selected(), Some((0, 0)));
        assert_eq!(g.tiles_left(), 2);
    }

    #[test]
    fn matching_free_pair_is_removed_regardless_of_level() {
        let mut g = Game::deal(11);
        // Find a legal pair on different levels if possible; any legal pair otherwise.
        let pairs = g.legal_pairs();
        let pair = *pairs
            .iter()
            .find(|p| p.a.level != p.b.level)
            .unwrap_or(&pairs[0]);
        let (a, b) = (pair.a.position(), pair.b.position());
        g.set_cursor(a / 7, a % 7).unwrap();
        assert_eq!(g.fire(), FireOutcome::Selected);
        g.set_cursor(b / 7, b % 7).unwrap();
        assert_eq!(g.fire(), FireOutcome::Removed(pair));
        assert_eq!(g.tiles_left(), 81);
        assert_eq!(g.selected(), None);
        // The tile underneath each (if any) is now visible.
        for s in [pair.a, pair.b] {
            let r = s.position() / 7;
            let c = s.position() % 7;
            match s.level {
                0 => assert_eq!(g.visible(r, c), None),
                l => assert_eq!(g.visible(r, c).map(|v| v.0), Some(l as usize - 1)),
            }
        }
    }

    #[test]
    fn end_detection_and_cleared() {
        let mut g = flat(&[(0, 0, 1), (0, 6, 1), (6, 0, 5)]);
        assert!(!g.is_over());
        g.fire();
        g.set_cursor(0, 6).unwrap();
        assert!(matches!(g.fire(), FireOutcome::Removed(_)));
        assert!(g.is_over());
        assert!(g.is_cleared());
        // Two blocked copies of a face: no free matching pair, game over, not cleared.
        let g = flat(&[
            (0, 0, 2),
            (0, 1, 1),
            (0, 2, 3),
            (0, 3, 1),
            (0, 4, 3),
            (0, 5, 4),
        ]);
        assert!(g.is_over());
        assert!(!g.is_cleared());
    }

    #[test]
    fn undo_restores_the_position() {
        let mut g = Game::deal(4);
        let before = *g.heights();
        let pair = g.legal_pairs()[0];
        g.play(pair).unwrap();
        assert_ne!(*g.heights(), before);
        assert_eq!(g.undo(), Some(pair));
        assert_eq!(*g.heights(), before);
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn play_rejects_illegal_pairs() {
        let mut g = flat(&[(0, 0, 1), (0, 1, 1), (0, 2, 1), (0, 6, 2)]);
        let s = |r, c| Slot::new(0, r, c).unwrap();
        assert!(
            g.play(Pair {
                a: s(0, 0),
                b: s(0, 1)
            })
            .is_err()
        );
        assert!(
            g.play(Pair {
                a: s(0, 0),
                b: s(0, 6)
            })
            .is_err()
        );
        assert!(
            g.play(Pair {
                a: s(0, 0),
                b: s(0, 3)
            })
            .is_err()
        );
        assert!(
            g.play(Pair {
                a: s(0, 0),
                b: s(0, 2)
            })
            .is_ok()
        );
        assert_eq!(g.tiles_left(), 2);
    }
}
