//! Writes a generated movie as an FCEUX `.fm2` file.
//!
//! `cargo run --release -p playfield-testkit --example gen_movie -- KIND SEED OUT.fm2 [--frames N]
//! [--style S] [--detours]`
//!
//! KIND is `a:LEVEL[:MUSIC]` (A-type, level 0-19), `b:LEVEL:HEIGHT[:MUSIC]` (B-type),
//! `suite:I` (the I-th movie of the differential suite, 0-based; SEED is then ignored),
//! `bench` (the benchmark movie) or
//! `player:LEVEL[:HEIGHT]` (A-type, or B-type with a height, played closed loop by the scripted
//! player `playfield_testkit::autoplay`, game after game).
//! `--frames`
//! is the number of gameplay frames after the menus (default 10000; for `player`, the whole
//! movie's), `--style` one of mixed, idle, taps, holds, softdrop, rotations, pauses, select,
//! chaos. The ROM is not needed.

use playfield_nes::{GameMode, GameSetup, GameType, Nes};
use playfield_testkit::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_testkit::movies::{
    GeneratedMovie, PlayStyle, benchmark_movie, differential_suite, to_game,
};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_movie: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let usage = "usage: gen_movie KIND SEED OUT.fm2 [--frames N] [--style S] [--detours]\n  \
                 KIND: a:LEVEL[:MUSIC] | b:LEVEL:HEIGHT[:MUSIC] | suite:I | player:LEVEL[:HEIGHT] | bench";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, seed, out, rest @ ..] = args.as_slice() else {
        return Err(usage.to_owned());
    };
    let seed: u64 = seed
        .parse()
        .map_err(|_| format!("SEED: not a number: {seed}"))?;
    let mut frames = 10_000;
    let mut style = PlayStyle::Mixed;
    let mut detours = false;
    let mut rest = rest.iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--frames" => {
                let n = rest.next().ok_or("--frames needs a number")?;
                frames = n
                    .parse()
                    .map_err(|_| format!("--frames: not a number: {n}"))?;
            }
            "--style" => {
                let s = rest.next().ok_or("--style needs a name")?;
                style = parse_style(s).ok_or_else(|| format!("--style: unknown style {s}"))?;
            }
            "--detours" => detours = true,
            other => return Err(format!("unknown option {other}\n{usage}")),
        }
    }
    let number = |s: &str, what: &str, max: u8| -> Result<u8, String> {
        s.parse::<u8>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("{what} must be 0-{max}, found {s}"))
    };
    let parts: Vec<&str> = kind.split(':').collect();
    let movie = match parts.as_slice() {
        ["bench"] => benchmark_movie(),
        ["suite", i] => {
            let suite = differential_suite();
            let i: usize = i.parse().map_err(|_| format!("suite index: {i}"))?;
            suite
                .into_iter()
                .nth(i)
                .ok_or_else(|| format!("the suite has no movie {i}"))?
        }
        ["player", level, height @ ..] if height.len() <= 1 => {
            let level = number(level, "LEVEL", 19)?;
            let setup = match height.first() {
                Some(h) => GameSetup::b_type(level, number(h, "HEIGHT", 5)?),
                None => GameSetup::a_type(level),
            };
            let buttons = autoplay_movie(&AutoplayConfig {
                setup,
                seed,
                games: u32::MAX,
                max_frames: frames as u64,
                noise: true,
            });
            // The first frame in play, as for the other kinds.
            let mut nes = Nes::power_on();
            let play_frame = buttons
                .iter()
                .position(|&b| {
                    nes.step(b);
                    nes.game_mode() == GameMode::Play
                })
                .map_or(buttons.len(), |i| i + 1);
            GeneratedMovie {
                name: format!("player-level-{level:02}-seed-{seed}"),
                buttons,
                setup,
                play_frame,
            }
        }
        ["a", level, music @ ..] if music.len() <= 1 => {
            let setup = GameSetup {
                game_type: GameType::A,
                music: music.first().map_or(Ok(0), |m| number(m, "MUSIC", 3))?,
                level: number(level, "LEVEL", 19)?,
                height: 0,
            };
            to_game(setup, seed, style, frames, detours)
        }
        ["b", level, height, music @ ..] if music.len() <= 1 => {
            let setup = GameSetup {
                game_type: GameType::B,
                music: music.first().map_or(Ok(0), |m| number(m, "MUSIC", 3))?,
                level: number(level, "LEVEL", 19)?,
                height: number(height, "HEIGHT", 5)?,
            };
            to_game(setup, seed, style, frames, detours)
        }
        _ => return Err(format!("bad KIND {kind}\n{usage}")),
    };
    std::fs::write(out, movie.to_fm2().to_fm2()).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{}: {} frames, play from frame {}",
        movie.name,
        movie.buttons.len(),
        movie.play_frame
    );
    Ok(())
}

fn parse_style(s: &str) -> Option<PlayStyle> {
    Some(match s {
        "mixed" => PlayStyle::Mixed,
        "idle" => PlayStyle::Idle,
        "taps" => PlayStyle::Taps,
        "holds" => PlayStyle::Holds,
        "softdrop" => PlayStyle::SoftDrop,
        "rotations" => PlayStyle::Rotations,
        "pauses" => PlayStyle::Pauses,
        "select" => PlayStyle::Select,
        "chaos" => PlayStyle::Chaos,
        _ => return None,
    })
}
