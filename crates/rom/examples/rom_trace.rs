//! Writes the real ROM's per-frame trace of a movie, one JSON object per line.
//!
//! `cargo run --release -p playfield-rom --example rom_trace -- MOVIE.fm2 OUT.jsonl [--frames N]`
//!
//! Frame `F` = the state after `F` input lines, `F` = 1, 2, …; `--frames N` pads the movie with
//! empty input lines (or cuts it) to `N` frames. The ROM comes from `PLAYFIELD_ROM`.

use playfield_nes::fm2::Movie;
use playfield_rom::{Emulator, Rom};
use std::io::{BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rom_trace: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: rom_trace MOVIE.fm2 OUT.jsonl [--frames N]";
    let (movie_path, out_path, frames) = match args.as_slice() {
        [m, o] => (m, o, None),
        [m, o, flag, n] if flag == "--frames" => {
            let n: usize = n
                .parse()
                .map_err(|_| format!("--frames: not a number: {n}\n{usage}"))?;
            (m, o, Some(n))
        }
        _ => return Err(usage.into()),
    };
    let text = std::fs::read_to_string(movie_path).map_err(|e| format!("{movie_path}: {e}"))?;
    let movie = Movie::parse(&text).map_err(|e| format!("{movie_path}: {e}"))?;
    let rom = Rom::from_env()?;
    let mut emulator = Emulator::new(&rom)?;
    let frames = frames.unwrap_or(movie.lines.len());
    let file = std::fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut out = BufWriter::new(file);
    let mut text = String::new();
    emulator.trace_movie(
        &movie.lines,
        frames,
        |trace| -> Result<(), Box<dyn std::error::Error>> {
            text.clear();
            trace.write_json(&mut text);
            out.write_all(text.as_bytes())
                .map_err(|e| format!("{out_path}: {e}"))?;
            Ok(())
        },
    )?;
    out.flush().map_err(|e| format!("{out_path}: {e}"))?;
    Ok(())
}
