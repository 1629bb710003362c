//! The score player's decision: every placement of the current piece that real input reaches
//! (the frame-exact search), each followed by the best tap-reachable drop of the preview; when
//! the preview is not seen yet (the reaction time), the expected best over the seven possible
//! previews, weighted by the NES randomizer's transition probabilities. Only the placements that
//! lead on the board alone are rated so; the leading candidates are then looked at one piece
//! deeper, over the unseen piece after the preview.

use playfield_nes::tables::TETRIMINO_TYPE_FROM_ORIENTATION;

use super::field::{Field, transition_probability};
use super::player::{Decision, Player, Situation, Workspace};
use super::reach;
use super::score::{Context, ScoreWeights, has_holes, press_frames};
use super::search::{PieceState, Placement};
use super::sweep::SweepPlacement;

/// The value of a board on which the next piece cannot spawn (the game is over).
const TOP_OUT: f64 = -1e6;

/// Candidates (by the board after the current piece alone) rated with the preview.
const PREVIEW_CANDIDATES: usize = 30;
/// Candidates looked at one piece deeper once the preview is known.
const DEEPER_CANDIDATES: usize = 4;
/// Preview placements per candidate expanded over the piece after it.
const DEEPER_PREVIEW_DROPS: usize = 3;

/// The spawn orientation id of piece index `p` (T J Z O S L I).
fn spawn_of(piece: usize) -> u8 {
    playfield_nes::tables::SPAWN_TABLE[piece]
}

/// The piece index (T J Z O S L I) of an orientation id.
fn piece_of(orientation: u8) -> usize {
    usize::from(
        TETRIMINO_TYPE_FROM_ORIENTATION
            .get(usize::from(orientation))
            .copied()
            .unwrap_or(0),
    )
}

/// A drop with its rating.
struct Rated {
    reward: f64,
    board: f64,
    field: Field,
    ctx: Context,
}

struct Planner<'a> {
    w: &'a ScoreWeights,
    player: &'a Player,
    presses: Vec<u32>,
    /// Whether the board of the decision has holes: burns are cheaper while digging them out.
    /// Judged on the board the piece meets, not on the boards of the lookahead: otherwise a
    /// placement that covers the well would make the next piece's burn (which uncovers it)
    /// look cheap.
    digging: bool,
}

impl Planner<'_> {
    /// Whether the game is over by the line cap once `ctx` is reached.
    fn capped(ctx: &Context) -> bool {
        ctx.line_cap.is_some_and(|cap| ctx.lines_decimal() >= cap)
    }

    /// The `keep` best drops of `piece` on `field`, best first: each with its clear reward, the
    /// value of the board after it (0 once the line cap ends the game), that board and context.
    fn best_drops(&self, field: &Field, piece: usize, ctx: &Context, keep: usize) -> Vec<Rated> {
        let mut out: Vec<Rated> = Vec::new();
        for d in reach::drops(field, spawn_of(piece), ctx.gravity(), &self.player.input) {
            let mut f = *field;
            let Some(cleared) = f.lock(d.orientation, d.x, d.y) else {
                continue;
            };
            let reward = self.w.clear_reward(cleared, ctx, self.digging);
            let after = ctx.after(cleared);
            let board = if Self::capped(&after) {
                0.0
            } else {
                self.w.board_value(&f, &after, &self.presses)
            };
            out.push(Rated {
                reward,
                board,
                field: f,
                ctx: after,
            });
        }
        out.sort_by(|a, b| (b.reward + b.board).total_cmp(&(a.reward + a.board)));
        out.truncate(keep.max(1));
        out
    }

    fn best_drop_value(&self, field: &Field, piece: usize, ctx: &Context) -> f64 {
        if Self::capped(ctx) {
            return 0.0;
        }
        self.best_drops(field, piece, ctx, 1)
            .first()
            .map_or(TOP_OUT, |b| b.reward + b.board)
    }

    /// The expected best value over the piece after `previous`, weighted by the randomizer.
    fn expected_value(&self, field: &Field, previous: usize, ctx: &Context) -> f64 {
        if Self::capped(ctx) {
            return 0.0;
        }
        (0..7)
            .map(|n| transition_probability(previous, n) * self.best_drop_value(field, n, ctx))
            .sum()
    }
}

/// The score player's choice for the active piece; see the module comment.
pub(crate) fn decide(
    player: &Player,
    w: &ScoreWeights,
    ws: &mut Workspace,
    page: &[u8; 256],
    start: PieceState,
    situation: Situation,
    next: Option<u8>,
) -> Option<Decision> {
    let ctx = Context {
        level: situation.level,
        lines: situation.lines,
        line_cap: situation.line_cap,
        double_speed_level: situation.double_speed_level,
        input: player.input.clone(),
        speed_up: None,
        ceilings: Context::ceilings_for(&press_frames(&player.input)),
        judged: None,
    };
    let ctx = Context {
        // B-type never levels up.
        speed_up: (situation.game_type == 0)
            .then(|| ctx.next_speed_up())
            .flatten(),
        // Every board of this decision is judged under the gravity the piece meets now.
        judged: Some(ctx.gravity()),
        ..ctx
    };
    let field = Field::from_page(page);
    let holes = has_holes(&field);
    let planner = Planner {
        w,
        player,
        presses: press_frames(&player.input),
        digging: holes,
    };
    // The sweep finds the searcher's placements, each at its earliest lock frame, several times
    // faster; only the chosen one's buttons are rebuilt.
    let placements: Vec<SweepPlacement> = ws
        .second
        .search(page, start, ctx.gravity(), &player.input)
        .to_vec();
    let current = piece_of(start.orientation);
    let next_piece = next.map(piece_of);
    // (value, placement index, clear reward, field after, context after), first rated by the
    // board alone; the leading ones then by the preview (or the expected preview).
    let mut rated: Vec<(f64, usize, f64, Field, Context)> = Vec::with_capacity(placements.len());
    for (i, p) in placements.iter().enumerate() {
        let mut f = field;
        let Some(cleared) = f.lock(p.orientation, p.x as i8, p.y as i8) else {
            continue;
        };
        let reward = w.clear_reward(cleared, &ctx, holes);
        let after = ctx.after(cleared);
        let board = if Planner::capped(&after) {
            0.0
        } else {
            w.board_value(&f, &after, &planner.presses)
        };
        rated.push((reward + board, i, reward, f, after));
    }
    rated.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    rated.truncate(PREVIEW_CANDIDATES);
    for (value, _, reward, f, after) in &mut rated {
        let future = match next_piece {
            _ if Planner::capped(after) => 0.0,
            Some(n) => planner.best_drop_value(f, n, after),
            None => planner.expected_value(f, current, after),
        };
        *value = *reward + future;
    }
    if let Some(n) = next_piece {
        // One piece deeper for the leading candidates: their best preview drops, each followed
        // by the expected best of the unseen piece after the preview instead of the board value.
        // The others are dropped: values one piece deeper are not comparable with the
        // shallower ones (the extra piece's reward and board replace a board value).
        rated.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        rated.truncate(DEEPER_CANDIDATES);
        for entry in &mut rated {
            let (value, _, reward, f, after) = entry;
            if Planner::capped(after) {
                continue;
            }
            let deeper = planner
                .best_drops(f, n, after, DEEPER_PREVIEW_DROPS)
                .into_iter()
                .map(|r| {
                    if Planner::capped(&r.ctx) {
                        r.reward
                    } else {
                        r.reward + planner.expected_value(&r.field, n, &r.ctx)
                    }
                })
                .fold(f64::NEG_INFINITY, f64::max);
            *value = *reward + if deeper.is_finite() { deeper } else { TOP_OUT };
        }
    }
    // Highest value; ties keep the earlier placement (breadth-first order), for determinism.
    let best = rated
        .iter()
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))?;
    let inputs = ws.second.inputs(&placements[best.1]);
    let placement = Placement::replayed(page, start, ctx.gravity(), &inputs)?;
    debug_assert_eq!(
        (placement.x, placement.y, placement.orientation),
        (
            placements[best.1].x,
            placements[best.1].y,
            placements[best.1].orientation
        )
    );
    Some(Decision {
        placement,
        inputs,
        cost: -best.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::input::InputModel;
    use crate::nes::score::WELL;

    #[test]
    fn burns_in_the_lookahead_are_cheap_only_while_the_decisions_board_has_holes() {
        let input = InputModel::new("X.", true, 18).unwrap();
        let player = Player::score(input.clone());
        let w = ScoreWeights::shipped();
        let presses = press_frames(&input);
        let ctx = Context {
            level: 18,
            lines: [0, 0],
            line_cap: None,
            double_speed_level: None,
            input,
            speed_up: None,
            ceilings: Context::ceilings_for(&presses),
            judged: None,
        };
        // A board the lookahead meets after the current piece covered the well: a hole in the
        // well column under a row that a vertical I would clear (a single).
        let mut field = Field::default();
        field.rows[19] = super::super::field::FULL_ROW & !(1 << WELL) & !1;
        field.rows[18] = (super::super::field::FULL_ROW & !1) | (1 << WELL);
        field.rows[19] &= !(1 << WELL);
        assert!(has_holes(&field));
        let rewards = |digging: bool| {
            let planner = Planner {
                w: &w,
                player: &player,
                presses: presses.clone(),
                digging,
            };
            let mut r: Vec<f64> = planner
                .best_drops(&field, 6, &ctx, 40)
                .iter()
                .map(|d| d.reward)
                .filter(|&r| r != 0.0)
                .collect();
            r.sort_by(f64::total_cmp);
            r
        };
        // The I in column 1 clears row 18: judged at full price when the decision's own board
        // had no holes, at the digging price when it had.
        let full = rewards(false);
        let dig = rewards(true);
        assert!(!full.is_empty());
        assert_eq!(full[0], w.clear_reward(1, &ctx, false));
        assert_eq!(dig[0], w.clear_reward(1, &ctx, true));
        assert!(dig[0] > full[0]);
    }
}
