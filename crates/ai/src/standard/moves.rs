//! Move models: which placements a player considers for a piece.

use super::incremental::{Prepared, ShapeProfile};
use playfield_standard::{Board, EndRule, Piece, WIDTH};
use std::fmt;
use std::str::FromStr;

/// How pieces may be moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveModel {
    /// Fahey's own: the new piece falls one row (it cannot rotate before), then rotates
    /// counter-clockwise in place, slides left or right at that row, then drops. Every placement
    /// is reachable with the game's inputs.
    Standard,
    /// The research benchmark: any orientation in any column, dropped straight down from the top.
    Simplified,
}

impl MoveModel {
    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveModel::Standard => "standard",
            MoveModel::Simplified => "simplified",
        }
    }
}

impl fmt::Display for MoveModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown move model name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown move model {0:?} (known: standard, simplified)")]
pub struct UnknownMoveModel(pub String);

impl FromStr for MoveModel {
    type Err = UnknownMoveModel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(MoveModel::Standard),
            "simplified" => Ok(MoveModel::Simplified),
            _ => Err(UnknownMoveModel(s.to_owned())),
        }
    }
}

/// Where a piece ends up, and how it gets there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Placement {
    /// Final orientation (= counter-clockwise rotations from the spawn orientation).
    pub orientation: u8,
    /// Final origin column.
    pub x: i32,
    /// Final origin row (where it lands).
    pub y: i32,
    /// The piece could not fall a row after it appeared, so it lands where it is (standard model).
    pub forced: bool,
}

impl Placement {
    /// Fahey's tie-break among equal ratings (higher wins): 100 per column away from the spawn
    /// column, 10 more if left of it, minus one per rotation.
    #[must_use]
    pub fn priority(&self, spawn_x: i32) -> i32 {
        100 * (self.x - spawn_x).abs() + if self.x < spawn_x { 10 } else { 0 }
            - i32::from(self.orientation)
    }
}

/// The most placements a piece can have on a 10-wide board: 4 orientations x 10 columns.
pub const MAX_PLACEMENTS: usize = 4 * WIDTH;

/// A fixed-capacity list of placements (no allocation on the search's hot path).
#[derive(Debug, Clone, Copy)]
pub struct Placements {
    items: [Placement; MAX_PLACEMENTS],
    len: usize,
}

impl Default for Placements {
    fn default() -> Self {
        Placements {
            items: [Placement::default(); MAX_PLACEMENTS],
            len: 0,
        }
    }
}

impl Placements {
    /// The placements, in Fahey's order: orientation, then column left to right.
    #[must_use]
    pub fn as_slice(&self) -> &[Placement] {
        &self.items[..self.len]
    }

    fn push(&mut self, p: Placement) {
        self.items[self.len] = p;
        self.len += 1;
    }
}

/// Column of a new piece's origin.
#[must_use]
pub const fn spawn_x() -> i32 {
    (WIDTH / 2) as i32
}

/// Row of a new piece's origin on `board`.
#[must_use]
pub fn spawn_y(board: &Board) -> i32 {
    board.height() as i32 - 1
}

/// All placements of a new `piece` on `board` under `model`. Empty if the piece cannot appear.
#[must_use]
pub fn placements(board: &Board, piece: Piece, model: MoveModel) -> Placements {
    placements_on(&Prepared::new(board), piece, model, EndRule::SpawnBlocked)
}

/// [`placements`] on a prepared board (its column heights give the landing rows), under
/// `end_rule`: with [`EndRule::NoPlacement`] and the simplified model a piece whose spawn position
/// is blocked still has the placements that fit at the top.
#[must_use]
pub fn placements_on(
    prep: &Prepared,
    piece: Piece,
    model: MoveModel,
    end_rule: EndRule,
) -> Placements {
    let mut out = Placements::default();
    for_each_placement(prep, piece, model, end_rule, |p, _| out.push(p));
    out
}

/// One orientation's placements: the columns `lo..=hi`, each landing where [`Sweep::landing`]
/// says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sweep {
    /// The orientation.
    pub orientation: u8,
    /// Leftmost origin column.
    pub lo: i32,
    /// Rightmost origin column.
    pub hi: i32,
    /// `None`: the piece starts entirely above the pile, so it lands on the column tops.
    /// `Some(y)`: it drops row by row from origin row `y`.
    pub from: Option<i32>,
    /// Each column must be tested first: the piece must fit at `from` (simplified model).
    pub test_fit: bool,
}

impl Sweep {
    /// Where the piece of `profile` (this sweep's orientation) lands in column `x`, if it can be
    /// placed there.
    #[inline(always)]
    #[must_use]
    pub fn landing(&self, prep: &Prepared, profile: &ShapeProfile, x: i32) -> Option<i32> {
        match self.from {
            None => Some(prep.landing_row_above_pile(profile, x)),
            Some(top) => {
                let board = prep.board();
                let s = profile.shape;
                if self.test_fit && !board.fits(s, x, top) {
                    return None;
                }
                Some(board.drop_row(s, x, top))
            }
        }
    }
}

/// A piece's placements, orientation by orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweeps {
    /// The piece cannot appear: the game is over.
    None,
    /// The piece cannot fall a row after it appears, so it lands where it is (standard model).
    Forced(Placement),
    /// The first `len` sweeps.
    Orientations {
        /// The sweeps, in Fahey's order.
        sweeps: [Sweep; 4],
        /// How many are used.
        len: usize,
    },
}

/// The sweeps of a new `piece` on a prepared board under `model` and `end_rule` (see
/// [`placements_on`]).
#[must_use]
pub fn sweeps(prep: &Prepared, piece: Piece, model: MoveModel, end_rule: EndRule) -> Sweeps {
    let board = prep.board();
    let sx = spawn_x();
    let sy = spawn_y(board);
    let ph = prep.pile_height() as i32;
    let s0 = piece.shape(0);
    // The standard model moves the piece from the spawn position, so it must appear there.
    let spawn_needed = model == MoveModel::Standard || end_rule == EndRule::SpawnBlocked;
    if spawn_needed && !board.fits(s0, sx, sy) {
        return Sweeps::None;
    }
    let mut sweeps = [Sweep {
        orientation: 0,
        lo: 0,
        hi: -1,
        from: None,
        test_fit: false,
    }; 4];
    let mut len = 0;
    match model {
        MoveModel::Standard => {
            if !board.fits(s0, sx, sy - 1) {
                return Sweeps::Forced(Placement {
                    orientation: 0,
                    x: sx,
                    y: sy,
                    forced: true,
                });
            }
            let oy = sy - 1;
            for r in 0..piece.orientations() {
                let s = piece.shape(r);
                // Rotations happen one at a time; a blocked one stops the rest.
                if !board.fits(s, sx, oy) {
                    break;
                }
                // Entirely above the pile, only the walls stop a slide and the drop ends on the
                // column tops; otherwise test row by row.
                let above = oy + i32::from(s.dy_min) >= ph;
                let (lo, hi) = if above {
                    (-i32::from(s.dx_min), WIDTH as i32 - 1 - i32::from(s.dx_max))
                } else {
                    let mut lo = sx;
                    while board.fits(s, lo - 1, oy) {
                        lo -= 1;
                    }
                    let mut hi = sx;
                    while board.fits(s, hi + 1, oy) {
                        hi += 1;
                    }
                    (lo, hi)
                };
                sweeps[len] = Sweep {
                    orientation: r,
                    lo,
                    hi,
                    from: (!above).then_some(oy),
                    test_fit: false,
                };
                len += 1;
            }
        }
        MoveModel::Simplified => {
            for r in 0..piece.orientations() {
                let s = piece.shape(r);
                let top = sy - i32::from(s.dy_max);
                let above = top + i32::from(s.dy_min) >= ph;
                sweeps[len] = Sweep {
                    orientation: r,
                    lo: -i32::from(s.dx_min),
                    hi: WIDTH as i32 - 1 - i32::from(s.dx_max),
                    from: (!above).then_some(top),
                    test_fit: !above,
                };
                len += 1;
            }
        }
    }
    Sweeps::Orientations { sweeps, len }
}

/// Calls `visit` with each placement of [`placements_on`], in the same order, and the profile of
/// its orientation.
#[inline(always)]
pub fn for_each_placement(
    prep: &Prepared,
    piece: Piece,
    model: MoveModel,
    end_rule: EndRule,
    mut visit: impl FnMut(Placement, &'static ShapeProfile),
) {
    match sweeps(prep, piece, model, end_rule) {
        Sweeps::None => {}
        Sweeps::Forced(p) => visit(p, ShapeProfile::of(piece, 0)),
        Sweeps::Orientations { sweeps, len } => {
            for sweep in &sweeps[..len] {
                let profile = ShapeProfile::of(piece, sweep.orientation);
                for x in sweep.lo..=sweep.hi {
                    if let Some(y) = sweep.landing(prep, profile, x) {
                        let orientation = sweep.orientation;
                        let forced = false;
                        visit(
                            Placement {
                                orientation,
                                x,
                                y,
                                forced,
                            },
                            profile,
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_rows_match_row_by_row_drops() {
        let mut rng = playfield_standard::SplitMix64::new(5);
        for _ in 0..2000 {
            let h = 4 + (rng.next_u64() % 17) as usize;
            let ph = (rng.next_u64() % (h as u64 - 1)) as usize;
            let rows: Vec<u16> = (0..ph)
                .map(|_| rng.next_u64() as u16 & playfield_standard::FULL_ROW & !1)
                .collect();
            let b = Board::from_rows(h, &rows).unwrap();
            for piece in Piece::ALL {
                for model in [MoveModel::Standard, MoveModel::Simplified] {
                    for p in placements(&b, piece, model).as_slice() {
                        let s = piece.shape(p.orientation);
                        let start = if model == MoveModel::Standard && !p.forced {
                            spawn_y(&b) - 1
                        } else {
                            p.y.max(spawn_y(&b) - i32::from(s.dy_max))
                        };
                        assert_eq!(p.y, b.drop_row(s, p.x, start), "{rows:?} {piece} {p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn empty_board_counts() {
        let b = Board::new(20).unwrap();
        // Columns available per orientation on an empty 10-wide board.
        let expected = [
            (Piece::O, 9),
            (Piece::I, 7 + 10),
            (Piece::S, 8 + 9),
            (Piece::Z, 8 + 9),
            (Piece::L, 8 + 9 + 8 + 9),
            (Piece::J, 8 + 9 + 8 + 9),
            (Piece::T, 8 + 9 + 8 + 9),
        ];
        for (p, n) in expected {
            assert_eq!(
                placements(&b, p, MoveModel::Standard).as_slice().len(),
                n,
                "{p}"
            );
            assert_eq!(
                placements(&b, p, MoveModel::Simplified).as_slice().len(),
                n,
                "{p}"
            );
        }
    }

    #[test]
    fn priority_prefers_far_left_unrotated() {
        let p = |x, orientation| Placement {
            orientation,
            x,
            y: 0,
            forced: false,
        };
        assert_eq!(p(5, 0).priority(5), 0);
        assert_eq!(p(4, 0).priority(5), 110);
        assert_eq!(p(6, 0).priority(5), 100);
        assert_eq!(p(6, 1).priority(5), 99);
    }

    mod props {
        use super::super::*;
        use crate::standard::features::place_and_measure;
        use crate::standard::player::execute;
        use playfield_standard::{FULL_ROW, Game, Iteration, PieceSource};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            #[test]
            fn every_placement_is_reachable_by_the_rules(
                height in 4usize..=20,
                fill in 0usize..=20,
                bits in proptest::collection::vec(any::<u16>(), 20),
                kind in 1u8..=7,
                simplified in any::<bool>(),
            ) {
                let model = if simplified { MoveModel::Simplified } else { MoveModel::Standard };
                let piece = Piece::from_index(kind).unwrap();
                let rows: Vec<u16> = bits.iter().take(fill.min(height))
                    .map(|b| { let r = b & FULL_ROW; if r == FULL_ROW { r & !1 } else { r } })
                    .collect();
                let board = Board::from_rows(height, &rows).unwrap();
                let mut game = Game::new(height, 1, PieceSource::fixed(vec![piece])).unwrap();
                game.set_board(board);
                if game.iteration() != Iteration::Spawned(piece) {
                    prop_assert!(placements(&board, piece, model).as_slice().is_empty());
                    return Ok(());
                }
                for &p in placements(&board, piece, model).as_slice() {
                    let mut g = game.clone();
                    let landing = execute(&mut g, p, model);
                    prop_assert!(landing.is_ok(), "{:?}", landing);
                    let (after, f) = place_and_measure(&board, piece.shape(p.orientation), p.x, p.y, false);
                    prop_assert_eq!(g.board(), &after);
                    prop_assert_eq!(landing.unwrap().rows_completed, f.rows_completed);
                }
            }
        }
    }
}
