//! Lag frames and crashes at the highest levels: the engine against the real ROM.
//!
//! Each case writes a game into the ROM's RAM (levels 130-255, a few past 255 where the level
//! wrapped to 0, lines past 999 included; a well with 1-4 rows to clear, junk below, the frame
//! counter, the preview, the music on or off, push-down points, a few button taps) and runs the
//! ROM and the engine side by side from the same RAM for 70 frames: the piece falls, locks, the
//! rows clear, the next piece falls and locks. The ROM is watched at every NMI
//! (`playfield_rom::lag`): a lag frame is an NMI that interrupted the main loop's work, a crash
//! the CPU leaving the program.
//!
//! The engine runs twice: told each frame's CPU phase as measured on the ROM
//! (`Nes::set_cpu_phase`; the phase follows from every cycle since power-on, so the engine cannot
//! know it), which must give exactly the ROM's lag frames, crashes and traced RAM; and on its
//! own, where it follows what most phases give, whose agreement is printed and checked against
//! the thresholds below, every disagreement listed with the outcome the ROM's phase gives.
//!
//! Told the phase, the engine scores each frame that adds the points where no NMI lands in the
//! game's work with its own frame of play, and takes the heavy run's RAM only where one does (or
//! the game crashes): both kinds are counted, and after each frame of the first kind the scoring
//! variables (both player blocks, the statistics, the render flags) must be the ROM's.
//!
//! A third test compares the engine's run of each frame that adds the points with the ROM's
//! instructions, address and cycle, for the first cases.
//!
//! `PLAYFIELD_LAG_CASES=N` runs N cases instead of the CI's 1,000; `PLAYFIELD_LAG_CASE=K` only
//! case K; `PLAYFIELD_LAG_VERBOSE=1` prints every case.

use std::sync::Arc;

use playfield_nes::timing_probe::{heavy_outcomes, probe_heavy_frame};
use playfield_nes::trace::TraceFrame;
use playfield_nes::{Buttons, CpuPhase, GameSetup, Nes, ProgramData, Region};
use playfield_rom::lag::{FrameOutcome, FrameTiming, RomLayout};
use playfield_rom::{Emulator, RAM_SIZE, rom_for_tests};
use playfield_testkit::SplitMix64 as Rng;
use playfield_testkit::movies::{PlayStyle, to_game};

const TILE_EMPTY: u8 = 0xEF;
const TILE_BLOCK: u8 = 0x7B;
const I_VERTICAL: u8 = 0x11;
/// Frames run per case: the fall from row 2 (one row a frame), the lock, the clear animation,
/// the post-clear work, the next piece's fall and lock.
const FRAMES: usize = 70;

fn bcd(v: u32) -> u8 {
    (((v / 10 % 10) << 4) | (v % 10)) as u8
}

#[derive(Clone, Copy, Debug)]
struct Case {
    level: u8,
    /// Lines in decimal (the hundreds digit may pass 9: the ROM then shows letters).
    lines: u32,
    score: u32,
    cleared: u8,
    junk_rows: u8,
    column: u8,
    frame_counter: u16,
    /// The next piece is shown (`displayNextPiece` 0).
    preview: bool,
    /// The music stopped (`musicType` 3, `currentlyPlayingMusicTrack` 0).
    music_off: bool,
    /// Down held for the first 20 frames: push-down points.
    soft_drop: bool,
    /// A button tapped for one frame, at this frame (Select, A, B, Left or Right).
    tap: Option<(usize, Buttons)>,
}

impl Case {
    fn random(rng: &mut Rng) -> Case {
        let level = match rng.below(10) {
            0 => rng.below(30) as u8,        // past 255: the level wrapped to 0
            _ => 130 + rng.below(126) as u8, // 130-255
        };
        let lines = match rng.below(6) {
            0 => 1_000 + rng.below(600) as u32, // past 999
            1 => 10 * rng.below(160) as u32 + 6 + rng.below(4) as u32, // a tens carry is near
            2 => 100 * rng.below(16) as u32 + 96 + rng.below(4) as u32, // a hundreds carry
            _ => rng.below(1_600) as u32,
        };
        let tap = (rng.below(3) == 0).then(|| {
            let b = [
                Buttons::SELECT,
                Buttons::A,
                Buttons::B,
                Buttons::LEFT,
                Buttons::RIGHT,
            ][rng.below(5) as usize];
            (20 + rng.below(50) as usize, b)
        });
        Case {
            level,
            lines,
            score: rng.below(1_000_000) as u32,
            cleared: 1 + rng.below(4) as u8,
            junk_rows: rng.below(13) as u8,
            column: rng.below(10) as u8,
            frame_counter: rng.below(0x1_0000) as u16,
            preview: rng.below(4) != 0,
            music_off: rng.below(4) == 0,
            soft_drop: rng.below(3) == 0,
            tap,
        }
    }

    /// The RAM of the base game with this case written over it: an I piece above a well in
    /// `column`, `cleared` rows full but for the well, junk rows below them.
    fn ram(&self, base: &[u8; RAM_SIZE]) -> [u8; RAM_SIZE] {
        let mut ram = *base;
        let mut field = [TILE_EMPTY; 200];
        let c = usize::from(self.column);
        let bottom = 19usize;
        let junk = usize::from(self.junk_rows);
        // Junk rows: full but for one hole outside the well's column; the well's column filled.
        for r in 0..junk {
            let row = bottom - r;
            let hole = (c + 1 + (r * 3) % 9) % 10;
            for col in 0..10 {
                if col != hole {
                    field[row * 10 + col] = TILE_BLOCK;
                }
            }
        }
        // The rows to clear, then rows with the well open and another hole.
        for r in 0..4usize {
            let row = bottom - junk - r;
            let other = (c + 5) % 10;
            for col in 0..10 {
                let full_row = r < usize::from(self.cleared);
                if col != c && (full_row || col != other) {
                    field[row * 10 + col] = TILE_BLOCK;
                }
            }
        }
        ram[0x400..0x400 + 200].copy_from_slice(&field);
        let lines = [bcd(self.lines % 100), (self.lines / 100) as u8];
        let score = [
            bcd(self.score % 100),
            bcd(self.score / 100 % 100),
            bcd(self.score / 10_000 % 100),
        ];
        for block in [0x40usize, 0x60] {
            ram[block] = self.column; // tetriminoX
            ram[block + 0x01] = 2; // tetriminoY
            ram[block + 0x02] = I_VERTICAL;
            ram[block + 0x04] = self.level;
            ram[block + 0x05] = 0; // fallTimer
            ram[block + 0x08] = 1; // playState: the player controls the piece
            ram[block + 0x0E] = 0; // autorepeatY
            ram[block + 0x0F] = 0; // holdDownPoints
            ram[block + 0x10..block + 0x12].copy_from_slice(&lines);
            ram[block + 0x13..block + 0x16].copy_from_slice(&score);
            ram[block + 0x16] = 0; // completedLines
        }
        ram[0xB1..0xB3].copy_from_slice(&self.frame_counter.to_le_bytes());
        ram[0xDF] = u8::from(!self.preview); // displayNextPiece
        if self.music_off {
            ram[0xC2] = 3; // musicType
            ram[0x6FD] = 0; // currentlyPlayingMusicTrack
        }
        ram
    }

    fn buttons(&self, frame: usize) -> Buttons {
        let mut b = if self.soft_drop && frame < 20 {
            Buttons::DOWN
        } else {
            Buttons::NONE
        };
        if let Some((at, tap)) = self.tap
            && at == frame
        {
            b |= tap;
        }
        b
    }
}

/// The ROM's frames of a case: its timing and the traced RAM after each.
struct RomRun {
    start: [u8; RAM_SIZE],
    frames: Vec<(FrameTiming, TraceFrame)>,
    /// The whole RAM after each frame.
    rams: Vec<[u8; RAM_SIZE]>,
}

/// The bytes a frame that adds the points decides: `player` and `player1` (score, lines, level,
/// completed lines, push-down points, play state...), `outOfDateRenderFlags`,
/// `lineClearStatsByType` and `statsByType`.
fn scoring_bytes() -> impl Iterator<Item = usize> {
    (0x40..0x80)
        .chain([0xA3])
        .chain(0xD8..0xDC)
        .chain(0x3F0..0x3FE)
}

fn run_rom(base: &Emulator, layout: &RomLayout, case: &Case) -> RomRun {
    run_rom_for(base, layout, case, FRAMES)
}

fn run_rom_for(base: &Emulator, layout: &RomLayout, case: &Case, frame_count: usize) -> RomRun {
    let mut rom = base.clone();
    let start = case.ram(&rom.ram());
    rom.write_ram_keep_stack(&start);
    let start = rom.ram();
    let mut frames = Vec::new();
    let mut rams = Vec::new();
    for frame in 1..=frame_count {
        let t = rom
            .step_timed(layout, case.buttons(frame))
            .expect("tetanes runs");
        let crashed = matches!(t.outcome, FrameOutcome::Crash { .. } | FrameOutcome::NoNmi);
        frames.push((t, TraceFrame::from_ram(frame as u64, rom.ram_ref())));
        rams.push(rom.ram());
        if crashed {
            break;
        }
    }
    RomRun {
        start,
        frames,
        rams,
    }
}

/// The phase of frame `k`'s NMI (1-based) as the ROM had it, when it is known.
fn rom_phase(layout: &RomLayout, rom: &RomRun, k: usize) -> Option<CpuPhase> {
    let this = rom.frames.get(k - 1)?.0.nmi?;
    let next = rom.frames.get(k)?.0.nmi?;
    layout.cpu_phase(&this, &next)
}

fn is_lag(t: &FrameTiming) -> bool {
    matches!(t.outcome, FrameOutcome::Lag { .. })
}

fn is_crash(t: &FrameTiming) -> bool {
    matches!(t.outcome, FrameOutcome::Crash { .. } | FrameOutcome::NoNmi)
}

/// What the engine did in a case, against the ROM.
#[derive(Debug, Default)]
struct EngineRun {
    lag_frames: Vec<usize>,
    crash: Option<usize>,
    /// The first frame whose traced RAM differs from the ROM's.
    differs: Option<(usize, String)>,
    /// Frames that add the points scored by the engine's own frame of play, and by the heavy
    /// run's RAM (an NMI in the game's work, or a crash).
    scored_native: usize,
    scored_by_run: usize,
    /// The first frame scored by the engine's own frame of play whose scoring bytes differ from
    /// the ROM's: the frame, the address, the engine's byte and the ROM's.
    native_differs: Option<(usize, usize, u8, u8)>,
}

fn run_engine(
    rom: &RomRun,
    layout: &RomLayout,
    prg: &Arc<ProgramData>,
    case: &Case,
    told: bool,
) -> EngineRun {
    let mut nes = Nes::from_ram(&rom.start, Region::Ntsc).expect("play between frames");
    nes.set_program_data(Some(prg.clone()));
    let mut out = EngineRun::default();
    for k in 1..=rom.frames.len() {
        if told {
            nes.set_cpu_phase(rom_phase(layout, rom, k));
        }
        let before = heavy_outcomes(&nes);
        let events = nes.step(case.buttons(k));
        let after = heavy_outcomes(&nes);
        let native = after.native.saturating_sub(before.native) as usize;
        out.scored_native += native;
        out.scored_by_run += after.run.saturating_sub(before.run) as usize;
        if native > 0 && out.native_differs.is_none() {
            let (engine, rom_ram) = (nes.ram(), &rom.rams[k - 1]);
            out.native_differs = scoring_bytes()
                .find(|&at| engine[at] != rom_ram[at])
                .map(|at| (k, at, engine[at], rom_ram[at]));
        }
        if events.lagged() {
            out.lag_frames.push(k);
        }
        if events.crashed() {
            out.crash = Some(k);
            break;
        }
        let (_, expected) = &rom.frames[k - 1];
        if out.differs.is_none()
            && let Some(d) = TraceFrame::from_ram(k as u64, &nes.ram()).first_difference(expected)
        {
            out.differs = Some((k, d.to_string()));
        }
    }
    out
}

/// An emulator in play at level 19 with a piece falling, the main loop waiting for its NMI.
fn base_game(rom: &playfield_rom::Rom) -> Emulator {
    let setup = GameSetup::a_type(19);
    let movie = to_game(setup, 3, PlayStyle::Idle, 200, false);
    let mut e = Emulator::new(rom).expect("the ROM loads");
    for &b in &movie.buttons[..movie.play_frame + 120] {
        e.step(b).expect("the ROM runs");
    }
    let ram = e.ram();
    assert_eq!(
        (ram[0xC0], ram[0xA7], ram[0x68]),
        (4, 2, 1),
        "in play, a piece falling"
    );
    e
}

#[test]
fn the_probe_sees_no_lag_in_ordinary_play() {
    let Some(rom) = rom_for_tests() else { return };
    let layout = RomLayout::from_rom(&rom).expect("the layout is found");
    let setup = GameSetup {
        music: 1,
        ..GameSetup::a_type(9)
    };
    let movie = to_game(setup, 4, PlayStyle::Mixed, 3_000, true);
    let mut e = Emulator::new(&rom).expect("the ROM loads");
    let mut on_time = 0;
    for &b in &movie.buttons {
        match e.step_probed(&layout, b).expect("the ROM runs") {
            FrameOutcome::OnTime { .. } => on_time += 1,
            FrameOutcome::NoNmi => {}
            other => panic!("frame {}: {other:?}", e.frame()),
        }
    }
    assert!(on_time > 3_000, "{on_time} frames with an NMI");
}

#[test]
fn high_levels_lag_and_crash_cases() {
    let Some(rom) = rom_for_tests() else { return };
    let layout = RomLayout::from_rom(&rom).expect("the layout is found");
    let prg = Arc::new(ProgramData::from_ines(rom.bytes()).expect("the PRG reads"));
    let base = base_game(&rom);
    let cases: usize = std::env::var("PLAYFIELD_LAG_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000);
    let only: Option<usize> = std::env::var("PLAYFIELD_LAG_CASE")
        .ok()
        .and_then(|v| v.parse().ok());
    let verbose = std::env::var("PLAYFIELD_LAG_VERBOSE").is_ok();
    // Seeded, so every case can be named and rerun.
    let mut rng = Rng::new(0x5EED_1A66);
    #[derive(Default)]
    struct Tally {
        cases: usize,
        lag_cases: usize,
        crash_cases: usize,
        rom_lag_frames: usize,
        lag_equal: usize,
        crash_equal: usize,
        trace_equal: usize,
        scored_native: usize,
        scored_by_run: usize,
        native_equal: usize,
        disagreements: Vec<String>,
    }
    let (mut told, mut own) = (Tally::default(), Tally::default());
    let mut by_clear = [[0usize; 2]; 5];
    let mut by_level = std::collections::BTreeMap::<u8, [usize; 3]>::new();
    for n in 0..cases {
        let case = Case::random(&mut rng);
        if only.is_some_and(|k| k != n) {
            continue;
        }
        let rom_run = run_rom(&base, &layout, &case);
        let rom_lags: Vec<usize> = (1..=rom_run.frames.len())
            .filter(|&k| is_lag(&rom_run.frames[k - 1].0))
            .collect();
        let rom_crash = (1..=rom_run.frames.len()).find(|&k| is_crash(&rom_run.frames[k - 1].0));
        by_clear[usize::from(case.cleared)][0] += 1;
        if !rom_lags.is_empty() {
            by_clear[usize::from(case.cleared)][1] += 1;
        }
        let bucket = by_level.entry(case.level / 16 * 16).or_default();
        bucket[0] += 1;
        bucket[1] += usize::from(!rom_lags.is_empty());
        bucket[2] += usize::from(rom_crash.is_some());
        for (tally, is_told) in [(&mut told, true), (&mut own, false)] {
            let e = run_engine(&rom_run, &layout, &prg, &case, is_told);
            tally.cases += 1;
            tally.lag_cases += usize::from(!rom_lags.is_empty());
            tally.crash_cases += usize::from(rom_crash.is_some());
            tally.rom_lag_frames += rom_lags.len();
            let lag_ok = e.lag_frames == rom_lags;
            let crash_ok = e.crash == rom_crash;
            tally.lag_equal += usize::from(lag_ok);
            tally.crash_equal += usize::from(crash_ok);
            tally.trace_equal += usize::from(e.differs.is_none());
            tally.scored_native += e.scored_native;
            tally.scored_by_run += e.scored_by_run;
            tally.native_equal += usize::from(e.native_differs.is_none());
            if !lag_ok || !crash_ok || e.differs.is_some() || e.native_differs.is_some() {
                tally.disagreements.push(format!(
                    "case {n} {case:?}: ROM lag {rom_lags:?} crash {rom_crash:?} ({:?}); \
                     engine lag {:?} crash {:?}; trace {:?}; scoring bytes of a frame scored \
                     natively (frame, address, engine, ROM) {:?}",
                    rom_run.frames.last().map(|f| f.0.outcome),
                    e.lag_frames,
                    e.crash,
                    e.differs,
                    e.native_differs
                ));
            }
            if verbose {
                eprintln!(
                    "case {n} told {is_told} {case:?}: ROM lag {rom_lags:?} crash {rom_crash:?}; \
                     engine {e:?}"
                );
            }
        }
    }
    let report = |name: &str, t: &Tally| {
        eprintln!(
            "{name}: {} cases ({} with lag frames, {} lag frames in all; {} crashes): lag frames \
             equal in {} ({:.2} %), crash or not equal in {} ({:.2} %), traced RAM equal at every \
             frame in {}",
            t.cases,
            t.lag_cases,
            t.rom_lag_frames,
            t.crash_cases,
            t.lag_equal,
            100.0 * t.lag_equal as f64 / t.cases.max(1) as f64,
            t.crash_equal,
            100.0 * t.crash_equal as f64 / t.cases.max(1) as f64,
            t.trace_equal
        );
        eprintln!(
            "{name}: frames that add the points scored by the engine's own frame of play {}, by \
             the heavy run (an NMI in the game's work, or a crash) {}; scoring bytes as the ROM's \
             after every frame scored natively in {} cases",
            t.scored_native, t.scored_by_run, t.native_equal
        );
        for d in &t.disagreements {
            eprintln!("  {d}");
        }
    };
    eprintln!(
        "cases with lag frames by clear type (single..tetris, (cases, lagging)): {:?}; by level \
         (from, [cases, lagging, crashing]): {by_level:?}",
        &by_clear[1..]
    );
    report("engine told the ROM's CPU phase", &told);
    report("engine on its own", &own);
    assert!(only.is_some() || told.lag_cases > 0 && told.crash_cases > 0);
    assert_eq!(
        told.lag_equal, told.cases,
        "lag frames, engine told the phase"
    );
    assert_eq!(
        told.crash_equal, told.cases,
        "crashes, engine told the phase"
    );
    assert_eq!(
        told.trace_equal, told.cases,
        "traced RAM, engine told the phase"
    );
    assert!(
        only.is_some() || told.scored_native > 0 && told.scored_by_run > 0,
        "both kinds of scoring frame"
    );
    assert_eq!(
        told.native_equal, told.cases,
        "scoring bytes of the frames scored natively, engine told the phase"
    );
    assert!(
        own.crash_equal * 100 >= own.cases * 99,
        "crash or not on its own: {} of {}",
        own.crash_equal,
        own.cases
    );
    assert!(
        own.lag_equal * 100 >= own.cases * 99,
        "lag frames on its own: {} of {}",
        own.lag_equal,
        own.cases
    );
}

/// Past 2,550 lines and the wrap past level 255. `incrementLines` raises the level while it is
/// below the lines' tens compared signed, on a byte: from 2,290 lines (level 235) the byte says
/// the level is ahead until 3,100 lines, so a game stays at level 235 for 810 lines, reaches 255
/// at about 3,290 lines and wraps to 0 at 3,300. Cases at the plateau and its end, at 254 and
/// 255 with a tens carry near (the wrap), and at levels 0-10 after it. The engine, told the ROM's
/// phase, must give the ROM's lag frames, crash or not and traced RAM (level, lines, score, the
/// colours' inputs) at every frame; and some cases must see the level go from 255 to 0.
#[test]
fn past_2550_lines_and_the_wrap_past_level_255_as_on_the_rom() {
    let Some(rom) = rom_for_tests() else { return };
    let layout = RomLayout::from_rom(&rom).expect("the layout is found");
    let prg = Arc::new(ProgramData::from_ines(rom.bytes()).expect("the PRG reads"));
    let base = base_game(&rom);
    let mut cases = Vec::new();
    let groups: [(&[u8], &[u32]); 3] = [
        (&[235, 235, 236], &[255, 256, 299, 309]),
        (&[254, 255, 255, 255], &[328, 329, 330, 349]),
        (&[0, 1, 9, 10], &[330, 331, 339, 340]),
    ];
    for (levels, tens_list) in groups {
        for (i, &level) in levels.iter().enumerate() {
            for &tens in tens_list {
                let i = i as u32 + tens;
                cases.push(Case {
                    level,
                    lines: 10 * tens + 6 + i % 4,
                    score: 999_999 - 7_919 * (i % 5),
                    cleared: 1 + (i % 4) as u8,
                    junk_rows: (i % 5) as u8,
                    column: (i % 10) as u8,
                    frame_counter: (0x9E37 * i) as u16,
                    preview: !i.is_multiple_of(3),
                    music_off: i.is_multiple_of(2),
                    soft_drop: i % 3 == 1,
                    tap: None,
                });
            }
        }
    }
    let (mut wrapped, mut lag_cases) = (0, 0);
    for (n, case) in cases.iter().enumerate() {
        let rom_run = run_rom(&base, &layout, case);
        let rom_lags: Vec<usize> = (1..=rom_run.frames.len())
            .filter(|&k| is_lag(&rom_run.frames[k - 1].0))
            .collect();
        let rom_crash = (1..=rom_run.frames.len()).find(|&k| is_crash(&rom_run.frames[k - 1].0));
        lag_cases += usize::from(!rom_lags.is_empty());
        // `player1`'s levelNumber ($64) after each frame.
        wrapped += usize::from(
            rom_run
                .rams
                .windows(2)
                .any(|w| w[0][0x64] == 255 && w[1][0x64] == 0),
        );
        let e = run_engine(&rom_run, &layout, &prg, case, true);
        assert_eq!(e.lag_frames, rom_lags, "case {n} {case:?}: lag frames");
        assert_eq!(e.crash, rom_crash, "case {n} {case:?}: crash");
        assert_eq!(e.differs, None, "case {n} {case:?}: traced RAM");
    }
    eprintln!(
        "{} cases at the wrap: {wrapped} see the level go from 255 to 0, {lag_cases} lag",
        cases.len()
    );
    assert!(wrapped >= 3, "{wrapped} cases wrap");
}

/// `Lockstep::run_line`, which gives a game played beside the ROM (`nes bench --lockstep`) the
/// ROM's CPU phase before the frame's buttons are known past it, must give the phase the frame
/// had as measured with the next frame run for real, and the engine told it must stay equal to
/// the ROM: lag frames, crashes and traced RAM, over cases at the lag levels.
#[test]
fn the_lockstep_tells_the_engine_the_roms_phase() {
    let Some(rom) = rom_for_tests() else { return };
    let layout = RomLayout::from_rom(&rom).expect("the layout is found");
    let prg = Arc::new(ProgramData::from_ines(rom.bytes()).expect("the PRG reads"));
    let base = base_game(&rom);
    let mut rng = Rng::new(0x5EED_1A66);
    let (mut phases_told, mut lag_frames, mut crashes) = (0, 0, 0);
    for n in 0..60 {
        let case = Case::random(&mut rng);
        let rom_run = run_rom(&base, &layout, &case);
        let mut emulator = base.clone();
        emulator.write_ram_keep_stack(&case.ram(&base.ram()));
        let mut lockstep =
            playfield_rom::Lockstep::from_emulator(emulator, &rom).expect("the layout is found");
        let mut nes = Nes::from_ram(&rom_run.start, Region::Ntsc).expect("play between frames");
        nes.set_program_data(Some(prg.clone()));
        for k in 1..=rom_run.frames.len() {
            let line = playfield_nes::fm2::InputLine::new(case.buttons(k));
            let phase = lockstep.run_line(&line, true).expect("tetanes runs");
            // The last frame's phase needs a frame the ROM run did not play.
            if k < rom_run.frames.len() {
                assert_eq!(phase, rom_phase(&layout, &rom_run, k), "case {n} frame {k}");
            }
            phases_told += usize::from(phase.is_some());
            nes.set_cpu_phase(phase);
            let events = nes.step(case.buttons(k));
            lag_frames += usize::from(events.lagged());
            crashes += usize::from(events.crashed());
            if events.crashed() {
                // Past a crash the RAM is the runaway program's; the ROM must have crashed too.
                assert!(
                    is_crash(&rom_run.frames[k - 1].0),
                    "case {n} {case:?} frame {k}: the engine crashed, the ROM did not"
                );
                break;
            }
            // The frame counts differ (the ROM's since its power-on): compare the rest.
            let rom_frame = TraceFrame::from_ram(k as u64, lockstep.emulator().ram_ref());
            if let Some(d) = TraceFrame::from_ram(k as u64, &nes.ram()).first_difference(&rom_frame)
            {
                panic!("case {n} {case:?} frame {k}: {d}");
            }
        }
    }
    eprintln!(
        "60 cases beside the ROM: {phases_told} frames told the phase, {lag_frames} lag frames, \
         {crashes} crashes, the engine equal to the ROM at every frame"
    );
    assert!(lag_frames > 0 && crashes > 0, "the cases lag and crash");
}

/// The frames of play in which the score loop's frame lags for hundreds of frames: at the
/// highest levels with the score at 999,999 the NMI that interrupts the score loop redraws the
/// score with the loop's counter (`generalCounter`), the loop then runs as many more passes as
/// that byte says, past the next NMI again, and so on. The engine, told the ROM's phase, must
/// lag the same frames and keep every traced variable equal through it.
#[test]
fn the_score_loop_restarted_by_every_nmi_as_on_the_rom() {
    let Some(rom) = rom_for_tests() else { return };
    let layout = RomLayout::from_rom(&rom).expect("the layout is found");
    let prg = Arc::new(ProgramData::from_ines(rom.bytes()).expect("the PRG reads"));
    let base = base_game(&rom);
    let scan = std::env::var("PLAYFIELD_FREEZE_SCAN").is_ok();
    let levels: Vec<(u8, u8)> = if scan {
        (160..=200u8)
            .flat_map(|l| (1..=4u8).map(move |c| (l, c)))
            .collect()
    } else {
        FREEZES.to_vec()
    };
    let mut longest = 0;
    for (level, cleared) in levels {
        let case = Case {
            level,
            lines: 1_653,
            score: 999_999,
            cleared,
            junk_rows: 2,
            column: 9,
            frame_counter: 0x1234,
            preview: true,
            music_off: true,
            soft_drop: false,
            tap: None,
        };
        let frames = if scan { 300 } else { 400 };
        let rom_run = run_rom_for(&base, &layout, &case, frames);
        let rom_lags: Vec<usize> = (1..=rom_run.frames.len())
            .filter(|&k| is_lag(&rom_run.frames[k - 1].0))
            .collect();
        let rom_crash = (1..=rom_run.frames.len()).find(|&k| is_crash(&rom_run.frames[k - 1].0));
        let in_a_row = rom_lags
            .iter()
            .zip(rom_lags.iter().skip(1))
            .fold((1, 1), |(run, best), (a, b)| {
                let run = if *b == a + 1 { run + 1 } else { 1 };
                (run, best.max(run))
            })
            .1;
        if scan {
            eprintln!(
                "level {level} cleared {cleared}: {in_a_row} lag frames in a row, crash {rom_crash:?}"
            );
            continue;
        }
        longest = longest.max(in_a_row);
        eprintln!("level {level}, {cleared} lines: {in_a_row} lag frames in a row on the ROM");
        let e = run_engine(&rom_run, &layout, &prg, &case, true);
        assert_eq!(
            e.lag_frames, rom_lags,
            "level {level}, {cleared} lines: lag frames"
        );
        assert_eq!(e.crash, rom_crash, "level {level}, {cleared} lines: crash");
        assert_eq!(
            e.differs, None,
            "level {level}, {cleared} lines: traced RAM"
        );
    }
    assert!(
        scan || longest >= 300,
        "{longest} lag frames in a row at most"
    );
}

/// Levels and clears at which the scan (`PLAYFIELD_FREEZE_SCAN=1`) found the ROM lagging for
/// hundreds of frames in the position above.
const FREEZES: [(u8, u8); 3] = [(170, 1), (174, 3), (181, 4)];

/// An NMI of the ROM, seen in an instruction trace.
struct TracedNmi {
    frame: usize,
    /// Its first instruction's index in the trace.
    index: usize,
    cycle: u32,
    dot: u16,
    interrupted: u16,
    ram: [u8; RAM_SIZE],
    /// The instruction the sprite DMA delays (the handler's `rts`), with the DMA.
    dma_rts: Option<u32>,
}

/// Cases of the instruction-by-instruction test whose frame's last instruction, in the game's
/// work, starts on the frame's end and stores a byte: an engine that ended the frame before that
/// instruction differed from the ROM at the frame's end in these four (found in 1,500 cases).
const ON_THE_DOT_CASES: [usize; 4] = [444, 457, 522, 536];

#[test]
fn heavy_frames_run_as_the_roms_instruction_by_instruction() {
    // The engine's run of every frame that adds the points (from its NMI to the main loop's next
    // wait, lag NMIs in the game's work included) against the ROM's instructions, address and
    // cycle, told the ROM's phase. Where the ROM takes an NMI inside the sound driver, which the
    // engine runs whole (nothing of the NMI's work touches it), the engine must say the next
    // frame lags. `PLAYFIELD_LAG_TRACE_CASES=N` (default 60) cases of the test above, and the
    // cases of `ON_THE_DOT_CASES`. The RAM at the end of each frame the run passes must be the
    // ROM's too: where the frame's last instruction starts on the frame's end it tells the
    // emulator's frame boundary to the instruction.
    let Some(rom) = rom_for_tests() else { return };
    let prg = ProgramData::from_ines(rom.bytes()).expect("the PRG reads");
    let base = base_game(&rom);
    let cases: usize = std::env::var("PLAYFIELD_LAG_TRACE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng::new(0x5EED_1A66);
    let (mut compared, mut failures) = (0, Vec::new());
    let (mut ends_compared, mut ends_on_the_dot) = (0, 0);
    let last = ON_THE_DOT_CASES
        .iter()
        .max()
        .map_or(cases, |&k| cases.max(k + 1));
    for n in 0..last {
        let case = Case::random(&mut rng);
        if n >= cases && !ON_THE_DOT_CASES.contains(&n) {
            continue;
        }
        let mut e = base.clone();
        let start = case.ram(&e.ram());
        e.write_ram_keep_stack(&start);
        let mut trace: Vec<(u16, u32)> = Vec::new();
        let mut nmis: Vec<TracedNmi> = Vec::new();
        // The RAM at each frame's end (where tetanes ends the frame), and the trace's length
        // there: index `frame`.
        let mut frame_ends: Vec<([u8; RAM_SIZE], usize)> = vec![(e.ram(), 0)];
        for frame in 1..=FRAMES {
            let r = e.step_traced(case.buttons(frame), |bus, ram| {
                let (pc, cycle) = (bus.cpu.pc, bus.cpu.cycle);
                if pc == 0x8005 {
                    let sp = bus.cpu.sp;
                    let at = |o: u8| ram[0x100 + usize::from(sp.wrapping_add(o))];
                    nmis.push(TracedNmi {
                        frame,
                        index: trace.len(),
                        cycle,
                        dot: bus.ppu.cycle,
                        interrupted: u16::from_le_bytes([at(2), at(3)]),
                        ram: *ram,
                        dma_rts: None,
                    });
                }
                if pc == 0x801E
                    && let Some(last) = nmis.last_mut()
                    && last.dma_rts.is_none()
                {
                    let rts = trace.iter().rev().find(|(p, _)| *p == 0xAB68);
                    last.dma_rts = rts.map(|(_, c)| cycle - c);
                }
                trace.push((pc, cycle));
            });
            if r.is_err() {
                break;
            }
            frame_ends.push((e.ram(), trace.len()));
        }
        for (i, nmi) in nmis.iter().enumerate() {
            let end = nmis.get(i + 1).map_or(trace.len(), |x| x.index);
            if !trace[nmi.index..end].iter().any(|(p, _)| *p == 0x9C2D) {
                continue; // not a frame that adds the points
            }
            let Some(next) = nmis.get(i + 1) else {
                continue;
            };
            let edge = |x: &TracedNmi| 3 * i64::from(x.cycle) - (i64::from(x.dot) - 1);
            let phase = CpuPhase {
                nmi_delay_thirds: (nmi.dot - 1) as u8,
                interrupted_beq: nmi.interrupted == 0xAA39,
                long_frame: edge(next) - edge(nmi) == 89_342,
                // The `rts` (6 cycles) and the DMA (513 or 514).
                dma_odd: nmi.dma_rts == Some(520),
            };
            let buttons: Vec<u8> = (0..4).map(|k| case.buttons(nmi.frame + k).bits()).collect();
            let probe = probe_heavy_frame(&nmi.ram, &prg, phase, &buttons);
            compared += 1;
            let rom_part = &trace[nmi.index..];
            let first_diff = probe
                .trace
                .iter()
                .zip(rom_part)
                .position(|(&(ep, ec), &(rp, rc))| ep != rp || ec != u64::from(rc - nmi.cycle));
            let audio_lag = first_diff.is_some_and(|k| {
                rom_part[k].0 == 0x8005 && (0xE000..=0xEFFF).contains(&probe.trace[k].0)
            }) && probe
                .stops
                .last()
                .is_some_and(|s| s.contains("lag_nmi_next: true"));
            // The RAM at the end of each frame the run passed (the state a trace of that frame
            // shows), but the stack page, where the engine's run keeps its own return addresses.
            if first_diff.is_none() {
                for (j, engine_ram) in probe.frame_end_rams.iter().enumerate() {
                    let (Some((rom_ram, end)), Some(edge_after)) =
                        (frame_ends.get(nmi.frame + j), nmis.get(i + 1 + j).map(edge))
                    else {
                        break;
                    };
                    ends_compared += 1;
                    // The frame's last instruction (the trace's last entry is the next frame's
                    // first) starts on the frame's end itself, 342 dots before the next NMI's
                    // edge, in the game's work: the emulator counts it in the ending frame.
                    if let Some(&(_, last)) = trace.get(end - 2)
                        && 3 * i64::from(last) == edge_after - 342
                        && probe.stops.get(j).is_some_and(|s| s.starts_with("NmiDue"))
                    {
                        ends_on_the_dot += 1;
                    }
                    let differs = (0..RAM_SIZE)
                        .filter(|a| !(0x100..0x200).contains(a))
                        .find(|&a| engine_ram[a] != rom_ram[a]);
                    if let Some(a) = differs {
                        failures.push(format!(
                            "case {n} frame {}: RAM ${a:04X} at the frame's end: engine {:02X}, ROM {:02X}",
                            nmi.frame + j,
                            engine_ram[a],
                            rom_ram[a]
                        ));
                    }
                }
            }
            if let Some(k) = first_diff.filter(|_| !audio_lag) {
                failures.push(format!(
                    "case {n} frame {}: instruction {k}: engine {:04X}@{}, ROM {:04X}@{}",
                    nmi.frame,
                    probe.trace[k].0,
                    probe.trace[k].1,
                    rom_part[k].0,
                    rom_part[k].1 - nmi.cycle
                ));
            }
        }
    }
    eprintln!(
        "{compared} frames that add the points compared instruction by instruction, {ends_compared} \
         frame ends by their RAM ({ends_on_the_dot} whose last instruction starts on the frame's \
         end); {} differ",
        failures.len()
    );
    for f in &failures {
        eprintln!("  {f}");
    }
    assert!(compared > cases, "{compared} frames");
    assert!(
        ends_on_the_dot >= ON_THE_DOT_CASES.len(),
        "{ends_on_the_dot} frames end on the dot"
    );
    assert!(failures.is_empty());
}
