//! `playfield nes ...` subcommands.

use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use playfield_nes::fm2::{InputLine, Movie};
use playfield_nes::trace::TraceFrame;
use playfield_nes::{Buttons, DemoData, Nes, bcd};

/// The `nes` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay an FCEUX .fm2 movie from power-on and print the final state.
    #[command(
        after_help = "Examples:\n  playfield nes replay game.fm2\n  playfield nes replay \
                            game.fm2 --trace trace.jsonl\n  playfield nes replay game.fm2 \
                            --frames 100000 --repeat 20\n  playfield nes replay game.fm2 --watch \
                            --speed 4"
    )]
    Replay(ReplayArgs),
    /// The AI (Birken's evaluator, two-piece lookahead) plays whole games through the gamepad.
    #[command(
        after_help = "Examples:\n  playfield nes play --level 18 --games 100\n  playfield nes play \
                      --level 19 --input X... --reaction 18 --record game.fm2\n  playfield nes play \
                      --type b --height 3 --level 9 --json"
    )]
    Play(crate::nes_play::PlayArgs),
    /// Watch a game of NES Tetris in the terminal, in real time or faster (played for now by the
    /// engine's scripted player, not the AI).
    #[command(
        after_help = "Keys: 1 2 4 = speed ×1 ×2 ×4, m = max, +/- = faster/slower, \
                            space or p = pause, s or . = one frame while paused, q/Esc/Ctrl-C = \
                            quit.\n\nExamples:\n  playfield nes watch\n  playfield nes watch \
                            --level 19 --seed 7 --speed 2\n  playfield nes watch --speed max"
    )]
    Watch(crate::nes_watch::WatchArgs),
}

/// Arguments of `nes replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The movie (.fm2, FCEUX text format, starting at power-on).
    movie: PathBuf,
    /// Write one JSON object per frame (F = 1, 2, ...) with the traced RAM variables.
    #[arg(long, value_name = "OUT.jsonl")]
    trace: Option<PathBuf>,
    /// Pad the movie with empty input up to N frames (or cut it to N).
    #[arg(long, value_name = "N")]
    frames: Option<u64>,
    /// Replay K times and print frames per second (for benchmarking).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Tetris (USA) ROM file, read only for the demo's tables (default: $PLAYFIELD_ROM).
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<PathBuf>,
    /// Watch the movie in the terminal (same keys as `nes watch`) instead of printing the result.
    #[arg(long, conflicts_with_all = ["trace", "repeat"])]
    watch: bool,
    /// Speed for --watch: a multiple of real time (60.0988 frames/s), or "max".
    #[arg(long, value_name = "X", default_value = "1", requires = "watch",
          value_parser = crate::tui::nes_loop::Speed::parse)]
    speed: crate::tui::nes_loop::Speed,
}

/// The demo's tables from the user's ROM, when one is given.
pub(crate) fn demo_data(rom: Option<&PathBuf>) -> Result<Option<Arc<DemoData>>> {
    let Some(path) = rom else { return Ok(None) };
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read ROM {}", path.display()))?;
    let demo = DemoData::from_ines(&bytes).with_context(|| format!("ROM {}", path.display()))?;
    Ok(Some(Arc::new(demo)))
}

/// Runs one `nes` subcommand.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Replay(args) => replay(&args),
        Command::Play(args) if args.human => crate::tui::play_human(demo_data(args.rom_path())?),
        Command::Play(args) => crate::nes_play::run(&args),
        Command::Watch(args) => crate::nes_watch::watch(&args),
    }
}

/// The movie's input lines, padded with empty input or cut to `frames`.
fn movie_input(movie: &Movie, frames: Option<u64>) -> Result<Vec<InputLine>> {
    let mut input = movie.lines.clone();
    if let Some(n) = frames {
        let n = usize::try_from(n).context("--frames is too large")?;
        input.resize(n, InputLine::new(Buttons::NONE));
    }
    Ok(input)
}

fn replay(args: &ReplayArgs) -> Result<()> {
    if args.watch && !std::io::stdout().is_terminal() {
        bail!("replay --watch needs a terminal (standard output is not one)");
    }
    let text = std::fs::read_to_string(&args.movie)
        .with_context(|| format!("cannot read {}", args.movie.display()))?;
    let movie = Movie::parse(&text).with_context(|| format!("in {}", args.movie.display()))?;
    if movie.pal() {
        bail!(
            "{} is a PAL movie; the USA ROM is NTSC",
            args.movie.display()
        );
    }
    let input = movie_input(&movie, args.frames)?;
    let demo = demo_data(args.rom.as_ref())?;
    if args.watch {
        return replay_watch(args, input, demo);
    }

    let mut trace = match &args.trace {
        Some(path) => Some(BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => None,
    };
    let started = Instant::now();
    let mut nes = Nes::power_on();
    for _ in 0..args.repeat {
        nes = Nes::power_on();
        nes.set_demo_data(demo.clone());
        if let Some(out) = trace.as_mut() {
            for line in &input {
                nes.step_line(line);
                let frame = TraceFrame::from_ram(nes.frame(), &nes.ram());
                out.write_all(frame.to_json_line().as_bytes())?;
            }
            out.flush()?;
        } else {
            for line in &input {
                nes.step_line(line);
            }
        }
    }
    let elapsed = started.elapsed();
    print_state(&nes);
    if args.repeat > 1 || args.frames.is_some() && args.trace.is_none() {
        let frames = input.len() as f64 * f64::from(args.repeat);
        println!(
            "speed: {:.0} frames/s ({} frames × {} in {:.3} s)",
            frames / elapsed.as_secs_f64().max(1e-9),
            input.len(),
            args.repeat,
            elapsed.as_secs_f64()
        );
    }
    Ok(())
}

/// `playfield` with no arguments: watch a game from level 18, or print its summary headless.
pub fn run_default() -> Result<()> {
    crate::nes_watch::run_default()
}

/// `nes replay --watch`: the movie in the terminal view.
fn replay_watch(
    args: &ReplayArgs,
    input: Vec<InputLine>,
    demo: Option<Arc<DemoData>>,
) -> Result<()> {
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    let name = args.movie.file_name().map_or_else(
        || args.movie.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut player = crate::tui::MoviePlayer::with_targets(input, &nes);
    crate::tui::watch(
        &mut nes,
        &mut player,
        &crate::tui::WatchOptions {
            title: format!("movie {name}"),
            speed: args.speed,
        },
    )
}

fn print_state(nes: &Nes) {
    let p = &nes.player;
    println!("frame: {}", nes.frame());
    println!("game_mode: {}", nes.game_mode);
    println!("score: {}", p.score_decimal());
    println!("lines: {}", p.lines_decimal());
    println!("level: {}", p.level_number);
    println!("play_state: {}", p.play_state);
    println!(
        "statistics: {}",
        (0..7)
            .map(
                |t| (bcd(nes.stats_by_type[2 * t + 1]) * 100 + bcd(nes.stats_by_type[2 * t]))
                    .to_string()
            )
            .collect::<Vec<_>>()
            .join(" ")
    );
    if let Some(why) = nes.unsupported() {
        println!("unsupported: {why}");
    }
}
