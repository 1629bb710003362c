//! `playfield nes tune`: searches the score player's weights (separable CMA-ES) on paired games
//! or on segments from saved positions, saves a checkpoint after every generation (`--resume`
//! continues it exactly), and writes the mean weights with how they were made.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use playfield_ai::nes::Player;
use playfield_ai::nes::ScoreWeights;
use playfield_ai::nes::bands::Band;
use playfield_ai::nes::bench::{BenchOptions, Format};
use playfield_ai::nes::segments::{SegmentPieces, make_positions};
use playfield_ai::nes::tune::{
    Checkpoint, Objective, SegmentSetup, Setup, fnv1a, open_run, run as run_tune,
};

use crate::checks::{int, real, usage};
use crate::files::{OutputFile, check_distinct, check_output_dir, file_key, read_text};
use crate::output::Out;

/// Largest checkpoint or position file read (bytes).
const FILE_LIMIT: u64 = 1 << 30;

/// Arguments of `nes tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The benchmark format the games are played in (see `nes bench --format`).
    #[arg(long, value_name = "FORMAT", default_value = "betatetris", value_parser = parse_format)]
    format: Format,
    /// Stop every game at this many lines (shorter games, cheaper generations), 1 to 100,000.
    #[arg(long, value_name = "L", value_parser = int(1u32, 100_000))]
    linecap: Option<u32>,
    /// Generations to run (more generations when resuming), 1 to 1,000.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = int(1u32, 1000))]
    generations: u32,
    /// Weight samples per generation, 4 to 1,000.
    #[arg(long, value_name = "N", default_value_t = 12, value_parser = int(4u32, 1000))]
    population: u32,
    /// Whole games per generation (the same seeds for every sample), 1 to 10,000; not with
    /// --segments.
    #[arg(
        long,
        conflicts_with = "segments",
        value_name = "N",
        default_value_t = 4,
        value_parser = int(1u32, 10_000),
    )]
    games: u32,
    /// The run's seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// The initial step size, in units of each term's scale (30 % of its start value plus
    /// 0.5), 0.001 to 10.
    #[arg(long, value_name = "X", default_value_t = 0.5, value_parser = real(0.001, 10.0))]
    sigma: f64,
    /// Start from these weights (default: the shipped ones).
    #[arg(long, value_name = "FILE.json")]
    weights: Option<PathBuf>,
    /// Measure samples on segments from the saved positions of this file; when it does not
    /// exist it is made first, by the start weights' player on --segment-games games of
    /// --segment-seed (the benchmark's level-menu waits, never the held-out games').
    #[arg(long, value_name = "FILE.json")]
    segments: Option<PathBuf>,
    /// Games whose positions a new --segments file holds (one per band each), 1 to 10,000.
    #[arg(
        long,
        requires = "segments",
        value_name = "N",
        default_value_t = 8,
        value_parser = int(1u64, 10_000),
    )]
    segment_games: u64,
    /// The batch seed of those games.
    #[arg(long, requires = "segments", value_name = "S", default_value_t = 1000)]
    segment_seed: u64,
    /// Make the --segments file and stop.
    #[arg(long, requires = "segments")]
    make_segments_only: bool,
    /// Positions drawn from each band per generation, 1 to 10,000.
    #[arg(
        long,
        requires = "segments",
        value_name = "N",
        default_value_t = 4,
        value_parser = int(1u32, 10_000),
    )]
    per_band: u32,
    /// Lines each segment plays (or to the format's line cap), 1 to 1,000. With --band, let the
    /// segments run some lines into the next band: only then does the objective see the boards
    /// the band hands on (docs/tuning.md).
    #[arg(
        long,
        requires = "segments",
        value_name = "K",
        default_value_t = 20,
        value_parser = int(1u32, 1000),
    )]
    segment_lines: u32,
    /// Points a top-out in a segment costs per line it forfeits to the format's line cap.
    #[arg(
        long,
        requires = "segments",
        value_name = "P",
        default_value_t = 4000.0,
        value_parser = real(0.0, 1e9),
    )]
    topout_loss_per_line: f64,
    /// Where the segments' pieces come from: `rom` (the game's randomizer, whose pieces follow
    /// each player's timing) or `dealt` (a sequence of each position's own, the same for every
    /// sample: the pieces' luck falls out of the comparison; not the ROM's game, so judge the
    /// result on whole games).
    #[arg(
        requires = "segments",
        long,
        value_name = "FROM",
        default_value = "rom"
    )]
    segment_pieces: SegmentPieces,
    /// Terms held at their start values, comma-separated (e.g. `surface`, whose table costs
    /// about 10 s of one core at its first use in each process).
    #[arg(long, value_name = "TERMS", value_delimiter = ',')]
    fixed: Vec<String>,
    /// Tune only this band's terms (a level, from which the band holds, or `double-speed`; see
    /// crates/ai/weights/README.md): the start weights' base terms and other bands are kept,
    /// and segments come from the band's first line only.
    #[arg(long, value_name = "BAND", value_parser = parse_band)]
    band: Option<Band>,
    /// Save the run's state here after every generation (atomically).
    #[arg(long, value_name = "FILE.json")]
    checkpoint: Option<PathBuf>,
    /// Continue the run saved in this checkpoint (its settings are the run's; it is saved back
    /// there unless --checkpoint says otherwise).
    #[arg(conflicts_with_all = [
        "format", "linecap", "population", "games", "seed", "sigma", "weights", "segments",
        "segment_games", "segment_seed", "make_segments_only", "per_band", "segment_lines",
        "topout_loss_per_line", "segment_pieces", "fixed", "band",
    ], long, value_name = "FILE.json")]
    resume: Option<PathBuf>,
    /// Where to write the tuned (mean) weights, with how they were made: after every
    /// generation.
    #[arg(long, value_name = "FILE.json")]
    out: Option<PathBuf>,
}

fn parse_band(s: &str) -> Result<Band, String> {
    s.parse()
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
        .map_err(|e: playfield_ai::nes::bench::BenchError| e.to_string())
}

/// The command line, for the record.
fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

/// A format's options with an optional line cap instead of its own.
fn options_of(format: Format, linecap: Option<u32>) -> Result<BenchOptions> {
    let mut options = format.options();
    if linecap.is_some() {
        options.line_cap = linecap;
    }
    options.validate()?;
    Ok(options)
}

/// Writes `bytes` to `path` atomically.
fn write_atomically(path: &Path, what: &'static str, bytes: &[u8]) -> Result<()> {
    OutputFile::create(path, what)?.commit_bytes(bytes)
}

/// Reads a position file (or makes it when it does not exist) and replays its positions.
fn load_or_make_segments(
    args: &TuneArgs,
    path: &Path,
    options: &BenchOptions,
    start: &ScoreWeights,
    out: &mut Out,
) -> Result<(String, u64)> {
    if !path.exists() {
        let player = Player::score_with(start.clone(), options.input_model()?);
        let clock = std::time::Instant::now();
        let file = make_positions(
            options,
            args.segment_seed,
            args.segment_games,
            &player,
            command_line(),
        );
        let json = serde_json::to_string(&file)? + "\n";
        write_atomically(path, "--segments", json.as_bytes())?;
        out.line_now(format!(
            "made {} positions from {} games in {:.0} s: {}",
            file.positions.len(),
            args.segment_games,
            clock.elapsed().as_secs_f64(),
            path.display()
        ))?;
    }
    let text = read_text(path, "--segments", FILE_LIMIT)?;
    Ok((text.clone(), fnv1a(text.as_bytes())))
}

/// The segments objective from a position file's text.
fn segments_objective(
    text: &str,
    path: &Path,
    options: &BenchOptions,
    s: &SegmentSetup,
) -> Result<Objective> {
    playfield_ai::nes::tune::segments_objective(text, options, s)
        .with_context(|| format!("--segments {}", path.display()))
}

/// Checks that a band's run has positions at the band's first line.
fn check_band_positions(
    band: Band,
    objective: &Objective,
    options: &BenchOptions,
    path: &Path,
) -> Result<()> {
    let Some(first) = band.first_line(options.level, options.double_speed_level) else {
        bail!("--band {band}: the format's games never reach it");
    };
    if let Objective::Segments { starts, .. } = objective
        && !starts.iter().any(|s| s.position.band == first)
    {
        bail!(
            "--band {band}: --segments {} holds no position at line {first}, where the band \
             starts",
            path.display()
        );
    }
    Ok(())
}

/// Where the run saves its checkpoint, and the option that names it: --checkpoint, else the
/// checkpoint it resumes.
fn checkpoint_path(args: &TuneArgs) -> Option<(&'static str, &Path)> {
    match (&args.checkpoint, &args.resume) {
        (Some(path), _) => Some(("--checkpoint", path)),
        (None, Some(path)) => Some(("--resume", path)),
        (None, None) => None,
    }
}

/// Refuses, before the first generation, outputs that cannot be written or would replace an
/// input or each other (a checkpoint saved back to the one resumed is the one overlap meant).
fn check_files(args: &TuneArgs) -> Result<()> {
    let saved = checkpoint_path(args);
    let mut inputs: Vec<(&str, &Path)> = Vec::new();
    inputs.extend(args.weights.as_deref().map(|p| ("--weights", p)));
    // Read, or made and then read: either way not to be replaced by an output.
    inputs.extend(args.segments.as_deref().map(|p| ("--segments", p)));
    if let Some(resume) = &args.resume
        && saved.is_none_or(|(_, path)| file_key(path) != file_key(resume))
    {
        inputs.push(("--resume", resume));
    }
    let mut outputs: Vec<(&'static str, &Path)> = Vec::new();
    outputs.extend(args.out.as_deref().map(|p| ("--out", p)));
    outputs.extend(saved);
    check_distinct(&inputs, &outputs)?;
    for (what, path) in &outputs {
        check_output_dir(path, what)?;
    }
    if let Some(path) = &args.segments
        && !path.exists()
    {
        check_output_dir(path, "--segments")?;
    }
    Ok(())
}

/// Runs `nes tune`.
pub fn run(args: &TuneArgs) -> Result<()> {
    check_files(args)?;
    let mut out = Out::new();
    let (mut checkpoint, options, objective) = match &args.resume {
        Some(path) => resume(path)?,
        None => {
            let options = options_of(args.format, args.linecap)?;
            // The weights as text: a band's run keeps it and reads it back to the same numbers.
            let (start_text, start) = match &args.weights {
                Some(path) => {
                    let text = read_text(path, "--weights", FILE_LIMIT)?;
                    let start = ScoreWeights::parse(&text)
                        .with_context(|| format!("--weights {}", path.display()))?;
                    (text, start)
                }
                None => {
                    let text = serde_json::to_string(&ScoreWeights::shipped())?;
                    let start = ScoreWeights::parse(&text)?;
                    (text, start)
                }
            };
            let tuned = match args.band {
                Some(band) => start.band_weights(band),
                None => start.clone(),
            };
            let mut setup = Setup {
                format: args.format.name().to_owned(),
                linecap: args.linecap,
                population: args.population,
                seed: args.seed,
                start: tuned.terms().iter().map(|t| t.1).collect(),
                games: args.games,
                segments: None,
                fixed: args.fixed.clone(),
                band: args.band.map(|b| b.to_string()),
                // Kept whole: a base-terms run keeps the start's bands, a band's run its base.
                base: Some(start_text),
            };
            if let Some(bad) = args
                .fixed
                .iter()
                .find(|f| !playfield_ai::nes::score::TERM_NAMES.contains(&f.as_str()))
            {
                return Err(usage(format!(
                    "--fixed: {bad:?} is not a term (terms: {})",
                    playfield_ai::nes::score::TERM_NAMES.join(", ")
                )));
            }
            let objective = match &args.segments {
                Some(path) => {
                    let (text, hash) =
                        load_or_make_segments(args, path, &options, &start, &mut out)?;
                    if args.make_segments_only {
                        out.flush()?;
                        return Ok(());
                    }
                    let s = SegmentSetup {
                        file: path.display().to_string(),
                        hash,
                        per_band: args.per_band,
                        lines: args.segment_lines,
                        loss_per_line: args.topout_loss_per_line,
                        pieces: args.segment_pieces,
                    };
                    let objective = segments_objective(&text, path, &options, &s)?;
                    if let Some(band) = args.band {
                        check_band_positions(band, &objective, &options, path)?;
                    }
                    setup.games = 0;
                    setup.segments = Some(s);
                    objective
                }
                None => Objective::Games { games: args.games },
            };
            (
                Checkpoint::new(setup, args.sigma, command_line()),
                options,
                objective,
            )
        }
    };
    let checkpoint_path = checkpoint_path(args).map(|(_, path)| path.to_path_buf());
    run_tune(
        &options,
        &objective,
        &mut checkpoint,
        args.generations,
        |c| -> Result<()> {
            let g = c.history.last().expect("a generation ran");
            out.line_now(format!(
                "generation {}: best sample {:.0}, samples {:.0}, mean {:.0}, start {:.0} \
                 (mean - start {:+.0}), sigma {:.3}",
                g.generation,
                g.best_fitness,
                g.samples_fitness,
                g.mean_fitness,
                g.start_fitness,
                g.mean_fitness - g.start_fitness,
                g.sigma
            ))?;
            if let Some(path) = &checkpoint_path {
                let json = serde_json::to_string_pretty(c)? + "\n";
                write_atomically(path, "--checkpoint", json.as_bytes())?;
            }
            if let Some(path) = &args.out {
                write_atomically(path, "--out", weights_file(c)?.as_bytes())?;
            }
            Ok(())
        },
    )?;
    out.line(format!(
        "{} generations × {} samples, format {}, seed {}{}{}",
        checkpoint.es.generation,
        checkpoint.setup.population,
        checkpoint.setup.format,
        checkpoint.setup.seed,
        args.out
            .as_ref()
            .map(|p| format!(", weights {}", p.display()))
            .unwrap_or_default(),
        checkpoint_path
            .as_ref()
            .map(|p| format!(", checkpoint {}", p.display()))
            .unwrap_or_default(),
    ))?;
    out.flush()?;
    Ok(())
}

/// A checkpoint's run, ready to continue: the checkpoint (this command line added), the
/// options, the objective.
fn resume(path: &Path) -> Result<(Checkpoint, BenchOptions, Objective)> {
    let text = read_text(path, "--resume", FILE_LIMIT)?;
    let (mut checkpoint, options, objective) =
        open_run(&text, &format!("--resume {}", path.display()))?;
    checkpoint.made_by.push(command_line());
    Ok((checkpoint, options, objective))
}

/// The mean weights of `c` as a weights file, with how they were made.
fn weights_file(c: &Checkpoint) -> Result<String> {
    Ok(c.weights_file()?)
}
