//! `playfield nes segments`: several weights files play segments from the same saved positions
//! (a band's, or all), and each is compared with the first, position by position, or with an
//! earlier run's reference (`--against`: another build, or other settings, on the same
//! positions).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use playfield_ai::nes::bench::{BenchOptions, Format};
use playfield_ai::nes::compare::{Comparison, MeanInterval, compare, play_all};
use playfield_ai::nes::segments::{
    PositionFile, SegmentPieces, SegmentScore, Start, replay_positions,
};
use playfield_ai::nes::{Player, ScoreWeights};

use crate::checks::{int, usage};
use crate::files::read_text;
use crate::output::Out;

/// Largest position file read (bytes).
const FILE_LIMIT: u64 = 1 << 30;

/// The name that stands for the shipped weights among --weights.
const SHIPPED: &str = "shipped";

/// Arguments of `nes segments`.
#[derive(Debug, Args)]
pub struct SegmentsArgs {
    /// The benchmark format the positions were made in (see `nes bench --format`).
    #[arg(long, value_name = "FORMAT", default_value = "betatetris", value_parser = parse_format)]
    format: Format,
    /// The line cap the positions were made with instead of the format's, 1 to 100,000.
    #[arg(long, value_name = "L", value_parser = int(1u32, 100_000))]
    linecap: Option<u32>,
    /// The saved positions (made by `nes tune --segments FILE --make-segments-only`).
    #[arg(long, value_name = "FILE.json")]
    segments: PathBuf,
    /// Only the positions cut at this band's first line (0, 130, 230 or 330 in the BetaTetris
    /// format); default: all.
    #[arg(long, value_name = "LINES")]
    band: Option<u32>,
    /// Lines each segment plays (or to the format's line cap), 1 to 100,000.
    #[arg(long, value_name = "K", default_value_t = 1000, value_parser = int(1u32, 100_000))]
    lines: u32,
    /// A weights file to compare, or `shipped`; give it twice or more: the first is the
    /// reference the others are paired against (unless --against gives one).
    #[arg(long, value_name = "FILE.json", required = true, num_args = 1)]
    weights: Vec<String>,
    /// Pair every weights file against the first result of an earlier `--json` run on the same
    /// positions (band, lines and pieces as here), such as another build's: its segments must
    /// be these positions', in their order.
    #[arg(long, value_name = "RUN.json")]
    against: Option<PathBuf>,
    /// Where the segments' pieces come from: `rom` (the game's randomizer, whose pieces follow
    /// each player's timing) or `dealt` (a sequence of each position's own, the same for every
    /// player: the pieces' luck falls out of the pairing; not the ROM's game).
    #[arg(long, value_name = "FROM", default_value = "rom")]
    pieces: SegmentPieces,
    /// One JSON object per weights file instead of text, with each segment's result (`segments`:
    /// band, seed, points, lines, topped_out, in the file's order).
    #[arg(long)]
    json: bool,
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
        .map_err(|e: playfield_ai::nes::bench::BenchError| e.to_string())
}

/// A mean with its interval, as text.
fn text(m: &MeanInterval, signed: bool) -> String {
    if signed {
        format!("{:+.1} ± {:.1}", m.mean, m.half_width)
    } else {
        format!("{:.1} ± {:.1}", m.mean, m.half_width)
    }
}

/// Runs `nes segments`.
pub fn run(args: &SegmentsArgs) -> Result<()> {
    if args.weights.len() < 2 && args.against.is_none() {
        return Err(usage(
            "--weights: give at least two (the first is the reference), or --against RUN.json",
        ));
    }
    let mut options: BenchOptions = args.format.options();
    if args.linecap.is_some() {
        options.line_cap = args.linecap;
    }
    options.validate().map_err(|e| usage(e.to_string()))?;
    let input = options.input_model()?;
    let players: Vec<Player> = args
        .weights
        .iter()
        .map(|w| {
            let weights = if w == SHIPPED {
                ScoreWeights::shipped()
            } else {
                ScoreWeights::load(std::path::Path::new(w))?
            };
            Ok(Player::score_with(weights, input.clone()))
        })
        .collect::<Result<_>>()?;
    let path = &args.segments;
    let text_of_file = read_text(path, "--segments", FILE_LIMIT)?;
    let mut file = PositionFile::parse(&text_of_file, &options)
        .with_context(|| format!("--segments {}", path.display()))?;
    if let Some(band) = args.band {
        file.positions.retain(|p| p.band == band);
    }
    if file.positions.is_empty() {
        bail!(
            "--segments {}: no position{}",
            path.display(),
            args.band
                .map(|b| format!(" at band {b}"))
                .unwrap_or_default()
        );
    }
    let starts = replay_positions(&file, &options)
        .with_context(|| format!("--segments {}", path.display()))?;
    // The earlier run's reference and its name, read before the segments are played.
    let earlier = match &args.against {
        Some(path) => {
            let text = read_text(path, "--against", FILE_LIMIT)?;
            let (scores, name) = reference_of_run(&text, &starts)
                .with_context(|| format!("--against {}", path.display()))?;
            Some((scores, format!("{name} of {}", path.display())))
        }
        None => None,
    };
    // One worker per core (RAYON_NUM_THREADS sets another count); results do not depend on it.
    let scores = play_all(&starts, &options, args.lines, &players, args.pieces);
    let (reference, reference_name) = match &earlier {
        Some((scores, name)) => (scores, name.clone()),
        None => (&scores[0], args.weights[0].clone()),
    };
    let mut out = Out::new();
    for (w, s) in args.weights.iter().zip(&scores) {
        let c: Comparison = compare(s, reference);
        if args.json {
            let mut value = serde_json::to_value(&c)?;
            if let Some(map) = value.as_object_mut() {
                map.insert("weights".into(), serde_json::json!(w));
                // Each segment's own result, in the file's order, so that runs of other
                // builds (or other settings) on the same positions can be paired too.
                let each: Vec<serde_json::Value> = starts
                    .iter()
                    .zip(s)
                    .map(|(start, score)| {
                        serde_json::json!({
                            "band": start.position.band,
                            "seed": start.position.seed,
                            "points": score.points,
                            "lines": score.lines,
                            "topped_out": score.topped_out,
                        })
                    })
                    .collect();
                map.insert("segments".into(), serde_json::Value::Array(each));
            }
            out.line(serde_json::to_string(&value)?)?;
        } else {
            out.line(format!(
                "{w}: {} segments, points {}, lines {}, topped out {:.0} %; against {}: \
                 points {}, lines {}",
                c.points.n,
                text(&c.points, false),
                text(&c.lines, false),
                100.0 * c.topped_out,
                reference_name,
                text(&c.points_difference, true),
                text(&c.lines_difference, true),
            ))?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The reference of an earlier `nes segments --json` run (`text`, one object a line): its first
/// object's segments and weights name, checked to be `starts`' positions in their order.
fn reference_of_run(text: &str, starts: &[Start]) -> Result<(Vec<SegmentScore>, String)> {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .context("empty: expected the JSON lines of `nes segments --json`")?;
    let value: serde_json::Value =
        serde_json::from_str(first).context("line 1 is not JSON from `nes segments --json`")?;
    let name = value["weights"].as_str().unwrap_or("reference").to_owned();
    let each = value["segments"]
        .as_array()
        .context("line 1 has no `segments` (made by `nes segments --json`)")?;
    if each.len() != starts.len() {
        bail!(
            "{} segments, but the positions here give {} (the same --segments and --band?)",
            each.len(),
            starts.len()
        );
    }
    each.iter()
        .zip(starts)
        .enumerate()
        .map(|(i, (s, start))| {
            let (band, seed) = (s["band"].as_u64(), s["seed"].as_u64());
            if band != Some(u64::from(start.position.band)) || seed != Some(start.position.seed) {
                bail!(
                    "segment {} is band {} seed {}, the position here band {} seed {}",
                    i + 1,
                    s["band"],
                    s["seed"],
                    start.position.band,
                    start.position.seed
                );
            }
            let field = |name: &str| {
                s[name]
                    .as_u64()
                    .with_context(|| format!("segment {}: no `{name}`", i + 1))
            };
            Ok(SegmentScore {
                points: field("points")?,
                lines: u32::try_from(field("lines")?)
                    .with_context(|| format!("segment {}: `lines` out of range", i + 1))?,
                topped_out: s["topped_out"]
                    .as_bool()
                    .with_context(|| format!("segment {}: no `topped_out`", i + 1))?,
            })
        })
        .collect::<Result<Vec<_>>>()
        .map(|scores| (scores, name))
}
