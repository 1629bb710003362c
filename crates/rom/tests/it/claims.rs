//! The mechanical facts of docs/facts.md (the document) on the real ROM: the
//! same situations as `playfield-nes`'s `claims` tests (`playfield_testkit::facts`), driven through the gamepad and RAM of Tetris (USA) in tetanes-core, one test
//! per fact id. Without a ROM each test prints that it was skipped; with
//! `PLAYFIELD_REQUIRE_ROM=1` it fails.
//!
//! Facts checked on the engine only: the randomizer's exact distributions (`randomizer-roll`,
//! `reroll-bias`, `randomizer-exact`, `piece-frequency`, `repeat-rate`: computations over every
//! generator state of the game's routine, whose every pick in the differential suite equals the
//! ROM's), `randomizer-measured` (4,800 pieces, too long for tetanes-core in CI), `lfsr` (only
//! the seed is checked here), the PAL facts (no PAL ROM is available) and `ntsc-frame-rate`.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use playfield_nes::Buttons;
use playfield_rom::lag::{FrameOutcome, RomLayout};
use playfield_rom::{Emulator, Rom, rom_for_tests, sha1_hex};
use playfield_testkit::claims::{Console, start_game};
use playfield_testkit::facts;

/// The ROM as a console.
#[derive(Clone)]
struct RomConsole(Emulator);

impl Console for RomConsole {
    fn step(&mut self, buttons: Buttons) {
        self.0.step(buttons).expect("the ROM runs");
    }
    fn ram(&self) -> [u8; 0x800] {
        self.0.ram()
    }
    fn poke(&mut self, writes: &[(usize, u8)]) {
        let ram = self.0.ram_mut();
        for &(at, value) in writes {
            ram[at] = value;
        }
    }
}

/// Games started through the menus, one per level, shared by the tests (the emulator is slow
/// enough that the menus would be most of the run).
fn started_games() -> &'static Mutex<HashMap<u8, RomConsole>> {
    static GAMES: OnceLock<Mutex<HashMap<u8, RomConsole>>> = OnceLock::new();
    GAMES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The ROM with the first piece of an A-type game at `level` under control.
fn rom_game(rom: &Rom) -> impl Fn(u8) -> RomConsole + '_ {
    move |level| {
        if let Some(game) = started_games().lock().expect("not poisoned").get(&level) {
            return game.clone();
        }
        let mut console = RomConsole(Emulator::new(rom).expect("the ROM loads"));
        start_game(&mut console, 0, level);
        started_games()
            .lock()
            .expect("not poisoned")
            .insert(level, console.clone());
        console
    }
}

macro_rules! on_the_rom {
    ($($fact:ident,)*) => {$(
        #[test]
        fn $fact() {
            let Some(rom) = rom_for_tests() else { return };
            facts::$fact(&rom_game(&rom));
        }
    )*};
}

facts::for_each_fact!(on_the_rom);

#[test]
fn rom_is_disassembly() {
    // The file's SHA-1 (iNES header included) is the one tetris.sha1 of the disassembly gives.
    let Some(rom) = rom_for_tests() else { return };
    assert_eq!(
        sha1_hex(rom.bytes()),
        "77747840541bfc62a28a5957692a98c550bd6b2b"
    );
}

#[test]
fn lfsr() {
    // The seed: $8988 in rng_seed after the reset code (4 input lines from power-on).
    let Some(rom) = rom_for_tests() else { return };
    let mut console = RomConsole(Emulator::new(&rom).expect("the ROM loads"));
    for _ in 0..4 {
        console.step(Buttons::NONE);
    }
    assert_eq!(console.ram()[0x17..0x19], [0x89, 0x88]);
}

/// A run of [`facts::tetris_at_1550_lines`] on the ROM, Down held until the next piece is under
/// control: (lag frames, crashed).
fn rom_tetris_at_1550(
    game: &impl Fn(u8) -> RomConsole,
    layout: &RomLayout,
    level: u8,
    row: u8,
    frame_counter: u16,
) -> (usize, bool) {
    let mut c = game(19);
    facts::tetris_at_1550_lines(&mut c, level, row, frame_counter);
    let (mut lags, mut locked) = (0, false);
    for _ in 0..150 {
        match c
            .0
            .step_probed(layout, Buttons::DOWN)
            .expect("tetanes runs")
        {
            FrameOutcome::Lag { .. } => lags += 1,
            FrameOutcome::Crash { .. } | FrameOutcome::NoNmi => return (lags, true),
            FrameOutcome::OnTime { .. } => {}
        }
        let play_state = c.ram()[0x68];
        if play_state >= 2 {
            locked = true;
        } else if locked {
            break;
        }
    }
    (lags, false)
}

#[test]
fn crash_around_1550_lines() {
    // The document: the game breaks down around 1,550 lines, usually freezing, because the score
    // loop runs once per level. Measured: at 1,550 lines (level 155, 161 or 165 by the start
    // level) every Tetris's scoring frame outlasts the frame (a lag frame) but none crashes;
    // the crashes come a few levels later: of these runs at levels 164-170, 52 of 196 crash, the
    // first at level 166 (about 1,600 lines for a start at 18 or 19): an NMI in the jump-table
    // routine after the score loop. So "around 1,550 lines" is
    // where the lag starts and the crashes are near; after a crash the ROM's NMIs stop (a frozen,
    // black or silent game) or go on with the game stuck (the `lag` tests have the wider picture).
    let Some(rom) = rom_for_tests() else { return };
    let layout = RomLayout::from_rom(&rom).expect("the layout is found");
    let game = rom_game(&rom);
    let (mut runs, mut lagging, mut crashing) = (0, 0, 0);
    for level in facts::LEVELS_AT_1550_LINES {
        for (row, fc) in facts::variants_1550() {
            let (lags, crashed) = rom_tetris_at_1550(&game, &layout, level, row, fc);
            runs += 1;
            lagging += usize::from(lags > 0);
            crashing += usize::from(crashed);
        }
    }
    let later: Vec<(u8, u8, u16)> = (164u8..=170)
        .flat_map(|level| facts::variants_1550().map(move |(row, fc)| (level, row, fc)))
        .filter(|&(level, row, fc)| rom_tetris_at_1550(&game, &layout, level, row, fc).1)
        .collect();
    eprintln!(
        "at 1,550 lines: {runs} runs, {lagging} with lag frames, {crashing} crashes; levels \
         164-170: {} crashes of 196: {later:?}",
        later.len()
    );
    assert_eq!((lagging, crashing), (runs, 0));
    assert_eq!(later.len(), 52);
    assert_eq!(later.iter().map(|c| c.0).min(), Some(166));
}
