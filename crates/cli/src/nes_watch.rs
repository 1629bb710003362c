//! `playfield nes watch` and `playfield` with no arguments: watch a game of NES Tetris in the
//! terminal, or play it headless and print a summary when there is no terminal.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use playfield_nes::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_nes::fm2::InputLine;
use playfield_nes::{Events, Nes};

use crate::tui::nes_loop::Speed;
use crate::tui::{MoviePlayer, WatchOptions};

/// Who plays until the AI (`playfield_ai::nes`) is wired in: the engine crate's scripted player,
/// a one-piece greedy bot. Named honestly everywhere it shows.
///
/// To switch to the AI: make [`game_lines`] return the AI's whole game (`play_game(...).input`
/// from `playfield_ai::nes`, as input lines) and rename the player here. The view then outlines
/// the AI's chosen placements by itself: `MoviePlayer::with_targets` finds each lock from the
/// input, and the AI's game checks that every piece locks where it planned.
const PLAYER_NAME: &str = "scripted player (not the AI yet)";

/// Stop a game that never tops out after this many frames (about 2 h 19 min of play).
const MAX_FRAMES: u64 = 500_000;

/// Arguments of `nes watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Start level (0-19; 10-19 are chosen with A held on Start, as on the NES).
    #[arg(long, value_name = "N", default_value_t = 18, value_parser = clap::value_parser!(u8).range(0..=19))]
    level: u8,
    /// Seed of the game (it picks the frames waited in the menus, hence the RNG and the pieces).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Speed: a multiple of real time (60.0988 frames/s), e.g. 1, 2, 0.5, or "max".
    #[arg(long, value_name = "X", default_value = "1", value_parser = Speed::parse)]
    speed: Speed,
    /// Tetris (USA) ROM, read only for the demo's tables (default: $PLAYFIELD_ROM).
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<PathBuf>,
}

/// The game the player will play, as input lines from power-on.
fn game_lines(level: u8, seed: u64) -> Vec<InputLine> {
    let config = AutoplayConfig {
        start_level: level,
        seed,
        games: 1,
        max_frames: MAX_FRAMES,
        ..AutoplayConfig::default()
    };
    autoplay_movie(&config)
        .into_iter()
        .map(InputLine::new)
        .collect()
}

/// `playfield nes watch`.
pub fn watch(args: &WatchArgs) -> Result<()> {
    // Refuse before the (short) precomputation, so a pipe gets its error at once.
    if !std::io::stdout().is_terminal() {
        anyhow::bail!("nes watch needs a terminal (standard output is not one)");
    }
    let demo = crate::nes::demo_data(args.rom.as_ref())?;
    watch_game(args.level, args.seed, args.speed, demo)
}

fn watch_game(
    level: u8,
    seed: u64,
    speed: Speed,
    demo: Option<std::sync::Arc<playfield_nes::DemoData>>,
) -> Result<()> {
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    let mut player = MoviePlayer::with_targets(game_lines(level, seed), &nes);
    crate::tui::watch(
        &mut nes,
        &mut player,
        &WatchOptions {
            title: PLAYER_NAME.to_owned(),
            speed,
        },
    )
}

/// What a headless game ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Final score.
    pub score: u32,
    /// Lines cleared.
    pub lines: u32,
    /// Level reached.
    pub level: u8,
    /// Frames from power-on to the top-out (or to the end of the input).
    pub frames: u64,
}

/// Plays the game without a screen and returns its result.
pub fn headless(level: u8, seed: u64) -> Summary {
    let mut nes = Nes::power_on();
    let summary = |nes: &Nes| Summary {
        score: nes.player.score_decimal(),
        lines: nes.player.lines_decimal(),
        level: nes.player.level_number,
        frames: nes.frame(),
    };
    for line in game_lines(level, seed) {
        let events = nes.step_line(&line);
        if events.has(Events::TOP_OUT) {
            return summary(&nes);
        }
        if events.has(Events::UNSUPPORTED) {
            break;
        }
    }
    summary(&nes)
}

/// `playfield` with no arguments: watch a game from level 18 in the terminal, or, when standard
/// output is not a terminal, play the same game headless and print its summary.
pub fn run_default() -> Result<()> {
    const LEVEL: u8 = 18;
    const SEED: u64 = 1;
    if std::io::stdout().is_terminal() {
        return watch_game(LEVEL, SEED, Speed::Times(1.0), None);
    }
    let s = headless(LEVEL, SEED);
    println!("NES Tetris, start level {LEVEL}, seed {SEED}, {PLAYER_NAME}");
    println!("score: {}", s.score);
    println!("lines: {}", s.lines);
    println!("level: {}", s.level);
    println!("frames: {}", s.frames);
    Ok(())
}
