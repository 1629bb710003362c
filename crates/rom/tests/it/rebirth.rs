//! An AI game through the crash levels and the wrap from level 255 to 0 on the unmodified game:
//! the engine against checkpoints recorded from the ROM, through the lag frames and the CPU phase
//! they depend on.
//!
//! `tests/rebirth/unlimited-31337.fm2.gz` is the score player's 60 Hz game of `playfield nes
//! bench --format unlimited --level 19 --seed 31337 --games 1 --max-lines 3400 --lockstep
//! --record` (the project's own recording with the player of 2026-12-05 before it lined out
//! where a clear is unsafe, which plays another rebirth from the same seed; gzipped): played with
//! the ROM in tetanes beside the engine, which followed tetanes' CPU phase, it passes level 157,
//! stays at level 235 from 2,290 lines, wraps from level 255 to 0 at 3,300 lines and stops at the
//! 3,400-line cap at level 10, with no frame that crashes in any of the 48 phases. On another
//! console, whose phase makes some lag frames last longer or shorter, the same presses can come a
//! frame early or late: the movie is the game on the ROM in tetanes.
//!
//! `tests/rebirth/rom-11.fm2.gz` is the same at 30 Hz with the 18-frame reaction, the player of
//! 2026-12-05 that plays to survive once the score is maxed: `playfield nes bench --format rom
//! --level 19 --seed 11 --games 1 --max-lines 3400 --lockstep --record` (3,400 lines, level 10
//! after the wrap, 312,447 frames).
//!
//! Each movie's `.golden` holds hashes of the ROM's traced variables in tetanes
//! (as the suite's checkpoint files: the hash at frame `F` covers frames `1..=F`) every 4,096
//! frames and at the last, the ROM's first lag frame, and tetanes' CPU phase at each frame whose
//! work the engine runs cycle by cycle (where an NMI lands in a frame that lags in every phase,
//! the RAM it leaves depends on the phase, to the instruction). With the ROM (`PLAYFIELD_ROM`)
//! the engine, told those phases, replays the whole game with its lag model and must meet every
//! checkpoint, and the frames that crash in some phase are counted; without it the engine models
//! no lag frame, so the check runs to the last checkpoint before the ROM's first lag frame.
//!
//! Regenerate from the ROM (about ten minutes of tetanes):
//! `PLAYFIELD_UPDATE_GOLDEN=1 PLAYFIELD_ROM=path/to/Tetris.nes cargo test --release -p playfield-rom --test it rebirth::`

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use crate::golden::Fnv;
use playfield_nes::fm2::{InputLine, Movie};
use playfield_nes::trace::TraceFrame;
use playfield_nes::{Buttons, CpuPhase, Events, LAG_FROM_LEVEL, Nes, ProgramData};
use playfield_rom::RomPhases;
use playfield_rom::lag::FrameOutcome;
use playfield_rom::{ROM_ENV, Rom};

const UPDATE_ENV: &str = "PLAYFIELD_UPDATE_GOLDEN";
/// A checkpoint every this many frames, and at the last.
const INTERVAL: u64 = 4_096;

fn path(name: &str, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/rebirth")
        .join(format!("{name}.{ext}"))
}

fn movie_lines(name: &str) -> Vec<InputLine> {
    let file = std::fs::File::open(path(name, "fm2.gz")).expect("the rebirth movie is in the tree");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("the movie decompresses");
    Movie::parse(&text).expect("the movie parses").lines
}

/// The checkpoint file.
#[derive(Debug, PartialEq, Eq)]
struct Checkpoints {
    frames: u64,
    /// The first frame the ROM lags in (its NMI interrupted the game's work).
    first_lag: u64,
    /// (frame, hash of frames `1..=frame`), frames ascending.
    hashes: Vec<(u64, u64)>,
    /// tetanes' CPU phase at each frame whose work the engine runs cycle by cycle.
    phases: BTreeMap<u64, CpuPhase>,
}

impl Checkpoints {
    fn parse(name: &str, text: &str) -> Checkpoints {
        let mut c = Checkpoints {
            frames: 0,
            first_lag: 0,
            hashes: Vec::new(),
            phases: BTreeMap::new(),
        };
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let bad =
                || -> ! { panic!("{}: cannot read {line:?}", path(name, "golden").display()) };
            if let Some(rest) = line.strip_prefix("phase ") {
                let n: Vec<u64> = rest
                    .split_whitespace()
                    .map(|w| w.parse().unwrap_or_else(|_| bad()))
                    .collect();
                let [frame, delay, beq, long, dma] = n[..] else {
                    bad()
                };
                let phase = CpuPhase {
                    nmi_delay_thirds: u8::try_from(delay).unwrap_or_else(|_| bad()),
                    interrupted_beq: beq == 1,
                    long_frame: long == 1,
                    dma_odd: dma == 1,
                };
                c.phases.insert(frame, phase);
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
                bad()
            };
            match key {
                "frames" => c.frames = value.parse().unwrap_or_else(|_| bad()),
                "first_lag" => c.first_lag = value.parse().unwrap_or_else(|_| bad()),
                frame => c.hashes.push((
                    frame.parse().unwrap_or_else(|_| bad()),
                    u64::from_str_radix(value, 16).unwrap_or_else(|_| bad()),
                )),
            }
        }
        c
    }

    fn render(&self, name: &str) -> String {
        let mut out = format!(
            "# Checkpoints of the rebirth game {name}, recorded from the real ROM (tetanes-core).\n\
             # \"FRAME HASH\": FNV-1a 64 of every traced variable of frames 1..=FRAME.\n\
             # \"phase FRAME DELAY BEQ LONG DMA\": tetanes' CPU phase (playfield_nes::CpuPhase) at a\n\
             # frame whose work the engine runs cycle by cycle.\n\
             # Regenerate: {UPDATE_ENV}=1 {ROM_ENV}=Tetris.nes cargo test --release -p playfield-rom --test it rebirth::\n\
             frames {}\nfirst_lag {}\n",
            self.frames, self.first_lag
        );
        for (frame, hash) in &self.hashes {
            out.push_str(&format!("{frame} {hash:016x}\n"));
        }
        for (frame, p) in &self.phases {
            out.push_str(&format!(
                "phase {frame} {} {} {} {}\n",
                p.nmi_delay_thirds,
                u8::from(p.interrupted_beq),
                u8::from(p.long_frame),
                u8::from(p.dma_odd)
            ));
        }
        out
    }
}

fn is_checkpoint(frame: u64, frames: u64) -> bool {
    frame.is_multiple_of(INTERVAL) || frame == frames
}

/// The ROM's checkpoints: the movie run on the ROM in tetanes, watched at every NMI, with the
/// engine told tetanes' phase beside it (as `playfield nes replay --follow-rom`), which must equal
/// the ROM at every frame.
fn record_from_rom(rom: &Rom, program: Arc<ProgramData>, lines: &[InputLine]) -> Checkpoints {
    let mut phases = RomPhases::new(rom).expect("the ROM loads");
    let mut nes = Nes::power_on();
    nes.set_program_data(Some(program));
    let padding = InputLine::new(Buttons::NONE);
    let frames = lines.len() as u64;
    let mut hash = Fnv::START;
    let mut c = Checkpoints {
        frames,
        first_lag: 0,
        hashes: Vec::new(),
        phases: BTreeMap::new(),
    };
    for (i, line) in lines.iter().enumerate() {
        while phases.ahead() < 2 {
            let next = lines.get(i + phases.ahead()).unwrap_or(&padding);
            phases.push(next).expect("the ROM runs");
        }
        let rom_frame = phases.take().expect("two lines run ahead");
        let frame = i as u64 + 1;
        assert!(
            !matches!(rom_frame.outcome, Some(FrameOutcome::Crash { .. })),
            "the ROM crashed at frame {frame}"
        );
        if c.first_lag == 0 && matches!(rom_frame.outcome, Some(FrameOutcome::Lag { .. })) {
            c.first_lag = frame;
        }
        // The frames whose work the engine runs cycle by cycle: where the phase can matter.
        if nes.lag_modelled() && nes.level() >= LAG_FROM_LEVEL {
            let mut untold = nes.clone();
            untold.set_cpu_phase(None);
            untold.step_line(line);
            if untold.phase_counts().is_some()
                && let Some(p) = rom_frame.phase
            {
                c.phases.insert(frame, p);
            }
        }
        nes.set_cpu_phase(rom_frame.phase);
        nes.step_line(line);
        let mut trace = rom_frame.trace;
        trace.frame = frame;
        if let Some(d) = TraceFrame::from_ram(frame, &nes.ram()).first_difference(&trace) {
            panic!("the engine told tetanes' phase differs from the ROM at frame {frame}: {d}");
        }
        hash.frame(&trace);
        if is_checkpoint(frame, frames) {
            c.hashes.push((frame, hash.0));
        }
    }
    c
}

#[test]
fn an_ai_rebirth_through_level_255_to_0_replays_as_on_the_rom() {
    check_rebirth("unlimited-31337");
}

#[test]
fn an_ai_rebirth_at_30_hz_with_the_reaction_replays_as_on_the_rom() {
    check_rebirth("rom-11");
}

/// The movie `name` replayed by the engine against its checkpoints (or, with
/// `PLAYFIELD_UPDATE_GOLDEN=1`, its checkpoints recorded from the ROM).
fn check_rebirth(name: &str) {
    let lines = movie_lines(name);
    let rom = std::env::var_os(ROM_ENV)
        .filter(|p| !p.is_empty())
        .map(|_| Rom::from_env().unwrap_or_else(|e| panic!("{e}")));
    if std::env::var(UPDATE_ENV).is_ok_and(|v| v == "1") {
        let rom =
            rom.unwrap_or_else(|| panic!("{UPDATE_ENV}=1 records from the ROM: set {ROM_ENV}"));
        let program = ProgramData::from_ines(rom.bytes()).expect("the ROM's program");
        let c = record_from_rom(&rom, Arc::new(program), &lines);
        std::fs::write(path(name, "golden"), c.render(name))
            .expect("the checkpoint file is written");
        println!("{name}: wrote {} checkpoints", c.hashes.len());
        return;
    }
    let text =
        std::fs::read_to_string(path(name, "golden")).expect("the checkpoint file is in the tree");
    let golden = Checkpoints::parse(name, &text);
    assert_eq!(
        golden.frames,
        lines.len() as u64,
        "the movie and its checkpoints"
    );
    let mut nes = Nes::power_on();
    if let Some(rom) = &rom {
        let program = ProgramData::from_ines(rom.bytes()).expect("the ROM's program");
        nes.set_program_data(Some(Arc::new(program)));
    }
    // Without the ROM, the checkpoints before the ROM's first lag frame.
    let through = if rom.is_some() {
        golden.frames
    } else {
        golden.first_lag - 1
    };
    let mut hash = Fnv::START;
    let mut expected = golden
        .hashes
        .iter()
        .filter(|(f, _)| *f <= through)
        .peekable();
    let (mut checked, mut phases_crashing) = (0, 0);
    // Lag frames, those in a row now and the most in a row; the top-out; the wrap.
    let (mut lag_frames, mut lagging, mut deepest, mut top_out) = (0u64, 0u64, 0u64, None);
    let mut wrap: Option<(u64, u32)> = None;
    for (index, line) in lines.iter().enumerate() {
        let frame = index as u64 + 1;
        // Whether some of the frame's phases crash, then the frame in tetanes' phase.
        if rom.is_some() && nes.level() >= LAG_FROM_LEVEL {
            let mut untold = nes.clone();
            untold.set_cpu_phase(None);
            untold.step_line(line);
            phases_crashing += u32::from(untold.phase_counts().is_some_and(|c| c.crash > 0));
        }
        nes.set_cpu_phase(golden.phases.get(&frame).copied());
        let level_before = nes.level();
        let events = nes.step_line(line);
        if events.lagged() {
            lag_frames += 1;
            lagging += 1;
            deepest = deepest.max(lagging);
        } else {
            lagging = 0;
        }
        if events.has(Events::TOP_OUT) {
            top_out.get_or_insert(frame);
        }
        if level_before == 255 && nes.level() == 0 {
            wrap.get_or_insert((frame, nes.line_count()));
        }
        if frame > through {
            break;
        }
        assert_eq!(nes.crash(), None, "frame {frame}");
        let mut trace = TraceFrame::from_ram(nes.frame(), &nes.ram());
        trace.frame = frame;
        hash.frame(&trace);
        if let Some(&&(at, want)) = expected.peek()
            && at == frame
        {
            assert!(
                hash.0 == want,
                "the engine differs from the ROM at a frame in {}..={at} (checkpoint hash \
                 {:016x}, the ROM's {want:016x}); `playfield nes replay --follow-rom` names the \
                 variable",
                at.saturating_sub(INTERVAL - 1),
                hash.0
            );
            expected.next();
            checked += 1;
        }
    }
    assert_eq!(expected.next(), None, "every checkpoint reached");
    if rom.is_none() {
        println!(
            "{name}: {checked} checkpoints to frame {through} (the ROM lags from {}: set \
             {ROM_ENV} to check the whole game)",
            golden.first_lag
        );
        return;
    }
    assert_eq!(top_out, None, "the game does not top out");
    let (wrap_frame, wrap_lines) = wrap.expect("the level wraps from 255 to 0, as on the ROM");
    println!(
        "{name}: {checked} checkpoints, the whole game as on the ROM: the level wraps from 255 to \
         0 at frame {wrap_frame} ({wrap_lines} lines); the movie ends at level {}, {} lines, with \
         {lag_frames} lag frames (the most in a row {deepest}); {phases_crashing} frames crash in \
         some CPU phases",
        nes.level(),
        nes.line_count()
    );
    assert!(
        nes.line_count() >= wrap_lines + 100,
        "100 lines past the wrap"
    );
    assert!(lag_frames > 0, "lag frames on the way");
    assert_eq!(phases_crashing, 0, "no frame crashes in any CPU phase");
}
