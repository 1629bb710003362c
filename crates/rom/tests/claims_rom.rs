//! The mechanical facts of the reference document of verified NES facts on the real ROM: the
//! same situations as `playfield-nes`'s `tests/claims.rs` (`support/facts.rs` of that crate,
//! included here), driven through the gamepad and RAM of Tetris (USA) in tetanes-core, one test
//! per fact id. Without a ROM each test prints that it was skipped; with
//! `PLAYFIELD_REQUIRE_ROM=1` it fails.
//!
//! Facts checked on the engine only: the randomizer's exact distributions (`randomizer-roll`,
//! `reroll-bias`, `randomizer-exact`, `piece-frequency`, `repeat-rate`: computations over every
//! generator state of the game's routine, whose every pick in the differential suite equals the
//! ROM's), `randomizer-measured` (4,800 pieces, too long for tetanes-core in CI), `lfsr` (only
//! the seed is checked here), the PAL facts (no PAL ROM is available) and `ntsc-frame-rate`.

#[path = "../../nes/tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use playfield_nes::Buttons;
use playfield_rom::{Emulator, Rom, rom_for_tests, sha1_hex};
use support::claims::{Console, start_game};
use support::facts;

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
