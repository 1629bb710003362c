//! A player's choice for the active piece: [`Player::decide`] and [`Player::rank`] hand the
//! piece to the player's evaluator, Birken's (in `player`) or the score player's
//! (`score_player`), which both work on the player's types without knowing of each other.

use super::player::{Decision, Evaluator, Player, Ranked, Situation, Workspace};
use super::score_player;
use super::search::PieceState;
use playfield_nes::{Board, Piece};

impl Player {
    /// Chooses a placement for the active piece from `start` on `board`. `next` is the preview
    /// piece when the player knows it (the lookahead then covers it), `None` before the reaction
    /// time has passed. `None` when the piece has nowhere to lock.
    pub fn decide(
        &self,
        ws: &mut Workspace,
        board: &Board,
        start: PieceState,
        situation: Situation,
        next: Option<Piece>,
    ) -> Option<Decision> {
        let page = &board.to_page();
        match &self.evaluator {
            Evaluator::Birken(weights) => {
                self.decide_birken(weights, ws, page, start, situation, next)
            }
            Evaluator::Score(weights) => {
                score_player::decide(self, weights, ws, page, start, situation, next)
            }
        }
    }

    /// Every placement of the active piece, best first, with its value and what makes it up:
    /// the ranking behind [`Player::decide`] (the first entry is the placement `decide`
    /// chooses). Empty when the piece has nowhere to lock.
    ///
    /// Birken's evaluator rates every placement alike; its terms are his features times their
    /// weights, negated (his cost is minimised), and `preview` what the preview's best reply
    /// adds. The score player rates in stages (see its module): the placements it looked at
    /// further come first, and `preview` / `deeper` say what looking ahead changed.
    pub fn rank(
        &self,
        ws: &mut Workspace,
        board: &Board,
        start: PieceState,
        situation: Situation,
        next: Option<Piece>,
    ) -> Vec<Ranked> {
        let page = &board.to_page();
        match &self.evaluator {
            Evaluator::Birken(weights) => {
                self.rank_birken(weights, ws, page, start, situation, next)
            }
            Evaluator::Score(weights) => {
                score_player::rank(self, weights, ws, page, start, situation, next)
            }
        }
    }
}
