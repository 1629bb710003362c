//! `playfield standard bench`: N games with an AI player in parallel; lines cleared with their
//! statistics (`playfield_report`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use playfield_ai::standard::{GameRecord, Player, PlayerConfig};
use playfield_report::batch::Batch;
use playfield_report::chart::{self, Histogram};
use playfield_report::stats::Summary;
use playfield_standard::{EndRule, GameOver};
use serde::Serialize;

use super::{AiArgs, GameArgs, Sequence};
use crate::checks::{MAX_GAMES, MAX_THREADS, int};
use crate::files::{OutputFile, check_distinct};
use crate::output::{Out, progress_bar};

/// Games when `--games` is not given.
const DEFAULT_GAMES: u64 = 100;

/// `standard bench` options.
#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(flatten)]
    ai: AiArgs,
    #[command(flatten)]
    game: GameArgs,
    /// Number of games, 1 to 1,000,000 (default 100).
    #[arg(long, value_parser = int(1, MAX_GAMES), conflicts_with = "game_seed")]
    games: Option<u64>,
    /// Stop a game once it has completed this many lines, 1 to 10^15 (reported as capped).
    #[arg(long, value_parser = int(1u64, 1_000_000_000_000_000))]
    max_lines: Option<u64>,
    /// Worker threads, 1 to 256 (default: one per core). Results do not depend on it.
    #[arg(long, value_parser = int(1, MAX_THREADS))]
    threads: Option<usize>,
    /// Print JSON (per-game lines and a summary) instead of text.
    #[arg(long)]
    json: bool,
    /// Write an SVG histogram of lines per game, with the mean and its 95% interval.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

#[derive(Debug, Serialize)]
struct GameJson {
    index: u64,
    seed: u64,
    lines: u64,
    pieces: u64,
    score: u64,
    capped: bool,
    ended: Option<&'static str>,
}

#[derive(Debug, Serialize)]
struct SummaryJson {
    games: u64,
    mean_lines: f64,
    ci95_low: Option<f64>,
    ci95_high: Option<f64>,
    ci95_half_width: Option<f64>,
    sd_lines: Option<f64>,
    median_lines: f64,
    min_lines: u64,
    max_lines: u64,
    capped_games: u64,
    total_pieces: u64,
    seconds: f64,
    pieces_per_second: f64,
    threads: usize,
}

#[derive(Debug, Serialize)]
struct ConfigJson {
    ai: String,
    lookahead: u8,
    model: String,
    exclude_game_ending: bool,
    end_rule: &'static str,
    height: usize,
    level: u8,
    seed: u64,
    game_seed: Option<u64>,
    sequence: &'static str,
    max_lines: Option<u64>,
}

#[derive(Debug, Serialize)]
struct BenchJson {
    config: ConfigJson,
    games: Vec<GameJson>,
    summary: SummaryJson,
}

fn ended_name(e: Option<GameOver>) -> Option<&'static str> {
    e.map(|e| match e {
        GameOver::SpawnBlocked => "spawn-blocked",
        GameOver::NoPlacement => "no-placement",
        GameOver::SequenceEnded => "sequence-ended",
    })
}

/// Runs `standard bench`.
pub fn run(a: &BenchArgs) -> Result<()> {
    // Everything that can be refused is refused before the first game.
    let config = a.ai.config(&a.game)?;
    let sequence = a.game.sequence()?;
    let games = if a.game.game_seed.is_some() {
        1
    } else {
        a.games.unwrap_or(DEFAULT_GAMES)
    };
    a.game.new_game(&sequence, 0)?;
    if let Some(plot) = &a.plot {
        let pieces = a.game.pieces.as_deref().map(|p| ("--pieces", p));
        check_distinct(&pieces.into_iter().collect::<Vec<_>>(), &[("--plot", plot)])?;
    }
    let plot = match &a.plot {
        Some(path) => Some(OutputFile::create(path, "--plot")?),
        None => None,
    };
    // Games in chunks, so memory holds a few numbers per game whatever --games is.
    let batch = Batch::new(a.threads)?.chunk_per_thread(4);
    let threads = batch.threads();
    let bar = progress_bar(
        games,
        "{bar:40} {pos}/{len} games {elapsed_precise} (eta {eta})",
    );
    let player = Player::new(config);
    let start = Instant::now();
    let mut records: Vec<GameJson> = Vec::new();
    batch.run(
        0..games,
        |i| -> Result<(u64, GameRecord)> {
            let (mut game, seed) = a.game.new_game(&sequence, i)?;
            let r = player
                .play_game(&mut game, a.max_lines)
                .with_context(|| format!("game {i} (seed {seed})"))?;
            Ok((seed, r))
        },
        || bar.inc(1),
        |i, r| -> Result<()> {
            let (seed, r) = r?;
            records.push(GameJson {
                index: i,
                seed,
                lines: r.lines,
                pieces: r.pieces,
                score: r.score,
                capped: r.capped,
                ended: ended_name(r.ended),
            });
            Ok(())
        },
    )?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let lines: Vec<u64> = records.iter().map(|g| g.lines).collect();
    let stats = Summary::of_counts(&lines).context("no game was played")?;
    let total_pieces: u64 = records.iter().map(|g| g.pieces).sum();
    let capped = records.iter().filter(|g| g.capped).count() as u64;
    let summary = SummaryJson {
        games,
        mean_lines: stats.mean,
        ci95_low: stats.ci95.map(|c| c.low),
        ci95_high: stats.ci95.map(|c| c.high),
        ci95_half_width: stats.ci95.map(|c| c.half_width()),
        sd_lines: stats.sd,
        median_lines: stats.median,
        min_lines: stats.min as u64,
        max_lines: stats.max as u64,
        capped_games: capped,
        total_pieces,
        seconds,
        pieces_per_second: total_pieces as f64 / seconds.max(1e-9),
        threads,
    };
    let mut out = Out::new();
    if a.json {
        let json = BenchJson {
            config: ConfigJson {
                ai: a.ai.ai.to_ascii_lowercase(),
                lookahead: config.lookahead,
                model: config.model.to_string(),
                exclude_game_ending: config.exclude_game_ending,
                end_rule: match config.end_rule {
                    EndRule::SpawnBlocked => "spawn-blocked",
                    EndRule::NoPlacement => "no-placement",
                },
                height: a.game.height,
                level: a.game.level,
                seed: a.game.seed(),
                game_seed: a.game.game_seed,
                sequence: match sequence {
                    Sequence::Random => "random",
                    Sequence::Sz => "alternating-sz",
                    Sequence::Fixed(_) => "file",
                },
                max_lines: a.max_lines,
            },
            games: records,
            summary,
        };
        out.line(serde_json::to_string_pretty(&json)?)?;
    } else {
        out.line(text_report(a, &config, &summary, &stats)?)?;
    }
    out.flush()?;
    if let Some(file) = plot {
        let values: Vec<f64> = lines.iter().map(|&l| l as f64).collect();
        let svg = chart::histogram(&Histogram {
            title: &describe(a, &config),
            unit: "lines",
            values: &values,
            mean: stats.mean,
            ci95: stats.ci95,
        })?;
        file.commit_bytes(svg.as_bytes())?;
    }
    Ok(())
}

fn text_report(
    a: &BenchArgs,
    config: &PlayerConfig,
    summary: &SummaryJson,
    stats: &Summary,
) -> Result<String> {
    let mut s = String::new();
    writeln!(s, "Standard Tetris bench: {}", describe(a, config))?;
    writeln!(s, "games        {}", summary.games)?;
    match stats.ci95 {
        Some(ci) => writeln!(
            s,
            "lines mean   {:.1} ± {:.1} (95% CI {:.1} .. {:.1})",
            stats.mean,
            ci.half_width(),
            ci.low,
            ci.high
        )?,
        None => writeln!(s, "lines mean   {:.1} (one game: no interval)", stats.mean)?,
    }
    writeln!(s, "median       {}", summary.median_lines)?;
    writeln!(
        s,
        "min / max    {} / {}",
        summary.min_lines, summary.max_lines
    )?;
    write!(
        s,
        "pieces       {} in {:.2} s on {} threads: {:.0} pieces/s",
        summary.total_pieces, summary.seconds, summary.threads, summary.pieces_per_second
    )?;
    if let Some(cap) = a.max_lines {
        if summary.capped_games > 0 {
            write!(
                s,
                "\ncapped       {} of {} games stopped at the cap of {cap} lines: the mean is a \
                 lower bound",
                summary.capped_games, summary.games
            )?;
        } else {
            write!(s, "\ncapped       none (cap {cap} lines)")?;
        }
    }
    Ok(s)
}

fn describe(a: &BenchArgs, c: &PlayerConfig) -> String {
    let mut d = format!(
        "ai={} lookahead={} model={} height={} level={} seed={}",
        a.ai.ai.to_ascii_lowercase(),
        c.lookahead,
        c.model,
        a.game.height,
        a.game.level,
        a.game.seed()
    );
    if let Some(s) = a.game.game_seed {
        let _ = write!(d, " game-seed={s}");
    }
    if c.exclude_game_ending {
        d.push_str(" exclude-game-ending");
    }
    if c.end_rule == EndRule::NoPlacement {
        d.push_str(" end-rule=no-placement");
    }
    if let Some(p) = &a.game.pieces {
        let _ = write!(d, " pieces={}", p.display());
    }
    if a.game.sz {
        d.push_str(" sequence=alternating-sz");
    }
    if let Some(m) = a.max_lines {
        let _ = write!(d, " max-lines={m}");
    }
    d
}
