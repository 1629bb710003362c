//! `playfield nes bench`: the AI plays whole NES Tetris games from power-on through the gamepad,
//! in parallel, and the batch's report is printed. The options map onto
//! [`playfield_ai::nes::bench::BenchConfig`]; the statistics are
//! [`playfield_ai::nes::bench::BenchReport`]'s.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use playfield_ai::nes::bench::{BANDS, BETATETRIS_SCORE_AT_LINES, CURVE_STEP, Format, end_text};
use playfield_ai::nes::bench::{BenchConfig, BenchSummary, GameSummary};
use playfield_ai::nes::{
    Console, GameConfig, GameResult, InputModel, Player, play_game_beside, play_game_with_rom,
};
use playfield_nes::fm2::{InputLine, Movie};
use playfield_nes::{Buttons, CpuPhase, LAG_FROM_LEVEL, Nes, ProgramData};
use playfield_report::batch::Batch;
use playfield_report::chart::{self, BandChart, Histogram, ScoreCurve, ScoreSample};
use playfield_rom::{Lockstep, Rom};

use crate::checks::{MAX_GAME_FRAMES, MAX_GAMES, MAX_THREADS, int, not_applicable, usage};
use crate::files::{OutputFile, check_distinct, check_output_dir, file_key, is_device};
use crate::output::{Out, progress_bar};

/// The game type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameType {
    /// A-type: play until top-out.
    A,
    /// B-type: clear 25 lines from a start height.
    B,
}

/// Arguments of `nes bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The benchmark format, a preset of the options below: `rom` the unmodified game (start
    /// 18, `X.`, reaction 18; once the score is maxed at 999,999 the player plays to
    /// survive); `betatetris` BetaTetris's benchmark (start 18, `X.`, reaction 18,
    /// double speed from level 39, game ends at 430 lines, uncapped score); `unlimited` the
    /// unmodified game at 60 Hz (`X`) with no reaction delay (as `rom`, the player plays to
    /// survive once the score is maxed). Options given explicitly override
    /// the preset.
    #[arg(long, value_name = "FORMAT", default_value = "rom", value_parser = parse_format)]
    format: Format,
    #[command(flatten)]
    who: super::players::PlayerArgs,
    /// Start level, 0-19 (10-19 are chosen with A held + Start, as a player does). Default: the
    /// format's (18).
    #[arg(long, value_name = "N", value_parser = int(0u8, 19))]
    level: Option<u8>,
    /// Game type.
    #[arg(long = "type", value_enum, default_value_t = GameType::A)]
    game_type: GameType,
    /// B-type start height, 0-5 (B-type only).
    #[arg(long, value_name = "H", value_parser = int(0u8, 5))]
    height: Option<u8>,
    /// Music 0-3 (3 = off).
    #[arg(long, value_name = "M", default_value_t = 3, value_parser = int(0u8, 3))]
    music: u8,
    /// Seed of the batch: game i's own seed is derived from it and i, and printed with the game.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0,
        conflicts_with = "game_seed"
    )]
    seed: u64,
    /// Play only the game with this seed, as printed by an earlier batch with the same options.
    #[arg(long, value_name = "S", conflicts_with = "games")]
    game_seed: Option<u64>,
    /// Play each of the benchmark's 1,024 games once: a game is fixed by its wait on the level
    /// menu (0-1,023 frames, drawn from its seed), so a batch of --games draws from these with
    /// repeats. Game i has the first seed whose wait is i-1. Waits 0-5 start only two distinct
    /// games (the menu reads no button while it draws its screen): 1,020 are distinct.
    #[arg(long, conflicts_with_all = ["games", "seed", "game_seed"])]
    every_menu_wait: bool,
    /// Play the held-out games instead: the level menu waits 1,024 frames more (1,024-2,047),
    /// so the seeds pick among 1,024 other piece sequences of the unmodified game. Players are
    /// tuned and chosen on the benchmark's games; these check them on games they were not.
    /// Give it again to replay a game of a held-out batch by its seed.
    #[arg(long)]
    held_out: bool,
    /// Number of games, 1 to 1,000,000 (played in parallel).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = int(1, MAX_GAMES))]
    games: u64,
    /// Worker threads, 1 to 256 (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = int(1, MAX_THREADS))]
    threads: Option<usize>,
    /// Input timeline: frames that may carry a new press (`X` 60 Hz, `X.` 30 Hz, `X...` 15 Hz;
    /// `X` then up to 15 `.`). Default: the format's.
    #[arg(long, value_name = "TIMELINE")]
    input: Option<String>,
    /// Frames after spawn before the AI sees the next piece, 0 to 1000. Default: the format's.
    #[arg(long, value_name = "F", value_parser = int(0u32, 1000))]
    reaction: Option<u32>,
    /// Not the ROM: from this level on the piece falls two rows a frame (TetrisGYM's "kill
    /// screen ×2"), at least the start level.
    #[arg(long, value_name = "N", value_parser = int(0u8, 255))]
    double_speed_level: Option<u8>,
    /// Not the ROM: the game ends once this many lines are cleared, 1 to 100,000 (A-type
    /// only; the same as `--max-lines`).
    #[arg(long, value_name = "L", value_parser = int(1u32, 100_000), conflicts_with = "max_lines")]
    linecap: Option<u32>,
    /// Report the score without the ROM's 999,999 cap as the headline (the game is unchanged;
    /// both are always reported); the score player then goes on playing for points past the
    /// cap instead of playing to survive there.
    #[arg(long)]
    uncapped: bool,
    /// Do not hold Left/Right long enough to autorepeat (taps only).
    #[arg(long)]
    no_das: bool,
    /// Stop a game once it has cleared this many lines, 1 to 100,000 (A-type only).
    #[arg(long, value_name = "L", value_parser = int(1u32, 100_000))]
    max_lines: Option<u32>,
    /// Stop a game once its score (the ROM's, capped) reaches 999,999: the maxout share of full
    /// games without playing them on. The player does not see it (unlike a line cap)
    #[arg(long)]
    stop_at_max_score: bool,
    /// Stop a game after this many frames from power-on, 1 to 1,000,000,000.
    #[arg(long, value_name = "F", value_parser = int(1, MAX_GAME_FRAMES))]
    max_frames: Option<u64>,
    /// Record each game as an FCEUX movie (with several games: FILE-1.fm2, FILE-2.fm2, ...).
    #[arg(long, value_name = "FILE.fm2")]
    record: Option<PathBuf>,
    /// Tetris (USA) ROM (default: $PLAYFIELD_ROM; its SHA-1 is checked): the engine's lag model
    /// runs its program at the highest levels. Without it lag frames and crashes are not
    /// modelled.
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<PathBuf>,
    /// Run the real ROM (--rom) in tetanes in lockstep and compare its RAM with the engine every
    /// frame. Where a frame's outcome depends on the console's CPU phase (the lag and crashes
    /// from level 100), the engine follows the phase tetanes has, so the game (and its movie,
    /// --record) is the one the ROM plays in tetanes; the crash risk still counts every phase.
    #[arg(long, requires = "rom")]
    lockstep: bool,
    /// Write an SVG chart: for several games the distribution of scores with the mean and its
    /// 95% interval, and the mean score by lines cleared beside BetaTetris's published
    /// checkpoints; for one game its score and level over time.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// One JSON object per game (`game`, `seed`, `score`, `lines`, `level`, `frames`, `pieces`,
    /// `end`), then `{"summary": ...}`.
    #[arg(long)]
    json: bool,
}

impl BenchArgs {
    /// The library config, or the first option that is wrong or does not apply.
    fn config(&self) -> Result<BenchConfig> {
        if self.game_type == GameType::A && self.height.is_some() {
            return Err(not_applicable("--height", "to A-type games (use --type b)"));
        }
        if self.game_type == GameType::B && self.max_lines.is_some() {
            return Err(not_applicable(
                "--max-lines",
                "to B-type games (they end at 25 lines)",
            ));
        }
        if self.game_type == GameType::B && self.linecap.is_some() {
            return Err(not_applicable(
                "--linecap",
                "to B-type games (they end at 25 lines)",
            ));
        }
        let preset = self.format.options();
        let level = self.level.unwrap_or(preset.level);
        let line_cap = self.linecap.or(self.max_lines).or(preset.line_cap);
        let input = InputModel::new(
            self.input.as_deref().unwrap_or(&preset.timeline),
            !self.no_das && preset.das,
            self.reaction.unwrap_or(preset.reaction),
        )
        .map_err(|e| usage(format!("--input: {e}")))?;
        let player = self.who.player(input.clone())?;
        let config = BenchConfig {
            game: GameConfig {
                game_type: match self.game_type {
                    GameType::A => playfield_nes::GameType::A,
                    GameType::B => playfield_nes::GameType::B,
                },
                level,
                height: self.height.unwrap_or(0),
                music: self.music,
                seed: 0,
                max_lines: if self.game_type == GameType::A {
                    line_cap
                } else {
                    None
                },
                max_frames: self.max_frames,
                stop_at_max_score: self.stop_at_max_score,
                double_speed_level: self.double_speed_level.or(preset.double_speed_level),
                held_out: self.held_out,
                // Where the headline is the ROM's capped score, points past 999,999 count for
                // nothing: the player plays to survive from there.
                survive_at_max_score: !(self.uncapped || preset.uncapped),
            },
            input,
            seed: self.seed,
            games: self.games,
            game_seed: self.game_seed,
            every_menu_wait: self.every_menu_wait,
            player,
            uncapped: self.uncapped || preset.uncapped,
        };
        // What is left to refuse is a combination of options (`--double-speed-level` below
        // `--level`): bad usage.
        config.validate().map_err(|e| usage(e.to_string()))?;
        Ok(config)
    }
}

/// `--format`, with the library's message for an unknown name.
fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
        .map_err(|e: playfield_ai::nes::bench::BenchError| e.to_string())
}

/// The movie path for game `index` of `games`.
fn record_path(base: &Path, index: u64, games: u64) -> PathBuf {
    if games == 1 {
        return base.to_path_buf();
    }
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("fm2");
    base.with_file_name(format!("{stem}-{}.{ext}", index + 1))
}

/// The game (1-based) of a batch of `games` whose movie `--record base` writes to `other`, if any.
fn record_game_at(base: &Path, games: u64, other: &Path) -> Option<u64> {
    let name = other.file_name()?.to_str()?;
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("fm2");
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
    let n: u64 = name
        .strip_prefix(stem)?
        .strip_prefix('-')?
        .strip_suffix(ext)?
        .strip_suffix('.')?
        .parse()
        .ok()?;
    let key = file_key(other);
    (1..=games)
        .contains(&n)
        .then(|| file_key(&record_path(base, n - 1, games)) == key)?
        .then_some(n)
}

/// Refuses, before any game, outputs that would replace an input or each other: the movies of a
/// batch (`FILE-1.fm2`, ...) included, and a device given several games' movies.
fn check_outputs(args: &BenchArgs, games: u64) -> Result<()> {
    let mut inputs: Vec<(&str, &Path)> = Vec::new();
    inputs.extend(args.who.weights.as_deref().map(|p| ("--weights", p)));
    inputs.extend(
        args.rom
            .as_deref()
            .map(|p| (crate::checks::rom_option(), p)),
    );
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    outputs.extend(args.plot.as_deref().map(|p| ("--plot", p)));
    if let Some(record) = &args.record {
        if games == 1 {
            outputs.push(("--record", record));
        } else {
            if is_device(record) {
                return Err(usage(format!(
                    "--record {}: a device takes one game's movie, and {games} games are played \
                     (give a file name: each game gets its own, FILE-1.fm2, FILE-2.fm2, ...)",
                    record.display()
                )));
            }
            for (what, other) in inputs.iter().chain(&outputs) {
                if let Some(n) = record_game_at(record, games, other) {
                    return Err(usage(format!(
                        "--record {} writes game {n}'s movie to {}, the file {what} names: give \
                         another path",
                        record.display(),
                        other.display()
                    )));
                }
            }
        }
    }
    check_distinct(&inputs, &outputs)
}

fn game_line(json: bool, g: &GameSummary) -> Result<String> {
    if json {
        return Ok(serde_json::to_string(g)?);
    }
    Ok(g.to_string())
}

fn summary_text(config: &BenchConfig, s: &BenchSummary) -> String {
    let ci = s.score.ci95.map_or(String::new(), |ci| {
        format!(" ± {:.0} (95% CI)", ci.half_width())
    });
    let which = if config.uncapped {
        "uncapped"
    } else {
        "ROM (capped)"
    };
    let mut text = format!(
        "{} games, {}: mean {which} score {:.0}{ci}, SD {:.0}, median {:.0}, p10 {:.0}, p90 {:.0}, \
         max {:.0}\n  capped mean {:.0}, uncapped mean {:.0}; mean lines {:.1}; tetris rate {:.1}%; \
         burned lines per game {:.1}; maxed out (999,999) {} ({:.0}%); reached level 29: {}; \
         ended before 230 lines: {:.1}%",
        s.games,
        config.player.name,
        s.score.mean,
        s.score.sd.unwrap_or(0.0),
        s.score.median,
        s.score.p10,
        s.score.p90,
        s.score.max,
        s.capped_score.mean,
        s.uncapped_score.mean,
        s.lines.mean,
        100.0 * s.tetris_rate,
        s.burned_lines.mean,
        s.maxed_out,
        100.0 * s.maxout_share,
        s.reached_level_29,
        100.0 * s.ended_before_230,
    );
    let at: Vec<String> = s
        .mean_score_at_lines
        .iter()
        .map(|(l, m)| match m {
            Some(m) => format!("{l}: {m:.0}"),
            None => format!("{l}: -"),
        })
        .collect();
    text.push_str(&format!(
        "\n  mean uncapped score at lines {}; decision time per piece: median {:.1} ms, p99 {:.1} ms",
        at.join(", "),
        s.decision_ms_median,
        s.decision_ms_p99
    ));
    let bands: Vec<String> = s
        .band_points
        .iter()
        .map(|b| {
            format!(
                "{}-{}: {:.0} ({:.0}), tetris rate {:.0} %",
                b.from_lines,
                b.to_lines,
                b.mean,
                b.betatetris,
                100.0 * b.tetris_rate
            )
        })
        .collect();
    text.push_str(&format!(
        "\n  mean points per game by lines (BetaTetris v0.1 in brackets): {}",
        bands.join(", ")
    ));
    if s.crash_risk.phases > 0 {
        // Only batches that reached the levels where a frame can crash say so.
        text.push_str(&format!(
            "\n  crash risk: {} games with frames crashing in some CPU phases ({} frames, at most \
             {} of {} phases at one); level wrapped past 255 to 0: {} games",
            s.crash_risk_games,
            s.crash_risk.frames,
            s.crash_risk.most_phases,
            s.crash_risk.phases,
            s.level_wrapped
        ));
    }
    let modifiers = config.modifiers();
    if !modifiers.is_empty() {
        text.push_str(&format!("\n  not the ROM: {}", modifiers.join("; ")));
    }
    if config.game.held_out {
        text.push_str(&format!("\n  games: {HELD_OUT}"));
    }
    text
}

/// Plays one game, on the engine alone (its lag model running the ROM's program when given) or
/// with the ROM in lockstep.
fn play_one(
    game: &GameConfig,
    player: &Player,
    program: Option<&Arc<ProgramData>>,
    lockstep_rom: Option<&Rom>,
) -> GameResult {
    let Some(rom) = lockstep_rom else {
        return play_game_with_rom(game, player, program.cloned(), |_, _| Ok(()));
    };
    let lockstep = match Lockstep::new(rom) {
        Ok(l) => l,
        Err(e) => return GameResult::stopped(format!("the ROM does not start: {e}")),
    };
    play_game_beside(game, player, program.cloned(), RomBeside(lockstep))
}

/// The ROM in tetanes beside the engine: it runs each frame first and the engine follows its CPU
/// phase, so the game is the one the ROM plays, movie included.
struct RomBeside(Lockstep);

impl Console for RomBeside {
    fn run(&mut self, buttons: Buttons, nes: &Nes) -> Result<Option<CpuPhase>, String> {
        // The phase matters only where the lag model runs the frame's work cycle by cycle.
        let wanted = nes.lag_modelled() && nes.level() >= LAG_FROM_LEVEL;
        self.0
            .run_line(&InputLine::new(buttons), wanted)
            .map_err(|e| format!("lockstep: {e}"))
    }

    fn check(&mut self, nes: &Nes) -> Result<(), String> {
        self.0.check(nes).map_err(|e| e.to_string())
    }
}

/// Runs `nes bench`.
pub fn run(args: &BenchArgs) -> Result<()> {
    // Everything that can be refused is refused before the first game.
    let config = args.config()?;
    let rom = args.rom.as_deref().map(super::load_rom).transpose()?;
    let program = match (&rom, &args.rom) {
        (Some(rom), Some(path)) => Some(Arc::new(
            ProgramData::from_ines(rom.bytes())
                .with_context(|| format!("{} {}", crate::checks::rom_option(), path.display()))?,
        )),
        _ => None,
    };
    let lockstep_rom = rom.as_ref().filter(|_| args.lockstep);
    let games = config.game_count();
    check_outputs(args, games)?;
    let plot = match &args.plot {
        Some(path) => Some(OutputFile::create(path, "--plot")?),
        None => None,
    };
    if let Some(path) = &args.record {
        check_output_dir(path, "--record")?;
        check_output_dir(&record_path(path, 0, games), "--record")?;
    }
    let batch = Batch::new(args.threads)?;
    let bar = progress_bar(games, "{bar:40} {pos}/{len} games  {per_sec}  eta {eta}");
    // The games' lines are printed (and their movies recorded) in game order, a chunk at a time.
    let mut out = Out::new();
    let mut single_game_input = None;
    let report = config.run(
        &batch,
        |game| play_one(game, &config.player, program.as_ref(), lockstep_rom),
        || bar.inc(1),
        |summary, r| -> Result<()> {
            out.line_now(game_line(args.json, summary)?)?;
            if !args.json
                && let Some(note) = playfield_rom::lag_not_modelled_note(
                    program.is_some(),
                    r.level,
                    super::NO_ROM_GIVEN,
                )
            {
                out.line_now(format!("  {note}"))?;
            }
            let i = summary.game - 1;
            if let Some(path) = &args.record {
                OutputFile::create(&record_path(path, i, games), "--record")?
                    .commit_bytes(Movie::new(r.input.iter().copied()).to_fm2().as_bytes())?;
            }
            if games == 1 {
                single_game_input = Some(r.input);
            }
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    let Some(summary) = report.summary() else {
        bail!("no game was played");
    };
    if args.json {
        out.line(serde_json::json!({ "summary": summary }))?;
    } else if games > 1 {
        out.line(summary_text(&config, &summary))?;
    }
    out.flush()?;
    if let Some(file) = plot {
        let svg = match &single_game_input {
            Some(input) => timeline_chart(&config, input)?,
            None => {
                let title = title(&config);
                let points = report.score_by_lines();
                let histogram = Histogram {
                    title: &title,
                    unit: "score",
                    values: report.scores(),
                    mean: summary.score.mean,
                    ci95: summary.score.ci95,
                };
                let curve = ScoreCurve {
                    title: "mean uncapped score by lines cleared",
                    points: &points,
                    reference_label: "BetaTetris hybrid v0.1, published (its benchmark format)",
                    reference: &BETATETRIS_SCORE_AT_LINES,
                };
                let bands: Vec<(String, f64, f64, f64)> = summary
                    .band_points
                    .iter()
                    .map(|b| {
                        (
                            format!("{}-{} lines", b.from_lines, b.to_lines),
                            b.mean,
                            b.betatetris,
                            b.tetris_rate,
                        )
                    })
                    .collect();
                if points.is_empty() {
                    chart::histogram(&histogram)?
                } else if points.len() as u32 * CURVE_STEP >= BANDS[1].0 {
                    // Past level 18 the bands say where the points are made and lost.
                    chart::histogram_curve_and_bands(
                        &histogram,
                        &curve,
                        &BandChart {
                            title: "mean points per game by line band, beside BetaTetris hybrid v0.1",
                            bands: &bands,
                            reference_label: "BetaTetris hybrid v0.1, published",
                        },
                    )?
                } else {
                    chart::histogram_and_curve(&histogram, &curve)?
                }
            }
        };
        file.commit_bytes(svg.as_bytes())?;
    }
    if let Some(bad) = report.first_failure() {
        bail!(
            "game {} did not finish cleanly: {}",
            bad.game,
            end_text(&bad.end)
        );
    }
    Ok(())
}

/// How reports name the held-out games.
const HELD_OUT: &str = "the held-out games (level-menu waits 1,024-2,047)";

fn title(config: &BenchConfig) -> String {
    let mut title = format!(
        "NES Tetris, {}, start level {}, input {}, reaction {}",
        config.player.name,
        config.game.level,
        config.input.timeline_string(),
        config.input.reaction
    );
    for m in config.modifiers() {
        title.push_str(", ");
        title.push_str(&m);
    }
    if config.game.held_out {
        title.push_str(", ");
        title.push_str(HELD_OUT);
    }
    title
}

/// One game's score and level over time, by replaying its recorded input through the engine
/// (exact, and cheap next to the search).
fn timeline_chart(config: &BenchConfig, input: &[playfield_nes::Buttons]) -> Result<String> {
    let mut nes = playfield_nes::Nes::power_on();
    let mut samples: Vec<ScoreSample> = Vec::new();
    for &buttons in input {
        nes.step(buttons);
        if nes.game_mode() != playfield_nes::GameMode::Play {
            continue;
        }
        let point = ScoreSample {
            time: nes.frame(),
            score: nes.score(),
            level: nes.level(),
        };
        if samples
            .last()
            .is_none_or(|last| (last.score, last.level) != (point.score, point.level))
        {
            samples.push(point);
        }
    }
    if let Some(&last) = samples.last() {
        samples.push(ScoreSample {
            time: nes.frame(),
            ..last
        });
    }
    Ok(chart::score_and_level(&title(config), "frame", &samples)?)
}
