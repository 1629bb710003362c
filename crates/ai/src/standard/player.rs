//! The player: picks a placement with an evaluator and a move model, and plays it with the
//! game's own inputs.

use super::evaluator::{DoubledWeights, Evaluator, Rater, Weights};
use super::features::place_and_measure_with;
use super::incremental::{Prepared, ShapeProfile};
use super::moves::{MoveModel, Placement, Sweep, Sweeps, placements_on, spawn_x, spawn_y, sweeps};
use playfield_standard::{Board, EndRule, Game, GameOver, Iteration, Landing, Piece, WIDTH};

/// How a player plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerConfig {
    /// Evaluation weights.
    pub weights: Weights,
    /// Move model.
    pub model: MoveModel,
    /// 1 = current piece only; 2 = also the preview piece.
    pub lookahead: u8,
    /// Avoid placements after which some new piece could not appear (unless all are such).
    pub exclude_game_ending: bool,
    /// The game's end rule (the simplified model can place a piece whose spawn position is
    /// blocked under [`EndRule::NoPlacement`]).
    pub end_rule: EndRule,
}

impl PlayerConfig {
    /// A one-piece player with a named evaluator.
    #[must_use]
    pub const fn new(evaluator: Evaluator, model: MoveModel) -> Self {
        PlayerConfig {
            weights: evaluator.weights(),
            model,
            lookahead: 1,
            exclude_game_ending: false,
            end_rule: EndRule::SpawnBlocked,
        }
    }
}

/// A planned placement the game's inputs did not produce: a bug, never a heuristic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("planned {planned:?} for {piece} but the game gave {got:?} (piece {pieces_played})")]
pub struct UnreachablePlacement {
    /// The piece.
    pub piece: Piece,
    /// What the player planned.
    pub planned: Placement,
    /// Where the piece actually went (orientation, x, y), if it landed.
    pub got: Option<(u8, i32, i32)>,
    /// Pieces landed before this one.
    pub pieces_played: u64,
}

/// Result of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// Completed lines.
    pub lines: u64,
    /// Pieces landed.
    pub pieces: u64,
    /// Score.
    pub score: u64,
    /// Whether the line cap stopped the game.
    pub capped: bool,
    /// Why the game ended (None if capped).
    pub ended: Option<GameOver>,
}

const REALLY_BAD: f64 = -1.0e20;

/// Whether the 4 x 2 region where new pieces appear is empty.
#[inline]
fn spawn_region_clear(board: &Board) -> bool {
    let sy = spawn_y(board) as usize;
    let mask = 0b1111u16 << (spawn_x() - 2);
    board.rows()[sy] & mask == 0 && board.rows()[sy - 1] & mask == 0
}

/// Whether every piece can appear next on `board` under `rule`.
fn game_goes_on(board: &Board, rule: EndRule) -> bool {
    match rule {
        EndRule::SpawnBlocked => spawn_region_clear(board),
        EndRule::NoPlacement => Piece::ALL.iter().all(|&piece| {
            (0..piece.orientations()).any(|r| {
                let s = piece.shape(r);
                let top = spawn_y(board) - i32::from(s.dy_max);
                (-i32::from(s.dx_min)..WIDTH as i32 - i32::from(s.dx_max))
                    .any(|x| board.fits(s, x, top))
            })
        }),
    }
}

/// A player.
#[derive(Debug, Clone, Copy)]
pub struct Player {
    config: PlayerConfig,
    deep: bool,
    /// The weights in integer form when that is exact (Dellacherie's).
    doubled: Option<DoubledWeights>,
    /// Use the fast search when it applies (tests turn it off to compare with the general loop).
    fast: bool,
}

/// The profiles of a piece's orientations.
fn profiles(piece: Piece) -> [&'static ShapeProfile; 4] {
    std::array::from_fn(|r| ShapeProfile::of(piece, r as u8))
}

impl Player {
    /// A player with `config`.
    #[must_use]
    pub fn new(config: PlayerConfig) -> Self {
        Player {
            config,
            deep: config.weights.deep(),
            doubled: config.weights.doubled(),
            fast: true,
        }
    }

    /// Its configuration.
    #[must_use]
    pub const fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// The best rating any placement of `piece` reaches on `board` (REALLY_BAD if none).
    fn best_rating(&self, board: &Board, piece: Piece) -> f64 {
        let prep = Prepared::new(board);
        let weights = &self.config.weights;
        let best = if self.deep {
            self.choose_fast::<_, true>(&prep, piece, weights)
        } else {
            self.choose_fast::<_, false>(&prep, piece, weights)
        };
        best.map_or(REALLY_BAD, |(rating, _)| rating.max(REALLY_BAD))
    }

    /// The placement to play for a new `piece` on `board`; `next` is the preview piece (used with
    /// lookahead 2). `None` if the piece cannot appear.
    #[must_use]
    pub fn choose(&self, board: &Board, piece: Piece, next: Option<Piece>) -> Option<Placement> {
        let prep = Prepared::new(board);
        let sx = spawn_x();
        // The board after each placement is needed only to look further or to check the spawn.
        let need_board = self.config.exclude_game_ending || self.config.lookahead >= 2;
        if !need_board && self.fast {
            let weights = &self.config.weights;
            let best = |b: Option<(_, Placement)>| b.map(|(_, p)| p);
            return match (self.doubled, self.deep) {
                (Some(doubled), false) => self
                    .choose_fast::<_, false>(&prep, piece, &doubled)
                    .map(|(_, p)| p),
                (_, false) => best(self.choose_fast::<_, false>(&prep, piece, weights)),
                (_, true) => best(self.choose_fast::<_, true>(&prep, piece, weights)),
            };
        }
        let list = placements_on(&prep, piece, self.config.model, self.config.end_rule);
        if let [only] = list.as_slice()
            && only.forced
        {
            return Some(*only);
        }
        let ph = prep.pile_height();
        let profiles = profiles(piece);
        let mut best: Option<(bool, f64, i32, Placement)> = None;
        for &p in list.as_slice() {
            let profile = profiles[usize::from(p.orientation)];
            let shape = profile.shape;
            let mut safe = true;
            let mut rating;
            if need_board {
                let (after, f) = place_and_measure_with(board, ph, shape, p.x, p.y, self.deep);
                rating = self.config.weights.rate(&f);
                safe =
                    !self.config.exclude_game_ending || game_goes_on(&after, self.config.end_rule);
                if self.config.lookahead >= 2
                    && let Some(n) = next
                {
                    rating += self.best_rating(&after, n);
                }
            } else {
                rating = self
                    .config
                    .weights
                    .rate(&prep.features_of(profile, p.x, p.y, self.deep));
            }
            let priority = p.priority(sx);
            let better = match best {
                None => true,
                Some((bs, br, bp, _)) => {
                    (safe && !bs)
                        || (safe == bs && (rating > br || (rating == br && priority > bp)))
                }
            };
            if better {
                best = Some((safe, rating, priority, p));
            }
        }
        best.map(|b| b.3)
    }

    /// [`Player::choose`] without the board after each placement: the same choice as the
    /// general loop, found faster (exact pruning, integer ratings where they are exact). Each
    /// orientation's sweep runs in code made for that shape (see [`scan`]).
    #[inline(always)]
    fn choose_fast<R: Rater, const DEEP: bool>(
        &self,
        prep: &Prepared,
        piece: Piece,
        rater: &R,
    ) -> Option<(R::Score, Placement)> {
        match sweeps(prep, piece, self.config.model, self.config.end_rule) {
            Sweeps::None => None,
            Sweeps::Forced(p) => {
                let profile = ShapeProfile::of(piece, 0);
                prep.rate_at_least::<R, DEEP>(rater, profile, p.x, p.y, R::LOWEST)
                    .map(|rating| (rating, p))
            }
            Sweeps::Orientations { sweeps, len } => {
                let mut best = None;
                for sweep in &sweeps[..len] {
                    let index = ShapeProfile::index(piece, sweep.orientation);
                    scan_shape::<R, DEEP>(index, prep, sweep, rater, &mut best);
                }
                best
            }
        }
    }

    /// Plays the piece that just appeared in `game` with the game's inputs (standard model:
    /// wait one iteration, rotate, slide, drop; simplified: [`Game::place`]).
    ///
    /// # Errors
    /// [`UnreachablePlacement`] if the game does not put the piece where the player planned.
    pub fn play_piece(&self, game: &mut Game) -> Result<Option<Landing>, UnreachablePlacement> {
        let Some(current) = game.current() else {
            return Ok(None);
        };
        let piece = current.kind;
        let next = if self.config.lookahead >= 2 {
            game.next()
        } else {
            None
        };
        let Some(plan) = self.choose(game.board(), piece, next) else {
            return Ok(game.drop());
        };
        execute(game, plan, self.config.model).map(Some)
    }

    /// Plays `game` to its end, or until `max_lines` lines are completed.
    ///
    /// # Errors
    /// [`UnreachablePlacement`] as for [`Player::play_piece`].
    pub fn play_game(
        &self,
        game: &mut Game,
        max_lines: Option<u64>,
    ) -> Result<GameRecord, UnreachablePlacement> {
        let cap = max_lines.unwrap_or(u64::MAX);
        loop {
            if game.lines() >= cap {
                return Ok(record(game, true));
            }
            match game.iteration() {
                Iteration::Spawned(_) => {
                    self.play_piece(game)?;
                }
                Iteration::GameOver(_) | Iteration::Over => return Ok(record(game, false)),
                Iteration::Fell | Iteration::Landed(_) => {}
            }
        }
    }
}

/// Rates one sweep's placements and keeps the best in `best` (rating, placement): strictly
/// better ratings win, equal ones go to the higher priority (Fahey's tie-break). `SHAPE` is the
/// shape's index in the profile table, a constant so each shape gets its own unrolled code.
#[inline]
fn scan<R: Rater, const SHAPE: usize, const DEEP: bool>(
    prep: &Prepared,
    sweep: &Sweep,
    rater: &R,
    best: &mut Option<(R::Score, Placement)>,
) {
    let profile = ShapeProfile::at(SHAPE);
    let sx = spawn_x();
    for x in sweep.lo..=sweep.hi {
        let Some(y) = sweep.landing(prep, profile, x) else {
            continue;
        };
        let p = Placement {
            orientation: sweep.orientation,
            x,
            y,
            forced: false,
        };
        let Some((best_rating, best_placement)) = *best else {
            *best = prep
                .rate_at_least::<R, DEEP>(rater, profile, x, y, R::LOWEST)
                .map(|r| (r, p));
            continue;
        };
        // The priority is needed only for ties.
        if let Some(rating) = prep.rate_at_least::<R, DEEP>(rater, profile, x, y, best_rating)
            && (rating > best_rating
                || (rating == best_rating && p.priority(sx) > best_placement.priority(sx)))
        {
            *best = Some((rating, p));
        }
    }
}

/// [`scan`] for the shape at `index` of the profile table.
fn scan_shape<R: Rater, const DEEP: bool>(
    index: usize,
    prep: &Prepared,
    sweep: &Sweep,
    rater: &R,
    best: &mut Option<(R::Score, Placement)>,
) {
    macro_rules! by_index {
        ($($i:literal)*) => {
            match index {
                $($i => scan::<R, $i, DEEP>(prep, sweep, rater, best),)*
                _ => unreachable!("shape index {index} past the table"),
            }
        };
    }
    by_index!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27);
}

/// Moves the piece that just appeared in `game` to `plan` with the game's inputs under `model`
/// and lands it; checks that it landed where planned.
///
/// # Errors
/// [`UnreachablePlacement`] if any input is refused or the piece lands elsewhere.
pub fn execute(
    game: &mut Game,
    plan: Placement,
    model: MoveModel,
) -> Result<Landing, UnreachablePlacement> {
    let Some(current) = game.current() else {
        return Err(UnreachablePlacement {
            piece: Piece::O,
            planned: plan,
            got: None,
            pieces_played: game.pieces(),
        });
    };
    let piece = current.kind;
    let fail = |game: &Game, got: Option<(u8, i32, i32)>| UnreachablePlacement {
        piece,
        planned: plan,
        got,
        pieces_played: game.pieces(),
    };
    let landing = match model {
        MoveModel::Simplified => game
            .place(plan.orientation, plan.x)
            .map_err(|_| fail(game, None))?,
        MoveModel::Standard if plan.forced => match game.iteration() {
            Iteration::Landed(l) => l,
            _ => return Err(fail(game, None)),
        },
        MoveModel::Standard => {
            if game.iteration() != Iteration::Fell {
                return Err(fail(game, None));
            }
            for _ in 0..plan.orientation {
                if !game.rotate() {
                    return Err(fail(game, None));
                }
            }
            let x0 = current.x;
            for _ in 0..(plan.x - x0).abs() {
                let moved = if plan.x < x0 {
                    game.left()
                } else {
                    game.right()
                };
                if !moved {
                    return Err(fail(game, None));
                }
            }
            game.drop().ok_or_else(|| fail(game, None))?
        }
    };
    let lp = landing.piece;
    if (lp.orientation, lp.x, lp.y) != (plan.orientation, plan.x, plan.y) {
        return Err(fail(game, Some((lp.orientation, lp.x, lp.y))));
    }
    Ok(landing)
}

fn record(game: &Game, capped: bool) -> GameRecord {
    GameRecord {
        lines: game.lines(),
        pieces: game.pieces(),
        score: game.score(),
        capped,
        ended: game.game_over(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playfield_standard::PieceSource;

    #[test]
    fn sz_sequence_ends_every_game() {
        // §6.2: alternating S and Z pieces end any game, whatever the player does.
        for e in Evaluator::ALL {
            for model in [MoveModel::Standard, MoveModel::Simplified] {
                let player = Player::new(PlayerConfig::new(e, model));
                let mut g = Game::new(20, 1, PieceSource::alternating_sz()).unwrap();
                let r = player.play_game(&mut g, Some(1_000_000)).unwrap();
                assert_eq!(r.ended, Some(GameOver::SpawnBlocked), "{e} {model}");
                assert!(!r.capped);
                assert!(r.pieces < 1000, "{e} {model}: {} pieces", r.pieces);
            }
        }
    }

    #[test]
    fn dellacherie_clears_many_lines_on_a_small_board() {
        let player = Player::new(PlayerConfig::new(
            Evaluator::Dellacherie,
            MoveModel::Standard,
        ));
        let mut total = 0;
        for seed in 0..5 {
            let mut g = Game::new(12, 1, PieceSource::random(seed)).unwrap();
            let r = player.play_game(&mut g, Some(100_000)).unwrap();
            assert!(r.pieces * 4 >= r.lines * 10, "cells conserved");
            total += r.lines;
        }
        // A random player clears almost nothing; Dellacherie clears hundreds on 10 x 12.
        assert!(total > 500, "{total}");
    }

    #[test]
    fn empty_board_tie_break_is_fahey_s() {
        // On an empty board every flat O placement rates the same except for walls; the rating
        // prefers the wall, the priority breaks the tie between the two walls: left wins.
        let player = Player::new(PlayerConfig::new(
            Evaluator::Dellacherie,
            MoveModel::Standard,
        ));
        let b = Board::new(20).unwrap();
        let p = player.choose(&b, Piece::O, None).unwrap();
        assert_eq!((p.x, p.orientation), (1, 0));
    }

    #[test]
    fn no_placement_rule_plays_on_past_a_blocked_spawn() {
        let cfg = PlayerConfig {
            end_rule: EndRule::NoPlacement,
            ..PlayerConfig::new(Evaluator::Dellacherie, MoveModel::Simplified)
        };
        let player = Player::new(cfg);
        // The spawn position blocked by a tower in columns 4..=6, the sides free.
        let board = Board::from_rows(12, &[0b0001110000; 12]).unwrap();
        assert_eq!(player.choose(&board, Piece::I, None).map(|p| p.y), Some(0));
        let fahey = Player::new(PlayerConfig::new(
            Evaluator::Dellacherie,
            MoveModel::Simplified,
        ));
        assert_eq!(fahey.choose(&board, Piece::I, None), None);
        let (mut spawn_total, mut placement_total) = (0, 0);
        for seed in 0..20 {
            let mut g = Game::new(8, 1, PieceSource::random(seed)).unwrap();
            spawn_total += fahey.play_game(&mut g, None).unwrap().lines;
            let mut g = Game::new(8, 1, PieceSource::random(seed))
                .unwrap()
                .with_end_rule(EndRule::NoPlacement);
            let r = player.play_game(&mut g, None).unwrap();
            assert_eq!(r.ended, Some(GameOver::NoPlacement));
            placement_total += r.lines;
        }
        // The research rule lets games run longer.
        assert!(
            placement_total > spawn_total,
            "{placement_total} vs {spawn_total}"
        );
    }

    #[test]
    fn lookahead_and_exclusion_play_whole_games() {
        for lookahead in [1, 2] {
            let cfg = PlayerConfig {
                lookahead,
                exclude_game_ending: true,
                ..PlayerConfig::new(Evaluator::Dellacherie, MoveModel::Simplified)
            };
            let mut g = Game::new(8, 1, PieceSource::random(9)).unwrap();
            let r = Player::new(cfg).play_game(&mut g, Some(2_000)).unwrap();
            assert!(r.lines > 0);
            assert!(r.capped || r.ended.is_some());
        }
    }
}

#[cfg(test)]
mod fast_path_tests {
    use super::*;
    use playfield_standard::{FULL_ROW, PieceSource, SplitMix64};

    /// The fast search with integer ratings (Dellacherie only), with `f64` ratings, and the
    /// general loop.
    fn variants(e: Evaluator, model: MoveModel) -> Vec<(&'static str, Player)> {
        let player = Player::new(PlayerConfig::new(e, model));
        let mut out = vec![
            (
                "fast f64",
                Player {
                    doubled: None,
                    ..player
                },
            ),
            (
                "general",
                Player {
                    fast: false,
                    ..player
                },
            ),
        ];
        if player.doubled.is_some() {
            out.push(("fast integer", player));
        }
        out
    }

    #[test]
    fn fast_search_chooses_what_the_general_loop_chooses() {
        let mut rng = SplitMix64::new(21);
        let mut compared = 0;
        for _ in 0..2000 {
            let h = 4 + (rng.next_u64() % 17) as usize;
            let ph = (rng.next_u64() % (h as u64 - 1)) as usize;
            let rows: Vec<u16> = (0..ph)
                .map(|_| {
                    (rng.next_u64() as u16 | rng.next_u64() as u16)
                        & FULL_ROW
                        & !(1 << (rng.next_u64() % 10))
                })
                .collect();
            let board = Board::from_rows(h, &rows).unwrap();
            for e in Evaluator::ALL {
                for model in [MoveModel::Standard, MoveModel::Simplified] {
                    let players = variants(e, model);
                    for piece in Piece::ALL {
                        let want = players[1].1.choose(&board, piece, None);
                        for (name, p) in &players {
                            assert_eq!(
                                p.choose(&board, piece, None),
                                want,
                                "{name} {e} {rows:?} {piece} {model}"
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(compared, 2000 * 2 * 7 * (3 + 2 + 2));
    }

    #[test]
    fn best_rating_is_the_highest_rating_of_any_placement() {
        let mut rng = SplitMix64::new(8);
        for _ in 0..1500 {
            let h = 4 + (rng.next_u64() % 17) as usize;
            let ph = (rng.next_u64() % (h as u64 - 1)) as usize;
            let rows: Vec<u16> = (0..ph)
                .map(|_| rng.next_u64() as u16 & FULL_ROW & !(1 << (rng.next_u64() % 10)))
                .collect();
            let board = Board::from_rows(h, &rows).unwrap();
            for e in Evaluator::ALL {
                for model in [MoveModel::Standard, MoveModel::Simplified] {
                    let player = Player::new(PlayerConfig::new(e, model));
                    for piece in Piece::ALL {
                        let want = crate::standard::placements(&board, piece, model)
                            .as_slice()
                            .iter()
                            .map(|p| {
                                let shape = piece.shape(p.orientation);
                                let f = crate::standard::place_and_measure(
                                    &board,
                                    shape,
                                    p.x,
                                    p.y,
                                    player.deep,
                                )
                                .1;
                                e.weights().rate(&f)
                            })
                            .fold(REALLY_BAD, f64::max);
                        assert_eq!(
                            player.best_rating(&board, piece),
                            want,
                            "{e} {rows:?} {piece}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fast_search_plays_the_same_games() {
        for e in Evaluator::ALL {
            for model in [MoveModel::Standard, MoveModel::Simplified] {
                let players = variants(e, model);
                for seed in 0..4 {
                    let play = |p: &Player| {
                        let mut g = Game::new(10, 1, PieceSource::random(seed)).unwrap();
                        let record = p.play_game(&mut g, Some(20_000)).unwrap();
                        (record, *g.board())
                    };
                    let want = play(&players[1].1);
                    for (name, p) in &players {
                        assert_eq!(play(p), want, "{name} {e} {model} seed {seed}");
                    }
                }
            }
        }
    }
}
