//! The engine against checkpoints recorded from the real ROM, so that a plain `cargo test`
//! without a ROM still catches any change of the engine's behaviour on the differential suite.
//!
//! For every movie of the suite, `tests/golden/<movie>.golden` holds hashes of the ROM's traced
//! state (the keys of `playfield nes replay --trace`): the hash at frame `F` covers every traced
//! variable of every frame `1..=F`, and is stored every 256 frames, at the last frame, and at the
//! last frame before the title screen times out into the demo. The files hold hashes only, no byte of the ROM.
//! A test replays its movie in the engine and compares; the first checkpoint that differs says in
//! which 256 frames the engine left the ROM (the differential test with the ROM names the
//! variable).
//!
//! The demo replays tables stored in the ROM, which the engine only has when it is given the ROM
//! file: without one, a movie is checked up to the frame its title screen starts the demo, and the
//! engine must stop exactly there; with `PLAYFIELD_ROM` set, every frame is checked.
//!
//! Regenerate from the ROM (as tetanes does for its test ROMs) after a deliberate change to a
//! movie or to the trace:
//! `PLAYFIELD_UPDATE_GOLDEN=1 PLAYFIELD_ROM=path/to/Tetris.nes cargo test --release -p playfield-rom --test it golden::`

use std::path::PathBuf;
use std::sync::Arc;

use crate::suite::{for_each_movie, listed_names, movie};
use playfield_nes::fm2::InputLine;
use playfield_nes::raw::game_mode;
use playfield_nes::trace::TraceFrame;
use playfield_nes::{DemoData, Events, GameMode, GameType, Nes};
use playfield_rom::{Emulator, ROM_ENV, Rom};

/// Set to 1 to rewrite the checkpoint files from the ROM instead of checking the engine.
const UPDATE_ENV: &str = "PLAYFIELD_UPDATE_GOLDEN";
/// A checkpoint every this many frames (besides the last frame and the demo's start).
const INTERVAL: u64 = 256;

/// FNV-1a, 64 bits: a small, fixed hash whose value never depends on the Rust version.
#[derive(Clone, Copy)]
pub(crate) struct Fnv(pub(crate) u64);

impl Fnv {
    pub(crate) const START: Fnv = Fnv(0xcbf2_9ce4_8422_2325);

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Folds in one frame's traced state (gameplay keys marked absent outside play).
    pub(crate) fn frame(&mut self, trace: &TraceFrame) {
        for value in trace.numbers() {
            match value {
                Some(v) => {
                    self.bytes(&[1]);
                    self.bytes(&v.to_le_bytes());
                }
                None => self.bytes(&[0]),
            }
        }
        if let Some(play) = &trace.play {
            self.bytes(&play.playfield);
        }
    }
}

/// A movie's checkpoint file.
#[derive(Debug, PartialEq, Eq)]
struct Golden {
    /// Input lines of the movie.
    frames: u64,
    /// The first frame in the demo (`gameMode` 5; the title's 6 never shows between frames),
    /// if any.
    demo: Option<u64>,
    /// (frame, hash of frames `1..=frame`), frames ascending.
    checkpoints: Vec<(u64, u64)>,
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.golden"))
}

fn is_checkpoint(frame: u64, golden_frames: u64, demo: Option<u64>) -> bool {
    frame.is_multiple_of(INTERVAL) || frame == golden_frames || Some(frame + 1) == demo
}

impl Golden {
    fn parse(name: &str, text: &str) -> Golden {
        let mut golden = Golden {
            frames: 0,
            demo: None,
            checkpoints: Vec::new(),
        };
        for (number, line) in text.lines().enumerate() {
            let bad = || {
                panic!(
                    "{}: line {}: cannot read {line:?}",
                    golden_path(name).display(),
                    number + 1
                )
            };
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
                bad()
            };
            match key {
                "frames" => golden.frames = value.parse().unwrap_or_else(|_| bad()),
                "demo" => golden.demo = Some(value.parse().unwrap_or_else(|_| bad())),
                frame => golden.checkpoints.push((
                    frame.parse().unwrap_or_else(|_| bad()),
                    u64::from_str_radix(value, 16).unwrap_or_else(|_| bad()),
                )),
            }
        }
        golden
    }

    fn render(&self, name: &str) -> String {
        let mut out = format!(
            "# Checkpoints of the movie {name}, recorded from the real ROM (tetanes-core).\n\
             # \"FRAME HASH\": FNV-1a 64 of every traced variable of frames 1..=FRAME.\n\
             # Regenerate: {UPDATE_ENV}=1 {ROM_ENV}=Tetris.nes cargo test --release -p playfield-rom --test it golden::\n\
             frames {}\n",
            self.frames
        );
        if let Some(demo) = self.demo {
            out.push_str(&format!("demo {demo}\n"));
        }
        for (frame, hash) in &self.checkpoints {
            out.push_str(&format!("{frame} {hash:016x}\n"));
        }
        out
    }
}

/// The trace of the state after `index + 1` lines, numbered by input line (a power command in
/// a movie restarts the consoles' own frame counts, not this one).
fn numbered(mut trace: TraceFrame, index: usize) -> TraceFrame {
    trace.frame = index as u64 + 1;
    trace
}

/// The ROM's checkpoints of a movie.
fn record_from_rom(rom: &Rom, lines: &[InputLine]) -> Golden {
    let mut emulator = Emulator::new(rom).expect("the ROM loads");
    let frames = lines.len() as u64;
    let mut traces = Vec::with_capacity(lines.len());
    for line in lines {
        emulator.step_line(line).expect("the ROM runs");
        traces.push(numbered(emulator.trace_frame(), traces.len()));
    }
    let demo = traces
        .iter()
        .find(|t| t.game_mode == game_mode::DEMO || t.game_mode == game_mode::START_DEMO)
        .map(|t| t.frame);
    let mut hash = Fnv::START;
    let mut checkpoints = Vec::new();
    for trace in &traces {
        hash.frame(trace);
        if is_checkpoint(trace.frame, frames, demo) {
            checkpoints.push((trace.frame, hash.0));
        }
    }
    Golden {
        frames,
        demo,
        checkpoints,
    }
}

/// The ROM named by `PLAYFIELD_ROM`, if set (a set but wrong path is an error, not a skip).
fn rom_if_set() -> Option<Rom> {
    std::env::var_os(ROM_ENV)
        .filter(|p| !p.is_empty())
        .map(|_| Rom::from_env().unwrap_or_else(|e| panic!("{e}")))
}

/// Checks the engine against the movie's checkpoint file, or rewrites the file from the ROM when
/// `PLAYFIELD_UPDATE_GOLDEN=1`.
fn check_movie(name: &str) {
    let lines = movie(name).unwrap_or_else(|| panic!("no movie is called {name}"));
    let path = golden_path(name);
    let rom = rom_if_set();
    if std::env::var(UPDATE_ENV).is_ok_and(|v| v == "1") {
        let rom = rom.unwrap_or_else(|| {
            panic!("{UPDATE_ENV}=1 records from the ROM: set {ROM_ENV} to Tetris (USA)")
        });
        let golden = record_from_rom(&rom, &lines);
        std::fs::write(&path, golden.render(name))
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!(
            "{name}: wrote {} checkpoints to {}",
            golden.checkpoints.len(),
            path.display()
        );
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; record it from the ROM with {UPDATE_ENV}=1 {ROM_ENV}=Tetris.nes cargo test \
             --release -p playfield-rom --test it golden::",
            path.display()
        )
    });
    let golden = Golden::parse(name, &text);
    assert_eq!(
        golden.frames,
        lines.len() as u64,
        "{name}: the movie has changed since its checkpoints were recorded; record them again"
    );
    let mut nes = Nes::power_on();
    if let Some(rom) = &rom {
        nes.set_demo_data(Some(Arc::new(
            DemoData::from_ines(rom.bytes()).expect("the ROM has the demo tables"),
        )));
    }
    let mut expected = golden.checkpoints.iter().peekable();
    let mut hash = Fnv::START;
    let mut checked = 0u64;
    for (index, line) in lines.iter().enumerate() {
        nes.step_line(line);
        if nes.unsupported().is_some() {
            break;
        }
        let trace = numbered(TraceFrame::from_ram(nes.frame(), &nes.ram()), index);
        hash.frame(&trace);
        checked = trace.frame;
        if let Some(&&(frame, want)) = expected.peek()
            && frame == trace.frame
        {
            assert!(
                hash.0 == want,
                "{name}: the engine differs from the ROM at a frame in {}..={frame} (checkpoint \
                 hash {:016x}, the ROM's {want:016x}); the differential test with the ROM names \
                 the variable",
                frame.saturating_sub(INTERVAL - 1).max(1),
                hash.0
            );
            expected.next();
        }
    }
    match (rom.is_some(), golden.demo) {
        (true, _) | (false, None) => assert_eq!(
            checked,
            golden.frames,
            "{name}: the engine stopped after {checked} frames: {:?}",
            nes.unsupported()
        ),
        (false, Some(demo)) => {
            // The frame before the demo's first is the last one the engine can make.
            assert_eq!(
                checked + 1,
                demo,
                "{name}: without the ROM's demo tables the engine must run exactly until the \
                 demo starts: {:?}",
                nes.unsupported()
            );
            println!(
                "{name}: checked frames 1..={checked} of {}; the rest replays the demo, whose tables \
                 only the ROM has (set {ROM_ENV} to check it all)",
                golden.frames
            );
        }
    }
}

macro_rules! golden_tests {
    ($($test:ident: $name:literal,)*) => {$(
        #[test]
        fn $test() {
            check_movie($name);
        }
    )*};
}

for_each_movie!(golden_tests);

#[test]
fn every_checkpoint_file_belongs_to_a_listed_movie() {
    let listed = listed_names();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for entry in std::fs::read_dir(&dir).expect("the checkpoint directory exists") {
        let path = entry.expect("a directory entry").path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        assert!(
            listed.contains(&stem),
            "{} has no movie in the suite's list",
            path.display()
        );
    }
}

#[test]
fn checkpoint_files_read_back_as_written() {
    let golden = Golden {
        frames: 600,
        demo: Some(300),
        checkpoints: vec![(256, 1), (300, u64::MAX), (512, 0xabc), (600, 7)],
    };
    assert_eq!(Golden::parse("example", &golden.render("example")), golden);
}

/// What one of the scripted player's movies did, replayed in the engine.
#[derive(Debug, Default)]
struct MovieFacts {
    lines: usize,
    games_started: u32,
    level_ups: u32,
    most_a_type_lines: u32,
    b_type_goals: u32,
    rocket: bool,
    high_score_table_changed: bool,
}

fn facts(name: &str) -> MovieFacts {
    let lines = movie(name).unwrap_or_else(|| panic!("no movie is called {name}"));
    let mut nes = Nes::power_on();
    let mut f = MovieFacts {
        lines: lines.len(),
        ..MovieFacts::default()
    };
    let scores_at_power_on = nes.raw().high_score_scores;
    let mut mode = nes.game_mode();
    for line in &lines {
        let events = nes.step_line(line);
        if mode == GameMode::LevelMenu && nes.game_mode() == GameMode::Play {
            f.games_started += 1;
        }
        mode = nes.game_mode();
        f.level_ups += u32::from(events.has(Events::LEVEL_UP));
        f.b_type_goals += u32::from(events.has(Events::B_TYPE_GOAL));
        if nes.game_type() == GameType::A {
            f.most_a_type_lines = f.most_a_type_lines.max(nes.lines());
        }
        // The rocket's height and delay (`ending_customVars`) are set only by the A-type ending.
        f.rocket |= nes.raw().ending_custom_vars != [0; 7];
        // `initRam` fills the table once, in the first frames; later changes are new entries.
        f.high_score_table_changed |=
            nes.frame() > 600 && nes.raw().high_score_scores != scores_at_power_on;
    }
    f
}

/// The scripted player's movies are chosen (seeds, frames) for what their tests are named after;
/// a change of the player must keep that true, or the suite stops covering it.
#[test]
fn scripted_player_movies_do_what_their_names_say() {
    let f = facts("autoplay-level-0-two-games");
    assert!(f.games_started == 2 && f.level_ups >= 10, "{f:?}");
    let f = facts("autoplay-level-18-rocket");
    assert!(f.most_a_type_lines >= 130 && f.rocket, "{f:?}");
    let f = facts("autoplay-level-19-noise");
    assert!(f.games_started == 3 && f.high_score_table_changed, "{f:?}");
    for name in [
        "autoplay-b-level-9-height-0",
        "autoplay-b-level-5-height-3",
        "autoplay-b-level-2-height-1",
    ] {
        let f = facts(name);
        assert_eq!(f.b_type_goals, 1, "{name}: {f:?}");
    }
    // Soft resets go in at lines 3,000 and 7,500.
    let f = facts("autoplay-soft-resets");
    assert!(f.lines > 7_500, "{f:?}");
}
