//! A batch of AI games ("bench"): its settings ([`BenchConfig`]) and its report ([`BenchReport`],
//! one [`GameSummary`] per game added as the games finish, then a [`BenchSummary`]). Front ends
//! map their options onto the config and print the report; new settings and new statistics are
//! new fields here.

use playfield_report::stats::Summary;
use serde::Serialize;
use thiserror::Error;

use super::game::{GameConfig, GameConfigError, GameEnd, GameResult, game_seed};
use super::input::InputModel;
use super::player::Player;

/// The score the game cannot go past.
pub const MAX_SCORE: u32 = 999_999;

/// A bad batch setting.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BenchConfigError {
    /// A game setting out of the menus' range.
    #[error(transparent)]
    Game(#[from] GameConfigError),
    /// No games.
    #[error("a batch needs at least one game")]
    NoGames,
}

/// What a batch plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    /// The game every member of the batch plays; its `seed` is replaced by each game's own.
    pub game: GameConfig,
    /// How the AI presses buttons.
    pub input: InputModel,
    /// The batch's seed: game `i` gets [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Games in the batch.
    pub games: u64,
    /// Play the one game with this seed (as printed by a batch) instead of a batch.
    pub game_seed: Option<u64>,
}

impl BenchConfig {
    /// Checks the settings.
    ///
    /// # Errors
    /// When a game setting is out of range or there are no games.
    pub fn validate(&self) -> Result<(), BenchConfigError> {
        self.game.validate()?;
        if self.games == 0 {
            return Err(BenchConfigError::NoGames);
        }
        Ok(())
    }

    /// Games to play: 1 with [`BenchConfig::game_seed`], else [`BenchConfig::games`].
    #[must_use]
    pub fn game_count(&self) -> u64 {
        if self.game_seed.is_some() {
            1
        } else {
            self.games
        }
    }

    /// The seed of game `index`.
    #[must_use]
    pub fn seed_of(&self, index: u64) -> u64 {
        self.game_seed
            .unwrap_or_else(|| game_seed(self.seed, index))
    }

    /// The settings of game `index`.
    #[must_use]
    pub fn game_config(&self, index: u64) -> GameConfig {
        GameConfig {
            seed: self.seed_of(index),
            ..self.game
        }
    }

    /// The player: Birken's evaluator with two-piece lookahead under [`BenchConfig::input`].
    #[must_use]
    pub fn player(&self) -> Player {
        Player::birken(self.input.clone())
    }
}

/// One game of a batch, without its input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// 1-based game number.
    pub game: u64,
    /// The game's seed (`--game-seed` replays it).
    pub seed: u64,
    /// Final score.
    pub score: u32,
    /// Lines as the game shows them.
    pub lines: u32,
    /// Level at the end.
    pub level: u8,
    /// Frames from power-on.
    pub frames: u64,
    /// Pieces locked.
    pub pieces: u32,
    /// Why it stopped.
    pub end: GameEnd,
}

impl GameSummary {
    /// The summary of game `index` (0-based) with seed `seed`.
    #[must_use]
    pub fn new(index: u64, seed: u64, r: &GameResult) -> GameSummary {
        GameSummary {
            game: index + 1,
            seed,
            score: r.score,
            lines: r.lines,
            level: r.level,
            frames: r.frames,
            pieces: r.pieces,
            end: r.end.clone(),
        }
    }

    /// Whether the game stopped for a reason other than the game's own end or a cap: the ROM
    /// diverged, the observer stopped it, or the search and engine disagreed.
    #[must_use]
    pub fn failed(&self) -> bool {
        matches!(self.end, GameEnd::Mismatch(_) | GameEnd::Stopped(_))
    }
}

/// The statistics of a batch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchSummary {
    /// Games played.
    pub games: u64,
    /// Final scores.
    pub score: Summary,
    /// Lines cleared.
    pub lines: Summary,
    /// Games that reached level 29.
    pub reached_level_29: u64,
    /// Games that reached the 999,999 cap.
    pub maxed_out: u64,
}

/// The report, filled one game at a time (memory: a few numbers per game).
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    scores: Vec<f64>,
    lines: Vec<f64>,
    reached_level_29: u64,
    maxed_out: u64,
    first_failure: Option<GameSummary>,
}

impl BenchReport {
    /// An empty report.
    #[must_use]
    pub fn new() -> BenchReport {
        BenchReport::default()
    }

    /// Adds a finished game.
    pub fn add(&mut self, game: &GameSummary) {
        self.scores.push(f64::from(game.score));
        self.lines.push(f64::from(game.lines));
        self.reached_level_29 += u64::from(game.level >= 29);
        self.maxed_out += u64::from(game.score >= MAX_SCORE);
        if game.failed() && self.first_failure.is_none() {
            self.first_failure = Some(game.clone());
        }
    }

    /// The first game that did not finish cleanly ([`GameSummary::failed`]).
    #[must_use]
    pub fn first_failure(&self) -> Option<&GameSummary> {
        self.first_failure.as_ref()
    }

    /// The statistics so far; `None` before the first game.
    #[must_use]
    pub fn summary(&self) -> Option<BenchSummary> {
        Some(BenchSummary {
            games: self.scores.len() as u64,
            score: Summary::of(&self.scores)?,
            lines: Summary::of(&self.lines)?,
            reached_level_29: self.reached_level_29,
            maxed_out: self.maxed_out,
        })
    }

    /// The scores, in game order.
    #[must_use]
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, score: u32, level: u8, end: GameEnd) -> GameSummary {
        GameSummary {
            game: index + 1,
            seed: index,
            score,
            lines: score / 1000,
            level,
            frames: 1,
            pieces: 1,
            end,
        }
    }

    #[test]
    fn report_counts_and_summarises() {
        let mut report = BenchReport::new();
        assert!(report.summary().is_none());
        report.add(&game(0, 100_000, 20, GameEnd::TopOut));
        report.add(&game(1, MAX_SCORE, 29, GameEnd::TopOut));
        report.add(&game(2, 50_000, 19, GameEnd::Stopped("ROM".into())));
        let s = report.summary().unwrap();
        assert_eq!((s.games, s.reached_level_29, s.maxed_out), (3, 1, 1));
        assert_eq!(s.score.median, 100_000.0);
        assert_eq!(report.first_failure().map(|g| g.game), Some(3));
    }

    #[test]
    fn a_printed_game_seed_replays_that_game() {
        let config = BenchConfig {
            game: GameConfig::a_type(18, 0),
            input: InputModel::new("X.", true, 18).unwrap(),
            seed: 7,
            games: 10,
            game_seed: None,
        };
        let third = config.seed_of(2);
        let single = BenchConfig {
            game_seed: Some(third),
            ..config.clone()
        };
        assert_eq!(single.game_count(), 1);
        assert_eq!(single.game_config(0), config.game_config(2));
    }
}
