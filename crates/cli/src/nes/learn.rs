//! `playfield nes learn`: learns a board value from games the score player plays (the points
//! each board was followed by, fitted by ridge regression on the board's features), and plays
//! again with it, for some iterations; writes the weights with the value after each.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use playfield_ai::nes::bench::{BenchOptions, Format};
use playfield_ai::nes::learned::{self, FEATURES, LearnedValue};
use playfield_ai::nes::score::HOW_MADE;
use playfield_ai::nes::{Player, ScoreWeights};

use crate::checks::{int, real};
use crate::files::{OutputFile, check_output_dir};
use crate::output::Out;

/// Arguments of `nes learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The benchmark format the games are played in (see `nes bench --format`); the value's
    /// line features need a line cap.
    #[arg(long, value_name = "FORMAT", default_value = "betatetris", value_parser = parse_format)]
    format: Format,
    /// The line cap instead of the format's, 1 to 100,000.
    #[arg(long, value_name = "L", value_parser = int(1u32, 100_000))]
    linecap: Option<u32>,
    /// Games played per iteration, 2 to 100,000 (the scores' interval needs two).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = int(2u64, 100_000))]
    games: u64,
    /// Batch seed of the first iteration's games (the benchmark's level-menu waits, never the
    /// held-out games); iteration i plays batch seed + i.
    #[arg(long, value_name = "S", default_value_t = 2000)]
    seed: u64,
    /// Iterations: play, fit, play with the fitted value, fit again, ...; 1 to 100.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = int(1u32, 100))]
    iterations: u32,
    /// The ridge penalty on the standardised coefficients, per sample, 0 to 1.
    #[arg(long, value_name = "R", default_value_t = 1e-3, value_parser = real(0.0, 1.0))]
    ridge: f64,
    /// Fit by LSTD(λ) with this λ (0 to 1: how far the returns reach before the next board's
    /// value stands in for them) instead of regressing on the points to each game's end.
    #[arg(long, value_name = "L", value_parser = real(0.0, 1.0))]
    lambda: Option<f64>,
    /// Fit every feature of the board (holes, transitions, heights, ...), not only the terms'
    /// value and the lines left.
    #[arg(long)]
    all_features: bool,
    /// The weights the first games are played with and whose terms the value keeps as a
    /// feature (default: the shipped ones); a learned value in it is where the first iteration
    /// starts.
    #[arg(long, value_name = "FILE.json")]
    weights: Option<PathBuf>,
    /// Where to write the weights with the learned value (rewritten after every iteration).
    #[arg(long, value_name = "FILE.json")]
    out: PathBuf,
    /// Also write every board of the last iteration's games as CSV, one row per board: the
    /// game (0-based), the gravity class, the points (thousands) to the game's end, and the
    /// features (for fitting other models, such as a network, outside).
    #[arg(long, value_name = "FILE.csv")]
    samples_out: Option<PathBuf>,
}

/// The boards of `games` as CSV (see `--samples-out`).
fn samples_csv(games: &[Vec<learned::Sample>]) -> String {
    use std::fmt::Write;
    let mut text = String::from("game,class,future");
    for name in learned::FEATURE_NAMES {
        text.push(',');
        text.push_str(name);
    }
    text.push('\n');
    for (game, samples) in games.iter().enumerate() {
        for s in samples {
            let _ = write!(text, "{game},{},{}", s.class, s.future);
            for f in &s.features {
                let _ = write!(text, ",{f}");
            }
            text.push('\n');
        }
    }
    text
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
        .map_err(|e: playfield_ai::nes::bench::BenchError| e.to_string())
}

/// The mean of `xs` with the half-width of its 95 % interval.
fn mean_interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// Runs `nes learn`.
pub fn run(args: &LearnArgs) -> Result<()> {
    let mut options: BenchOptions = args.format.options();
    if args.linecap.is_some() {
        options.line_cap = args.linecap;
    }
    options.validate()?;
    if options.line_cap.is_none() {
        anyhow::bail!(
            "--format {}: the learned value needs a line cap (its features count the lines left)",
            args.format.name()
        );
    }
    let start = match &args.weights {
        Some(path) => ScoreWeights::load(path)?,
        None => ScoreWeights::shipped(),
    };
    // Refuse an unwritable --out before the games.
    check_output_dir(&args.out, "--out")?;
    if let Some(path) = &args.samples_out {
        check_output_dir(path, "--samples-out")?;
    }
    let input = options.input_model()?;
    // Without a value to start from, a gravity the games give too few boards to fit stays
    // with the terms (see `learned::fit`).
    let mut value = start.value.clone().unwrap_or(LearnedValue {
        rates: [false; 4],
        ..LearnedValue::linear([[0.0; FEATURES]; 4])
    });
    let mut playing = start.clone();
    let used = if args.all_features {
        [true; FEATURES]
    } else {
        learned::feature_mask(&learned::TERMS_FEATURES)
    };
    let mut history = Vec::new();
    let mut out = Out::new();
    for iteration in 0..args.iterations {
        let seed = args.seed + u64::from(iteration);
        let clock = std::time::Instant::now();
        let player = Player::score_with(playing.clone(), input.clone());
        let collected = learned::collect(&options, seed, args.games, &player);
        let scores: Vec<f64> = collected.scores.iter().map(|&s| s as f64).collect();
        let (mean, half) = mean_interval(&scores);
        let boards: usize = collected.games.iter().map(Vec::len).sum();
        value = match args.lambda {
            Some(lambda) => learned::fit_lstd(&collected.games, lambda, args.ridge, &used)
                .ok_or_else(|| {
                    anyhow::anyhow!("iteration {}: the LSTD system is singular", iteration + 1)
                })?,
            None => {
                let samples: Vec<learned::Sample> =
                    collected.games.iter().flatten().cloned().collect();
                learned::fit(&samples, args.ridge, &used, &value).0
            }
        };
        let reports = learned::explained(&collected.games, &value);
        playing = ScoreWeights {
            value: Some(value.clone()),
            ..start.clone()
        };
        let fits: Vec<String> = reports
            .iter()
            .zip(value.rates)
            .map(|(r, rated)| {
                if rated {
                    format!("{} {} boards R² {:.3}", r.gravity, r.samples, r.r_squared)
                } else {
                    format!(
                        "{} {} boards, too few: the terms rate it",
                        r.gravity, r.samples
                    )
                }
            })
            .collect();
        out.line(format!(
            "iteration {}: batch {seed}, {} games played with {}: mean {mean:.0} ± {half:.0}; \
             fitted on {} boards ({}); {:.0} s",
            iteration + 1,
            args.games,
            if iteration == 0 && start.value.is_none() {
                "the terms"
            } else {
                "the learned value"
            },
            boards,
            fits.join(", "),
            clock.elapsed().as_secs_f64()
        ))?;
        out.flush()?;
        history.push(serde_json::json!({
            "iteration": iteration + 1,
            "batch_seed": seed,
            "games": args.games,
            "played_with": if iteration == 0 && start.value.is_none() { "terms" } else { "learned value" },
            "mean_score": mean.round(),
            "mean_half_width_95": half.round(),
            "boards": boards,
            "fits": reports,
        }));
        let mut json = serde_json::to_value(&playing)?;
        if let Some(map) = json.as_object_mut() {
            map.insert(
                HOW_MADE.to_owned(),
                serde_json::json!({
                    "learner": "playfield nes learn: Monte Carlo policy evaluation (each board a \
                                piece met, valued at the points the game scored from it on), a \
                                ridge regression per gravity, repeated with the player it gives",
                    "command": std::env::args().collect::<Vec<_>>().join(" "),
                    "format": args.format.name(),
                    "linecap": options.line_cap,
                    "ridge": args.ridge,
                    "lstd_lambda": args.lambda,
                    "iterations": history,
                    "note": "the scores are of the games each fit was made on; judge the value \
                             with `playfield nes bench --held-out` on paired seeds",
                }),
            );
        }
        OutputFile::create(&args.out, "--out")?
            .commit_bytes((serde_json::to_string_pretty(&json)? + "\n").as_bytes())?;
        if let Some(path) = &args.samples_out {
            OutputFile::create(path, "--samples-out")?
                .commit_bytes(samples_csv(&collected.games).as_bytes())?;
        }
    }
    Ok(())
}
