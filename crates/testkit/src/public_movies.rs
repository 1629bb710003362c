//! The public movies of `tests/movies/` and their checkpoints (`tests/movies/checkpoints.txt`),
//! shared by the engine's tests and the ROM's differential suite.

use std::path::{Path, PathBuf};

use playfield_nes::fm2::{InputLine, Movie};

/// The directory of the public movies.
pub fn movies_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("nes")
        .join("tests")
        .join("movies")
}

/// One thing the game shows at a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `gameMode` ($C0).
    GameMode(u8),
    /// Player 1's score in decimal.
    Score(u32),
    /// Player 1's line count in decimal.
    Lines(u32),
    /// Player 1's playState ($68) is the game-over curtain (10).
    Dead(bool),
}

/// The checks of one movie at one frame.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The movie, relative to [`movies_dir`].
    pub movie: String,
    /// The state after this many input lines.
    pub frame: usize,
    /// What must hold there.
    pub checks: Vec<Check>,
}

/// Reads `checkpoints.txt`, panicking with the line on a malformed entry (it is test data).
pub fn checkpoints() -> Vec<Checkpoint> {
    let path = movies_dir().join("checkpoints.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| -> ! { panic!("checkpoints.txt line {}: {what}: {line}", n + 1) };
        let mut words = line.split_whitespace();
        let movie = words.next().unwrap_or_else(|| bad("no movie")).to_string();
        let frame = words
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| bad("no frame number"));
        let checks: Vec<Check> = words
            .map(|w| {
                let (key, value) = w.split_once('=').unwrap_or_else(|| bad("not key=value"));
                let value: u32 = value.parse().unwrap_or_else(|_| bad("not a number"));
                match key {
                    "game_mode" => Check::GameMode(value as u8),
                    "score" => Check::Score(value),
                    "lines" => Check::Lines(value),
                    "dead" => Check::Dead(value != 0),
                    _ => bad("unknown key"),
                }
            })
            .collect();
        if checks.is_empty() {
            bad("no checks");
        }
        out.push(Checkpoint {
            movie,
            frame,
            checks,
        });
    }
    out
}

/// The movies named in the checkpoints, each once, in file order.
pub fn movie_names() -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in checkpoints() {
        if !names.contains(&c.movie) {
            names.push(c.movie);
        }
    }
    names
}

/// The input lines of a public movie.
pub fn load(movie: &str) -> Vec<InputLine> {
    let path = movies_dir().join(movie);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    Movie::parse(&text)
        .unwrap_or_else(|e| panic!("{movie}: {e}"))
        .lines
}

/// Decimal value of little-endian BCD bytes.
fn bcd_value(bytes: &[u8]) -> u32 {
    bytes.iter().rev().fold(0, |acc, &b| {
        acc * 100 + u32::from(b >> 4) * 10 + u32::from(b & 0x0F)
    })
}

/// The first check that does not hold in this RAM image, described.
pub fn failed_check(ram: &[u8; 0x800], checks: &[Check]) -> Option<String> {
    for &check in checks {
        let (ok, found) = match check {
            Check::GameMode(mode) => (ram[0xC0] == mode, format!("game_mode {}", ram[0xC0])),
            Check::Score(score) => {
                let found = bcd_value(&ram[0x73..0x76]);
                (
                    ram[0xC0] == 4 && found == score,
                    format!("game_mode {} score {found}", ram[0xC0]),
                )
            }
            Check::Lines(lines) => {
                let found = bcd_value(&ram[0x70..0x72]);
                (
                    ram[0xC0] == 4 && found == lines,
                    format!("game_mode {} lines {found}", ram[0xC0]),
                )
            }
            Check::Dead(dead) => (
                ram[0xC0] == 4 && (ram[0x68] == 10) == dead,
                format!("game_mode {} playState {}", ram[0xC0], ram[0x68]),
            ),
        };
        if !ok {
            return Some(format!("expected {check:?}, found {found}"));
        }
    }
    None
}

/// Replays `movie` (padded with empty lines) up to its last checkpoint through `step`, which runs
/// one input line and returns the RAM after it; returns every checkpoint that failed.
pub fn run_checkpoints(
    movie: &str,
    mut step: impl FnMut(&InputLine) -> [u8; 0x800],
) -> Vec<String> {
    let lines = load(movie);
    let mine: Vec<Checkpoint> = checkpoints()
        .into_iter()
        .filter(|c| c.movie == movie)
        .collect();
    let last = mine.iter().map(|c| c.frame).max().unwrap_or(0);
    let mut failures = Vec::new();
    for frame in 1..=last {
        let line = lines.get(frame - 1).copied().unwrap_or_default();
        let ram = step(&line);
        for c in mine.iter().filter(|c| c.frame == frame) {
            if let Some(why) = failed_check(&ram, &c.checks) {
                failures.push(format!("{movie} frame {frame}: {why}"));
            }
        }
    }
    failures
}
