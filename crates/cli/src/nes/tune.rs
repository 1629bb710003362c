//! `playfield nes tune`: searches the score player's weights (noisy cross-entropy) on paired
//! seeds, in parallel, and writes them as JSON; `nes bench --weights FILE` plays them.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use playfield_ai::nes::ScoreWeights;
use playfield_ai::nes::bench::Format;
use playfield_ai::nes::tune::{TuneConfig, tune};

use crate::checks::int;
use crate::files::OutputFile;
use crate::output::Out;

/// Arguments of `nes tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The benchmark format the games are played in (see `nes bench --format`).
    #[arg(long, value_name = "FORMAT", default_value = "betatetris", value_parser = parse_format)]
    format: Format,
    /// Stop every game at this many lines (shorter games, cheaper generations), 1 to 100,000.
    #[arg(long, value_name = "L", value_parser = int(1u32, 100_000))]
    linecap: Option<u32>,
    /// Generations, 1 to 1,000.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = int(1u32, 1000))]
    generations: u32,
    /// Weight samples per generation, 2 to 1,000.
    #[arg(long, value_name = "N", default_value_t = 12, value_parser = int(2u32, 1000))]
    population: u32,
    /// Games per sample and generation (the same seeds for every sample), 1 to 10,000.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = int(1u32, 10_000))]
    games: u32,
    /// The run's seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Start from these weights (default: the shipped ones).
    #[arg(long, value_name = "FILE.json")]
    weights: Option<PathBuf>,
    /// Where to write the tuned weights (JSON, every term).
    #[arg(long, value_name = "FILE.json")]
    out: PathBuf,
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
        .map_err(|e: playfield_ai::nes::bench::BenchError| e.to_string())
}

/// Runs `nes tune`.
pub fn run(args: &TuneArgs) -> Result<()> {
    let out_file = OutputFile::create(&args.out, "--out")?;
    let mut options = args.format.options();
    if args.linecap.is_some() {
        options.line_cap = args.linecap;
    }
    options.validate()?;
    let start = match &args.weights {
        Some(path) => ScoreWeights::load(path)?,
        None => ScoreWeights::shipped(),
    };
    let config = TuneConfig {
        options,
        start,
        generations: args.generations,
        population: args.population,
        games: args.games,
        seed: args.seed,
    };
    let mut out = Out::new();
    let mut failure = None;
    let weights = tune(&config, |g| {
        let line = format!(
            "generation {}: best sample {:.0}, mean of samples {:.0}",
            g.generation, g.best_fitness, g.mean_fitness
        );
        if let Err(e) = out.line_now(line) {
            failure.get_or_insert(e);
        }
    });
    if let Some(e) = failure {
        return Err(e.into());
    }
    let json = serde_json::to_string_pretty(&weights)? + "\n";
    out_file.commit_bytes(json.as_bytes())?;
    out.line(format!(
        "wrote {} ({} generations × {} samples × {} games, format {}, seed {})",
        args.out.display(),
        args.generations,
        args.population,
        args.games,
        args.format,
        args.seed
    ))?;
    out.flush()?;
    Ok(())
}
