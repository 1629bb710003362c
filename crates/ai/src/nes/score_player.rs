//! The score player's decision: every placement of the current piece that real input reaches
//! (the frame-exact search), each followed by the best tap-reachable drop of the preview; when
//! the preview is not seen yet (the reaction time), the expected best over the seven possible
//! previews, weighted by the NES randomizer's transition probabilities. Only the placements that
//! lead on the board alone are rated so; the leading candidates are then looked at one piece
//! deeper, over the unseen piece after the preview, and with the preview seen over the two
//! unseen pieces after it (the leading drops of the first). When the preview is seen only once
//! the piece has fallen too far to change its placement (level 19 on, with an 18-frame
//! reaction), or when the placement locks before it is seen (a high stack), the leading
//! candidates are looked at one piece deeper under each of the seven previews.

use std::borrow::Cow;

use playfield_nes::{GameType, Piece, rules};

use super::field::{Field, transition_probability};
use super::player::{Decision, Player, Ranked, Situation, Workspace};
use super::reach;
use super::score::{Context, FirstStage, Holes, ScoreWeights, has_holes, press_frames};
use super::search::{Gravity, PieceState, Placement};
use super::sweep::SweepPlacement;
use super::terms::Term;

/// The value of a board on which the next piece cannot spawn (the game is over).
const TOP_OUT: f64 = -1e6;

/// Candidates (by the board after the current piece alone) rated with the preview.
const PREVIEW_CANDIDATES: usize = 30;
/// Candidates looked at one piece deeper once the preview is known.
const DEEPER_CANDIDATES: usize = 4;
/// Preview placements per candidate expanded over the piece after it.
const DEEPER_PREVIEW_DROPS: usize = 3;
/// Placements of the piece after the preview expanded once more, over the piece after that,
/// when the preview is seen: the deeper look then reaches two unseen pieces. At level 18 this
/// gains about 35,000 points in the first 130 lines, where a wider look (more candidates and
/// drops) gains nothing (docs/weights-log.md, step 16).
const NEXT_DROPS_SEEN: usize = 2;
/// The same before a preview that comes too late (levels 19-28), where the deeper look is taken
/// under each of the seven previews: none, since there it costs seven to twelve times the time
/// for no gain that showed (levels 19-28, 62 saved positions).
const NEXT_DROPS_BLIND: usize = 0;
/// The same at a row a frame or faster (levels 29 on, double speed), where every placement
/// locks before the preview is seen and blindness costs most (about 140,000 points in levels
/// 29-38 against the preview seen at spawn): the deeper look reaches two unseen pieces after the
/// preview, as it does once a preview is seen (docs/weights-log.md, step 19 at levels 29-38; at
/// double speed, where the player lines out, step 20).
const NEXT_DROPS_BLIND_FAST: usize = 2;
/// Candidates of that look: one fewer, for a quarter of its time. Of about 6,000 such decisions
/// on saved positions at levels 29-38 the fourth candidate won 1.5 % (the first 83 %), and three
/// gained as much as four there and at double speed (docs/weights-log.md, step 20).
const DEEPER_CANDIDATES_BLIND_FAST: usize = 3;
/// Rows a piece falls before the preview is seen from which the placement counts as decided
/// before it (half the field): the decision then looks one piece deeper under each possible
/// preview, as it does once a preview is seen. At 30 Hz with an 18-frame reaction that is
/// level 19 on (nine rows) and double speed; at level 18 (six rows) the piece can still be
/// sent anywhere once the preview is seen, and the decision is made again then.
const BLIND_ROWS: u32 = 9;

/// Whether a piece under `gravity` falls [`BLIND_ROWS`] or more in the `frames` before the
/// preview is seen.
fn preview_comes_too_late(gravity: Gravity, frames: u32) -> bool {
    let rows = if gravity.double {
        frames * 2
    } else {
        frames / u32::from(gravity.drop_speed.max(1))
    };
    frames > 0 && rows >= BLIND_ROWS
}

/// The piece index of the I (T J Z O S L I).
const I_PIECE: usize = 6;

/// The spawn orientation id of piece index `p` (T J Z O S L I).
fn spawn_of(piece: usize) -> u8 {
    playfield_nes::tables::SPAWN_TABLE[piece]
}

/// A drop at the leaf of a look-ahead whose board value is bounded, not yet finished
/// ([`Planner::best_drop_value`]).
struct Leaf {
    /// The clear reward plus the bound of the board's value.
    bound: f64,
    /// The drop's index among the piece's drops.
    index: usize,
    reward: f64,
    field: Field,
    ctx: Context,
    first: FirstStage,
}

/// The leaves of one piece's drops ([`Planner::bounded_drops`]): the bounded ones, and their
/// bounds with their places, highest first.
#[derive(Default)]
struct Leaves {
    leaves: Vec<Leaf>,
    order: Vec<(f64, u8)>,
}

impl Leaves {
    /// The leaves from the highest bound down.
    fn by_bound(&self) -> impl Iterator<Item = &Leaf> {
        self.order
            .iter()
            .map(|&(_, at)| &self.leaves[usize::from(at)])
    }
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
    presses: Vec<u32>,
    /// Whether the board of the decision has holes: burns are cheaper while digging them out.
    /// Judged on the board the piece meets, not on the boards of the lookahead: otherwise a
    /// placement that covers the well would make the next piece's burn (which uncovers it)
    /// look cheap.
    digging: bool,
    /// Placements of the piece after the preview looked at once more in [`Self::deeper_value`]
    /// (0: that piece's best drop is the leaf).
    next_drops: usize,
    /// How each piece taps toward each column, by gravity ([`reach::DropPlans`]).
    plans: reach::DropPlans,
    /// The leaves' buffer, kept from one leaf to the next.
    leaves: std::cell::Cell<Leaves>,
    /// The drops' buffer, the same.
    drops: std::cell::Cell<Vec<reach::Drop>>,
}

impl<'a> Planner<'a> {
    /// A planner for one decision of `player` (whose evaluator is `w`).
    fn new(w: &'a ScoreWeights, player: &'a Player, digging: bool, next_drops: usize) -> Self {
        let presses = press_frames(&player.input);
        Planner {
            w,
            plans: reach::DropPlans::new(&presses),
            leaves: std::cell::Cell::new(Leaves::default()),
            drops: std::cell::Cell::new(Vec::new()),
            presses,
            digging,
            next_drops,
        }
    }

    /// Whether the game is over by the line cap once `ctx` is reached.
    fn capped(ctx: &Context) -> bool {
        ctx.line_cap.is_some_and(|cap| ctx.lines_decimal() >= cap)
    }

    /// Every drop of `piece` on `field` that locks (`holes` its holes), valued as far as
    /// needed: `valued` gets those whose value is known now (the game capped after it, its
    /// board 0; or no bound, [`ScoreWeights::board_value_bound`]) with their index among the
    /// drops, clear reward and board value; the others go to `leaves` with the reward plus the
    /// bound of their board's value, to be finished only if they can still count.
    fn bounded_drops(
        &self,
        field: &Field,
        holes: &Holes,
        piece: usize,
        ctx: &Context,
        leaves: &mut Leaves,
        mut valued: impl FnMut(usize, f64, f64, Field, Context),
    ) {
        leaves.leaves.clear();
        leaves.order.clear();
        let mut drops = self.drops.take();
        self.plans
            .drops_into(field, spawn_of(piece), ctx.gravity(), &mut drops);
        for (index, &d) in drops.iter().enumerate() {
            let mut f = *field;
            let Some(cleared) = f.lock(d.orientation, d.x, d.y) else {
                continue;
            };
            let after = ctx.after(cleared);
            let reward = self.w.clear_reward(cleared, ctx, self.digging);
            if Self::capped(&after) {
                valued(index, reward, 0.0, f, after);
                continue;
            }
            // The holes of a board a drop clears no row of are counted from the field's.
            let bound = match holes.after_drop(d.orientation, d.x, d.y) {
                Some(h) if cleared == 0 => self.w.board_value_bound_with(&f, &after, h),
                _ => self.w.board_value_bound(&f, &after),
            };
            match bound {
                Some((bound, first)) => {
                    leaves
                        .order
                        .push((reward + bound, leaves.leaves.len() as u8));
                    leaves.leaves.push(Leaf {
                        bound: reward + bound,
                        index,
                        reward,
                        field: f,
                        ctx: after,
                        first,
                    });
                }
                None => {
                    let board = self.w.board_value(&f, &after, &self.presses);
                    valued(index, reward, board, f, after);
                }
            }
        }
        self.drops.set(drops);
        // From the highest bound down: the caller stops where none can count any more. The
        // order of equal bounds does not matter: a leaf is skipped only below the best.
        leaves.order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    }

    /// The value of a leaf's board ([`Self::bounded_drops`]).
    fn finish(&self, leaf: &Leaf) -> f64 {
        self.w
            .finish_board_value(&leaf.field, &leaf.ctx, &self.presses, &leaf.first)
    }

    /// The `keep` best drops of `piece` on `field` by clear reward plus board value, best first
    /// (ties in the drops' order). A drop whose bound is below the `keep`-th best value so far
    /// cannot be among them and is not valued.
    fn best_drops(&self, field: &Field, piece: usize, ctx: &Context, keep: usize) -> Vec<Rated> {
        let keep = keep.max(1);
        let mut out: Vec<(usize, Rated)> = Vec::new();
        let mut leaves = self.leaves.take();
        let holes = self.w.board_holes(field, ctx);
        self.bounded_drops(
            field,
            &holes,
            piece,
            ctx,
            &mut leaves,
            |index, reward, board, f, c| {
                out.push((
                    index,
                    Rated {
                        reward,
                        board,
                        field: f,
                        ctx: c,
                    },
                ));
            },
        );
        // The best `keep` values so far, best first.
        let mut top: Vec<f64> = out.iter().map(|(_, r)| r.reward + r.board).collect();
        top.sort_by(|a, b| b.total_cmp(a));
        top.truncate(keep);
        for leaf in leaves.by_bound() {
            if top.len() == keep && leaf.bound < top[keep - 1] {
                break;
            }
            let board = self.finish(leaf);
            let value = leaf.reward + board;
            let at = top.partition_point(|&v| v >= value);
            top.insert(at, value);
            top.truncate(keep);
            out.push((
                leaf.index,
                Rated {
                    reward: leaf.reward,
                    board,
                    field: leaf.field,
                    ctx: leaf.ctx,
                },
            ));
        }
        self.leaves.set(leaves);
        out.sort_by(|(i, a), (j, b)| {
            (b.reward + b.board)
                .total_cmp(&(a.reward + a.board))
                .then(i.cmp(j))
        });
        out.into_iter().take(keep).map(|(_, r)| r).collect()
    }

    /// The value of the best drop of `piece`: the leaf of every look-ahead, so no drop is kept.
    /// Each board's value is first bounded from above ([`ScoreWeights::board_value_bound`]),
    /// and finished from the highest bound down only while the bound can still beat the best
    /// value so far: the value is the same to the bit, at a fraction of the cost.
    fn best_drop_value(&self, field: &Field, piece: usize, ctx: &Context) -> f64 {
        if Self::capped(ctx) {
            return 0.0;
        }
        self.best_drop_value_with(field, &self.w.board_holes(field, ctx), piece, ctx)
    }

    /// [`Self::best_drop_value`] on a field whose holes are `holes`, not capped.
    fn best_drop_value_with(
        &self,
        field: &Field,
        holes: &Holes,
        piece: usize,
        ctx: &Context,
    ) -> f64 {
        let mut best = f64::NEG_INFINITY;
        let mut leaves = self.leaves.take();
        self.bounded_drops(
            field,
            holes,
            piece,
            ctx,
            &mut leaves,
            |_, reward, board, _, _| {
                best = best.max(reward + board);
            },
        );
        for leaf in leaves.by_bound() {
            if leaf.bound < best {
                break;
            }
            best = best.max(leaf.reward + self.finish(leaf));
        }
        self.leaves.set(leaves);
        if best.is_finite() { best } else { TOP_OUT }
    }

    /// The value of `piece` one piece deeper: the best of its leading drops, each followed by
    /// the expected value of the piece after it ([`Self::after_drop`], `next_drops` of it).
    fn deeper_value(&self, field: &Field, piece: usize, ctx: &Context) -> f64 {
        self.best_of_leading(field, piece, ctx, DEEPER_PREVIEW_DROPS, |r| {
            self.after_drop(&r.field, piece, &r.ctx)
        })
    }

    /// The best over the `keep` leading drops of `piece` of its clear reward plus `future` of
    /// the drop (its reward alone once the line cap ends the game).
    fn best_of_leading(
        &self,
        field: &Field,
        piece: usize,
        ctx: &Context,
        keep: usize,
        future: impl Fn(&Rated) -> f64,
    ) -> f64 {
        let best = self
            .best_drops(field, piece, ctx, keep)
            .iter()
            .map(|r| {
                if Self::capped(&r.ctx) {
                    r.reward
                } else {
                    r.reward + future(r)
                }
            })
            .fold(f64::NEG_INFINITY, f64::max);
        if best.is_finite() { best } else { TOP_OUT }
    }

    /// The expected value of the piece after `previous` on `field`, weighted by the randomizer:
    /// of its best drop when `next_drops` is 0, else of the best of its `next_drops` leading
    /// drops, each followed by the expected best drop of the piece after it.
    fn after_drop(&self, field: &Field, previous: usize, ctx: &Context) -> f64 {
        if self.next_drops == 0 {
            return self.expected_value(field, previous, ctx);
        }
        if Self::capped(ctx) {
            return 0.0;
        }
        (0..7)
            .map(|n| {
                transition_probability(previous, n)
                    * self.best_of_leading(field, n, ctx, self.next_drops, |r| {
                        self.expected_value(&r.field, n, &r.ctx)
                    })
            })
            .sum()
    }

    /// The expected best value over the piece after `previous`, weighted by the randomizer.
    fn expected_value(&self, field: &Field, previous: usize, ctx: &Context) -> f64 {
        if Self::capped(ctx) {
            return 0.0;
        }
        let holes = self.w.board_holes(field, ctx);
        (0..7)
            .map(|n| {
                transition_probability(previous, n)
                    * self.best_drop_value_with(field, &holes, n, ctx)
            })
            .sum()
    }
}

/// The context every board of a decision is judged in: the game's `situation`, when the gravity
/// speeds up next, the one gravity of the decision, and whether it lines out, on `field` with
/// the piece `current` and the preview `next` (if seen). The learned value's samples are judged
/// in it too.
pub(crate) fn decision_context(
    player: &Player,
    w: &ScoreWeights,
    situation: Situation,
    field: &Field,
    current: usize,
    next: Option<usize>,
) -> Context {
    let ctx = Context {
        level: situation.level,
        lines: rules::lines_counter(situation.lines),
        line_cap: situation.line_cap,
        double_speed_level: situation.double_speed_level,
        speed_up: None,
        ceilings: Context::ceilings_for(&press_frames(&player.input)),
        judged: None,
        line_out: false,
        unsafe_clears: situation.unsafe_clears,
        survival: situation.score_maxed,
    };
    let ctx = Context {
        // B-type never levels up.
        speed_up: (situation.game_type == GameType::A)
            .then(|| ctx.next_speed_up())
            .flatten(),
        ..ctx
    };
    // Every board of this decision is judged under one gravity: the one the piece meets now,
    // or level 29's just before it.
    let ctx = Context {
        judged: Some(w.judging_gravity(&ctx)),
        ..ctx
    };
    // An I drought the stack cannot wait out: the whole decision lines out. An I in hand or in
    // the preview ends the drought: the decision then waits for it as usual.
    let i_in_sight = current == I_PIECE || next == Some(I_PIECE);
    // At the levels where a clear's frame can freeze or crash the game (the score long maxed
    // there), a clear type that would do so now makes the decision line out: no well is kept
    // and burns cost nothing, so the stack goes down by the clears still safe. Building for
    // tetrises with singles forbidden, or waiting on a Tetris that would freeze the game, is how
    // the games topped out at levels 168-183.
    // Once the points count no more, the same: the player plays to survive.
    let restricted = situation.unsafe_clears != 0 || situation.score_maxed;
    Context {
        line_out: restricted || (!i_in_sight && w.lines_out(field, &ctx)),
        ..ctx
    }
}

/// How far the score player looked at a placement: the board alone, with the preview (or the
/// expected preview), or one piece deeper. Values of different stages are not comparable: only
/// the placements that lead at one stage go on to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Board,
    Preview,
    Deeper,
}

/// A placement being rated: its value so far, its index among the placements, its clear reward,
/// the value of the board after it, and that board and context, and the stage the value is of.
struct Rating {
    value: f64,
    index: usize,
    reward: f64,
    board: f64,
    preview: f64,
    field: Field,
    after: Context,
    stage: Stage,
}

/// Every placement the sweep finds from `start`, each rated as far as the decision looks at it
/// (see the module comment), in no particular order; with the decision's context.
fn rate(
    player: &Player,
    w: &ScoreWeights,
    ws: &mut Workspace,
    page: &[u8; 256],
    start: PieceState,
    situation: Situation,
    next: Option<Piece>,
) -> (Vec<SweepPlacement>, Vec<Rating>, Context) {
    let field = Field::from_page(page);
    let current = start.piece.orientation.piece().index();
    let next_piece = next.map(Piece::index);
    let ctx = decision_context(player, w, situation, &field, current, next_piece);
    let holes = has_holes(&field);
    let mut planner = Planner::new(w, player, holes, 0);
    // The sweep finds the searcher's placements, each at its earliest lock frame, several times
    // faster; only the chosen one's buttons are rebuilt.
    let placements: Vec<SweepPlacement> = ws
        .second
        .search(page, start, ctx.gravity(), &player.input)
        .to_vec();
    // First rated by the board alone; the leading ones then by the preview (or the expected
    // preview).
    let mut rated: Vec<Rating> = Vec::with_capacity(placements.len());
    for (index, p) in placements.iter().enumerate() {
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
        rated.push(Rating {
            value: reward + board,
            index,
            reward,
            board,
            preview: 0.0,
            field: f,
            after,
            stage: Stage::Board,
        });
    }
    let by_value = |a: &Rating, b: &Rating| b.value.total_cmp(&a.value).then(a.index.cmp(&b.index));
    rated.sort_by(by_value);
    for r in rated.iter_mut().take(PREVIEW_CANDIDATES) {
        let future = match next_piece {
            _ if Planner::capped(&r.after) => 0.0,
            Some(n) => planner.best_drop_value(&r.field, n, &r.after),
            None => planner.expected_value(&r.field, current, &r.after),
        };
        r.value = r.reward + future;
        r.preview = r.value;
        r.stage = Stage::Preview;
    }
    // One piece deeper for the leading candidates: their best drops of the preview, each
    // followed by the expected best of the unseen piece after the preview instead of the board
    // value. When the preview is seen too late to change the placement, the same under each
    // possible preview, weighted by the randomizer. The others stay at the preview's stage:
    // values one piece deeper are not comparable with the shallower ones (the extra piece's
    // reward and board replace a board value).
    // The decision is also final when the placement it leans to locks before the preview is
    // seen (a high stack at level 18): no second look comes then.
    let before_preview = player.input.reaction.saturating_sub(start.frame);
    let previewed = rated.len().min(PREVIEW_CANDIDATES);
    let locks_before_preview =
        leader(&rated[..previewed]).is_some_and(|r| placements[r.index].frames < before_preview);
    let blind = next_piece.is_none()
        && (locks_before_preview || preview_comes_too_late(ctx.gravity(), before_preview));
    if next_piece.is_some() || blind {
        let look = deeper_look(blind, &ctx);
        planner.next_drops = look.next_drops;
        rated[..previewed].sort_by(by_value);
        for r in rated.iter_mut().take(look.candidates) {
            r.stage = Stage::Deeper;
            if Planner::capped(&r.after) {
                continue;
            }
            r.value = r.reward
                + match next_piece {
                    Some(n) => planner.deeper_value(&r.field, n, &r.after),
                    None => (0..7)
                        .map(|n| {
                            transition_probability(current, n)
                                * planner.deeper_value(&r.field, n, &r.after)
                        })
                        .sum(),
                };
        }
    }
    (placements, rated, ctx)
}

/// How far a decision's deeper look goes: its candidates, and the placements of the piece after
/// the preview looked at once more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DeeperLook {
    candidates: usize,
    next_drops: usize,
}

/// The deeper look of a decision, `blind` or with the preview seen: as measured where the
/// player plays for points; where it plays to survive (the ROM's score maxed, or a clear that
/// would freeze or crash the game) it looks as before those steps.
fn deeper_look(blind: bool, ctx: &Context) -> DeeperLook {
    let gravity = ctx.gravity();
    let (candidates, next_drops) = if ctx.survival || ctx.unsafe_clears != 0 {
        (DEEPER_CANDIDATES, NEXT_DROPS_BLIND)
    } else if !blind {
        (DEEPER_CANDIDATES, NEXT_DROPS_SEEN)
    } else if gravity.drop_speed <= 1 || gravity.double {
        (DEEPER_CANDIDATES_BLIND_FAST, NEXT_DROPS_BLIND_FAST)
    } else {
        (DEEPER_CANDIDATES, NEXT_DROPS_BLIND)
    };
    DeeperLook {
        candidates,
        next_drops,
    }
}

/// The candidate of highest value; ties keep the earlier placement (breadth-first order), for
/// determinism.
fn leader(rated: &[Rating]) -> Option<&Rating> {
    rated
        .iter()
        .max_by(|a, b| a.value.total_cmp(&b.value).then(b.index.cmp(&a.index)))
}

/// The best first: the deepest stage first, then by value, ties in the placements' order.
fn ranking_order(a: &Rating, b: &Rating) -> std::cmp::Ordering {
    b.stage
        .cmp(&a.stage)
        .then(b.value.total_cmp(&a.value))
        .then(a.index.cmp(&b.index))
}

/// The gravity of the piece a decision places: its band's weights are the decision's
/// ([`ScoreWeights::at_level`]).
fn situation_gravity(situation: &Situation) -> Gravity {
    Gravity::with_double_speed(situation.level, situation.double_speed_level)
}

/// The weights of a decision in `situation`: its band's ([`ScoreWeights::at_level`]) while the
/// player plays for points; the base terms where it plays to survive (the ROM's score maxed, or
/// a clear that would freeze or crash the game), for which the bands were not made.
fn decision_weights<'a>(w: &'a ScoreWeights, situation: &Situation) -> Cow<'a, ScoreWeights> {
    if situation.score_maxed || situation.unsafe_clears != 0 {
        Cow::Borrowed(w)
    } else {
        w.at_level(situation.level, situation_gravity(situation))
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
    next: Option<Piece>,
) -> Option<Decision> {
    let banded = decision_weights(w, &situation);
    let (placements, rated, ctx) = rate(player, &banded, ws, page, start, situation, next);
    let best = rated.iter().min_by(|a, b| ranking_order(a, b))?;
    let inputs = ws.second.inputs(&placements[best.index]);
    let placement = Placement::replayed(page, start, ctx.gravity(), &inputs)?;
    debug_assert_eq!(
        (placement.x, placement.y, placement.orientation),
        (
            placements[best.index].x,
            placements[best.index].y,
            placements[best.index].orientation
        )
    );
    Some(Decision {
        placement,
        inputs,
        cost: -best.value,
    })
}

/// Every placement with its value and terms, best first (the first is [`decide`]'s choice).
pub(crate) fn rank(
    player: &Player,
    w: &ScoreWeights,
    ws: &mut Workspace,
    page: &[u8; 256],
    start: PieceState,
    situation: Situation,
    next: Option<Piece>,
) -> Vec<Ranked> {
    let w: &ScoreWeights = &decision_weights(w, &situation);
    let (placements, mut rated, ctx) = rate(player, w, ws, page, start, situation, next);
    rated.sort_by(ranking_order);
    let presses = press_frames(&player.input);
    rated
        .into_iter()
        .filter_map(|r| {
            let inputs = ws.second.inputs(&placements[r.index]);
            let placement = Placement::replayed(page, start, ctx.gravity(), &inputs)?;
            let mut terms = vec![Term {
                name: "clear",
                value: r.reward,
            }];
            if !Planner::capped(&r.after) {
                terms.extend(w.board_terms(&r.field, &r.after, &presses));
            }
            // Looking ahead replaces the board's value by what follows it.
            if r.stage >= Stage::Preview {
                terms.push(Term {
                    name: "preview",
                    value: r.preview - r.reward - r.board,
                });
            }
            if r.stage == Stage::Deeper {
                terms.push(Term {
                    name: "deeper",
                    value: r.value - r.preview,
                });
            }
            Some(Ranked {
                decision: Decision {
                    placement,
                    inputs,
                    cost: -r.value,
                },
                value: r.value,
                terms,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::input::InputModel;
    use crate::nes::score::WELL;

    #[test]
    fn the_preview_comes_too_late_from_level_19_with_an_18_frame_reaction() {
        let at = |level: u8, double: Option<u8>, frames: u32| {
            preview_comes_too_late(Gravity::with_double_speed(level, double), frames)
        };
        // 30 Hz, 18 frames: six rows at level 18, nine at 19-28, eighteen at 29, 36 at double speed.
        assert!(!at(18, None, 18));
        assert!(at(19, None, 18));
        assert!(at(28, None, 18));
        assert!(at(29, None, 18));
        assert!(at(39, Some(39), 18));
        // Seen at spawn, or soon enough.
        assert!(!at(29, None, 0));
        assert!(!at(19, None, 17));
        assert!(at(18, None, 27));
    }

    /// A T's decision at `level` from spawn before the preview is seen, on `page`: its value
    /// and the same value recomputed, one piece deeper under each preview with `deeper`
    /// placements of the piece after the preview looked at once more, or (`None`) as the
    /// expected best drop of the preview.
    fn chosen_and_recomputed(page: &[u8; 256], level: u8, deeper: Option<usize>) -> (f64, f64) {
        let input = InputModel::new("X.", true, 18).unwrap();
        let player = Player::score(input.clone());
        let w = ScoreWeights::shipped();
        let mut ws = Workspace::new();
        let start = PieceState::spawn(Piece::T.spawn_orientation(), 0);
        let situation = Situation::a_type(level, 250);
        let d = decide(&player, &w, &mut ws, page, start, situation, None).unwrap();
        // The decision's weights: the band's where one holds.
        let w = decision_weights(&w, &situation).into_owned();
        let mut field = Field::from_page(page);
        let ctx = decision_context(&player, &w, situation, &field, 0, None);
        let holes = has_holes(&field);
        let cleared = field
            .lock(
                d.placement.orientation,
                d.placement.x as i8,
                d.placement.y as i8,
            )
            .unwrap();
        let planner = Planner::new(&w, &player, holes, deeper.unwrap_or(0));
        let after = ctx.after(cleared);
        let future = if deeper.is_some() {
            (0..7)
                .map(|n| transition_probability(0, n) * planner.deeper_value(&field, n, &after))
                .sum()
        } else {
            planner.expected_value(&field, 0, &after)
        };
        (-d.cost, w.clear_reward(cleared, &ctx, holes) + future)
    }

    /// A stack of `rows` rows ready for a tetris but for one cell, the well open.
    fn ready_stack(rows: usize) -> [u8; 256] {
        let mut page = [0xEFu8; 256];
        for y in 20 - rows..20 {
            for x in 0..9 {
                if !(y == 20 - rows && x == 4) {
                    page[y * 10 + x] = 0x7B;
                }
            }
        }
        page
    }

    #[test]
    fn before_a_late_preview_the_decision_looks_one_piece_deeper_under_each_preview() {
        let page = ready_stack(6);
        // At level 19 the piece falls nine rows before the preview is seen: one piece deeper
        // under each preview, weighted by the randomizer; at level 29 (18 rows, a row a frame)
        // that look reaches two unseen pieces after the preview. At level 18 (six rows) the
        // expected best drop of the preview: the decision is made again once it is seen.
        for (level, deeper) in [
            (18, None),
            (19, Some(NEXT_DROPS_BLIND)),
            (29, Some(NEXT_DROPS_BLIND_FAST)),
        ] {
            let (value, recomputed) = chosen_and_recomputed(&page, level, deeper);
            assert!(
                (value - recomputed).abs() < 1e-9,
                "level {level}: {value} against {recomputed}"
            );
        }
        // The look at level 29 is not the shallower one of levels 19-28.
        let (value, shallower) = chosen_and_recomputed(&page, 29, Some(NEXT_DROPS_BLIND));
        assert!(
            (value - shallower).abs() > 1e-6,
            "{value} against {shallower}"
        );
    }

    #[test]
    fn at_a_row_a_frame_or_faster_the_blind_look_takes_three_candidates_two_pieces_deep() {
        let page = ready_stack(6);
        let input = InputModel::new("X.", true, 18).unwrap();
        let player = Player::score(input);
        let w = ScoreWeights::shipped();
        let start = PieceState::spawn(Piece::T.spawn_orientation(), 0);
        let double = |level: u8| Situation {
            double_speed_level: Some(39),
            ..Situation::a_type(level, 350)
        };
        let look = |situation: Situation, next: Option<Piece>| {
            let mut ws = Workspace::new();
            let (_, rated, ctx) = rate(&player, &w, &mut ws, &page, start, situation, next);
            let deeper = rated.iter().filter(|r| r.stage == Stage::Deeper).count();
            (deeper, deeper_look(next.is_none(), &ctx).next_drops)
        };
        // Blind at a row a frame and at double speed: three candidates, two unseen pieces after
        // the preview; blind at levels 19-28: four, one; with the preview seen: four, two.
        let fast = (DEEPER_CANDIDATES_BLIND_FAST, NEXT_DROPS_BLIND_FAST);
        assert_eq!(look(Situation::a_type(29, 250), None), fast);
        assert_eq!(look(double(40), None), fast);
        assert_eq!(
            look(Situation::a_type(19, 250), None),
            (DEEPER_CANDIDATES, NEXT_DROPS_BLIND)
        );
        assert_eq!(
            look(Situation::a_type(29, 250), Some(Piece::I)),
            (DEEPER_CANDIDATES, NEXT_DROPS_SEEN)
        );
        const { assert!(DEEPER_CANDIDATES_BLIND_FAST < DEEPER_CANDIDATES) };
    }

    #[test]
    fn a_placement_that_locks_before_the_preview_is_seen_is_decided_one_piece_deeper() {
        // Fifteen rows: at level 18 the T meets the stack within the 18 frames before the
        // preview is seen, so no second look comes and the decision is final.
        let page = ready_stack(15);
        let (value, recomputed) = chosen_and_recomputed(&page, 18, Some(NEXT_DROPS_BLIND));
        assert!(
            (value - recomputed).abs() < 1e-9,
            "{value} against {recomputed}"
        );
        let (_, shallow) = chosen_and_recomputed(&page, 18, None);
        assert!((value - shallow).abs() > 1e-6);
    }

    #[test]
    fn with_the_preview_seen_the_decision_looks_two_unseen_pieces_deep() {
        let page = ready_stack(6);
        let input = InputModel::new("X.", true, 18).unwrap();
        let player = Player::score(input.clone());
        // Level 18's weights without bands, so that the decision and the recomputation below
        // price the boards alike.
        let w = ScoreWeights::shipped().band_weights(crate::nes::bands::Band::FromLevel(18));
        let start = PieceState::spawn(Piece::T.spawn_orientation(), 0);
        let (current, next) = (Piece::T.index(), Piece::L.index());
        // The chosen placement's value, and the same recomputed with `next_drops` placements of
        // the unseen piece after the preview looked at once more.
        let chosen_and_recomputed = |situation: Situation, next_drops: usize| {
            let d = decide(
                &player,
                &w,
                &mut Workspace::new(),
                &page,
                start,
                situation,
                Some(Piece::L),
            )
            .unwrap();
            let mut field = Field::from_page(&page);
            let ctx = decision_context(&player, &w, situation, &field, current, Some(next));
            let holes = has_holes(&field);
            let cleared = field
                .lock(
                    d.placement.orientation,
                    d.placement.x as i8,
                    d.placement.y as i8,
                )
                .unwrap();
            let planner = Planner::new(&w, &player, holes, next_drops);
            let recomputed = w.clear_reward(cleared, &ctx, holes)
                + planner.deeper_value(&field, next, &ctx.after(cleared));
            (-d.cost, recomputed)
        };
        // Playing for points: the preview's leading drops, each followed by the leading drops of
        // the unseen piece after it and the expected best of the one after that.
        let scoring = Situation::a_type(18, 40);
        let (value, deep) = chosen_and_recomputed(scoring, NEXT_DROPS_SEEN);
        assert!((value - deep).abs() < 1e-9, "{value} against {deep}");
        let (_, shallow) = chosen_and_recomputed(scoring, 0);
        assert!((deep - shallow).abs() > 1e-6);
        // Playing to survive (the ROM's score maxed), where it was not measured: one unseen piece.
        let surviving = Situation {
            score_maxed: true,
            ..scoring
        };
        let (value, shallow) = chosen_and_recomputed(surviving, 0);
        assert!((value - shallow).abs() < 1e-9, "{value} against {shallow}");
    }

    /// A page whose columns 1-9 stand `heights` high, the well empty.
    fn page_of(heights: [usize; 9]) -> [u8; 256] {
        let mut page = [0xEFu8; 256];
        for (x, h) in heights.into_iter().enumerate() {
            for y in 20 - h..20 {
                page[y * 10 + x] = 0x7B;
            }
        }
        page
    }

    /// The lines an L clears at level 24 on columns 1-9 of `heights` (the well open), placed
    /// by the score player with weights `w`, the preview `next` (or not seen yet).
    fn lines_by_an_l(heights: [usize; 9], w: &ScoreWeights, next: Option<Piece>) -> u8 {
        let page = page_of(heights);
        let player = Player::score_with(w.clone(), InputModel::new("X.", true, 18).unwrap());
        let start = PieceState::spawn(Piece::L.spawn_orientation(), 0);
        let situation = Situation::a_type(24, 180);
        let d = decide(
            &player,
            w,
            &mut Workspace::new(),
            &page,
            start,
            situation,
            next,
        )
        .unwrap();
        let mut field = Field::from_page(&page);
        field
            .lock(
                d.placement.orientation,
                d.placement.x as i8,
                d.placement.y as i8,
            )
            .unwrap()
    }

    #[test]
    fn on_a_stack_a_drought_would_fill_the_decision_burns_into_the_well() {
        let shipped = ScoreWeights::shipped();
        let never = ScoreWeights {
            line_out_risk: 0.0,
            ..shipped.clone()
        };
        // Columns 1-9 ten to thirteen rows high, the preview not seen yet: 28 free cells below
        // the reach ceiling (15 rows), a 34 % chance that no I comes before they are filled.
        // Waiting for an I, the L stays out of the well; lining out, it burns two lines there.
        let high = [12, 13, 12, 13, 13, 12, 10, 12, 10];
        assert_eq!(lines_by_an_l(high, &never, None), 0);
        assert_eq!(lines_by_an_l(high, &shipped, None), 2);
        // An I in the preview ends the drought: the decision does not line out, and is the one
        // made without the term. (Here, lining out, the L burns three lines; looking two
        // pieces past the I, the decision burns three with the I coming next too.)
        let i = Some(Piece::I);
        let other = [11, 11, 12, 11, 12, 12, 12, 13, 10];
        assert_eq!(lines_by_an_l(other, &shipped, None), 3);
        let lines_out = |next: Option<usize>| {
            let player = Player::score(InputModel::new("X.", true, 18).unwrap());
            let field = Field::from_page(&page_of(other));
            let situation = Situation::a_type(24, 180);
            decision_context(&player, &shipped, situation, &field, 5, next).line_out
        };
        assert!(lines_out(None));
        assert!(!lines_out(Some(I_PIECE)));
        assert_eq!(
            lines_by_an_l(other, &shipped, i),
            lines_by_an_l(other, &never, i)
        );
    }

    #[test]
    fn a_clear_that_would_freeze_or_crash_the_game_makes_the_decision_line_out() {
        let player = Player::score(InputModel::new("X", true, 0).unwrap());
        let w = ScoreWeights::shipped();
        let field = Field::default();
        let at = |unsafe_clears: u8| {
            let situation = Situation {
                unsafe_clears,
                ..Situation::a_type(170, 1_640)
            };
            decision_context(&player, &w, situation, &field, 0, None).line_out
        };
        assert!(!at(0), "an empty board keeps its well");
        assert!(at(1 << 1), "singles unsafe");
        assert!(at(1 << 4), "the Tetris unsafe");
    }

    #[test]
    fn once_the_roms_score_is_maxed_and_counts_the_decision_lines_out_and_clears_earn_nothing() {
        let player = Player::score(InputModel::new("X.", true, 18).unwrap());
        let w = ScoreWeights::shipped();
        let field = Field::default();
        let context = |score_maxed: bool| {
            let situation = Situation {
                score_maxed,
                ..Situation::a_type(30, 250)
            };
            decision_context(&player, &w, situation, &field, 0, None)
        };
        let scoring = context(false);
        assert!(!scoring.line_out, "an empty board keeps its well");
        assert!(w.clear_reward(4, &scoring, false) > w.clear_reward(1, &scoring, false) * 4.0);
        let surviving = context(true);
        assert!(surviving.line_out && surviving.survival);
        for cleared in 1..=4 {
            assert_eq!(
                w.clear_reward(cleared, &surviving, false),
                0.0,
                "{cleared} rows"
            );
        }
    }

    #[test]
    fn a_band_holds_while_the_player_plays_for_points_and_not_once_it_plays_to_survive() {
        let mut banded = ScoreWeights::shipped();
        let mut band = std::collections::BTreeMap::new();
        band.insert("safe_height_fast".to_owned(), 11.0);
        banded
            .bands
            .set(crate::nes::bands::Band::FromLevel(29), &band)
            .unwrap();
        let at = |score_maxed: bool, unsafe_clears: u8| Situation {
            score_maxed,
            unsafe_clears,
            ..Situation::a_type(30, 250)
        };
        assert_eq!(
            decision_weights(&banded, &at(false, 0)).safe_height_fast,
            11.0
        );
        assert_eq!(
            decision_weights(&banded, &at(true, 0)).safe_height_fast,
            7.0
        );
        assert_eq!(
            decision_weights(&banded, &at(false, 1 << 4)).safe_height_fast,
            7.0
        );
    }

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
            speed_up: None,
            ceilings: Context::ceilings_for(&presses),
            judged: None,
            line_out: false,
            unsafe_clears: 0,
            survival: false,
        };
        // A board the lookahead meets after the current piece covered the well: a hole in the
        // well column under a row that a vertical I would clear (a single).
        let mut field = Field::default();
        field.rows[19] = super::super::field::FULL_ROW & !(1 << WELL) & !1;
        field.rows[18] = (super::super::field::FULL_ROW & !1) | (1 << WELL);
        field.rows[19] &= !(1 << WELL);
        assert!(has_holes(&field));
        let rewards = |digging: bool| {
            let planner = Planner::new(&w, &player, digging, 0);
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
