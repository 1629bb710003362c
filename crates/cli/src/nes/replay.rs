//! `playfield nes replay`: a movie from power-on, its final state, a trace, a speed measurement,
//! or the movie in the terminal.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use playfield_nes::fm2::{InputLine, Movie};
use playfield_nes::trace::TraceFrame;
use playfield_nes::{
    Buttons, DemoData, Events, LAG_FROM_LEVEL, Modifiers, Nes, PhaseCounts, ProgramData,
};
use playfield_rom::lag::FrameOutcome;
use playfield_rom::{Rom, RomPhases};

use crate::checks::{MAX_REPEAT, MAX_REPLAY_FRAMES, int};
use crate::files::{MAX_MOVIE_BYTES, OutputFile, check_distinct, read_text};
use crate::output::Out;
use crate::tui::nes_loop::Speed;

/// Arguments of `nes replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The movie (.fm2, FCEUX text format, starting at power-on, recorded with Tetris (USA)).
    movie: PathBuf,
    /// Write one JSON object per frame (F = 1, 2, ...) with the traced RAM variables.
    #[arg(long, value_name = "OUT.jsonl")]
    trace: Option<PathBuf>,
    /// Pad the movie with empty input up to N frames (or cut it to N), 0 to 1,000,000,000.
    #[arg(long, value_name = "N", value_parser = int(0, MAX_REPLAY_FRAMES))]
    frames: Option<u64>,
    /// Replay K times (1 to 1,000,000) and print frames per second; a trace is written once.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = int(1, MAX_REPEAT))]
    repeat: u32,
    /// Tetris (USA) ROM, read for the demo's tables and for the lag model, which runs its program
    /// at the highest levels (default: $PLAYFIELD_ROM); its SHA-1 is checked. Without it lag
    /// frames and crashes are not modelled.
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<PathBuf>,
    /// Not the ROM: from this level on the piece falls two rows a frame (TetrisGYM's "kill
    /// screen ×2"), as `nes bench --double-speed-level` plays it; needed to replay the games
    /// `nes bench --format betatetris --record` writes.
    #[arg(long, value_name = "N", value_parser = int(0u8, 255))]
    double_speed_level: Option<u8>,
    /// Run the ROM (--rom) in tetanes beside the engine and follow the CPU phase tetanes has
    /// where the phase decides whether a frame lags or crashes: the game goes on as it does on
    /// the ROM in tetanes; every traced variable is compared at every frame. With --watch the
    /// view follows tetanes' phase the same way (no comparison, no outlined placements).
    #[arg(long, conflicts_with_all = ["repeat", "double_speed_level"])]
    follow_rom: bool,
    /// Watch the movie in the terminal (same keys as `nes watch`) instead of printing the result.
    #[arg(long, conflicts_with_all = ["trace", "repeat", "frames"])]
    watch: bool,
    /// Speed for --watch: a multiple of real time (60.0988 frames/s) from 1/64 to 1024, or "max".
    #[arg(long, value_name = "X", default_value = "1", requires = "watch",
          value_parser = Speed::parse)]
    speed: Speed,
}

/// The input lines to run: the movie's, then empty ones, `frames` in all.
fn input(movie: &Movie, frames: Option<u64>) -> impl Iterator<Item = InputLine> + '_ {
    let count = frames.unwrap_or(movie.lines.len() as u64);
    movie
        .lines
        .iter()
        .copied()
        .chain(std::iter::repeat(InputLine::new(Buttons::NONE)))
        .take(usize::try_from(count).unwrap_or(usize::MAX))
}

/// The engine's modifiers the arguments ask for (none: the ROM).
fn modifiers(args: &ReplayArgs) -> Modifiers {
    Modifiers {
        double_speed_level: args.double_speed_level,
        ..Modifiers::default()
    }
}

/// Runs `nes replay`.
pub fn run(args: &ReplayArgs) -> Result<()> {
    if args.watch {
        crate::tui::require_terminal("nes replay --watch")?;
    }
    if let Some(path) = &args.trace {
        let mut inputs = vec![("the movie", args.movie.as_path())];
        inputs.extend(
            args.rom
                .as_deref()
                .map(|r| (crate::checks::rom_option(), r)),
        );
        check_distinct(&inputs, &[("--trace", path)])?;
    }
    let mut trace = match &args.trace {
        Some(path) => Some(OutputFile::create(path, "--trace")?),
        None => None,
    };
    let text = read_text(&args.movie, "movie", MAX_MOVIE_BYTES)?;
    let movie = Movie::parse(&text).with_context(|| format!("in {}", args.movie.display()))?;
    movie
        .check_tetris()
        .with_context(|| format!("in {}", args.movie.display()))?;
    if movie.pal() {
        bail!(
            "{} is a PAL movie; the USA ROM is NTSC",
            args.movie.display()
        );
    }
    let (demo, program) = super::rom_data(args.rom.as_ref())?;
    let rom = if args.follow_rom {
        let Some(path) = &args.rom else {
            bail!("--follow-rom runs the ROM: give it with --rom or $PLAYFIELD_ROM");
        };
        Some(super::load_rom(path)?)
    } else {
        None
    };
    if args.watch {
        let phases = rom
            .as_ref()
            .map(|rom| RomPhases::new(rom).context("--follow-rom"))
            .transpose()?;
        return watch(args, movie.lines, demo, program, phases);
    }
    if let Some(rom) = rom {
        return follow_rom(args, &movie, &rom, demo, program, trace);
    }

    let started = Instant::now();
    let mut nes = Nes::power_on();
    // Lag frames of the first round; the replay stops at a crash, where the engine stops.
    let mut lag_frames = Vec::new();
    // The highest level the first round reached, when lag is not modelled.
    let mut top_level = 0u8;
    // The first round's heavy frames after which some CPU phases lag or crash.
    let mut phase_dependent: Vec<(u64, PhaseCounts)> = Vec::new();
    for round in 0..args.repeat {
        nes = Nes::power_on();
        nes.set_demo_data(demo.clone());
        nes.set_program_data(program.clone());
        nes.set_modifiers(modifiers(args));
        match trace.as_mut().filter(|_| round == 0) {
            Some(file) => {
                let path = file.path().display().to_string();
                let mut out = BufWriter::new(file.writer());
                let mut json = String::with_capacity(800);
                for line in input(&movie, args.frames) {
                    let events = nes.step_line(&line);
                    write_trace_line(&mut out, &mut json, &nes, events)
                        .with_context(|| format!("--trace: cannot write {path}"))?;
                    if events.lagged() {
                        lag_frames.push(nes.frame());
                    }
                    if let Some(counts) = nes.phase_counts().filter(|c| c.lag + c.crash > 0) {
                        phase_dependent.push((nes.frame(), counts));
                    }
                    top_level = top_level.max(nes.level());
                    if events.crashed() {
                        break;
                    }
                }
                out.flush()
                    .with_context(|| format!("--trace: cannot write {path}"))?;
            }
            None => {
                // The movie's lines by reference, then the padding: a loop as tight as the
                // engine's frame, which it measures (`--repeat`).
                let count = usize::try_from(args.frames.unwrap_or(movie.lines.len() as u64))
                    .unwrap_or(usize::MAX);
                let played = count.min(movie.lines.len());
                let padding = InputLine::new(Buttons::NONE);
                let watch_level = !nes.lag_modelled();
                let watch_phases = nes.lag_modelled();
                // Steps one frame; true once the game crashed, where the engine stops.
                let mut frame = |line: &InputLine| {
                    let events = nes.step_line(line);
                    if events.lagged() {
                        lag_frames.push(nes.frame());
                    }
                    if watch_level {
                        top_level = top_level.max(nes.level());
                    }
                    if watch_phases
                        && let Some(counts) = nes.phase_counts().filter(|c| c.lag + c.crash > 0)
                    {
                        phase_dependent.push((nes.frame(), counts));
                    }
                    events.crashed()
                };
                if round > 0 {
                    // Later rounds only measure: the engine's frame and nothing else.
                    for line in movie.lines[..played]
                        .iter()
                        .chain(std::iter::repeat_n(&padding, count - played))
                    {
                        if nes.step_line(line).crashed() {
                            break;
                        }
                    }
                    continue;
                }
                'replay: {
                    for line in &movie.lines[..played] {
                        if frame(line) {
                            break 'replay;
                        }
                    }
                    for _ in played..count {
                        if frame(&padding) {
                            break 'replay;
                        }
                    }
                }
            }
        }
    }
    let elapsed = started.elapsed();
    if let Some(file) = trace {
        file.commit()?;
    }
    let mut out = Out::new();
    print_state(&mut out, &nes)?;
    if nes.lag_modelled() {
        print_lag_frames(&mut out, &lag_frames)?;
        if let Some(crash) = nes.crash() {
            out.line(format!("crash: {crash}"))?;
        }
        // Where the console's CPU phase decides: the engine followed what most phases give.
        out.line(format!(
            "frames whose next NMI lags or crashes in some CPU phases: {}",
            phase_dependent.len()
        ))?;
        for (frame, c) in &phase_dependent {
            // The outcome most phases give, the earlier of a tie (as the engine picks it).
            let on_time = c.phases - c.lag - c.crash;
            let followed = if on_time >= c.lag && on_time >= c.crash {
                "on time"
            } else if c.lag >= c.crash {
                "lag"
            } else {
                "crash"
            };
            out.line(format!(
                "phases at frame {frame}: {} of {} lag, {} crash (followed: {followed})",
                c.lag, c.phases, c.crash
            ))?;
        }
    } else if let Some(note) =
        playfield_rom::lag_not_modelled_note(false, top_level, super::NO_ROM_GIVEN)
    {
        out.line(note)?;
    } else {
        out.line("lag frames: 0")?;
    }
    let frames = args.frames.unwrap_or(movie.lines.len() as u64);
    if args.repeat > 1 || args.frames.is_some() && args.trace.is_none() {
        out.line(format!(
            "speed: {:.0} frames/s ({frames} frames × {} in {:.3} s)",
            frames as f64 * f64::from(args.repeat) / elapsed.as_secs_f64().max(1e-9),
            args.repeat,
            elapsed.as_secs_f64()
        ))?;
    }
    out.flush()?;
    if let Some(why) = nes.unsupported() {
        bail!(
            "the engine stopped at frame {}: {why} (a state playfield does not model)",
            nes.frame()
        );
    }
    Ok(())
}

/// `nes replay --watch`: the movie in the terminal view.
fn watch(
    args: &ReplayArgs,
    input: Vec<InputLine>,
    demo: Option<Arc<DemoData>>,
    program: Option<Arc<ProgramData>>,
    rom: Option<RomPhases>,
) -> Result<()> {
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    nes.set_program_data(program);
    nes.set_modifiers(modifiers(args));
    let name = args.movie.file_name().map_or_else(
        || args.movie.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut player = match rom {
        Some(rom) => crate::tui::MoviePlayer::following_rom(input, rom),
        None => crate::tui::MoviePlayer::with_targets(input, &nes),
    };
    crate::tui::watch(
        &mut nes,
        &mut player,
        &crate::tui::WatchOptions {
            title: if args.follow_rom {
                format!("movie {name}, in tetanes' CPU phase")
            } else {
                format!("movie {name}")
            },
            speed: args.speed,
        },
    )
}

/// The lag frames, one line each; a run of three or more in a row (the score loop restarted by
/// every NMI at the highest levels) as one line with its length.
fn print_lag_frames(out: &mut Out, lag_frames: &[u64]) -> Result<()> {
    out.line(format!("lag frames: {}", lag_frames.len()))?;
    let mut k = 0;
    while k < lag_frames.len() {
        let mut end = k;
        while end + 1 < lag_frames.len() && lag_frames[end + 1] == lag_frames[end] + 1 {
            end += 1;
        }
        if end - k >= 2 {
            let n = end - k + 1;
            out.line(format!(
                "lag frames {}-{}: {n} in a row",
                lag_frames[k], lag_frames[end]
            ))?;
        } else {
            for frame in &lag_frames[k..=end] {
                out.line(format!("lag frame: {frame}"))?;
            }
        }
        k = end + 1;
    }
    Ok(())
}

fn print_state(out: &mut Out, nes: &Nes) -> Result<()> {
    out.line(format!("frame: {}", nes.frame()))?;
    out.line(format!("game_mode: {}", nes.game_mode().to_raw()))?;
    out.line(format!("score: {}", nes.score()))?;
    out.line(format!("lines: {}", nes.lines()))?;
    out.line(format!("level: {}", nes.level()))?;
    out.line(format!("play_state: {}", nes.play_state().to_raw()))?;
    out.line(format!(
        "statistics: {}",
        nes.piece_counts().map(|count| count.to_string()).join(" ")
    ))?;
    if let Some(why) = nes.unsupported() {
        out.line(format!("unsupported: {why}"))?;
    }
    Ok(())
}

/// The outcome of a frame's next NMI, in a report's words.
fn outcome_name(outcome: Option<FrameOutcome>) -> &'static str {
    match outcome {
        Some(FrameOutcome::OnTime { .. }) => "on time",
        Some(FrameOutcome::Lag { .. }) => "lag",
        Some(FrameOutcome::Crash { .. }) => "crash",
        Some(FrameOutcome::NoNmi) => "no NMI",
        None => "unknown",
    }
}

/// Writes the `--trace` line of the frame `nes` just ran (which raised `events`): the traced
/// variables, the lag and the crash's address; `json` is the line's reused buffer.
fn write_trace_line(
    out: &mut impl Write,
    json: &mut String,
    nes: &Nes,
    events: Events,
) -> std::io::Result<()> {
    json.clear();
    let crash = nes.crash().filter(|_| events.crashed());
    TraceFrame::from_ram(nes.frame(), &nes.ram()).write_json_annotated(
        json,
        events.lagged(),
        crash.map(|c| c.address()),
    );
    out.write_all(json.as_bytes())
}

/// `nes replay --follow-rom`: the engine told, frame by frame, the CPU phase the ROM has in
/// tetanes, run a frame ahead; the first traced variable that differs stops the replay.
fn follow_rom(
    args: &ReplayArgs,
    movie: &Movie,
    rom: &Rom,
    demo: Option<Arc<DemoData>>,
    program: Option<Arc<ProgramData>>,
    mut trace: Option<OutputFile>,
) -> Result<()> {
    let trace_path = trace.as_ref().map(|f| f.path().display().to_string());
    let mut phases = RomPhases::new(rom).context("--follow-rom")?;
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    nes.set_program_data(program);
    let lines: Vec<InputLine> = input(movie, args.frames).collect();
    let padding = InputLine::new(Buttons::NONE);
    let mut out_trace = trace.as_mut().map(|file| BufWriter::new(file.writer()));
    let mut json = String::with_capacity(800);
    let mut lag_frames = Vec::new();
    // Frames after which the next NMI lags or crashes in some phases: their counts over every
    // phase, and what tetanes' phase gave.
    let mut phase_dependent: Vec<(u64, PhaseCounts, &'static str)> = Vec::new();
    let mut told = 0u32;
    let mut differs = None;
    let mut rom_crash = None;
    for (i, line) in lines.iter().enumerate() {
        while phases.ahead() < 2 {
            let next = lines.get(i + phases.ahead()).unwrap_or(&padding);
            phases.push(next).context("--follow-rom: tetanes")?;
        }
        let frame = phases.take().expect("two lines run ahead");
        // Every phase's outcome, from a copy of the engine left to evaluate them all.
        let counts = if nes.lag_modelled() && nes.level() >= LAG_FROM_LEVEL {
            let mut untold = nes.clone();
            untold.set_cpu_phase(None);
            untold.step_line(line);
            untold.phase_counts()
        } else {
            None
        };
        if frame.phase.is_some() {
            told += 1;
        }
        nes.set_cpu_phase(frame.phase);
        let events = nes.step_line(line);
        if let (Some(path), Some(out)) = (&trace_path, out_trace.as_mut()) {
            write_trace_line(out, &mut json, &nes, events)
                .with_context(|| format!("--trace: cannot write {path}"))?;
        }
        if events.lagged() {
            lag_frames.push(nes.frame());
        }
        if let Some(c) = counts.filter(|c| c.lag + c.crash > 0) {
            phase_dependent.push((nes.frame(), c, outcome_name(frame.next_outcome)));
        }
        // A frame without NMI is the game's own doing (it turns the NMI off around power-on
        // and screen changes); a crash shows as the CPU leaving the program.
        if matches!(frame.outcome, Some(FrameOutcome::Crash { .. })) {
            rom_crash = Some(nes.frame());
        }
        if events.crashed() || rom_crash.is_some() {
            // Past a crash the RAM is the runaway program's: the two agree if both crashed.
            if events.crashed() != rom_crash.is_some() {
                let (which, other) = if events.crashed() {
                    ("the engine", "the ROM")
                } else {
                    ("the ROM", "the engine")
                };
                differs = Some(format!("{which} crashed and {other} did not"));
            }
            break;
        }
        if let Some(d) =
            TraceFrame::from_ram(nes.frame(), &nes.ram()).first_difference(&frame.trace)
        {
            differs = Some(d.to_string());
            break;
        }
    }
    if let (Some(path), Some(mut out)) = (&trace_path, out_trace) {
        out.flush()
            .with_context(|| format!("--trace: cannot write {path}"))?;
    }
    if let Some(file) = trace {
        file.commit()?;
    }
    let mut out = Out::new();
    print_state(&mut out, &nes)?;
    print_lag_frames(&mut out, &lag_frames)?;
    if let Some(crash) = nes.crash() {
        out.line(format!("crash: {crash}"))?;
    }
    out.line(format!(
        "CPU phase: tetanes' (the ROM run a frame ahead), told at {told} frames"
    ))?;
    out.line(format!(
        "frames whose next NMI lags or crashes in some CPU phases: {}",
        phase_dependent.len()
    ))?;
    for (frame, c, tetanes) in &phase_dependent {
        out.line(format!(
            "phases at frame {frame}: {} of {} lag, {} crash (tetanes: {tetanes})",
            c.lag, c.phases, c.crash
        ))?;
    }
    if let Some(frame) = rom_crash {
        out.line(format!("the ROM crashed in tetanes at frame {frame}"))?;
    }
    out.flush()?;
    if let Some(d) = differs {
        bail!(
            "--follow-rom: the engine and the ROM differ at frame {}: {d}",
            nes.frame()
        );
    }
    out.line(format!(
        "engine and ROM: every traced variable equal at every frame ({} frames{})",
        nes.frame(),
        if nes.crash().is_some() {
            ", both crashed at the last"
        } else {
            ""
        }
    ))?;
    out.flush()?;
    Ok(())
}
