//! A board value learned from the game: the expected points still to come from a board, fitted
//! on games the engine plays (Monte Carlo policy evaluation with a linear model, repeated with
//! the player it gives: approximate policy iteration).
//!
//! A weights file may carry one (`value`, beside the terms). The score player then rates a
//! placement by the points its clear scores (thousands, exactly as `addLineClearPoints` adds
//! them) plus the learned value of the board it leaves, instead of the terms' value with the
//! hand-set clear rewards (`burn`, `tetris`, `points`). The terms still serve as one feature
//! (`terms_value`, the file's terms' board value), so what they know of reach and danger is
//! kept and weighed against points by the fit. Where the points count no more (the ROM's score
//! is maxed and the player plays to survive) or a clear would freeze or crash the game, the
//! terms decide as without a learned value: the value was learned for points.
//!
//! The value is linear in [`FEATURE_NAMES`], one set of coefficients for each of the
//! evaluator's four gravities ([`super::score::gravity_class`]: level 18 and below, 19-28, 29
//! and above, double speed). Two features say what is left of the game, so that a line spent
//! on a burn costs the points it could have made: the lines to the format's line cap, and those
//! lines times the level. Without a line cap they are 0: the value is for capped formats such
//! as BetaTetris's.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::bench::BenchOptions;
use super::field::{FULL_ROW, Field};
use super::game::{GameConfig, game_seed, play_game};
use super::player::{Evaluator, Player, Situation};
use super::score::{Context, ScoreWeights, WELL, gravity_class, press_frames};
use playfield_nes::{PlayState, rules};

/// The features of a board, in the order of a learned value's coefficients.
pub const FEATURE_NAMES: [&str; 24] = [
    "bias",
    "terms_value",
    "holes",
    "row_transitions",
    "column_transitions",
    "well_sums",
    "max_height",
    "mean_height",
    "right_well_depth",
    "ready_rows",
    "above_ceiling",
    "lines_left",
    "lines_left_by_level",
    "holes_by_height",
    "height_1",
    "height_2",
    "height_3",
    "height_4",
    "height_5",
    "height_6",
    "height_7",
    "height_8",
    "height_9",
    "height_10",
];

/// The features of the calibrated terms' value: the terms' board value, weighed against points
/// and the lines left by the fit, and nothing else of the board.
pub const TERMS_FEATURES: [&str; 4] = ["bias", "terms_value", "lines_left", "lines_left_by_level"];

/// Which of [`FEATURE_NAMES`] are in `names`.
#[must_use]
pub fn feature_mask(names: &[&str]) -> [bool; FEATURES] {
    FEATURE_NAMES.map(|f| names.contains(&f))
}

/// The number of features.
pub const FEATURES: usize = FEATURE_NAMES.len();

/// The keys of the four gravities' coefficients in a weights file, by
/// [`super::score::gravity_class`].
pub const GRAVITY_KEYS: [&str; 4] = ["level_18", "levels_19_28", "level_29", "double_speed"];

/// A learned board value: for each of the four gravities, one coefficient per feature, and
/// optionally a small network added to that linear part.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedValue {
    /// By [`super::score::gravity_class`], each [`FEATURES`] long.
    pub coefficients: [[f64; FEATURES]; 4],
    /// By gravity: a network whose output is added to the linear value (`None`: linear only).
    pub networks: [Option<Network>; 4],
    /// By gravity: whether the value rates that gravity's boards; where it does not, the terms
    /// do, as without a learned value.
    pub rates: [bool; 4],
}

/// The widest layer a [`Network`] may have.
pub const MAX_WIDTH: usize = 128;

/// A small fully connected network on the features but the bias: each input standardised
/// (`(x - mean) / scale`), rectified linear units between the layers, one output times
/// `output_scale` (thousands of points).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// Per input (the features after `bias`, in order): its mean over the training boards.
    pub input_mean: Vec<f64>,
    /// Per input: its spread over the training boards (1 where it was constant).
    pub input_scale: Vec<f64>,
    /// The layers, input side first.
    pub layers: Vec<Layer>,
    /// What the last layer's single output is multiplied by.
    pub output_scale: f64,
}

/// One layer of a [`Network`]: `weights[out][in]`, `bias[out]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    /// One row per output, one weight per input.
    pub weights: Vec<Vec<f64>>,
    /// One per output.
    pub bias: Vec<f64>,
}

impl Network {
    /// Why the network cannot be used, if it cannot: its shapes must chain from the
    /// [`FEATURES`] − 1 inputs to one output, no layer wider than [`MAX_WIDTH`], every number
    /// finite and every scale positive.
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        let inputs = FEATURES - 1;
        if self.input_mean.len() != inputs || self.input_scale.len() != inputs {
            return Some(format!(
                "input_mean and input_scale need {inputs} numbers each (the features but bias)"
            ));
        }
        if self.input_mean.iter().any(|v| !v.is_finite())
            || self.input_scale.iter().any(|v| !v.is_finite() || *v <= 0.0)
            || !self.output_scale.is_finite()
        {
            return Some(
                "input_mean, input_scale (positive) and output_scale must be finite numbers"
                    .to_owned(),
            );
        }
        if self.layers.is_empty() {
            return Some("a network needs at least one layer".to_owned());
        }
        let mut width = inputs;
        for (i, layer) in self.layers.iter().enumerate() {
            let outputs = layer.bias.len();
            if outputs == 0 || outputs > MAX_WIDTH || layer.weights.len() != outputs {
                return Some(format!(
                    "layer {i}: {} rows of weights and {outputs} biases, expected as many, 1 to {MAX_WIDTH}",
                    layer.weights.len()
                ));
            }
            if let Some(row) = layer.weights.iter().position(|r| r.len() != width) {
                return Some(format!(
                    "layer {i}: row {row} has {} weights, expected {width} (the layer's inputs)",
                    layer.weights[row].len()
                ));
            }
            if layer
                .bias
                .iter()
                .chain(layer.weights.iter().flatten())
                .any(|v| !v.is_finite())
            {
                return Some(format!(
                    "layer {i}: every weight and bias must be a finite number"
                ));
            }
            width = outputs;
        }
        if width != 1 {
            return Some(format!("the last layer has {width} outputs, expected 1"));
        }
        None
    }

    /// The network's output for `features` (the bias, the first, is not an input).
    #[must_use]
    pub fn output(&self, features: &[f64; FEATURES]) -> f64 {
        let mut a = [0.0; MAX_WIDTH];
        let mut b = [0.0; MAX_WIDTH];
        let inputs = FEATURES - 1;
        for i in 0..inputs {
            a[i] = (features[i + 1] - self.input_mean[i]) / self.input_scale[i];
        }
        let mut width = inputs;
        let last = self.layers.len() - 1;
        for (index, layer) in self.layers.iter().enumerate() {
            for (o, (row, bias)) in layer.weights.iter().zip(&layer.bias).enumerate() {
                let sum = bias + row.iter().zip(&a[..width]).map(|(w, x)| w * x).sum::<f64>();
                b[o] = if index == last { sum } else { sum.max(0.0) };
            }
            width = layer.bias.len();
            std::mem::swap(&mut a, &mut b);
        }
        a[0] * self.output_scale
    }
}

/// The file form: the feature names (checked), the coefficients by gravity, and optionally the
/// networks by gravity and the gravities the value rates (all four when left out).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LearnedValueFile {
    features: Vec<String>,
    by_gravity: BTreeMap<String, Vec<f64>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    networks: BTreeMap<String, Network>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rates: Option<Vec<String>>,
}

impl Serialize for LearnedValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LearnedValueFile {
            features: FEATURE_NAMES.iter().map(|&n| n.to_owned()).collect(),
            by_gravity: GRAVITY_KEYS
                .iter()
                .zip(&self.coefficients)
                .map(|(&k, c)| (k.to_owned(), c.to_vec()))
                .collect(),
            networks: GRAVITY_KEYS
                .iter()
                .zip(&self.networks)
                .filter_map(|(&k, n)| n.as_ref().map(|n| (k.to_owned(), n.clone())))
                .collect(),
            rates: (self.rates != [true; 4]).then(|| {
                GRAVITY_KEYS
                    .iter()
                    .zip(self.rates)
                    .filter(|(_, r)| *r)
                    .map(|(&k, _)| k.to_owned())
                    .collect()
            }),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for LearnedValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LearnedValue, D::Error> {
        use serde::de::Error;
        let file = LearnedValueFile::deserialize(d)?;
        if file.features != FEATURE_NAMES {
            return Err(D::Error::custom(format!(
                "value: features {:?}, expected exactly {:?} (a value learned on other features \
                 cannot be used)",
                file.features, FEATURE_NAMES
            )));
        }
        let mut coefficients = [[0.0; FEATURES]; 4];
        for (key, values) in &file.by_gravity {
            let Some(class) = GRAVITY_KEYS.iter().position(|k| k == key) else {
                return Err(D::Error::custom(format!(
                    "value: gravity {key:?}, expected one of {GRAVITY_KEYS:?}"
                )));
            };
            if values.len() != FEATURES || values.iter().any(|v| !v.is_finite()) {
                return Err(D::Error::custom(format!(
                    "value: {key} has {} coefficients, expected {FEATURES} finite numbers",
                    values.len()
                )));
            }
            coefficients[class].copy_from_slice(values);
        }
        if file.by_gravity.len() != GRAVITY_KEYS.len() {
            return Err(D::Error::custom(format!(
                "value: by_gravity needs all of {GRAVITY_KEYS:?}"
            )));
        }
        let class_of = |key: &str, field: &str| {
            GRAVITY_KEYS.iter().position(|k| *k == key).ok_or_else(|| {
                D::Error::custom(format!(
                    "value: {field}: gravity {key:?}, expected one of {GRAVITY_KEYS:?}"
                ))
            })
        };
        let mut networks: [Option<Network>; 4] = Default::default();
        for (key, network) in file.networks {
            let class = class_of(&key, "networks")?;
            if let Some(problem) = network.problem() {
                return Err(D::Error::custom(format!(
                    "value: networks: {key}: {problem}"
                )));
            }
            networks[class] = Some(network);
        }
        let rates = match file.rates {
            None => [true; 4],
            Some(keys) => {
                let mut rates = [false; 4];
                for key in keys {
                    rates[class_of(&key, "rates")?] = true;
                }
                rates
            }
        };
        Ok(LearnedValue {
            coefficients,
            networks,
            rates,
        })
    }
}

impl LearnedValue {
    /// A linear value rating every gravity.
    #[must_use]
    pub fn linear(coefficients: [[f64; FEATURES]; 4]) -> LearnedValue {
        LearnedValue {
            coefficients,
            networks: Default::default(),
            rates: [true; 4],
        }
    }

    /// The value (thousands of points still to come) of a board with `features` under the
    /// gravity class `class`: the linear part, plus the gravity's network where it has one.
    #[must_use]
    pub fn value(&self, class: usize, features: &[f64; FEATURES]) -> f64 {
        let linear: f64 = self.coefficients[class]
            .iter()
            .zip(features)
            .map(|(c, f)| c * f)
            .sum();
        match &self.networks[class] {
            Some(network) => linear + network.output(features),
            None => linear,
        }
    }

    /// Whether the value rates the boards of `ctx`: its gravity is one the value rates, and the
    /// value [`applies`] there.
    #[must_use]
    pub fn rates(&self, ctx: &Context) -> bool {
        applies(ctx) && self.rates[gravity_class(ctx.judged_gravity())]
    }
}

/// Whether a learned value can rate the boards of `ctx`: not where the player plays to survive
/// or a clear would freeze or crash the game (the terms decide there).
#[must_use]
pub fn applies(ctx: &Context) -> bool {
    !ctx.survival && ctx.unsafe_clears == 0
}

/// The features of `field` in `ctx` ([`FEATURE_NAMES`]), `terms_value` being `w`'s terms' value
/// of the board.
#[must_use]
pub fn features(
    w: &ScoreWeights,
    field: &Field,
    ctx: &Context,
    presses: &[u32],
) -> [f64; FEATURES] {
    let heights = field.heights();
    let mut holes = 0u32;
    let mut holes_by_height = 0.0;
    let mut covered = 0u16;
    let mut row_transitions = 0u32;
    let mut column_transitions = 0u32;
    let mut previous = 0u16;
    for (y, &row) in field.rows.iter().enumerate() {
        let empty_below = covered & !row;
        holes += empty_below.count_ones();
        // A hole high in the stack takes more lines to dig out and leaves less room above.
        holes_by_height += f64::from(empty_below.count_ones()) * f64::from(20 - y as u32);
        covered |= row;
        // The walls count as filled: a row's changes between filled and empty, walls included.
        let walled = (row << 1) | 1 | (1 << 11);
        row_transitions += ((walled ^ (walled >> 1)) & 0x7FF).count_ones();
        if y > 0 {
            column_transitions += (row ^ previous).count_ones();
        }
        previous = row;
    }
    // The floor counts as filled.
    column_transitions += (!previous & FULL_ROW).count_ones();
    let mut well_sums = 0u32;
    for x in 0..10 {
        let left = if x == 0 { 20 } else { heights[x - 1] };
        let right = if x == 9 { 20 } else { heights[x + 1] };
        let depth = u32::from(left.min(right).saturating_sub(heights[x]));
        well_sums += depth * (depth + 1) / 2;
    }
    let max_height = heights.iter().copied().max().unwrap_or(0);
    let mean_height = f64::from(heights.iter().map(|&h| u32::from(h)).sum::<u32>()) / 10.0;
    let right_well_depth = f64::from(heights[WELL - 1]) - f64::from(heights[WELL]);
    let mut ready = 0u32;
    for row in field.rows.iter().rev() {
        if *row == FULL_ROW & !(1 << WELL) {
            ready += 1;
        } else {
            break;
        }
    }
    let class = gravity_class(ctx.judged_gravity());
    let ceiling = f64::from(ctx.ceilings[class]);
    let above_ceiling: f64 = heights
        .iter()
        .map(|&h| (f64::from(h) - ceiling).max(0.0).powi(2))
        .sum();
    let lines_left = ctx.line_cap.map_or(0.0, |cap| {
        f64::from(cap.saturating_sub(ctx.lines_decimal()))
    });
    [
        1.0,
        w.terms_board_value(field, ctx, presses),
        f64::from(holes),
        f64::from(row_transitions),
        f64::from(column_transitions),
        f64::from(well_sums),
        f64::from(max_height),
        mean_height,
        right_well_depth,
        f64::from(ready.min(4)),
        above_ceiling,
        lines_left / 10.0,
        lines_left * (f64::from(ctx.level) + 1.0) / 100.0,
        holes_by_height / 10.0,
        f64::from(heights[0]),
        f64::from(heights[1]),
        f64::from(heights[2]),
        f64::from(heights[3]),
        f64::from(heights[4]),
        f64::from(heights[5]),
        f64::from(heights[6]),
        f64::from(heights[7]),
        f64::from(heights[8]),
        f64::from(heights[9]),
    ]
}

/// One board met by a piece in a game, with what followed.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The gravity class the board is judged under.
    pub class: usize,
    /// Its features.
    pub features: [f64; FEATURES],
    /// The points (thousands) the game scored from this board to its end.
    pub future: f64,
}

/// What a batch of games gave: the samples and each game's score.
#[derive(Clone, Debug, Default)]
pub struct Collected {
    /// Every board a piece met, game by game, in the order they were met.
    pub games: Vec<Vec<Sample>>,
    /// Each game's uncapped score, in seed order.
    pub scores: Vec<u64>,
    /// Each game's lines.
    pub lines: Vec<u32>,
}

/// The context the score player judges the boards of a decision in, at the state of `nes`
/// (`player` must be the score player).
fn context_at(
    player: &Player,
    w: &ScoreWeights,
    config: &GameConfig,
    nes: &playfield_nes::Nes,
) -> Context {
    // Points count to the end in the formats a value is learned in.
    let situation = Situation {
        score_maxed: false,
        ..Situation::of(nes, config)
    };
    let field = Field::from_page(nes.playfield_page());
    let current = nes
        .active_piece()
        .map(|p| p.orientation.piece().index())
        .unwrap_or(0);
    let next = nes.next_piece().map(playfield_nes::Piece::index);
    super::score_player::decision_context(player, w, situation, &field, current, next)
}

/// Plays game `seed` of `options` with the score player `player` and returns its samples: the
/// board each piece meets as it spawns, with the points the game scored from there on.
#[must_use]
pub fn game_samples(options: &BenchOptions, seed: u64, player: &Player) -> (Vec<Sample>, u64, u32) {
    let Evaluator::Score(weights) = &player.evaluator else {
        return (Vec::new(), 0, 0);
    };
    let config = GameConfig {
        seed,
        ..options.game()
    };
    let presses = press_frames(&player.input);
    let mut boards: Vec<(usize, [f64; FEATURES], u64)> = Vec::new();
    let mut was_active = false;
    let result = play_game(&config, player, |_, nes| {
        let active = nes.play_state() == PlayState::Active;
        if active && !was_active && nes.game_mode() == playfield_nes::GameMode::Play {
            let field = Field::from_page(nes.playfield_page());
            let w = weights.at_level(
                nes.level(),
                rules::Gravity::with_double_speed(nes.level(), config.double_speed_level),
            );
            let ctx = context_at(player, &w, &config, nes);
            let class = gravity_class(ctx.judged_gravity());
            boards.push((
                class,
                features(&w, &field, &ctx, &presses),
                nes.uncapped_score(),
            ));
        }
        was_active = active;
        Ok(())
    });
    let end_score = result.uncapped_score;
    let samples = boards
        .into_iter()
        .map(|(class, features, score)| Sample {
            class,
            features,
            future: (end_score.saturating_sub(score)) as f64 / 1000.0,
        })
        .collect();
    (samples, end_score, result.lines)
}

/// Plays games `0..games` of batch `seed` ([`game_seed`], the benchmark's level-menu waits)
/// with `player`, in parallel, and gathers their samples.
#[must_use]
pub fn collect(options: &BenchOptions, seed: u64, games: u64, player: &Player) -> Collected {
    let per_game: Vec<(Vec<Sample>, u64, u32)> = (0..games)
        .into_par_iter()
        .map(|i| game_samples(options, game_seed(seed, i), player))
        .collect();
    let mut out = Collected::default();
    for (samples, score, lines) in per_game {
        out.games.push(samples);
        out.scores.push(score);
        out.lines.push(lines);
    }
    out
}

/// The mean and standard deviation of each of the `used` features over `rows` (the bias and the
/// features left out or constant get a deviation of 0: no column of their own).
fn standardise<'a>(
    rows: impl Iterator<Item = &'a Sample> + Clone,
    used: &[bool; FEATURES],
) -> ([f64; FEATURES], [f64; FEATURES]) {
    let n = rows.clone().count().max(1) as f64;
    let mut mean = [0.0; FEATURES];
    let mut sd = [0.0; FEATURES];
    for j in 1..FEATURES {
        mean[j] = rows.clone().map(|s| s.features[j]).sum::<f64>() / n;
        let var = rows
            .clone()
            .map(|s| (s.features[j] - mean[j]).powi(2))
            .sum::<f64>()
            / n;
        sd[j] = if used[j] && var > 1e-12 {
            var.sqrt()
        } else {
            0.0
        };
    }
    (mean, sd)
}

/// How well a fit explains its samples, for one gravity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitReport {
    /// The gravity's key ([`GRAVITY_KEYS`]).
    pub gravity: &'static str,
    /// Samples.
    pub samples: usize,
    /// The share of the future points' variance the value explains.
    pub r_squared: f64,
}

/// Fits a value to `samples` by ridge regression on the `used` features, one per gravity: the
/// features standardised, the penalty `ridge` times the sample count on every coefficient but
/// the bias. A gravity with
/// fewer samples than twice the features keeps `fallback`'s coefficients.
#[must_use]
pub fn fit(
    samples: &[Sample],
    ridge: f64,
    used: &[bool; FEATURES],
    fallback: &LearnedValue,
) -> (LearnedValue, Vec<FitReport>) {
    // The fit is linear: a fallback's networks would not fit what it leaves. A gravity too few
    // boards met keeps the fallback's coefficients, and is rated only where the fallback rates
    // it (a value of zeros would rate every board alike).
    let mut out = LearnedValue {
        rates: fallback.rates,
        ..LearnedValue::linear(fallback.coefficients)
    };
    let mut reports = Vec::new();
    for (class, key) in GRAVITY_KEYS.iter().enumerate() {
        let rows: Vec<&Sample> = samples.iter().filter(|s| s.class == class).collect();
        let n = rows.len();
        if n < 2 * FEATURES {
            reports.push(FitReport {
                gravity: key,
                samples: n,
                r_squared: f64::NAN,
            });
            continue;
        }
        let nf = n as f64;
        let (mean, sd) = standardise(rows.iter().copied(), used);
        let z = |s: &Sample, j: usize| -> f64 {
            if j == 0 {
                1.0
            } else if sd[j] == 0.0 {
                0.0
            } else {
                (s.features[j] - mean[j]) / sd[j]
            }
        };
        let mut a = [[0.0; FEATURES]; FEATURES];
        let mut b = [0.0; FEATURES];
        for s in &rows {
            let zs: Vec<f64> = (0..FEATURES).map(|j| z(s, j)).collect();
            for i in 0..FEATURES {
                b[i] += zs[i] * s.future;
                for j in 0..FEATURES {
                    a[i][j] += zs[i] * zs[j];
                }
            }
        }
        for (i, row) in a.iter_mut().enumerate().skip(1) {
            // A constant feature has no column: its coefficient is held at 0.
            row[i] += if sd[i] == 0.0 { 1.0 } else { ridge * nf };
        }
        let Some(beta) = solve(a, b) else {
            reports.push(FitReport {
                gravity: key,
                samples: n,
                r_squared: f64::NAN,
            });
            continue;
        };
        // Back to the features' own units.
        let mut coefficients = [0.0; FEATURES];
        coefficients[0] = beta[0];
        for j in 1..FEATURES {
            if sd[j] > 0.0 {
                coefficients[j] = beta[j] / sd[j];
                coefficients[0] -= beta[j] * mean[j] / sd[j];
            }
        }
        let target_mean = rows.iter().map(|s| s.future).sum::<f64>() / nf;
        let total: f64 = rows.iter().map(|s| (s.future - target_mean).powi(2)).sum();
        let value = LearnedValue::linear([coefficients; 4]);
        let residual: f64 = rows
            .iter()
            .map(|s| (s.future - value.value(class, &s.features)).powi(2))
            .sum();
        out.coefficients[class] = coefficients;
        out.rates[class] = true;
        reports.push(FitReport {
            gravity: key,
            samples: n,
            r_squared: if total > 0.0 {
                1.0 - residual / total
            } else {
                0.0
            },
        });
    }
    (out, reports)
}

/// Solves the symmetric positive definite system `a x = b` (Cholesky); `None` when it is not
/// positive definite.
fn solve(a: [[f64; FEATURES]; FEATURES], b: [f64; FEATURES]) -> Option<[f64; FEATURES]> {
    let mut l = [[0.0; FEATURES]; FEATURES];
    for i in 0..FEATURES {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - sum;
                if d <= 0.0 {
                    return None;
                }
                l[i][j] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - sum) / l[j][j];
            }
        }
    }
    let mut y = [0.0; FEATURES];
    for i in 0..FEATURES {
        let sum: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - sum) / l[i][i];
    }
    let mut x = [0.0; FEATURES];
    for i in (0..FEATURES).rev() {
        let sum: f64 = (i + 1..FEATURES).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - sum) / l[i][i];
    }
    Some(x)
}

/// Fits a value to the games' boards by least-squares temporal differences (LSTD(λ), Boyan
/// 2002): the value whose prediction of each board is consistent with the points scored to the
/// next board and that board's value, traces blending in the longer returns (`lambda` 1: the
/// points to the game's end, as [`fit`]; 0: one piece ahead). One set of coefficients per
/// gravity, solved together, since a board of one gravity is followed by one of the next. The
/// features are standardised over all boards; `ridge` times the board count is added to the
/// diagonal but for the biases. Returns `None` when the system is singular.
#[must_use]
pub fn fit_lstd(
    games: &[Vec<Sample>],
    lambda: f64,
    ridge: f64,
    used: &[bool; FEATURES],
) -> Option<LearnedValue> {
    const DIM: usize = 4 * FEATURES;
    let all: Vec<&Sample> = games.iter().flatten().collect();
    let n = all.len();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let (mean, sd) = standardise(all.iter().copied(), used);
    let phi = |s: &Sample| -> Vec<(usize, f64)> {
        let base = s.class * FEATURES;
        let mut out = vec![(base, 1.0)];
        for j in 1..FEATURES {
            if used[j] && sd[j] > 1e-9 {
                out.push((base + j, (s.features[j] - mean[j]) / sd[j]));
            }
        }
        out
    };
    let mut a = vec![vec![0.0; DIM]; DIM];
    let mut b = vec![0.0; DIM];
    for game in games {
        let mut trace = vec![0.0; DIM];
        for (t, s) in game.iter().enumerate() {
            for z in &mut trace {
                *z *= lambda;
            }
            let here = phi(s);
            for &(i, v) in &here {
                trace[i] += v;
            }
            // The points from this board to the next (or to the game's end, the last board's
            // future), and the next board's features (none after the end).
            let (reward, next) = match game.get(t + 1) {
                Some(following) => (s.future - following.future, phi(following)),
                None => (s.future, Vec::new()),
            };
            let mut difference = vec![0.0; DIM];
            for &(i, v) in &here {
                difference[i] += v;
            }
            for &(i, v) in &next {
                difference[i] -= v;
            }
            for (i, &z) in trace.iter().enumerate() {
                if z == 0.0 {
                    continue;
                }
                b[i] += z * reward;
                for (j, &d) in difference.iter().enumerate() {
                    if d != 0.0 {
                        a[i][j] += z * d;
                    }
                }
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        let j = i % FEATURES;
        if j != 0 && (!used[j] || sd[j] <= 1e-9) {
            // A feature left out (or constant) keeps a coefficient of 0.
            row[i] += 1.0;
        } else if j != 0 || row[i] == 0.0 {
            // A gravity no board met keeps a bias of 0.
            row[i] += ridge * nf + if row[i] == 0.0 { 1.0 } else { 0.0 };
        }
    }
    let beta = solve_general(a, b)?;
    let mut coefficients = [[0.0; FEATURES]; 4];
    for (class, c) in coefficients.iter_mut().enumerate() {
        let base = class * FEATURES;
        c[0] = beta[base];
        for j in 1..FEATURES {
            if used[j] && sd[j] > 1e-9 {
                c[j] = beta[base + j] / sd[j];
                c[0] -= beta[base + j] * mean[j] / sd[j];
            }
        }
    }
    // A gravity with too few boards for a regression of its own (as in [`fit`]) is left to
    // the terms: its coefficients rest on the ridge and the other gravities' boards alone.
    let mut rates = [false; 4];
    for (class, rated) in rates.iter_mut().enumerate() {
        *rated = all.iter().filter(|s| s.class == class).count() >= 2 * FEATURES;
    }
    Some(LearnedValue {
        rates,
        ..LearnedValue::linear(coefficients)
    })
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve_general(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            if factor == 0.0 {
                continue;
            }
            let (above, below) = a.split_at_mut(row);
            for (target, pivot) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                *target -= factor * pivot;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let sum: f64 = (i + 1..n).map(|k| a[i][k] * x[k]).sum();
        x[i] = (b[i] - sum) / a[i][i];
    }
    Some(x)
}

/// How well `value` predicts the points to the game's end of the games' boards, per gravity
/// (the share of their variance it explains).
#[must_use]
pub fn explained(games: &[Vec<Sample>], value: &LearnedValue) -> Vec<FitReport> {
    GRAVITY_KEYS
        .iter()
        .enumerate()
        .map(|(class, key)| {
            let rows: Vec<&Sample> = games
                .iter()
                .flatten()
                .filter(|s| s.class == class)
                .collect();
            let n = rows.len();
            let mean = rows.iter().map(|s| s.future).sum::<f64>() / n.max(1) as f64;
            let total: f64 = rows.iter().map(|s| (s.future - mean).powi(2)).sum();
            let residual: f64 = rows
                .iter()
                .map(|s| (s.future - value.value(class, &s.features)).powi(2))
                .sum();
            FitReport {
                gravity: key,
                samples: n,
                r_squared: if total > 0.0 {
                    1.0 - residual / total
                } else {
                    f64::NAN
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(class: usize, x: f64, future: f64) -> Sample {
        let mut features = [0.0; FEATURES];
        features[0] = 1.0;
        features[1] = x;
        features[2] = x * x;
        Sample {
            class,
            features,
            future,
        }
    }

    #[test]
    fn a_value_file_round_trips_and_other_features_are_refused() {
        let mut value = LearnedValue::linear([[0.0; FEATURES]; 4]);
        value.coefficients[2][1] = 0.25;
        value.coefficients[3][0] = -7.5;
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(serde_json::from_str::<LearnedValue>(&text).unwrap(), value);
        let other = text.replace("\"holes\"", "\"cavities\"");
        let e = serde_json::from_str::<LearnedValue>(&other)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("cavities") && e.contains("cannot be used"),
            "{e}"
        );
        let short = text.replace("-7.5,", "");
        let e = serde_json::from_str::<LearnedValue>(&short)
            .unwrap_err()
            .to_string();
        assert!(e.contains("double_speed has 23 coefficients"), "{e}");
    }

    /// A network of one hidden layer of two units on the first two inputs: relu(x1 − 1) and
    /// relu(1 − x1), summed with weights 2 and 3, then +0.5, times 10.
    fn small_network() -> Network {
        let inputs = FEATURES - 1;
        let mut up = vec![0.0; inputs];
        up[0] = 1.0;
        let mut down = vec![0.0; inputs];
        down[0] = -1.0;
        Network {
            input_mean: vec![0.0; inputs],
            input_scale: vec![1.0; inputs],
            layers: vec![
                Layer {
                    weights: vec![up, down],
                    bias: vec![-1.0, 1.0],
                },
                Layer {
                    weights: vec![vec![2.0, 3.0]],
                    bias: vec![0.5],
                },
            ],
            output_scale: 10.0,
        }
    }

    #[test]
    fn a_network_adds_its_output_where_it_has_one() {
        let mut value = LearnedValue::linear([[0.0; FEATURES]; 4]);
        value.coefficients[2][0] = 7.0;
        value.networks[2] = Some(small_network());
        let at = |x: f64| {
            let mut f = [0.0; FEATURES];
            f[0] = 1.0;
            f[1] = x;
            f
        };
        // x = 3: relu(2) · 2 + relu(−2) · 3 + 0.5 = 4.5, times 10, plus the linear 7.
        assert!((value.value(2, &at(3.0)) - 52.0).abs() < 1e-12);
        // x = −1: relu(−2) · 2 + relu(2) · 3 + 0.5 = 6.5.
        assert!((value.value(2, &at(-1.0)) - 72.0).abs() < 1e-12);
        // Another gravity has no network: the linear value alone.
        assert_eq!(value.value(1, &at(3.0)), 0.0);
        // Standardised inputs: a mean of 1 and a scale of 2 make x = 7 the x = 3 above.
        let mut shifted = small_network();
        shifted.input_mean[0] = 1.0;
        shifted.input_scale[0] = 2.0;
        value.networks[2] = Some(shifted);
        assert!((value.value(2, &at(7.0)) - 52.0).abs() < 1e-12);
    }

    #[test]
    fn a_value_with_networks_and_rated_gravities_round_trips_and_bad_shapes_are_refused() {
        let mut value = LearnedValue::linear([[0.0; FEATURES]; 4]);
        value.networks[3] = Some(small_network());
        value.rates = [false, false, true, true];
        let text = serde_json::to_string(&value).unwrap();
        assert!(
            text.contains("\"rates\":[\"level_29\",\"double_speed\"]"),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<LearnedValue>(&text).unwrap(), value);
        // A linear value rating every gravity writes neither field.
        let plain = serde_json::to_string(&LearnedValue::linear([[0.0; FEATURES]; 4])).unwrap();
        assert!(
            !plain.contains("networks") && !plain.contains("rates"),
            "{plain}"
        );
        for (from, to, expected) in [
            (
                "\"bias\":[0.5]",
                "\"bias\":[0.5,1.0]",
                "layer 1: 1 rows of weights and 2 biases",
            ),
            (
                "\"input_scale\":[1.0,",
                "\"input_scale\":[0.0,",
                "(positive)",
            ),
            (
                "[\"level_29\",",
                "[\"level_30\",",
                "rates: gravity \"level_30\"",
            ),
            (
                "\"bias\":[-1.0,1.0]",
                "\"bias\":[-1.0]",
                "layer 0: 2 rows of weights and 1 biases",
            ),
        ] {
            assert!(text.contains(from), "{from} not in {text}");
            let e = serde_json::from_str::<LearnedValue>(&text.replace(from, to))
                .unwrap_err()
                .to_string();
            assert!(e.contains(expected), "{to}: {e}");
        }
        let mut wide = small_network();
        wide.layers[0].weights[1].pop();
        assert!(
            wide.problem()
                .unwrap()
                .contains("row 1 has 22 weights, expected 23")
        );
        let mut two = small_network();
        two.layers.pop();
        assert!(
            two.problem()
                .unwrap()
                .contains("the last layer has 2 outputs")
        );
    }

    #[test]
    fn the_regression_recovers_a_linear_value() {
        // future = 3 + 2x - 0.5x² in class 1, exactly.
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                let x = f64::from(i % 17);
                sample(1, x, 3.0 + 2.0 * x - 0.5 * x * x)
            })
            .collect();
        let zero = LearnedValue::linear([[0.0; FEATURES]; 4]);
        let (value, reports) = fit(&samples, 0.0, &[true; FEATURES], &zero);
        let c = value.coefficients[1];
        assert!(
            (c[0] - 3.0).abs() < 1e-6 && (c[1] - 2.0).abs() < 1e-6 && (c[2] + 0.5).abs() < 1e-6,
            "{c:?}"
        );
        assert!((reports[1].r_squared - 1.0).abs() < 1e-9);
        // No board of the other gravities: their coefficients stay the fallback's.
        assert_eq!(value.coefficients[0], [0.0; FEATURES]);
        assert_eq!(reports[0].samples, 0);
    }

    #[test]
    fn lstd_values_a_chain_by_the_points_that_follow() {
        // Games walk x = 5, 4, ..., 1 and end; each step scores x points. The value of x is
        // the points to the end, x(x+1)/2 = 0.5x + 0.5x², which both λ = 0 and λ = 1 find.
        let games: Vec<Vec<Sample>> = (0..40)
            .map(|_| {
                (1..=5)
                    .rev()
                    .map(|x| {
                        let x = f64::from(x);
                        sample(0, x, x * (x + 1.0) / 2.0)
                    })
                    .collect()
            })
            .collect();
        let used = feature_mask(&["bias", "terms_value", "holes"]);
        for lambda in [0.0, 0.5, 1.0] {
            let value = fit_lstd(&games, lambda, 0.0, &used).unwrap();
            for x in 1..=5 {
                let x = f64::from(x);
                let predicted = value.value(0, &sample(0, x, 0.0).features);
                assert!(
                    (predicted - x * (x + 1.0) / 2.0).abs() < 1e-6,
                    "λ {lambda}: V({x}) = {predicted}"
                );
            }
        }
    }

    #[test]
    fn features_of_an_empty_and_a_holed_board() {
        let w = ScoreWeights::shipped();
        let ctx = Context {
            level: 18,
            lines: [0x25, 0x01],
            line_cap: Some(430),
            double_speed_level: Some(39),
            speed_up: None,
            ceilings: [15, 15, 12, 6],
            judged: None,
            line_out: false,
            unsafe_clears: 0,
            survival: false,
        };
        let presses = press_frames(&crate::nes::InputModel::new("X.", false, 18).unwrap());
        let empty = features(&w, &Field::default(), &ctx, &presses);
        let named = |f: &[f64; FEATURES], name: &str| {
            f[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()]
        };
        assert_eq!(named(&empty, "holes"), 0.0);
        // Each empty row changes twice (wall, cells, wall); the empty bottom row once per
        // column against the floor.
        assert_eq!(named(&empty, "row_transitions"), 40.0);
        assert_eq!(named(&empty, "column_transitions"), 10.0);
        assert_eq!(named(&empty, "lines_left"), 30.5);
        assert_eq!(named(&empty, "lines_left_by_level"), 305.0 * 19.0 / 100.0);
        let mut holed = Field::default();
        holed.rows[19] = 0b01_1111_1110; // the bottom row but columns 1 and 10
        holed.rows[18] = 0b00_0000_0001; // a cover over column 1
        let f = features(&w, &holed, &ctx, &presses);
        assert_eq!(named(&f, "holes"), 1.0);
        assert_eq!(named(&f, "holes_by_height"), 0.1);
        assert_eq!(named(&f, "right_well_depth"), 1.0);
        assert_eq!(named(&f, "max_height"), 2.0);
        assert_eq!(
            named(&f, "terms_value"),
            w.terms_board_value(&holed, &ctx, &presses)
        );
    }
}
