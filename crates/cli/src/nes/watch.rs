//! `playfield nes watch` and `playfield` with no arguments: watch a game of NES Tetris in the
//! terminal, or play it headless and print a summary when there is no terminal.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use playfield_ai::nes::{GameConfig, InputModel, PLAYERS, Pilot, Player, players};
use playfield_nes::fm2::InputLine;
use playfield_nes::tables::ORIENTATIONS;
use playfield_nes::{Events, Nes};

use super::RomData;
use super::players::{PlayerArgs, label};
use crate::tui::WatchOptions;
use crate::tui::nes_loop::{FramePlayer, Speed};

/// The headless game is capped at 36,000 frames (10 minutes of play): a summary, not a marathon.
const MAX_FRAMES: u64 = 36_000;

/// Arguments of `nes watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Start level (0-19; 10-19 are chosen with A held on Start, as on the NES).
    #[arg(long, value_name = "N", default_value_t = 18, value_parser = crate::checks::int(0u8, 19))]
    level: u8,
    /// Seed of the game (it picks the frames waited in the menus, hence the RNG and the pieces);
    /// a seed printed by `nes bench` with its default input settings and the same player shows
    /// that game.
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
    #[command(flatten)]
    who: PlayerArgs,
}

/// The input model every watched player uses, as `nes bench`'s default format does: 30 Hz
/// taps with DAS, the preview seen 18 frames after spawn.
fn input_model() -> Result<InputModel> {
    Ok(InputModel::new("X.", true, 18)?)
}

/// A player at the gamepad, deciding each piece as it comes (as `nes bench` plays it).
struct LivePlayer {
    pilot: Pilot,
    player: Player,
}

impl FramePlayer for LivePlayer {
    fn next_line(&mut self, nes: &Nes) -> Option<InputLine> {
        Some(InputLine::new(self.pilot.buttons(nes)))
    }

    fn target(&self, _nes: &Nes) -> Option<[(i16, i16); 4]> {
        let (x, y, orientation) = self.pilot.target()?;
        let minos = ORIENTATIONS.get(usize::from(orientation))?;
        Some(minos.map(|m| {
            (
                i16::from(x) + i16::from(m.dx),
                i16::from(y) + i16::from(m.dy),
            )
        }))
    }

    fn switch_player(&mut self) -> Option<String> {
        let at = PLAYERS.iter().position(|p| p.name == self.player.name)?;
        let next = PLAYERS[(at + 1) % PLAYERS.len()].name;
        let player = players::by_name(next, self.player.input.clone()).ok()?;
        self.pilot.set_player(player.clone());
        self.player = player;
        Some(label(&self.player))
    }
}

/// `playfield nes watch`.
pub fn run(args: &WatchArgs) -> Result<()> {
    crate::tui::require_terminal("nes watch")?;
    let rom = super::rom_data(args.rom.as_ref())?;
    let player = args.who.player(input_model()?)?;
    watch_game(args.level, args.seed, args.speed, rom, player)
}

fn watch_game(
    level: u8,
    seed: u64,
    speed: Speed,
    (demo, program): RomData,
    player: Player,
) -> Result<()> {
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    nes.set_program_data(program);
    let config = GameConfig {
        stop_at_max_score: false,
        // As `nes bench`'s default format plays it: past 999,999 the player plays to survive.
        survive_at_max_score: true,
        ..GameConfig::a_type(level, seed)
    };
    config.validate()?;
    let title = label(&player);
    let mut live = LivePlayer {
        pilot: Pilot::new(&config, player.clone()),
        player,
    };
    crate::tui::watch(&mut nes, &mut live, &WatchOptions { title, speed })
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
pub fn headless(level: u8, seed: u64, player: &Player) -> Result<Summary> {
    let config = GameConfig {
        max_frames: Some(MAX_FRAMES),
        stop_at_max_score: false,
        // As `nes bench`'s default format plays it: past 999,999 the player plays to survive.
        survive_at_max_score: true,
        ..GameConfig::a_type(level, seed)
    };
    let game = playfield_ai::nes::play_game(&config, player, |_, _| Ok(()));
    let mut nes = Nes::power_on();
    let summary = |nes: &Nes| Summary {
        score: nes.score(),
        lines: nes.lines(),
        level: nes.level(),
        frames: nes.frame(),
    };
    for buttons in game.input {
        let events = nes.step_line(&InputLine::new(buttons));
        if events.has(Events::TOP_OUT) {
            return Ok(summary(&nes));
        }
        if events.has(Events::UNSUPPORTED) {
            break;
        }
    }
    Ok(summary(&nes))
}

/// `playfield` with no arguments: watch the strongest player (or `who`'s) from level 18 in the
/// terminal, or, when standard output is not a terminal, play the same game headless and print
/// its summary.
pub fn run_default(who: &PlayerArgs) -> Result<()> {
    const LEVEL: u8 = 18;
    const SEED: u64 = 1;
    let player = who.player(input_model()?)?;
    if std::io::stdout().is_terminal() {
        return watch_game(LEVEL, SEED, Speed::Times(1.0), (None, None), player);
    }
    let s = headless(LEVEL, SEED, &player)?;
    let mut out = crate::output::Out::new();
    out.line(format!(
        "NES Tetris, start level {LEVEL}, seed {SEED}, {}",
        label(&player)
    ))?;
    out.line(format!("score: {}", s.score))?;
    out.line(format!("lines: {}", s.lines))?;
    out.line(format!("level: {}", s.level))?;
    out.line(format!("frames: {}", s.frames))?;
    out.line(format!(
        "watch it in a terminal: playfield nes watch --player {} --seed {SEED}",
        player.name
    ))?;
    out.flush()?;
    Ok(())
}
