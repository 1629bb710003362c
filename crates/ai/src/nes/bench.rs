//! AI benchmarks in the community's formats: many games from power-on, in parallel, with the
//! statistics people compare bots by.
//!
//! A format is a preset of explicit options ([`BenchOptions`]); every option that departs from
//! the ROM (the double-speed level, the line cap, the uncapped score as headline) is labelled as
//! such in reports, and none of them is on in the default format, the unmodified game.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use super::game::{GameConfig, GameEnd, GameResult, play_game, split_mix};
use super::input::{InputModel, InputModelError};
use super::player::Player;

/// The benchmark formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The unmodified game: score capped at 999,999 (the uncapped score reported beside it), no
    /// line cap, 30 Hz taps, 18-frame reaction.
    Rom,
    /// BetaTetris's benchmark: start 18, 30 Hz, 18-frame (300 ms) reaction, from level 39 the
    /// piece falls two rows a frame, the game ends at 430 lines (level 49), score uncapped.
    BetaTetris,
    /// The unmodified game at 60 Hz input and no reaction delay, played as long as it lasts.
    Unlimited,
}

impl Format {
    /// Every format, for messages.
    pub const ALL: [Format; 3] = [Format::Rom, Format::BetaTetris, Format::Unlimited];

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::Rom => "rom",
            Format::BetaTetris => "betatetris",
            Format::Unlimited => "unlimited",
        }
    }

    /// The format's options.
    #[must_use]
    pub fn options(self) -> BenchOptions {
        match self {
            Format::Rom => BenchOptions {
                level: 18,
                timeline: "X.".to_owned(),
                reaction: 18,
                das: true,
                double_speed_level: None,
                line_cap: None,
                uncapped: false,
            },
            Format::BetaTetris => BenchOptions {
                level: 18,
                timeline: "X.".to_owned(),
                reaction: 18,
                das: true,
                double_speed_level: Some(39),
                line_cap: Some(430),
                uncapped: true,
            },
            Format::Unlimited => BenchOptions {
                level: 18,
                timeline: "X".to_owned(),
                reaction: 0,
                das: true,
                double_speed_level: None,
                line_cap: None,
                uncapped: true,
            },
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = BenchError;

    fn from_str(s: &str) -> Result<Format, BenchError> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| BenchError::UnknownFormat(s.to_owned()))
    }
}

/// A benchmark's options (a format's preset, possibly changed one by one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BenchOptions {
    /// Start level, 0-19.
    pub level: u8,
    /// Input timeline (`X`, `X.`, ...).
    pub timeline: String,
    /// Frames after spawn before the player sees the preview.
    pub reaction: u32,
    /// Whether the player may hold Left/Right into autorepeat.
    pub das: bool,
    /// Not the ROM: from this level the piece falls two rows a frame.
    pub double_speed_level: Option<u8>,
    /// Not the ROM: the game ends once this many lines are cleared.
    pub line_cap: Option<u32>,
    /// Report the score without the 999,999 cap as the headline (the game is unchanged).
    pub uncapped: bool,
}

impl BenchOptions {
    /// The input model these options give the player.
    ///
    /// # Errors
    /// When the timeline is malformed.
    pub fn input_model(&self) -> Result<InputModel, BenchError> {
        Ok(InputModel::new(&self.timeline, self.das, self.reaction)?)
    }

    /// Checks the options.
    ///
    /// # Errors
    /// A start level outside 0-19, a line cap of 0, a double-speed level below the start level,
    /// a malformed timeline.
    pub fn validate(&self) -> Result<(), BenchError> {
        if self.level > 19 {
            return Err(BenchError::Level(self.level));
        }
        if self.line_cap == Some(0) {
            return Err(BenchError::LineCap);
        }
        if let Some(level) = self.double_speed_level
            && level < self.level
        {
            return Err(BenchError::DoubleSpeedLevel {
                double: level,
                start: self.level,
            });
        }
        self.input_model()?;
        Ok(())
    }

    /// The labels of the options that depart from the ROM, for reports.
    #[must_use]
    pub fn modifiers(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(level) = self.double_speed_level {
            out.push(format!("double speed from level {level} (not the ROM)"));
        }
        if let Some(cap) = self.line_cap {
            out.push(format!("game ends at {cap} lines (not the ROM)"));
        }
        if self.uncapped {
            out.push("score reported without the 999,999 cap".to_owned());
        }
        out
    }

    /// The game of index `index` of a run with seed `seed`.
    #[must_use]
    pub fn game(&self, seed: u64, index: u32) -> GameConfig {
        GameConfig {
            max_lines: self.line_cap,
            double_speed_level: self.double_speed_level,
            ..GameConfig::a_type(self.level, game_seed(seed, index))
        }
    }
}

/// A benchmark that cannot run.
#[derive(Debug, Error)]
pub enum BenchError {
    /// Not one of the formats.
    #[error("unknown format {0:?}: expected one of rom, betatetris, unlimited")]
    UnknownFormat(String),
    /// Start level out of the menu's range.
    #[error("start level {0} is not allowed: the level menu offers 0-19")]
    Level(u8),
    /// A line cap of zero lines.
    #[error("line cap 0 is not allowed: the game would end before it starts (use 1 or more)")]
    LineCap,
    /// A double-speed level the game is already past at its start.
    #[error(
        "double-speed level {double} is below the start level {start}: it must be at least the start level"
    )]
    DoubleSpeedLevel {
        /// The double-speed level.
        double: u8,
        /// The start level.
        start: u8,
    },
    /// A bad input model.
    #[error(transparent)]
    Input(#[from] InputModelError),
}

/// The seed of game `index` of a run: independent of how games are spread over threads, and
/// printed with each game so that one game can be played again on its own (game 0 of a run
/// whose seed is that game's seed is not the same game: use this function's value as `seed` of
/// a one-game [`GameConfig`]).
#[must_use]
pub fn game_seed(seed: u64, index: u32) -> u64 {
    split_mix(split_mix(seed) ^ u64::from(index))
}

/// Plays `games` games of `options` with `player`, in parallel, and returns them in game order.
/// `done` is called after each game (for progress).
#[must_use]
pub fn run(
    options: &BenchOptions,
    player: &Player,
    seed: u64,
    games: std::ops::Range<u32>,
    done: impl Fn() + Sync,
) -> Vec<GameResult> {
    games
        .into_par_iter()
        .map(|i| {
            let result = play_game(&options.game(seed, i), player, |_, _| Ok(()));
            done();
            result
        })
        .collect()
}

/// The statistics of a benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Mean score (the headline score: uncapped when the options say so).
    pub mean_score: f64,
    /// Half-width of the 95 % confidence interval of the mean (normal approximation).
    pub ci95_score: f64,
    /// Standard deviation of the scores.
    pub sd_score: f64,
    /// Median score.
    pub median_score: f64,
    /// 10th percentile.
    pub p10_score: f64,
    /// 90th percentile.
    pub p90_score: f64,
    /// Mean of the ROM's capped score.
    pub mean_capped_score: f64,
    /// Mean of the uncapped score.
    pub mean_uncapped_score: f64,
    /// Mean lines.
    pub mean_lines: f64,
    /// Lines from tetrises over all lines cleared.
    pub tetris_rate: f64,
    /// Mean lines burned (singles, doubles, triples) per game.
    pub mean_burned_lines: f64,
    /// Share of games that reached 999,999.
    pub maxout_share: f64,
    /// Mean uncapped score at 130, 230 and 330 lines, over the games that got there.
    pub mean_score_at_lines: Vec<(u32, Option<f64>)>,
    /// Share of games that ended before 230 lines.
    pub ended_before_230: f64,
    /// Games that reached level 29.
    pub reached_level_29: usize,
    /// Median and 99th percentile of the per-piece decision time, in milliseconds.
    pub decision_ms_median: f64,
    /// 99th percentile of the per-piece decision time, in milliseconds.
    pub decision_ms_p99: f64,
}

/// The value at quantile `q` of sorted values (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The headline score of a game under these options.
#[must_use]
pub fn headline_score(options: &BenchOptions, r: &GameResult) -> u64 {
    if options.uncapped {
        r.uncapped_score
    } else {
        u64::from(r.score)
    }
}

/// Summarises games played under `options`.
#[must_use]
pub fn summarize(options: &BenchOptions, results: &[GameResult]) -> Summary {
    let n = results.len().max(1) as f64;
    let scores: Vec<f64> = results
        .iter()
        .map(|r| headline_score(options, r) as f64)
        .collect();
    let mean = scores.iter().sum::<f64>() / n;
    let var = if scores.len() > 1 {
        scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let mut sorted = scores.clone();
    sorted.sort_by(f64::total_cmp);
    let median = if sorted.is_empty() {
        f64::NAN
    } else if sorted.len() % 2 == 1 {
        sorted[sorted.len() / 2]
    } else {
        (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
    };
    let cleared: u32 = results
        .iter()
        .map(|r| {
            r.clears
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as u32 + 1) * c)
                .sum::<u32>()
        })
        .sum();
    let tetris_lines: u32 = results.iter().map(|r| 4 * r.clears[3]).sum();
    let mut times: Vec<f64> = results
        .iter()
        .flat_map(|r| r.decision_micros.iter().map(|&us| f64::from(us) / 1000.0))
        .collect();
    times.sort_by(f64::total_cmp);
    Summary {
        games: results.len(),
        mean_score: mean,
        ci95_score: 1.96 * (var / n).sqrt(),
        sd_score: var.sqrt(),
        median_score: median,
        p10_score: quantile(&sorted, 0.1),
        p90_score: quantile(&sorted, 0.9),
        mean_capped_score: results.iter().map(|r| f64::from(r.score)).sum::<f64>() / n,
        mean_uncapped_score: results.iter().map(|r| r.uncapped_score as f64).sum::<f64>() / n,
        mean_lines: results.iter().map(|r| f64::from(r.lines)).sum::<f64>() / n,
        tetris_rate: if cleared == 0 {
            0.0
        } else {
            f64::from(tetris_lines) / f64::from(cleared)
        },
        mean_burned_lines: results
            .iter()
            .map(|r| f64::from(r.burned_lines()))
            .sum::<f64>()
            / n,
        maxout_share: results
            .iter()
            .filter(|r| r.uncapped_score >= 999_999)
            .count() as f64
            / n,
        mean_score_at_lines: [130u32, 230, 330]
            .into_iter()
            .map(|lines| {
                let at: Vec<f64> = results
                    .iter()
                    .filter_map(|r| r.score_at_lines(lines))
                    .map(|s| s as f64)
                    .collect();
                (
                    lines,
                    (!at.is_empty()).then(|| at.iter().sum::<f64>() / at.len() as f64),
                )
            })
            .collect(),
        ended_before_230: results
            .iter()
            .filter(|r| r.lines < 230 && !matches!(r.end, GameEnd::LineCap))
            .count() as f64
            / n,
        reached_level_29: results.iter().filter(|r| r.level >= 29).count(),
        decision_ms_median: quantile(&times, 0.5),
        decision_ms_p99: quantile(&times, 0.99),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_bad_options_are_refused() {
        assert_eq!("betatetris".parse::<Format>().unwrap(), Format::BetaTetris);
        let e = "tgm".parse::<Format>().unwrap_err().to_string();
        assert!(e.contains("tgm") && e.contains("betatetris"), "{e}");
        let mut o = Format::BetaTetris.options();
        assert!(o.validate().is_ok());
        o.line_cap = Some(0);
        assert!(o.validate().unwrap_err().to_string().contains("line cap 0"));
        o.line_cap = Some(430);
        o.double_speed_level = Some(10);
        assert!(
            o.validate()
                .unwrap_err()
                .to_string()
                .contains("below the start level 18")
        );
        assert!(Format::Rom.options().modifiers().is_empty());
        assert_eq!(Format::BetaTetris.options().modifiers().len(), 3);
    }
}
