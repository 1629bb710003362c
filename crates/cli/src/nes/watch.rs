//! `playfield nes watch` and `playfield` with no arguments: watch a game of NES Tetris in the
//! terminal, or play it headless and print a summary when there is no terminal.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use playfield_ai::nes::{GameConfig, InputModel, Player, play_game_with_rom};
use playfield_nes::fm2::InputLine;
use playfield_nes::{Events, Nes, ProgramData};

use super::RomData;

use crate::tui::nes_loop::Speed;
use crate::tui::{MoviePlayer, WatchOptions};

/// Who plays: Birken's AI (`playfield_ai::nes`), two-piece lookahead, 30 Hz input, 18 frames of
/// reaction time. The whole game is computed first; the view then outlines each placement before
/// the piece locks (`MoviePlayer::with_targets` finds each lock from the input).
const PLAYER_NAME: &str = "Birken's AI (30 Hz, 18-frame reaction)";

/// The game is computed before it is shown, so it is capped at 36,000 frames (10 minutes of
/// play; a few seconds of search). The AI usually survives that long from level 18.
const MAX_FRAMES: u64 = 36_000;

/// Arguments of `nes watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Start level (0-19; 10-19 are chosen with A held on Start, as on the NES).
    #[arg(long, value_name = "N", default_value_t = 18, value_parser = crate::checks::int(0u8, 19))]
    level: u8,
    /// Seed of the game (it picks the frames waited in the menus, hence the RNG and the pieces);
    /// a seed printed by `nes bench` with its default input settings shows that game.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Speed: a multiple of real time (60.0988 frames/s) from 1/64 to 1024, e.g. 1, 2, 0.5, or
    /// "max".
    #[arg(long, value_name = "X", default_value = "1", value_parser = Speed::parse)]
    speed: Speed,
    /// Tetris (USA) ROM, read for the demo's tables and for the lag model, which runs its program
    /// at the highest levels (default: $PLAYFIELD_ROM); its SHA-1 is checked.
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<PathBuf>,
}

/// The game the player will play, as input lines from power-on.
fn game_lines(level: u8, seed: u64, program: Option<Arc<ProgramData>>) -> Result<Vec<InputLine>> {
    let model = InputModel::new("X.", true, 18)?;
    let player = Player::birken(model);
    let config = GameConfig {
        max_frames: Some(MAX_FRAMES),
        stop_at_max_score: false,
        ..GameConfig::a_type(level, seed)
    };
    let game = play_game_with_rom(&config, &player, program, |_, _| Ok(()));
    Ok(game.input.into_iter().map(InputLine::new).collect())
}

/// `playfield nes watch`.
pub fn run(args: &WatchArgs) -> Result<()> {
    // Refuse before the (short) precomputation, so a pipe gets its error at once.
    crate::tui::require_terminal("nes watch")?;
    let rom = super::rom_data(args.rom.as_ref())?;
    watch_game(args.level, args.seed, args.speed, rom)
}

fn watch_game(level: u8, seed: u64, speed: Speed, (demo, program): RomData) -> Result<()> {
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    nes.set_program_data(program.clone());
    crate::output::note(format!(
        "computing the AI's game (level {level}, seed {seed})..."
    ));
    let mut player = MoviePlayer::with_targets(game_lines(level, seed, program)?, &nes);
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
pub fn headless(level: u8, seed: u64) -> Result<Summary> {
    let mut nes = Nes::power_on();
    let summary = |nes: &Nes| Summary {
        score: nes.raw().player.score_decimal(),
        lines: nes.raw().player.lines_decimal(),
        level: nes.raw().player.level_number,
        frames: nes.frame(),
    };
    for line in game_lines(level, seed, None)? {
        let events = nes.step_line(&line);
        if events.has(Events::TOP_OUT) {
            return Ok(summary(&nes));
        }
        if events.has(Events::UNSUPPORTED) {
            break;
        }
    }
    Ok(summary(&nes))
}

/// `playfield` with no arguments: watch a game from level 18 in the terminal, or, when standard
/// output is not a terminal, play the same game headless and print its summary.
pub fn run_default() -> Result<()> {
    const LEVEL: u8 = 18;
    const SEED: u64 = 1;
    if std::io::stdout().is_terminal() {
        return watch_game(LEVEL, SEED, Speed::Times(1.0), (None, None));
    }
    let s = headless(LEVEL, SEED)?;
    let mut out = crate::output::Out::new();
    out.line(format!(
        "NES Tetris, start level {LEVEL}, seed {SEED}, {PLAYER_NAME}"
    ))?;
    out.line(format!("score: {}", s.score))?;
    out.line(format!("lines: {}", s.lines))?;
    out.line(format!("level: {}", s.level))?;
    out.line(format!("frames: {}", s.frames))?;
    out.flush()?;
    Ok(())
}
