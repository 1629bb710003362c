//! AI benchmarks in the community's formats ("bench"): many games from power-on, in parallel,
//! with the statistics people compare bots by.
//!
//! A format ([`Format`]) is a preset of explicit options ([`BenchOptions`]); every option that
//! departs from the ROM (the double-speed level, the line cap, the uncapped score as headline)
//! is labelled as such in reports, and none of them is on in the default format, the unmodified
//! game. A batch's settings are a [`BenchConfig`]; its report ([`BenchReport`]) takes one
//! [`GameSummary`] per game as the games finish, then gives a [`BenchSummary`]. Front ends map
//! their options onto the config and print the report.

use std::fmt;
use std::str::FromStr;

use playfield_report::batch::Batch;
use playfield_report::stats::Summary;
use serde::Serialize;
use thiserror::Error;

use super::game::{
    CrashRisk, GameConfig, GameConfigError, GameEnd, GameResult, MAX_MENU_WAIT, game_seed,
    seed_with_menu_wait,
};
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
    /// The unmodified game at 60 Hz input and no reaction delay, played as long as it lasts:
    /// score capped at 999,999 (the uncapped score reported beside it), as `Rom`.
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
                // The unmodified game played as long as it lasts: the ROM's score is the
                // headline, and past its 999,999 the player plays to survive.
                uncapped: false,
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
    /// A start level outside 0-19, a line cap of 0, a double-speed level below the start level
    /// ([`GameConfig::validate`]), a malformed timeline.
    pub fn validate(&self) -> Result<(), BenchError> {
        self.game().validate()?;
        self.input_model()?;
        Ok(())
    }

    /// The labels of the options that depart from the ROM, for reports.
    #[must_use]
    pub fn modifiers(&self) -> Vec<String> {
        modifier_labels(&self.game(), self.uncapped)
    }

    /// An A-type game with these options (its seed still to be set).
    #[must_use]
    pub fn game(&self) -> GameConfig {
        GameConfig {
            max_lines: self.line_cap,
            double_speed_level: self.double_speed_level,
            survive_at_max_score: !self.uncapped,
            ..GameConfig::a_type(self.level, 0)
        }
    }
}

/// A benchmark that cannot run.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BenchError {
    /// Not one of the formats.
    #[error("unknown format {0:?}: expected one of rom, betatetris, unlimited")]
    UnknownFormat(String),
    /// A bad input model.
    #[error(transparent)]
    Input(#[from] InputModelError),
    /// A game setting out of the menus' range.
    #[error(transparent)]
    Game(#[from] GameConfigError),
    /// No games.
    #[error("a batch needs at least one game")]
    NoGames,
}

/// The labels of a game's settings that depart from the ROM (and of the uncapped headline), for
/// reports.
fn modifier_labels(game: &GameConfig, uncapped: bool) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(level) = game.double_speed_level {
        out.push(format!("double speed from level {level} (not the ROM)"));
    }
    if let Some(cap) = game.max_lines {
        out.push(format!("game ends at {cap} lines (not the ROM)"));
    }
    if uncapped {
        out.push("score reported without the 999,999 cap".to_owned());
    }
    out
}

/// The score the game cannot go past.
pub const MAX_SCORE: u32 = playfield_nes::rules::SCORE_CAP;

/// What a batch plays.
#[derive(Clone, Debug, PartialEq)]
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
    /// Play every game of the benchmark once instead of a batch: a game is fixed by its
    /// level-menu wait ([`GameConfig::menu_wait`]), so [`MAX_MENU_WAIT`] games, game `i` with
    /// the first seed whose wait is `i` ([`seed_with_menu_wait`]). A batch of `games` draws its
    /// games from these, with repeats. Waits 0-5 start only two distinct games (the level menu
    /// reads no button while it draws its screen), so 1,020 of the 1,024 are distinct.
    pub every_menu_wait: bool,
    /// The player.
    pub player: Player,
    /// Report the score without the 999,999 cap as the headline (the game is unchanged).
    pub uncapped: bool,
}

impl BenchConfig {
    /// Checks the settings.
    ///
    /// # Errors
    /// When a game setting is out of range ([`GameConfig::validate`]) or there are no games.
    pub fn validate(&self) -> Result<(), BenchError> {
        self.game.validate()?;
        if self.games == 0 {
            return Err(BenchError::NoGames);
        }
        Ok(())
    }

    /// The labels of the settings that depart from the ROM, for reports.
    #[must_use]
    pub fn modifiers(&self) -> Vec<String> {
        modifier_labels(&self.game, self.uncapped)
    }

    /// Games to play: 1 with [`BenchConfig::game_seed`], [`MAX_MENU_WAIT`] with
    /// [`BenchConfig::every_menu_wait`], else [`BenchConfig::games`].
    #[must_use]
    pub fn game_count(&self) -> u64 {
        if self.game_seed.is_some() {
            1
        } else if self.every_menu_wait {
            MAX_MENU_WAIT
        } else {
            self.games
        }
    }

    /// The seed of game `index`.
    #[must_use]
    pub fn seed_of(&self, index: u64) -> u64 {
        match self.game_seed {
            Some(seed) => seed,
            None if self.every_menu_wait => seed_with_menu_wait(index),
            None => game_seed(self.seed, index),
        }
    }

    /// The settings of game `index`.
    #[must_use]
    pub fn game_config(&self, index: u64) -> GameConfig {
        GameConfig {
            seed: self.seed_of(index),
            ..self.game
        }
    }

    /// Plays the batch on `batch`'s threads, game `i` with `play(&game_config(i))` (the engine
    /// alone: [`play_game`] with no observer; or with the ROM in lockstep). `done` is called on a
    /// worker as each game ends (a progress bar); `each(summary, result)` on the calling thread in
    /// game order, a chunk of games at a time, to print or record it. Returns the report of every
    /// game.
    ///
    /// # Errors
    /// The first error of `each`, which stops the batch.
    ///
    /// [`play_game`]: super::game::play_game
    pub fn run<E>(
        &self,
        batch: &Batch,
        play: impl Fn(&GameConfig) -> GameResult + Sync,
        done: impl Fn() + Sync,
        mut each: impl FnMut(&GameSummary, GameResult) -> Result<(), E>,
    ) -> Result<BenchReport, E> {
        let mut report = BenchReport::new(self.uncapped);
        batch.run(
            0..self.game_count(),
            |i| play(&self.game_config(i)),
            done,
            |i, result| {
                let summary = GameSummary::new(i, self.seed_of(i), &result);
                report.add(&summary);
                each(&summary, result)
            },
        )?;
        Ok(report)
    }

    /// The headline score of a game: uncapped when [`BenchConfig::uncapped`] says so.
    #[must_use]
    pub fn headline(&self, game: &GameSummary) -> u64 {
        if self.uncapped {
            game.uncapped_score
        } else {
            u64::from(game.score)
        }
    }
}

/// One game of a batch, without its input.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// The score without the 999,999 cap.
    pub uncapped_score: u64,
    /// Line clears by size: singles, doubles, triples, tetrises.
    pub clears: [u32; 4],
    /// The uncapped score when the game reached 130, 230 and 330 lines (`None`: it did not).
    pub score_at_lines: [Option<u64>; 3],
    /// Points scored in each of [`BANDS`] (0 in a band the game did not reach).
    pub band_points: [u64; 4],
    /// Line clears by size (singles, doubles, triples, tetrises) in each of [`BANDS`], a clear
    /// counted in the band of the line count it started from (as its points are).
    pub band_clears: [[u32; 4]; 4],
    /// The frames that crash on some consoles (CPU phases) but not all, which the game went on
    /// past as the consoles where it survives do.
    pub crash_risk: CrashRisk,
    /// The level went past 255 and wrapped to 0.
    pub level_wrapped: bool,
    /// Per-piece decision time, median and 99th percentile, in milliseconds (one thread).
    /// Measured, so not part of the game's printed record (which is the same on every run).
    #[serde(skip)]
    pub decision_ms: (f64, f64),
    /// The uncapped score when the game first reached 10, 20, 30, ... lines
    /// ([`CURVE_STEP`]), for the score-by-lines chart.
    #[serde(skip)]
    pub score_curve: Vec<u64>,
}

impl fmt::Display for GameSummary {
    /// The game's line in a text report.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: seed {} score {} (uncapped {}) lines {} level {} tetris rate {:.0}% frames {} ({}); points by band {}, tetris rate by band {} %",
            self.game,
            self.seed,
            self.score,
            self.uncapped_score,
            self.lines,
            self.level,
            100.0 * self.tetris_rate(),
            self.frames,
            end_text(&self.end),
            self.band_points.map(|p| p.to_string()).join("/"),
            self.band_tetris_rates()
                .map(|r| format!("{:.0}", 100.0 * r))
                .join("/")
        )?;
        // Only games that reached the levels where a frame can crash say more.
        if self.level_wrapped {
            write!(f, "; the level wrapped past 255 to 0")?;
        }
        if self.crash_risk.frames > 0 {
            write!(f, "; {}", self.crash_risk)?;
        }
        Ok(())
    }
}

/// The positions the decision-time bench (`benches/nes_search.rs`) times and the
/// `decision_hash` example hashes: the engine state at the first controllable frame of each of
/// the first `max` pieces of a `birken` game from `start_level` (game `seed`, 60 lines, 30 Hz),
/// its level set to `level`.
#[must_use]
pub fn decision_positions(
    start_level: u8,
    level: u8,
    seed: u64,
    max: usize,
) -> Vec<playfield_nes::Nes> {
    let player = Player::birken(InputModel::new("X.", true, 0).expect("a valid timeline"));
    let mut config = GameConfig::a_type(start_level, seed);
    config.max_lines = Some(60);
    let mut out = Vec::new();
    let mut was_active = false;
    super::game::play_game(&config, &player, |_, nes| {
        let active = nes.controllable();
        if active && !was_active && out.len() < max {
            let mut n = nes.clone();
            n.raw_mut().player1.level_number = level;
            out.push(n);
        }
        was_active = active;
        Ok(())
    });
    out
}

/// Why a game ended, in words.
#[must_use]
pub fn end_text(end: &GameEnd) -> String {
    match end {
        GameEnd::TopOut => "top-out".to_owned(),
        GameEnd::LineCap => "line cap".to_owned(),
        GameEnd::FrameCap => "frame cap".to_owned(),
        GameEnd::MaxedOut => "stopped at 999,999".to_owned(),
        GameEnd::BTypeComplete => "B-type complete".to_owned(),
        GameEnd::Crash(why) => format!("crash: {why}"),
        GameEnd::Frozen { since } => format!(
            "frozen: every frame lagged from frame {since} (the NMIs kept restarting the score loop)"
        ),
        GameEnd::Unsupported(why) => format!("engine stopped: {why}"),
        GameEnd::Stopped(why) => format!("stopped: {why}"),
        GameEnd::Mismatch(why) => format!("search/engine mismatch: {why}"),
    }
}

/// The line counts at which scores are compared with BetaTetris's published curve.
pub const SCORE_CHECKPOINTS: [u32; 3] = [130, 230, 330];

/// Lines between the points of a game's score-by-lines curve.
pub const CURVE_STEP: u32 = 10;

/// BetaTetris hybrid v0.1's published mean score at 130, 230 and 330 lines in its benchmark
/// (start 18, 30 Hz, 18-frame reaction, double speed from 39, 430-line cap; 1,100 seeds),
/// drawn beside ours for comparison (docs/facts.md, last section).
pub const BETATETRIS_SCORE_AT_LINES: [(u32, f64); 3] =
    [(130, 657_892.0), (230, 1_293_916.0), (330, 2_038_563.0)];

/// The line bands in which the game is scored, by the gravity from start level 18: level 18
/// (0-130 lines), levels 19-28 (130-230), levels 29-38 (230-330), and 330-430 (double speed in
/// BetaTetris's format, whose games end at 430 lines).
pub const BANDS: [(u32, u32); 4] = [(0, 130), (130, 230), (230, 330), (330, 430)];

/// BetaTetris hybrid v0.1's published mean points in each of [`BANDS`]: the differences of its
/// mean scores at 130, 230 and 330 lines ([`BETATETRIS_SCORE_AT_LINES`]) and its mean final
/// score, 2,426,105.
pub const BETATETRIS_BAND_POINTS: [f64; 4] = [657_892.0, 636_024.0, 744_647.0, 387_542.0];

/// The uncapped score of `r` when it reached `lines` lines, or its final score if it ended
/// before.
fn score_by(r: &GameResult, lines: u32) -> u64 {
    if lines == 0 {
        return 0;
    }
    r.score_at_lines(lines).unwrap_or(r.uncapped_score)
}

/// The clears of `r` (a game from its start) by size in each of [`BANDS`].
fn band_clears(r: &GameResult) -> [[u32; 4]; 4] {
    let mut out = [[0u32; 4]; 4];
    let mut before = 0u32;
    for &(lines, _) in &r.score_by_lines {
        let size = lines.saturating_sub(before).clamp(1, 4) as usize;
        if let Some(band) = BANDS.iter().position(|&(_, to)| before < to) {
            out[band][size - 1] += 1;
        }
        before = lines;
    }
    out
}

/// Share of the lines of `clears` (singles, doubles, triples, tetrises) that came from tetrises.
fn tetris_share<T: Copy + Into<u64>>(clears: &[T; 4]) -> f64 {
    let lines: u64 = clears
        .iter()
        .zip(1..)
        .map(|(&n, size)| size * n.into())
        .sum();
    if lines == 0 {
        0.0
    } else {
        (4 * clears[3].into()) as f64 / lines as f64
    }
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
            crash_risk: r.crash_risk,
            level_wrapped: r.level_wrapped,
            uncapped_score: r.uncapped_score,
            clears: r.clears,
            score_at_lines: SCORE_CHECKPOINTS.map(|l| r.score_at_lines(l)),
            band_points: BANDS.map(|(from, to)| score_by(r, to).saturating_sub(score_by(r, from))),
            band_clears: band_clears(r),
            score_curve: (1..=r.lines / CURVE_STEP)
                .map_while(|k| r.score_at_lines(k * CURVE_STEP))
                .collect(),
            decision_ms: {
                let mut ms: Vec<f64> = r
                    .decision_micros
                    .iter()
                    .map(|&us| f64::from(us) / 1000.0)
                    .collect();
                ms.sort_by(f64::total_cmp);
                if ms.is_empty() {
                    (0.0, 0.0)
                } else {
                    (
                        playfield_report::stats::median(&ms),
                        playfield_report::stats::percentile(&ms, 0.99),
                    )
                }
            },
        }
    }

    /// Share of the cleared lines that came from tetrises.
    #[must_use]
    pub fn tetris_rate(&self) -> f64 {
        tetris_share(&self.clears)
    }

    /// Share of each band's cleared lines that came from tetrises (0 where none were cleared).
    #[must_use]
    pub fn band_tetris_rates(&self) -> [f64; 4] {
        self.band_clears.map(|c| tetris_share(&c))
    }

    /// Lines cleared by singles, doubles and triples.
    #[must_use]
    pub fn burned_lines(&self) -> u32 {
        self.clears[0] + 2 * self.clears[1] + 3 * self.clears[2]
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
    /// Headline scores (uncapped when the config says so).
    pub score: Summary,
    /// The ROM's capped scores.
    pub capped_score: Summary,
    /// The scores without the cap.
    pub uncapped_score: Summary,
    /// Lines cleared.
    pub lines: Summary,
    /// Lines from tetrises over all lines cleared, over the whole batch.
    pub tetris_rate: f64,
    /// Lines burned (singles, doubles, triples) per game.
    pub burned_lines: Summary,
    /// Games that reached level 29.
    pub reached_level_29: u64,
    /// Games that reached the 999,999 cap.
    pub maxed_out: u64,
    /// Share of games that reached 999,999.
    pub maxout_share: f64,
    /// Mean uncapped score at 130, 230 and 330 lines, over the games that got there.
    pub mean_score_at_lines: Vec<(u32, Option<f64>)>,
    /// Mean points per game in each of [`BANDS`], beside BetaTetris's.
    pub band_points: Vec<BandPoints>,
    /// Share of games that ended (top-out) before 230 lines.
    pub ended_before_230: f64,
    /// Games with a frame that crashes in some CPU phases but not all.
    pub crash_risk_games: u64,
    /// All games' such frames together, and the most phases crashing at one of them.
    pub crash_risk: CrashRisk,
    /// Games whose level went past 255 and wrapped to 0.
    pub level_wrapped: u64,
    /// Per-piece decision time in milliseconds: median of the games' medians.
    pub decision_ms_median: f64,
    /// Per-piece decision time in milliseconds: the largest of the games' 99th percentiles.
    pub decision_ms_p99: f64,
}

/// The mean points per game scored in one of [`BANDS`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BandPoints {
    /// The band's first line count.
    pub from_lines: u32,
    /// The line count that ends it.
    pub to_lines: u32,
    /// Mean points scored in it, over all games (0 for a game that never got there).
    pub mean: f64,
    /// BetaTetris hybrid v0.1's published mean ([`BETATETRIS_BAND_POINTS`]).
    pub betatetris: f64,
    /// Share of the band's cleared lines, over all games, that came from tetrises.
    pub tetris_rate: f64,
}

/// The report, filled one game at a time (memory: a few numbers per game).
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    uncapped: bool,
    scores: Vec<f64>,
    capped: Vec<f64>,
    uncapped_scores: Vec<f64>,
    lines: Vec<f64>,
    burned: Vec<f64>,
    clears: [u64; 4],
    at_lines: [(f64, u64); 3],
    band_points: [f64; 4],
    band_clears: [[u64; 4]; 4],
    curve: Vec<(f64, u64)>,
    ended_before_230: u64,
    decision_medians: Vec<f64>,
    decision_p99: f64,
    reached_level_29: u64,
    maxed_out: u64,
    crash_risk_games: u64,
    crash_risk: CrashRisk,
    level_wrapped: u64,
    first_failure: Option<GameSummary>,
}

impl BenchReport {
    /// An empty report; `uncapped`: the headline score is the one without the cap.
    #[must_use]
    pub fn new(uncapped: bool) -> BenchReport {
        BenchReport {
            uncapped,
            ..BenchReport::default()
        }
    }

    /// Adds a finished game.
    pub fn add(&mut self, game: &GameSummary) {
        let headline = if self.uncapped {
            game.uncapped_score as f64
        } else {
            f64::from(game.score)
        };
        self.scores.push(headline);
        self.capped.push(f64::from(game.score));
        self.uncapped_scores.push(game.uncapped_score as f64);
        self.lines.push(f64::from(game.lines));
        self.burned.push(f64::from(game.burned_lines()));
        for (total, &n) in self.clears.iter_mut().zip(&game.clears) {
            *total += u64::from(n);
        }
        if self.curve.len() < game.score_curve.len() {
            self.curve.resize(game.score_curve.len(), (0.0, 0));
        }
        for (acc, &score) in self.curve.iter_mut().zip(&game.score_curve) {
            acc.0 += score as f64;
            acc.1 += 1;
        }
        for (acc, &points) in self.band_points.iter_mut().zip(&game.band_points) {
            *acc += points as f64;
        }
        for (acc, clears) in self.band_clears.iter_mut().zip(&game.band_clears) {
            for (total, &n) in acc.iter_mut().zip(clears) {
                *total += u64::from(n);
            }
        }
        for (acc, score) in self.at_lines.iter_mut().zip(game.score_at_lines) {
            if let Some(s) = score {
                acc.0 += s as f64;
                acc.1 += 1;
            }
        }
        self.ended_before_230 += u64::from(
            game.lines < 230
                && !matches!(
                    game.end,
                    GameEnd::LineCap | GameEnd::FrameCap | GameEnd::MaxedOut
                ),
        );
        if game.pieces > 0 {
            self.decision_medians.push(game.decision_ms.0);
            self.decision_p99 = self.decision_p99.max(game.decision_ms.1);
        }
        self.reached_level_29 += u64::from(game.level >= 29);
        self.maxed_out += u64::from(game.uncapped_score >= u64::from(MAX_SCORE));
        self.crash_risk_games += u64::from(game.crash_risk.frames > 0);
        self.crash_risk.add(&game.crash_risk);
        self.level_wrapped += u64::from(game.level_wrapped);
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
        let games = self.scores.len() as u64;
        let mut medians = self.decision_medians.clone();
        medians.sort_by(f64::total_cmp);
        Some(BenchSummary {
            games,
            score: Summary::of(&self.scores)?,
            capped_score: Summary::of(&self.capped)?,
            uncapped_score: Summary::of(&self.uncapped_scores)?,
            lines: Summary::of(&self.lines)?,
            tetris_rate: tetris_share(&self.clears),
            burned_lines: Summary::of(&self.burned)?,
            reached_level_29: self.reached_level_29,
            maxed_out: self.maxed_out,
            maxout_share: self.maxed_out as f64 / games as f64,
            mean_score_at_lines: SCORE_CHECKPOINTS
                .iter()
                .zip(self.at_lines)
                .map(|(&l, (sum, n))| (l, (n > 0).then(|| sum / n as f64)))
                .collect(),
            band_points: BANDS
                .iter()
                .zip(self.band_points)
                .zip(BETATETRIS_BAND_POINTS)
                .zip(&self.band_clears)
                .map(
                    |(((&(from_lines, to_lines), sum), betatetris), clears)| BandPoints {
                        from_lines,
                        to_lines,
                        mean: sum / games as f64,
                        betatetris,
                        tetris_rate: tetris_share(clears),
                    },
                )
                .collect(),
            ended_before_230: self.ended_before_230 as f64 / games as f64,
            crash_risk_games: self.crash_risk_games,
            crash_risk: self.crash_risk,
            level_wrapped: self.level_wrapped,
            decision_ms_median: if medians.is_empty() {
                0.0
            } else {
                playfield_report::stats::median(&medians)
            },
            decision_ms_p99: self.decision_p99,
        })
    }

    /// The scores, in game order.
    #[must_use]
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }

    /// The mean uncapped score at every [`CURVE_STEP`] lines over the games that got there:
    /// (lines, mean score, games).
    #[must_use]
    pub fn score_by_lines(&self) -> Vec<(u32, f64, u64)> {
        (1..)
            .zip(&self.curve)
            .map(|(k, &(sum, n))| (k * CURVE_STEP, sum / n as f64, n))
            .collect()
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
            crash_risk: CrashRisk::default(),
            level_wrapped: false,
            uncapped_score: u64::from(score),
            clears: [1, 0, 0, 1],
            score_at_lines: [None; 3],
            band_points: [0; 4],
            band_clears: [[0; 4]; 4],
            decision_ms: (1.0, 2.0),
            score_curve: (1..=u64::from(score / 10_000))
                .map(|k| k * 10_000)
                .collect(),
        }
    }

    #[test]
    fn band_points_add_up_to_the_score_within_the_bands() {
        let mut r = GameResult::stopped(String::new());
        // A game that scored 1,000 points per line and ended at 250 lines.
        r.score_by_lines = (1..=250).map(|l| (l, u64::from(l) * 1000)).collect();
        r.uncapped_score = 250_000;
        r.lines = 250;
        let g = GameSummary::new(0, 0, &r);
        assert_eq!(g.band_points, [130_000, 100_000, 20_000, 0]);
        assert_eq!(g.band_points.iter().sum::<u64>(), r.uncapped_score);
        let mut report = BenchReport::new(true);
        report.add(&g);
        report.add(&GameSummary::new(1, 1, &GameResult::stopped(String::new())));
        let bands = report.summary().unwrap().band_points;
        assert_eq!(bands[0].mean, 65_000.0);
        assert_eq!((bands[3].from_lines, bands[3].to_lines), (330, 430));
        assert_eq!(bands[3].betatetris, 387_542.0);
    }

    #[test]
    fn clears_are_counted_in_the_band_they_start_from() {
        let mut r = GameResult::stopped(String::new());
        // Tetrises to 128 lines, one across 130 (128 -> 132), singles to 230, a triple, singles
        // to 330, a double and a triple.
        let mut lines: Vec<u32> = (1..=33).map(|k| 4 * k).collect();
        lines.extend(133..=230);
        lines.push(233);
        lines.extend(234..=330);
        lines.extend([332, 335]);
        r.score_by_lines = lines.iter().map(|&l| (l, u64::from(l))).collect();
        let g = GameSummary::new(0, 0, &r);
        assert_eq!(g.band_clears[0], [0, 0, 0, 33]);
        assert_eq!(g.band_clears[1], [98, 0, 0, 0]);
        assert_eq!(g.band_clears[2], [97, 0, 1, 0]);
        assert_eq!(g.band_clears[3], [0, 1, 1, 0]);
        assert_eq!(
            g.band_clears.iter().flatten().sum::<u32>(),
            lines.len() as u32
        );
        assert_eq!(g.band_tetris_rates(), [1.0, 0.0, 0.0, 0.0]);
        let mut report = BenchReport::new(true);
        report.add(&g);
        report.add(&g);
        let bands = report.summary().unwrap().band_points;
        assert_eq!(bands[0].tetris_rate, 1.0);
        assert_eq!(bands[1].tetris_rate, 0.0);
        assert!(
            g.to_string().contains("tetris rate by band 100/0/0/0 %"),
            "{g}"
        );
    }

    #[test]
    fn report_counts_and_summarises() {
        let mut report = BenchReport::new(false);
        assert!(report.summary().is_none());
        report.add(&game(0, 100_000, 20, GameEnd::TopOut));
        report.add(&game(1, MAX_SCORE, 29, GameEnd::TopOut));
        report.add(&game(2, 50_000, 19, GameEnd::Stopped("ROM".into())));
        let s = report.summary().unwrap();
        assert_eq!((s.games, s.reached_level_29, s.maxed_out), (3, 1, 1));
        assert_eq!(s.score.median, 100_000.0);
        assert_eq!(report.first_failure().map(|g| g.game), Some(3));
        // A point per 10,000 here: game 0 has 10 points, game 2 five, game 1 ninety-nine.
        let curve = report.score_by_lines();
        assert_eq!(curve.len(), 99);
        assert_eq!(curve[0], (10, 10_000.0, 3));
        assert_eq!(curve[5], (60, 60_000.0, 2));
    }

    #[test]
    fn a_printed_game_seed_replays_that_game() {
        let config = BenchConfig {
            game: GameConfig::a_type(18, 0),
            input: InputModel::new("X.", true, 18).unwrap(),
            seed: 7,
            games: 10,
            game_seed: None,
            every_menu_wait: false,
            player: Player::birken(InputModel::new("X.", true, 18).unwrap()),
            uncapped: false,
        };
        let third = config.seed_of(2);
        let single = BenchConfig {
            game_seed: Some(third),
            ..config.clone()
        };
        assert_eq!(single.game_count(), 1);
        assert_eq!(single.game_config(0), config.game_config(2));
    }

    #[test]
    fn every_menu_wait_plays_each_menu_wait_once() {
        let config = BenchConfig {
            game: GameConfig::a_type(18, 0),
            input: InputModel::new("X.", true, 18).unwrap(),
            seed: 0,
            games: 1,
            game_seed: None,
            every_menu_wait: true,
            player: Player::birken(InputModel::new("X.", true, 18).unwrap()),
            uncapped: false,
        };
        assert_eq!(config.game_count(), 1024);
        let waits: Vec<u64> = (0..config.game_count())
            .map(|i| config.game_config(i).menu_wait())
            .collect();
        assert_eq!(waits, (0..1024).collect::<Vec<u64>>());
        // A printed seed replays its game as a batch's does.
        let single = BenchConfig {
            every_menu_wait: false,
            game_seed: Some(config.seed_of(637)),
            ..config.clone()
        };
        assert_eq!(single.game_config(0).menu_wait(), 637);
        // The held-out games are the next 1,024 waits.
        let held_out = BenchConfig {
            game: GameConfig {
                held_out: true,
                ..config.game
            },
            ..config.clone()
        };
        let waits: Vec<u64> = (0..held_out.game_count())
            .map(|i| held_out.game_config(i).menu_wait())
            .collect();
        assert_eq!(waits, (1024..2048).collect::<Vec<u64>>());
        // The game is the ROM's: no modifier.
        assert_eq!(held_out.modifiers(), config.modifiers());
    }

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
