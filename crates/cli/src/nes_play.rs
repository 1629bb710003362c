//! `playfield nes play`: the AI plays whole NES Tetris games from power-on through the gamepad.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use playfield_ai::nes::game::{GameEnd, split_mix};
use playfield_ai::nes::{GameConfig, GameResult, InputModel, Player, play_game};
use playfield_nes::fm2::Movie;
use playfield_nes::trace::TraceFrame;
use playfield_rom::{Emulator, Rom};
use rayon::prelude::*;
use serde::Serialize;

/// The game type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameType {
    /// A-type: play until top-out.
    A,
    /// B-type: clear 25 lines from a start height.
    B,
}

/// Arguments of `nes play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Start level, 0-19 (10-19 are chosen with A held + Start, as a player does).
    #[arg(long, value_name = "N", default_value_t = 18)]
    level: u8,
    /// Game type.
    #[arg(long = "type", value_enum, default_value_t = GameType::A)]
    game_type: GameType,
    /// B-type start height, 0-5.
    #[arg(long, value_name = "H", default_value_t = 0)]
    height: u8,
    /// Music 0-3 (3 = off).
    #[arg(long, value_name = "M", default_value_t = 3)]
    music: u8,
    /// Seed: each game waits f(seed, game index) frames on the level menu, so the pieces differ.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Number of games (played in parallel).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Input timeline: frames that may carry a new press (`X` 60 Hz, `X.` 30 Hz, `X...` 15 Hz).
    #[arg(long, value_name = "TIMELINE", default_value = "X.")]
    input: String,
    /// Frames after spawn before the AI sees the next piece.
    #[arg(long, value_name = "F", default_value_t = 18)]
    reaction: u32,
    /// Do not hold Left/Right long enough to autorepeat (taps only).
    #[arg(long)]
    no_das: bool,
    /// Stop a game once it has cleared this many lines (A-type).
    #[arg(long, value_name = "L")]
    max_lines: Option<u32>,
    /// Stop a game after this many frames from power-on.
    #[arg(long, value_name = "F")]
    max_frames: Option<u64>,
    /// Record the game as an FCEUX movie (with several games: FILE-1.fm2, FILE-2.fm2, ...).
    #[arg(long, value_name = "FILE.fm2")]
    record: Option<PathBuf>,
    /// Run the real ROM in lockstep and compare its RAM with the engine every frame.
    #[arg(long, value_name = "PATH")]
    rom: Option<PathBuf>,
    /// Play yourself in the terminal instead of the AI. Keys: arrows = D-pad, Z or A = B, X or
    /// S = A, Enter = Start, Right Shift or Tab = Select (most terminals never report Shift
    /// alone), q/Esc/Ctrl-C = quit. Terminals with the kitty keyboard protocol report key
    /// releases, so held keys (DAS) work exactly; elsewhere a key counts as held for 150 ms after
    /// each press or repeat. The other options do not apply; `--rom` only supplies the demo.
    #[arg(long)]
    pub(crate) human: bool,
    /// Write an SVG chart: for several games the distribution of scores with the mean and its
    /// 95% interval; for one game its score and level over time.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// One JSON object per game (`score`, `lines`, `level`, `frames`), then a summary.
    #[arg(long)]
    json: bool,
}

impl PlayArgs {
    /// The `--rom` path, for human play (where it only supplies the demo's tables).
    pub(crate) fn rom_path(&self) -> Option<&PathBuf> {
        self.rom.as_ref()
    }
}

#[derive(Serialize)]
struct GameJson<'a> {
    game: u32,
    seed: u64,
    score: u32,
    lines: u32,
    level: u8,
    frames: u64,
    pieces: u32,
    end: &'a GameEnd,
}

/// The statistics over several games.
#[derive(Debug, Serialize)]
struct Summary {
    games: usize,
    mean_score: f64,
    ci95_score: f64,
    median_score: f64,
    max_score: u32,
    mean_lines: f64,
    reached_level_29: usize,
    maxed_out: usize,
}

fn summarize(results: &[GameResult]) -> Summary {
    let n = results.len();
    let scores: Vec<f64> = results.iter().map(|r| f64::from(r.score)).collect();
    let mean = scores.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let mut sorted = scores.clone();
    sorted.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    Summary {
        games: n,
        mean_score: mean,
        ci95_score: 1.96 * (var / n as f64).sqrt(),
        median_score: median,
        max_score: results.iter().map(|r| r.score).max().unwrap_or(0),
        mean_lines: results.iter().map(|r| f64::from(r.lines)).sum::<f64>() / n as f64,
        reached_level_29: results.iter().filter(|r| r.level >= 29).count(),
        maxed_out: results.iter().filter(|r| r.score >= 999_999).count(),
    }
}

fn end_text(end: &GameEnd) -> String {
    match end {
        GameEnd::TopOut => "top-out".to_owned(),
        GameEnd::LineCap => "line cap".to_owned(),
        GameEnd::FrameCap => "frame cap".to_owned(),
        GameEnd::BTypeComplete => "B-type complete".to_owned(),
        GameEnd::Unsupported(why) => format!("engine stopped: {why}"),
        GameEnd::Stopped(why) => format!("stopped: {why}"),
        GameEnd::Mismatch(why) => format!("search/engine mismatch: {why}"),
    }
}

/// The movie path for game `index` of `games`.
fn record_path(base: &Path, index: u32, games: u32) -> PathBuf {
    if games == 1 {
        return base.to_path_buf();
    }
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("fm2");
    base.with_file_name(format!("{stem}-{}.{ext}", index + 1))
}

/// The seed of game `index`: independent of how games are spread over threads.
fn game_seed(seed: u64, index: u32) -> u64 {
    split_mix(split_mix(seed) ^ u64::from(index))
}

fn print_game(out: &mut impl Write, json: bool, i: u32, seed: u64, r: &GameResult) -> Result<()> {
    if json {
        let line = serde_json::to_string(&GameJson {
            game: i + 1,
            seed,
            score: r.score,
            lines: r.lines,
            level: r.level,
            frames: r.frames,
            pieces: r.pieces,
            end: &r.end,
        })?;
        writeln!(out, "{line}")?;
    } else {
        writeln!(
            out,
            "game {}: score {} lines {} level {} frames {} ({})",
            i + 1,
            r.score,
            r.lines,
            r.level,
            r.frames,
            end_text(&r.end)
        )?;
    }
    Ok(())
}

/// Plays a game on the engine with the real ROM running in lockstep: every frame both get the
/// same buttons and the emulator's RAM is compared with the engine's on the trace variables; the
/// first difference stops the game with a report (frame, variable, both values).
fn play_in_lockstep(config: &GameConfig, player: &Player, rom: &Rom) -> GameResult {
    let mut emu = match Emulator::new(rom) {
        Ok(emu) => Some(emu),
        Err(e) => {
            return GameResult {
                score: 0,
                lines: 0,
                level: 0,
                frames: 0,
                pieces: 0,
                end: GameEnd::Stopped(format!("the ROM does not start: {e}")),
                input: Vec::new(),
                uncapped_score: 0,
                clears: [0; 4],
                score_by_lines: Vec::new(),
                decision_micros: Vec::new(),
            };
        }
    };
    play_game(config, player, |buttons, nes| {
        let Some(emu) = emu.as_mut() else {
            return Err("no emulator".to_owned());
        };
        emu.step(buttons).map_err(|e| e.to_string())?;
        let engine = TraceFrame::from_ram(nes.frame(), &nes.ram());
        match engine.first_difference(&emu.trace_frame()) {
            None => Ok(()),
            Some(diff) => Err(format!(
                "the ROM diverged from the engine (engine, ROM): {diff}"
            )),
        }
    })
}

/// Runs `nes play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let model = InputModel::new(&args.input, !args.no_das, args.reaction)?;
    let player = Player::birken(model);
    let base = GameConfig {
        game_type: match args.game_type {
            GameType::A => 0,
            GameType::B => 1,
        },
        level: args.level,
        height: args.height,
        music: args.music,
        seed: 0,
        max_lines: args.max_lines,
        max_frames: args.max_frames,
        double_speed_level: None,
    };
    base.validate()?;
    let rom = match &args.rom {
        Some(path) => Some(Rom::load(path).with_context(|| format!("--rom {}", path.display()))?),
        None => None,
    };

    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(u64::from(args.games));
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    // Games run in parallel in chunks, each chunk's results printed in game order as soon as
    // it is done: the output does not depend on the thread count, and a long run shows its
    // games as it goes.
    let chunk = u32::try_from(rayon::current_num_threads() * 2)
        .unwrap_or(2)
        .max(2);
    let stdout = std::io::stdout();
    let mut results: Vec<GameResult> = Vec::with_capacity(args.games as usize);
    let mut first = 0u32;
    while first < args.games {
        let last = (first + chunk).min(args.games);
        let done: Vec<GameResult> = (first..last)
            .into_par_iter()
            .map(|i| {
                let config = GameConfig {
                    seed: game_seed(args.seed, i),
                    ..base
                };
                let result = match &rom {
                    None => play_game(&config, &player, |_, _| Ok(())),
                    Some(rom) => play_in_lockstep(&config, &player, rom),
                };
                bar.inc(1);
                result
            })
            .collect();
        let mut out = stdout.lock();
        for (i, r) in (first..).zip(&done) {
            if let Some(path) = &args.record {
                let file = record_path(path, i, args.games);
                std::fs::write(&file, Movie::new(r.input.iter().copied()).to_fm2())
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
            print_game(&mut out, args.json, i, game_seed(args.seed, i), r)?;
        }
        out.flush()?;
        results.extend(done);
        first = last;
    }
    bar.finish_and_clear();
    let mut out = stdout.lock();
    let summary = summarize(&results);
    if args.json {
        writeln!(out, "{}", serde_json::json!({ "summary": summary }))?;
    } else if results.len() > 1 {
        writeln!(
            out,
            "{} games: mean score {:.0} ± {:.0} (95% CI), median {:.0}, max {}, mean lines {:.1}, \
             reached level 29: {}, maxed out (999,999): {}",
            summary.games,
            summary.mean_score,
            summary.ci95_score,
            summary.median_score,
            summary.max_score,
            summary.mean_lines,
            summary.reached_level_29,
            summary.maxed_out
        )?;
    }
    if let Some(path) = &args.plot {
        write_plot(path, args, &results, &summary)?;
    }
    if let Some(bad) = results
        .iter()
        .find(|r| matches!(r.end, GameEnd::Mismatch(_) | GameEnd::Stopped(_)))
    {
        bail!("a game did not finish cleanly: {}", end_text(&bad.end));
    }
    Ok(())
}

/// `--plot`: a score histogram for several games; score and level over time for one, taken by
/// replaying the game's recorded input through the engine (exact, and cheap next to the search).
fn write_plot(
    path: &std::path::Path,
    args: &PlayArgs,
    results: &[GameResult],
    summary: &Summary,
) -> Result<()> {
    let title = format!(
        "NES Tetris, birken, start level {}, input {}, reaction {}",
        args.level, args.input, args.reaction
    );
    if let [game] = results {
        let mut nes = playfield_nes::Nes::power_on();
        let mut samples: Vec<(u64, u32, u8)> = Vec::new();
        for &buttons in &game.input {
            nes.step(buttons);
            if nes.game_mode != playfield_nes::game_mode::PLAY {
                continue;
            }
            let point = (
                nes.frame(),
                nes.player.score_decimal(),
                nes.player.level_number,
            );
            if samples
                .last()
                .is_none_or(|last| (last.1, last.2) != (point.1, point.2))
            {
                samples.push(point);
            }
        }
        if let Some(&(_, score, level)) = samples.last() {
            samples.push((nes.frame(), score, level));
        }
        return crate::plot::score_and_level(path, &samples, &title);
    }
    let scores: Vec<u64> = results.iter().map(|r| u64::from(r.score)).collect();
    let ci = (
        summary.mean_score - summary.ci95_score,
        summary.mean_score + summary.ci95_score,
    );
    crate::plot::histogram(path, &scores, summary.mean_score, Some(ci), &title, "score")
}
