//! `playfield nes ...`: NES Tetris (USA). The verbs are the same for every game: `play` (you
//! play), `watch` (watch the AI), `bench` (AI games with statistics), and `replay` (a movie).

mod bench;
mod learn;
mod play;
pub(crate) mod players;
mod replay;
mod segments;
mod surface;
mod tune;
mod watch;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Subcommand;
use playfield_nes::{DemoData, ProgramData};
use playfield_rom::{EngineData, Rom};

pub use watch::run_default;

/// The `nes` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play NES Tetris yourself in the terminal, from power-on.
    #[command(after_help = play::KEYS_HELP)]
    Play(play::PlayArgs),
    /// Watch an AI (the score player unless --player says otherwise; 30 Hz input, 18-frame
    /// reaction) play a game in the terminal, in real time or faster.
    #[command(
        after_help = "Keys: 1 2 4 = speed ×1 ×2 ×4, m = max, +/- = faster/slower, \
                      space or p = pause, s or . = one frame while paused, n = next player, \
                      q/Esc/Ctrl-C = quit.\n\nThe seed is the game's own: a seed printed by \
                      `nes bench` (with its default input settings and the same --player) shows \
                      that game.\n\nExamples:\n  playfield \
                      nes watch\n  playfield nes watch --level 19 --seed 7 --speed 2\n  \
                      playfield nes watch --speed max\n  playfield nes watch --player birken"
    )]
    Watch(watch::WatchArgs),
    /// The AI plays whole games through the gamepad, in parallel, and reports statistics.
    #[command(
        after_help = "Examples:\n  playfield nes bench --level 18 --games 100\n  playfield nes \
                      bench --level 19 --input X... --reaction 18 --record game.fm2\n  playfield \
                      nes bench --type b --height 3 --level 9 --json\n  playfield nes bench \
                      --game-seed 1234  # one game of an earlier batch, by its printed seed\n  playfield \
                      nes bench --format betatetris --every-menu-wait  # each of the 1,024 games once"
    )]
    Bench(bench::BenchArgs),
    /// Tune the score player's weights (separable CMA-ES on paired games or on segments from
    /// saved positions), checkpointed after every generation, and write them.
    #[command(
        after_help = "Examples:\n  playfield nes tune --format betatetris --generations 5 \
                      --population 12 --games 4 --out tuned.json\n  playfield nes tune \
                      --segments positions.json --checkpoint run.json --out tuned.json\n  \
                      playfield nes tune --resume run.json --generations 10 --out tuned.json\n  \
                      playfield nes bench --format betatetris --games 100 --weights tuned.json"
    )]
    Tune(tune::TuneArgs),
    /// Learn a board value from games (the points each board was followed by, fitted on its
    /// features), play with it and learn again; write the weights with the value.
    #[command(
        after_help = "Examples:\n  playfield nes learn --games 64 --iterations 3 --out \
                      learned.json\n  playfield nes bench --format betatetris --held-out --games \
                      100 --weights learned.json"
    )]
    Learn(learn::LearnArgs),
    /// Compare weights files on the same saved positions: each plays a segment from every
    /// position (of one band, or all), paired against the first, with 95 % intervals.
    #[command(
        after_help = "Examples:\n  playfield nes segments --segments positions.json --band 330 \
                      --weights shipped --weights mine.json"
    )]
    Segments(segments::SegmentsArgs),
    /// Compute the surface table (how many pieces a surface of columns 1-9 takes without a
    /// hole, by value iteration) and say what it cost; the score player's `surface` term uses
    /// the default one, computed at first use.
    #[command(
        after_help = "Examples:\n  playfield nes surface\n  playfield nes surface --clamp 3 \
                      --out surface3.bin"
    )]
    Surface(surface::SurfaceArgs),
    /// Replay an FCEUX .fm2 movie from power-on and print the final state.
    #[command(
        after_help = "Examples:\n  playfield nes replay game.fm2\n  playfield nes replay \
                      game.fm2 --trace trace.jsonl\n  playfield nes replay game.fm2 --frames \
                      100000 --repeat 20\n  playfield nes replay game.fm2 --watch --speed 4"
    )]
    Replay(replay::ReplayArgs),
}

/// Runs one `nes` subcommand.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Play(args) => play::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Learn(args) => learn::run(&args),
        Command::Segments(args) => segments::run(&args),
        Command::Surface(args) => surface::run(&args),
        Command::Replay(args) => replay::run(&args),
    }
}

/// Loads and checks the ROM (its SHA-1 must be Tetris (USA)'s).
pub(crate) fn load_rom(path: &Path) -> Result<Rom> {
    Rom::load(path).context(crate::checks::rom_option())
}

/// How a report tells the user to give the ROM, whose program the lag model runs, where a game
/// reached the levels where frames can lag or crash without it
/// (`playfield_rom::lag_not_modelled_note`).
pub(crate) const NO_ROM_GIVEN: &str = "no ROM given: --rom or $PLAYFIELD_ROM";

/// What the engine reads from the user's ROM: the demo's tables and the program bytes (the
/// program the lag model runs at the highest levels).
pub(crate) type RomData = (Option<Arc<DemoData>>, Option<Arc<ProgramData>>);

/// The demo's tables and the program bytes from the user's ROM, when one is given; the ROM is
/// checked first.
pub(crate) fn rom_data(rom: Option<&PathBuf>) -> Result<RomData> {
    let Some(path) = rom else {
        return Ok((None, None));
    };
    let data = EngineData::load(path).context(crate::checks::rom_option())?;
    Ok((Some(data.demo), Some(data.program)))
}

/// The demo's tables from the user's ROM, when one is given; the ROM is checked first.
pub(crate) fn demo_data(rom: Option<&PathBuf>) -> Result<Option<Arc<DemoData>>> {
    let Some(path) = rom else { return Ok(None) };
    let rom = load_rom(path)?;
    let demo = DemoData::from_ines(rom.bytes())
        .with_context(|| format!("{} {}", crate::checks::rom_option(), path.display()))?;
    Ok(Some(Arc::new(demo)))
}
