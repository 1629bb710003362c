//! Players: an evaluator, a lookahead depth and an input model.

use playfield_nes::{Buttons, GameType, Piece, rules};
use serde::{Deserialize, Serialize};

use super::eval::{Weights, board_features, lock_and_clear, lock_height};
use super::input::InputModel;
use super::score::ScoreWeights;
use super::search::{Gravity, PieceState, Placement, Searcher, drop_speed, free_placements};
use super::sweep::Sweeper;
use super::terms::Term;

/// Added to the cost of a placement after which the preview piece has nowhere to lock (the game
/// would end), so any survivable pair is preferred.
const TOP_OUT_COST: f64 = 1e9;

/// Frames per row from which the lookahead estimates the preview's reach without timing
/// (levels 0-8): with 8 or more frames per row a 30 Hz player has 4+ presses per row.
const SLOW_GRAVITY: u8 = 8;

/// How a player rates placements.
// A player holds one evaluator, made once per game: the score player's larger weights (terms
// and bands) cost nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evaluator {
    /// Birken's six features, minimised: survival.
    Birken(Weights),
    /// The score player's terms ([`ScoreWeights`]), maximised: tetrises in a right well.
    Score(ScoreWeights),
}

/// A player's definition, as data (serde): evaluator weights, lookahead and input model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// Name shown in reports.
    pub name: String,
    /// How placements are rated.
    pub evaluator: Evaluator,
    /// Pieces searched: 1 = the current piece only, 2 = current × preview (exhaustive).
    pub lookahead: u8,
    /// How the player may press buttons.
    pub input: InputModel,
}

/// The game around the piece that the evaluator needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// `levelNumber`.
    pub level: u8,
    /// The lines cleared, as the game counts them ([`playfield_nes::Nes::line_count`]): decides
    /// when the level goes up during the lookahead.
    pub lines: u32,
    /// A-type, or B-type (which counts lines down and never levels up).
    pub game_type: GameType,
    /// The benchmark's double-speed level (`playfield_nes::Modifiers`), if on.
    pub double_speed_level: Option<u8>,
    /// The benchmark's line cap, if any: the game ends there, so the player cashes in before.
    pub line_cap: Option<u32>,
    /// At the levels where a clear's frame can freeze or crash the game: the clears that do at
    /// this moment (bit `n` for `n` rows; [`playfield_nes::Nes::clear_outcome`]), which the
    /// score player treats as a loss. 0 elsewhere.
    pub unsafe_clears: u8,
    /// The game is scored by the ROM's capped score and it is at 999,999
    /// ([`GameConfig::survive_at_max_score`](super::GameConfig::survive_at_max_score)): points
    /// count no more, so the score player plays to survive.
    pub score_maxed: bool,
}

/// The move a player chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Where the piece will lock.
    pub placement: Placement,
    /// The buttons for each frame from the decision's state to the lock frame.
    pub inputs: Vec<Buttons>,
    /// The evaluator's rating of the choice: Birken's cost (lower is better), or the score
    /// player's value negated, so lower is better for both.
    pub cost: f64,
}

/// A placement in a player's ranking ([`Player::rank`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// The placement, its buttons and its cost (as [`Player::decide`] gives them).
    pub decision: Decision,
    /// The player's value of the placement (higher is better: the cost negated).
    pub value: f64,
    /// What the value is made of: the terms sum to it (up to rounding).
    pub terms: Vec<Term>,
}

/// Search buffers a player reuses from piece to piece.
#[derive(Debug, Default)]
pub struct Workspace {
    pub(crate) first: Searcher,
    /// The preview's search: only the set of places matters there (the lowest cost over them),
    /// so the sweep serves, which finds the searcher's set faster. The score player sweeps the
    /// current piece with it too.
    pub(crate) second: Sweeper,
}

impl Workspace {
    /// Empty buffers.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl Player {
    /// Birken's AI: his six features and weights, exhaustive two-piece lookahead.
    #[must_use]
    pub fn birken(input: InputModel) -> Self {
        Player {
            name: "birken".to_owned(),
            evaluator: Evaluator::Birken(Weights::BIRKEN),
            lookahead: 2,
            input,
        }
    }

    /// The score player: the shipped weights, current piece searched frame by frame, the preview
    /// (or, before it is seen, every possible preview weighted by the randomizer) by taps.
    #[must_use]
    pub fn score(input: InputModel) -> Self {
        Self::score_with(ScoreWeights::shipped(), input)
    }

    /// The score player with other weights.
    #[must_use]
    pub fn score_with(weights: ScoreWeights, input: InputModel) -> Self {
        Player {
            name: "score".to_owned(),
            evaluator: Evaluator::Score(weights),
            lookahead: 2,
            input,
        }
    }

    /// Every placement the search finds from `start`, in its (breadth-first) order, with
    /// Birken's cost; the preview's best reply counted when `next` is known and looked at.
    fn birken_costs(
        &self,
        weights: &Weights,
        ws: &mut Workspace,
        page: &[u8; 256],
        start: PieceState,
        situation: Situation,
        next: Option<Piece>,
    ) -> Vec<(f64, Placement)> {
        let placements = ws
            .first
            .search(page, start, situation.gravity(), &self.input)
            .to_vec();
        let next = if self.lookahead >= 2 { next } else { None };
        placements
            .iter()
            .map(|p| {
                (
                    self.placement_cost(weights, ws, page, p, situation, next),
                    *p,
                )
            })
            .collect()
    }

    pub(super) fn decide_birken(
        &self,
        weights: &Weights,
        ws: &mut Workspace,
        page: &[u8; 256],
        start: PieceState,
        situation: Situation,
        next: Option<Piece>,
    ) -> Option<Decision> {
        let mut best: Option<(f64, Placement)> = None;
        for (cost, p) in self.birken_costs(weights, ws, page, start, situation, next) {
            // Strictly lower: ties keep the earlier placement (breadth-first order), so the
            // choice is deterministic.
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, p));
            }
        }
        let (cost, placement) = best?;
        Some(Decision {
            placement,
            inputs: ws.first.inputs(&placement),
            cost,
        })
    }

    pub(super) fn rank_birken(
        &self,
        weights: &Weights,
        ws: &mut Workspace,
        page: &[u8; 256],
        start: PieceState,
        situation: Situation,
        next: Option<Piece>,
    ) -> Vec<Ranked> {
        let mut ranked = self.birken_costs(weights, ws, page, start, situation, next);
        let next = if self.lookahead >= 2 { next } else { None };
        // A stable sort keeps equal costs in search order, as `decide`'s strict comparison does.
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked
            .into_iter()
            .map(|(cost, placement)| {
                let mut board = *page;
                let lines =
                    lock_and_clear(&mut board, placement.x, placement.y, placement.orientation);
                let f = board_features(&board);
                let term = |name, value: f64| Term {
                    name,
                    value: -value,
                };
                let mut terms = vec![
                    term("lines_cleared", weights.lines_cleared * f64::from(lines)),
                    term(
                        "lock_height",
                        weights.lock_height * lock_height(placement.y, placement.orientation),
                    ),
                    term("well_cells", weights.well_cells * f.well_cells),
                    term("column_holes", weights.column_holes * f.column_holes),
                    term(
                        "column_transitions",
                        weights.column_transitions * f.column_transitions,
                    ),
                    term(
                        "row_transitions",
                        weights.row_transitions * f.row_transitions,
                    ),
                ];
                if next.is_some() {
                    // With the preview the board after it is rated instead: the difference.
                    let shown: f64 = terms.iter().map(|t| t.value).sum();
                    terms.push(Term {
                        name: "preview",
                        value: -cost - shown,
                    });
                }
                Ranked {
                    decision: Decision {
                        placement,
                        inputs: ws.first.inputs(&placement),
                        cost,
                    },
                    value: -cost,
                    terms,
                }
            })
            .collect()
    }

    /// The evaluator's cost of locking at `p` on `page` (with the preview piece's best reply when
    /// `next` is known).
    fn placement_cost(
        &self,
        weights: &Weights,
        ws: &mut Workspace,
        page: &[u8; 256],
        p: &Placement,
        situation: Situation,
        next: Option<Piece>,
    ) -> f64 {
        let mut board = *page;
        let lines = lock_and_clear(&mut board, p.x, p.y, p.orientation);
        let base = weights.lines_cleared * f64::from(lines)
            + weights.lock_height * lock_height(p.y, p.orientation);
        match next {
            None => base + weights.cost(&board_features(&board)),
            Some(next) => {
                let after = situation.after_lines(lines);
                base + self.best_second(weights, ws, &board, next, p.autorepeat_x, after)
            }
        }
    }

    /// The lowest cost of the preview piece's placements on `board`, spawned with the carried
    /// `autorepeatX` and nothing held (the AI releases every button after a lock).
    fn best_second(
        &self,
        weights: &Weights,
        ws: &mut Workspace,
        board: &[u8; 256],
        next: Piece,
        autorepeat_x: u8,
        situation: Situation,
    ) -> f64 {
        let orientation = next.spawn_orientation();
        let mut best = f64::INFINITY;
        let mut score = |x: u8, y: u8, o: u8| {
            let mut b2 = *board;
            let lines = lock_and_clear(&mut b2, x, y, o);
            let cost = weights.lines_cleared * f64::from(lines)
                + weights.lock_height * lock_height(y, o)
                + weights.cost(&board_features(&b2));
            best = best.min(cost);
        };
        if drop_speed(situation.level) >= SLOW_GRAVITY {
            // Slow gravity: time does not limit reach; the cheap timeless search suffices.
            for (x, y, o) in free_placements(board, orientation.id()) {
                score(x, y, o);
            }
        } else {
            // The preview piece's search, for this first placement: the tap-only estimate.
            let start = PieceState::spawn(orientation, autorepeat_x);
            let model = self.input.lookahead_model();
            for q in ws.second.search(board, start, situation.gravity(), &model) {
                score(q.x, q.y, q.orientation);
            }
        }
        if best.is_infinite() {
            TOP_OUT_COST + weights.cost(&board_features(board))
        } else {
            best
        }
    }
}

impl Situation {
    /// An A-type situation at a level, with no benchmark options.
    #[must_use]
    pub fn a_type(level: u8, lines: u32) -> Situation {
        Situation {
            level,
            lines,
            game_type: GameType::A,
            double_speed_level: None,
            line_cap: None,
            unsafe_clears: 0,
            score_maxed: false,
        }
    }

    /// The gravity the piece falls with.
    #[must_use]
    pub fn gravity(&self) -> Gravity {
        Gravity::with_double_speed(self.level, self.double_speed_level)
    }

    /// The situation after clearing `cleared` lines (`incrementLines`' BCD count and its signed
    /// level test, so the lookahead sees the next piece's gravity).
    #[must_use]
    pub fn after_lines(self, cleared: u8) -> Situation {
        let mut s = self;
        if s.game_type != GameType::A {
            return s;
        }
        let mut counter = rules::lines_counter(s.lines);
        for _ in 0..cleared {
            rules::increment_lines(&mut counter, &mut s.level);
        }
        s.lines = rules::lines_count(counter);
        s
    }
}
