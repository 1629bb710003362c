//! Tuning the score player's weights with the separable CMA-ES ([`super::cmaes`]) on paired
//! games: every sample of a generation plays the same games, and so do the generation's mean
//! and the weights the run started from, so each generation also measures the mean against
//! the start on the same games.
//!
//! The objective is either whole games (new seeds each generation) or short segments from saved
//! positions at each band ([`super::segments`]): points gained in the next few lines, a top-out
//! costing the lines it forfeits. A generation on segments costs a few seconds per sample
//! instead of whole games' minutes.
//!
//! The run's whole state is a [`Checkpoint`] (plain data, floats exact): the caller saves it
//! after every generation, and a run resumed from it continues exactly as if it had not stopped.

use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::bands::Band;
use super::bench::BenchOptions;
use super::cmaes::{Samples, SepCmaEs, exact, exact_vec};
use super::game::{GameConfig, game_seed, play_game, split_mix};
use super::player::Player;
use super::score::ScoreWeights;
use super::segments::{BANDS, SegmentPieces, Start, play_segment};

/// What a sample's fitness is measured on.
#[derive(Clone, Debug)]
pub enum Objective {
    /// Whole games, `games` new seeds each generation; the headline score.
    Games {
        /// Games per generation.
        games: u32,
    },
    /// Segments from saved positions.
    Segments {
        /// The positions, replayed.
        starts: Arc<Vec<Start>>,
        /// Positions drawn from each band per generation (all of a band's when it has fewer).
        per_band: u32,
        /// Lines each segment plays (or to the game's line cap).
        lines: u32,
        /// Points a top-out costs per line it forfeits (to the game's line cap).
        loss_per_line: f64,
        /// Where the segments' pieces come from.
        pieces: SegmentPieces,
    },
}

/// How a run was set up: what a checkpoint keeps to resume it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The benchmark format's name.
    pub format: String,
    /// The line cap given instead of the format's, if any.
    pub linecap: Option<u32>,
    /// Samples per generation.
    pub population: u32,
    /// The run's seed (games, segments drawn, samples).
    pub seed: u64,
    /// The weights the run started from, in [`super::score::TERM_NAMES`] order.
    #[serde(with = "exact_vec")]
    pub start: Vec<f64>,
    /// Whole games per generation (0 when the objective is segments).
    pub games: u32,
    /// The position file of a segments objective, its FNV-1a hash, and its settings.
    pub segments: Option<SegmentSetup>,
    /// Terms held at their start values.
    #[serde(default)]
    pub fixed: Vec<String>,
    /// The band whose terms the run tunes ([`Band`]'s key), the base terms and the other bands
    /// held at the start weights'; `None`: the base terms. `start` then holds the band's
    /// weights at the start, and segments come from the band's first line only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<String>,
    /// The start weights as a weights file's text (read back to the same numbers): when a band
    /// is tuned, the samples keep their base terms and other bands; else their bands (and
    /// learned value). Checkpoints without it tune the terms alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

/// A segments objective's settings, as a checkpoint keeps them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentSetup {
    /// The position file.
    pub file: String,
    /// Its FNV-1a 64 hash, checked on resume.
    pub hash: u64,
    /// Positions drawn per band and generation.
    pub per_band: u32,
    /// Lines per segment.
    pub lines: u32,
    /// Points a top-out costs per forfeited line.
    #[serde(with = "exact")]
    pub loss_per_line: f64,
    /// Where the segments' pieces come from (the ROM's when left out).
    #[serde(default, skip_serializing_if = "SegmentPieces::is_rom")]
    pub pieces: SegmentPieces,
}

/// One generation's outcome, all measured on the generation's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// 1-based.
    pub generation: u32,
    /// Mean fitness of the best sample.
    #[serde(with = "exact")]
    pub best_fitness: f64,
    /// Mean fitness over the samples.
    #[serde(with = "exact")]
    pub samples_fitness: f64,
    /// Mean fitness of the mean weights before the update.
    #[serde(with = "exact")]
    pub mean_fitness: f64,
    /// Mean fitness of the start weights.
    #[serde(with = "exact")]
    pub start_fitness: f64,
    /// The step size after the update.
    #[serde(with = "exact")]
    pub sigma: f64,
    /// The mean weights after the update (the tuned band's, if one is), in
    /// [`super::score::TERM_NAMES`] order.
    #[serde(with = "exact_vec")]
    pub mean: Vec<f64>,
}

/// A run's whole state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// What the file is.
    pub kind: String,
    /// The command lines that made it (the first, then each resume).
    pub made_by: Vec<String>,
    /// The run's settings.
    pub setup: Setup,
    /// The optimiser, in coordinates scaled per term ([`scale`]) around the start.
    pub es: SepCmaEs,
    /// Every generation so far.
    pub history: Vec<Generation>,
}

/// The checkpoint's `kind`.
pub const CHECKPOINT_KIND: &str = "playfield nes tune checkpoint v1";

/// A term's scale: the optimiser's unit step for it (30 % of its start value, and half a unit).
fn scale(start: f64) -> f64 {
    start.abs() * 0.3 + 0.5
}

impl Checkpoint {
    /// A fresh run from `setup` with step size `sigma` (in units of [`scale`]).
    #[must_use]
    pub fn new(setup: Setup, sigma: f64, made_by: String) -> Checkpoint {
        let n = setup.start.len();
        let es = SepCmaEs::new(vec![0.0; n], sigma, setup.population as usize, setup.seed);
        Checkpoint {
            kind: CHECKPOINT_KIND.to_owned(),
            made_by: vec![made_by],
            setup,
            es,
            history: Vec::new(),
        }
    }

    /// The band the run tunes and the weights whose other terms it keeps, if it tunes one.
    ///
    /// # Errors
    /// When the setup's band or base weights do not parse.
    pub fn tuned_band(&self) -> Result<Option<(Band, ScoreWeights)>, String> {
        match (&self.setup.band, &self.setup.base) {
            (None, _) => Ok(None),
            (Some(_), None) => Err("a band is tuned but the start weights are missing".into()),
            (Some(band), Some(base)) => {
                let band: Band = band.parse()?;
                let base = ScoreWeights::parse(base).map_err(|e| e.to_string())?;
                Ok(Some((band, base)))
            }
        }
    }

    /// The weights the samples play with at optimiser coordinates `x`: the tuned terms, or
    /// when a band is tuned the start weights with that band's terms from `x`.
    ///
    /// # Panics
    /// When the setup's band does not parse ([`Checkpoint::tuned_band`] checks it).
    #[must_use]
    pub fn weights_at(&self, x: &[f64]) -> ScoreWeights {
        let tuned = self.tuned_terms_at(x);
        match self.tuned_band().expect("the setup was checked") {
            // The base terms tuned, the start's bands (and learned value) kept.
            None => match self.base_weights() {
                Some(base) => ScoreWeights {
                    bands: base.bands,
                    value: base.value,
                    ..tuned
                },
                None => tuned,
            },
            Some((band, base)) => base.with_band(band, &tuned),
        }
    }

    /// The start weights as the setup keeps them (`base`), when it does and they parse.
    fn base_weights(&self) -> Option<ScoreWeights> {
        self.setup
            .base
            .as_deref()
            .and_then(|text| ScoreWeights::parse(text).ok())
    }

    /// The weights the run started from (all bands).
    ///
    /// # Panics
    /// When the setup's band does not parse ([`Checkpoint::tuned_band`] checks it).
    #[must_use]
    pub fn start_weights(&self) -> ScoreWeights {
        match self.tuned_band().expect("the setup was checked") {
            None => self
                .base_weights()
                .unwrap_or_else(|| ScoreWeights::from_terms(&self.setup.start)),
            Some((_, base)) => base,
        }
    }

    /// The tuned terms (the base's, or the band's) at optimiser coordinates `x`.
    #[must_use]
    pub fn tuned_terms_at(&self, x: &[f64]) -> ScoreWeights {
        let w: Vec<f64> = self
            .setup
            .start
            .iter()
            .zip(x)
            .zip(super::score::TERM_NAMES)
            .map(|((s, x), name)| {
                if self.setup.fixed.iter().any(|f| f == name) {
                    *s
                } else {
                    // A sample may step past a term's range (a negative safe height): it plays
                    // at the range's end, as a file of it would have to be written.
                    super::score::clamp_term(name, s + scale(*s) * x)
                }
            })
            .collect();
        ScoreWeights::from_terms(&w)
    }

    /// The current mean weights.
    #[must_use]
    pub fn mean_weights(&self) -> ScoreWeights {
        self.weights_at(&self.es.mean)
    }
}

/// The largest step size, variance, mean coordinate or start weight a checkpoint may hold: far
/// beyond any run's, and small enough that every sample's weights stay finite.
const MOST_IN_CHECKPOINT: f64 = 1e12;

impl Checkpoint {
    /// Checks what a run reads from a checkpoint before it runs on it: sizes that agree with each
    /// other and with this build's terms, finite numbers (a positive step size and variances),
    /// known terms, base weights that parse. The error names the field.
    ///
    /// # Errors
    /// The first field that is wrong, and why.
    pub fn check(&self) -> Result<(), String> {
        let (setup, es) = (&self.setup, &self.es);
        let terms = super::score::TERM_NAMES.len();
        if !(4..=1000).contains(&setup.population) {
            return Err(format!(
                "setup.population is {}, not from 4 to 1000",
                setup.population
            ));
        }
        if es.population != setup.population as usize {
            return Err(format!(
                "es.population is {} but setup.population is {}",
                es.population, setup.population
            ));
        }
        if setup.segments.is_none() && setup.games == 0 {
            return Err("setup.games is 0: a run on whole games plays at least one".to_owned());
        }
        if let Some(s) = &setup.segments {
            if s.per_band == 0 || s.lines == 0 {
                return Err("setup.segments: per_band and lines must be at least 1".to_owned());
            }
            if !(s.loss_per_line.is_finite() && s.loss_per_line >= 0.0) {
                return Err(format!(
                    "setup.segments.loss_per_line is {}, not a number from 0",
                    s.loss_per_line
                ));
            }
        }
        let vectors = [
            ("setup.start", &setup.start),
            ("es.mean", &es.mean),
            ("es.variances", &es.variances),
            ("es.path_sigma", &es.path_sigma),
            ("es.path_c", &es.path_c),
        ];
        for (name, v) in vectors {
            if v.len() != terms {
                return Err(format!(
                    "{name} has {} entries, this build has {terms} terms",
                    v.len()
                ));
            }
            if let Some((i, x)) = v
                .iter()
                .enumerate()
                .find(|(_, x)| !(x.is_finite() && x.abs() <= MOST_IN_CHECKPOINT))
            {
                return Err(format!(
                    "{name}[{i}] is {x}, not a finite number of at most {MOST_IN_CHECKPOINT:e}"
                ));
            }
        }
        if let Some((i, x)) = es.variances.iter().enumerate().find(|(_, x)| **x <= 0.0) {
            return Err(format!("es.variances[{i}] is {x}, not positive"));
        }
        if !(es.sigma.is_finite() && es.sigma > 0.0 && es.sigma <= MOST_IN_CHECKPOINT) {
            return Err(format!(
                "es.sigma is {}, not a positive number of at most {MOST_IN_CHECKPOINT:e}",
                es.sigma
            ));
        }
        if let Some(bad) = setup
            .fixed
            .iter()
            .find(|f| !super::score::TERM_NAMES.contains(&f.as_str()))
        {
            return Err(format!("setup.fixed: {bad:?} is not a term"));
        }
        if let Some(base) = &setup.base {
            ScoreWeights::parse(base).map_err(|e| format!("setup.base: {e}"))?;
        }
        Ok(())
    }
}

/// FNV-1a 64 of bytes (to recognise a position file on resume).
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The segments of generation `generation`: `per_band` positions drawn from each band (from
/// the band starting at line `only` alone, if given).
fn draw_segments(
    starts: &[Start],
    per_band: u32,
    seed: u64,
    generation: u32,
    only: Option<u32>,
) -> Vec<usize> {
    let mut rng = split_mix(seed ^ (u64::from(generation) << 32));
    let mut chosen = Vec::new();
    for band in BANDS.into_iter().filter(|b| only.is_none_or(|o| o == *b)) {
        let mut pool: Vec<usize> = (0..starts.len())
            .filter(|&i| starts[i].position.band == band)
            .collect();
        // A partial Fisher-Yates shuffle.
        let take = (per_band as usize).min(pool.len());
        for k in 0..take {
            rng = split_mix(rng);
            let j = k + (rng % (pool.len() - k) as u64) as usize;
            pool.swap(k, j);
        }
        chosen.extend_from_slice(&pool[..take]);
    }
    chosen
}

impl Checkpoint {
    /// The mean weights as a weights file's text, with how they were made (`how_made`).
    ///
    /// # Errors
    /// When the weights do not serialise (they always do).
    pub fn weights_file(&self) -> Result<String, serde_json::Error> {
        let weights = self.mean_weights();
        let mut value = serde_json::to_value(&weights)?;
        let how = serde_json::json!({
            "tuner": "separable CMA-ES (playfield nes tune), the mean after the last generation",
            "commands": self.made_by,
            "format": self.setup.format,
            "linecap": self.setup.linecap,
            "seed": self.setup.seed,
            "generations": self.es.generation,
            "population": self.setup.population,
            "games_per_generation": self.setup.games,
            "segments": self.setup.segments,
            "fixed": self.setup.fixed,
            "band": self.setup.band,
            "last_generation": self.history.last(),
            "note": "fitness figures are on each generation's games only; judge the weights \
                     with `playfield nes bench` on paired seeds",
        });
        if let Some(map) = value.as_object_mut() {
            map.insert(super::score::HOW_MADE.to_owned(), how);
        }
        Ok(serde_json::to_string_pretty(&value)? + "\n")
    }
}

/// A checkpoint that cannot be resumed, and why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ResumeError(pub String);

/// Opens a run from its checkpoint's text (`what` names it in errors): the checkpoint, the
/// options of its format and line cap, and its objective, its position file read from the path
/// the checkpoint names, checked against its hash, and replayed.
///
/// # Errors
/// Not a checkpoint of this kind or of this build's terms, a bad band or format, a position
/// file that cannot be read, has changed or does not replay.
pub fn open_run(
    text: &str,
    what: &str,
) -> Result<(Checkpoint, BenchOptions, Objective), ResumeError> {
    let fail = |message: String| ResumeError(format!("{what}: {message}"));
    crate::json::check_unique_keys(text)
        .map_err(|e| fail(format!("not a tuning checkpoint ({e})")))?;
    let checkpoint: Checkpoint =
        serde_json::from_str(text).map_err(|e| fail(format!("not a tuning checkpoint ({e})")))?;
    if checkpoint.kind != CHECKPOINT_KIND {
        return Err(fail(format!(
            "kind {:?}, expected {CHECKPOINT_KIND:?}",
            checkpoint.kind
        )));
    }
    checkpoint.check().map_err(fail)?;
    let format: super::bench::Format = checkpoint
        .setup
        .format
        .parse()
        .map_err(|e: super::bench::BenchError| fail(e.to_string()))?;
    let mut options = format.options();
    if checkpoint.setup.linecap.is_some() {
        options.line_cap = checkpoint.setup.linecap;
    }
    options.validate().map_err(|e| fail(e.to_string()))?;
    checkpoint.tuned_band().map_err(fail)?;
    let terms = super::score::TERM_NAMES.len();
    if checkpoint.setup.start.len() != terms {
        return Err(fail(format!(
            "{} start terms, this build has {terms}",
            checkpoint.setup.start.len()
        )));
    }
    let objective = match &checkpoint.setup.segments {
        Some(s) => {
            let text = std::fs::read_to_string(&s.file)
                .map_err(|e| fail(format!("cannot read the position file {}: {e}", s.file)))?;
            if fnv1a(text.as_bytes()) != s.hash {
                return Err(fail(format!(
                    "the position file {} changed since the run began",
                    s.file
                )));
            }
            segments_objective(&text, &options, s)
                .map_err(|e| fail(format!("position file {}: {e}", s.file)))?
        }
        None => Objective::Games {
            games: checkpoint.setup.games,
        },
    };
    Ok((checkpoint, options, objective))
}

/// The segments objective of a position file's text with the settings `s`.
///
/// # Errors
/// A file that does not parse for `options`, holds no positions, or does not replay.
pub fn segments_objective(
    text: &str,
    options: &BenchOptions,
    s: &SegmentSetup,
) -> Result<Objective, super::segments::SegmentError> {
    let file = super::segments::PositionFile::parse(text, options)?;
    if file.positions.is_empty() {
        return Err(super::segments::SegmentError::Parse(
            "the file holds no positions".to_owned(),
        ));
    }
    let starts = super::segments::replay_positions(&file, options)?;
    Ok(Objective::Segments {
        starts,
        per_band: s.per_band,
        lines: s.lines,
        loss_per_line: s.loss_per_line,
        pieces: s.pieces,
    })
}

/// One generation's work, as asked of the optimiser: every player (the samples, then the mean,
/// then the start weights) is to be measured on every task (a game index, or a position's index
/// in the objective's starts), [`evaluate`] giving each value, [`conclude`] taking them all.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The generation (1-based).
    pub generation: u32,
    /// The optimiser's samples.
    pub samples: Samples,
    /// The weights of each player: the samples', the mean's, the start's.
    pub players: Vec<ScoreWeights>,
    /// The games or positions each player is measured on.
    pub tasks: Vec<usize>,
}

/// Asks `checkpoint`'s optimiser for the next generation's samples and draws its tasks (the
/// optimiser's random state moves on: conclude the plan before planning again).
pub fn plan(options: &BenchOptions, objective: &Objective, checkpoint: &mut Checkpoint) -> Plan {
    let only = checkpoint
        .tuned_band()
        .expect("the setup was checked")
        .and_then(|(band, _)| band.first_line(options.level, options.double_speed_level));
    let generation = checkpoint.es.generation + 1;
    let samples = checkpoint.es.ask();
    // The samples, then the mean, then the start: all on the same games.
    let mut players: Vec<ScoreWeights> =
        samples.x.iter().map(|x| checkpoint.weights_at(x)).collect();
    players.push(checkpoint.mean_weights());
    players.push(checkpoint.start_weights());
    let tasks: Vec<usize> = match objective {
        Objective::Games { games } => (0..*games as usize).collect(),
        Objective::Segments {
            starts, per_band, ..
        } => draw_segments(starts, *per_band, checkpoint.setup.seed, generation, only),
    };
    Plan {
        generation,
        samples,
        players,
        tasks,
    }
}

/// The value of `weights` on `task` of generation `generation` of a run seeded `seed`: the
/// headline score of a game, or a segment's points less its top-out loss.
#[must_use]
pub fn evaluate(
    options: &BenchOptions,
    objective: &Objective,
    seed: u64,
    generation: u32,
    weights: &ScoreWeights,
    task: usize,
) -> f64 {
    let input = options.input_model().expect("the options were validated");
    let player = Player::score_with(weights.clone(), input);
    match objective {
        Objective::Games { .. } => {
            let config = GameConfig {
                seed: game_seed(split_mix(seed ^ u64::from(generation)), task as u64),
                ..options.game()
            };
            let r = play_game(&config, &player, |_, _| Ok(()));
            if options.uncapped {
                r.uncapped_score as f64
            } else {
                f64::from(r.score)
            }
        }
        Objective::Segments {
            starts,
            lines,
            loss_per_line,
            pieces,
            ..
        } => {
            let s = play_segment(&starts[task], options, *lines, &player, *pieces);
            s.value(
                &starts[task].position,
                *lines,
                options.line_cap,
                *loss_per_line,
            )
        }
    }
}

/// Tells `checkpoint`'s optimiser how `plan`'s samples did and records the generation:
/// `values` holds every player's value on every task, player by player in the plan's order.
///
/// # Panics
/// When `values` does not hold one value per player and task.
pub fn conclude(checkpoint: &mut Checkpoint, plan: &Plan, values: &[f64]) {
    assert_eq!(values.len(), plan.players.len() * plan.tasks.len());
    let per_player = plan.tasks.len().max(1) as f64;
    let fitness: Vec<f64> = values
        .chunks(plan.tasks.len().max(1))
        .map(|c| c.iter().sum::<f64>() / per_player)
        .collect();
    let lambda = plan.samples.x.len();
    let sample_fitness = &fitness[..lambda];
    let mean_before = fitness[lambda];
    let start_fitness = fitness[lambda + 1];
    checkpoint.es.tell(&plan.samples, sample_fitness);
    let mean = checkpoint
        .tuned_terms_at(&checkpoint.es.mean)
        .terms()
        .iter()
        .map(|t| t.1)
        .collect();
    checkpoint.history.push(Generation {
        generation: plan.generation,
        best_fitness: sample_fitness.iter().copied().fold(f64::MIN, f64::max),
        samples_fitness: sample_fitness.iter().sum::<f64>() / lambda as f64,
        mean_fitness: mean_before,
        start_fitness,
        sigma: checkpoint.es.sigma,
        mean,
    });
}

/// Runs `generations` more generations of `checkpoint` with `options`' games and `objective`,
/// calling `after` with the checkpoint after each (to save it); stops at its first error. Each
/// generation is [`plan`], [`evaluate`] of every player on every task in parallel, [`conclude`].
///
/// # Errors
/// The first error of `after`.
pub fn run<E>(
    options: &BenchOptions,
    objective: &Objective,
    checkpoint: &mut Checkpoint,
    generations: u32,
    mut after: impl FnMut(&Checkpoint) -> Result<(), E>,
) -> Result<(), E> {
    for _ in 0..generations {
        let plan = plan(options, objective, checkpoint);
        let seed = checkpoint.setup.seed;
        let pairs: Vec<(usize, usize)> = (0..plan.players.len())
            .flat_map(|p| plan.tasks.iter().map(move |&t| (p, t)))
            .collect();
        let values: Vec<f64> = pairs
            .par_iter()
            .map(|&(p, t)| {
                evaluate(
                    options,
                    objective,
                    seed,
                    plan.generation,
                    &plan.players[p],
                    t,
                )
            })
            .collect();
        conclude(checkpoint, &plan, &values);
        after(checkpoint)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::bench::Format;
    use crate::nes::segments::{PositionFile, make_positions, replay_positions};

    fn setup(games: u32) -> Setup {
        Setup {
            format: "rom".into(),
            linecap: Some(4),
            population: 4,
            seed: 3,
            start: ScoreWeights::shipped()
                .terms()
                .iter()
                .map(|t| t.1)
                .collect(),
            games,
            segments: None,
            fixed: vec!["surface".into()],
            band: None,
            base: None,
        }
    }

    #[test]
    fn a_corrupt_checkpoint_is_refused_naming_its_field() {
        let good = Checkpoint::new(setup(1), 0.5, "test".into());
        let text = serde_json::to_string(&good).unwrap();
        assert!(open_run(&text, "ck.json").is_ok());
        // A field to name and how to spoil it.
        type Edit = (&'static str, fn(&mut serde_json::Value));
        let edits: [Edit; 10] = [
            ("setup.games", |v| v["setup"]["games"] = 0.into()),
            ("es.mean has 5", |v| {
                v["es"]["mean"].as_array_mut().unwrap().truncate(5);
            }),
            ("es.sigma", |v| v["es"]["sigma"] = "NaN".into()),
            ("es.sigma", |v| v["es"]["sigma"] = "1e400".into()),
            ("es.sigma", |v| v["es"]["sigma"] = "-1".into()),
            ("es.variances[0]", |v| v["es"]["variances"][0] = "-5".into()),
            ("setup.base", |v| v["setup"]["base"] = "{bad".into()),
            ("setup.fixed", |v| {
                v["setup"]["fixed"] = serde_json::json!(["nonterm"])
            }),
            ("es.population", |v| v["es"]["population"] = 1000.into()),
            ("setup.population", |v| v["setup"]["population"] = 2.into()),
        ];
        for (want, edit) in edits {
            let mut v = serde_json::to_value(&good).unwrap();
            edit(&mut v);
            let e = open_run(&v.to_string(), "ck.json")
                .err()
                .unwrap()
                .to_string();
            assert!(
                e.starts_with("ck.json: ") && e.contains(want),
                "{want}: {e}"
            );
        }
    }

    #[test]
    fn a_run_stopped_and_resumed_is_the_run_that_did_not_stop() {
        let mut options = Format::Rom.options();
        options.line_cap = Some(4);
        let objective = Objective::Games { games: 1 };
        let mut straight = Checkpoint::new(setup(1), 0.5, "test".into());
        let mut seen = Vec::new();
        run(&options, &objective, &mut straight, 3, |c| {
            seen.push(c.history.last().unwrap().best_fitness);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(straight.history.len(), 3);
        assert!(seen.iter().all(|&f| f > 0.0), "four lines score points");
        let mut first = Checkpoint::new(setup(1), 0.5, "test".into());
        run(&options, &objective, &mut first, 2, |_| Ok::<(), ()>(())).unwrap();
        let saved = serde_json::to_string(&first).unwrap();
        let mut resumed: Checkpoint = serde_json::from_str(&saved).unwrap();
        assert_eq!(resumed, first);
        run(&options, &objective, &mut resumed, 1, |_| Ok::<(), ()>(())).unwrap();
        assert_eq!(resumed, straight);
        assert_ne!(straight.mean_weights(), ScoreWeights::shipped());
    }

    #[test]
    fn a_band_run_varies_only_that_bands_terms() {
        let base = ScoreWeights::shipped();
        let mut s = setup(0);
        s.band = Some("double_speed".into());
        s.base = Some(serde_json::to_string(&base).unwrap());
        let c = Checkpoint::new(s, 0.5, "test".into());
        assert_eq!(c.start_weights(), base);
        let w = c.weights_at(&[1.0; 30]);
        // The base terms are the start's, and its other bands; the band's moved, but for the
        // fixed one.
        let without_bands = |w: &ScoreWeights| ScoreWeights {
            bands: Default::default(),
            ..w.clone()
        };
        assert_eq!(without_bands(&w), without_bands(&base));
        assert_eq!(
            w.band_weights(Band::FromLevel(29)),
            base.band_weights(Band::FromLevel(29))
        );
        let band = w.band_weights(Band::DoubleSpeed);
        assert_ne!(band.tetris, base.tetris);
        assert_eq!(band.surface, base.surface);
        assert_eq!(band, c.tuned_terms_at(&[1.0; 30]));
        // A band that does not parse is an error, not a panic.
        let mut bad = c.clone();
        bad.setup.band = Some("fast".into());
        assert!(bad.tuned_band().is_err());
        // Tuning the base terms keeps the start's bands.
        let mut s = setup(0);
        s.base = Some(serde_json::to_string(&base).unwrap());
        let c = Checkpoint::new(s, 0.5, "test".into());
        assert_eq!(c.start_weights(), base);
        let w = c.weights_at(&[1.0; 30]);
        assert_ne!(w.tetris, base.tetris);
        assert_eq!(w.bands, base.bands);
    }

    #[test]
    fn segments_measure_each_sample_on_the_same_positions() {
        let mut options = Format::BetaTetris.options();
        options.line_cap = Some(6);
        let player = Player::score(options.input_model().unwrap());
        let file: PositionFile = make_positions(&options, 1, 2, &player, "test".into());
        assert_eq!(file.positions.len(), 2, "band 0 of two games");
        let starts = replay_positions(&file, &options).unwrap();
        let objective = Objective::Segments {
            starts,
            per_band: 1,
            lines: 3,
            loss_per_line: 4000.0,
            pieces: SegmentPieces::Rom,
        };
        let mut c = Checkpoint::new(setup(0), 0.5, "test".into());
        run(&options, &objective, &mut c, 1, |_| Ok::<(), ()>(())).unwrap();
        let g = &c.history[0];
        // The start weights are the shipped ones: three lines from the position score points.
        assert!(g.start_fitness > 0.0, "{g:?}");
        assert!(g.best_fitness >= g.samples_fitness);
    }
}
