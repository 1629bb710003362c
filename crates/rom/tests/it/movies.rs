//! The movie generators reach the games they were built for, on the real ROM, and the scripted
//! player's movies play the same game there.

use playfield_nes::trace::TraceFrame;
use playfield_nes::{GameSetup, GameType, Nes};
use playfield_rom::{Emulator, rom_for_tests};
use playfield_testkit::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_testkit::movies::{GeneratedMovie, PlayStyle, differential_suite, to_game};

const GAME_MODE: usize = 0xC0;
const GAME_TYPE: usize = 0xC1;
const MUSIC_TYPE: usize = 0xC2;
const PLAYER1_START_LEVEL: usize = 0x67;
const PLAYER1_START_HEIGHT: usize = 0x79;
const LEVEL_NUMBER: usize = 0x44;
const PLAY_STATE: usize = 0x48;

/// Runs the movie's menu part and checks play begins exactly at `play_frame` with its setup.
fn check_reaches_its_game(e: &mut Emulator, m: &GeneratedMovie) {
    e.power_on();
    for &b in &m.buttons[..m.play_frame - 1] {
        e.step(b).unwrap();
    }
    assert_eq!(
        e.ram()[GAME_MODE],
        3,
        "{}: in the level menu before its Start",
        m.name
    );
    e.step(m.buttons[m.play_frame - 1]).unwrap();
    let ram = e.ram();
    let s = &m.setup;
    assert_eq!(
        ram[GAME_MODE], 4,
        "{}: in play at frame {}",
        m.name, m.play_frame
    );
    assert_eq!(
        ram[GAME_TYPE],
        s.game_type.to_raw(),
        "{}: game type",
        m.name
    );
    assert_eq!(ram[MUSIC_TYPE], s.music, "{}: music", m.name);
    assert_eq!(ram[PLAYER1_START_LEVEL], s.level, "{}: start level", m.name);
    if s.game_type == GameType::B {
        assert_eq!(ram[PLAYER1_START_HEIGHT], s.height, "{}: height", m.name);
    }
    // Some frames on (B-type builds its garbage first), the game has set the level and runs.
    for &b in &m.buttons[m.play_frame..m.play_frame + 30] {
        e.step(b).unwrap();
    }
    let ram = e.ram();
    assert_eq!(ram[LEVEL_NUMBER], s.level, "{}: levelNumber", m.name);
    assert_ne!(ram[PLAY_STATE], 0, "{}: playState", m.name);
}

#[test]
fn suite_movies_reach_their_games() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    for m in differential_suite() {
        check_reaches_its_game(&mut e, &m);
    }
}

#[test]
fn random_menu_paths_reach_their_games() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    for seed in 0..16u64 {
        // Spread the setups with the seed itself; the generator's own randomness picks the path.
        let setup = GameSetup {
            game_type: GameType::from_raw((seed % 2) as u8),
            music: ((seed / 2) % 4) as u8,
            level: ((seed * 7) % 20) as u8,
            height: if seed % 2 == 1 {
                ((seed * 5) % 6) as u8
            } else {
                0
            },
        };
        let m = to_game(setup, 77 + seed, PlayStyle::Mixed, 30, true);
        check_reaches_its_game(&mut e, &m);
    }
}

#[test]
fn a_fast_game_tops_out_and_returns_to_the_level_menu() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    let setup = GameSetup::a_type(19);
    // Pauses: Start every few seconds, which also moves on from the lowered curtain.
    let m = to_game(setup, 5, PlayStyle::Pauses, 3_000, false);
    let mut saw_curtain = false;
    let mut back_in_menu = false;
    for (i, &b) in m.buttons.iter().enumerate() {
        e.step(b).unwrap();
        let ram = e.ram();
        if i >= m.play_frame {
            saw_curtain |= ram[GAME_MODE] == 4 && ram[PLAY_STATE] == 10;
            back_in_menu |= saw_curtain && ram[GAME_MODE] == 3;
        }
    }
    assert!(saw_curtain, "the game never topped out");
    assert!(back_in_menu, "the game never returned to the level menu");
}

#[test]
fn the_scripted_players_movie_clears_lines_on_the_rom() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    let config = AutoplayConfig {
        setup: GameSetup {
            music: 1,
            ..GameSetup::a_type(9)
        },
        seed: 1,
        max_frames: 6_000,
        noise: true,
        ..AutoplayConfig::default()
    };
    // The player played the engine; its movie is only buttons, so the ROM must play the same
    // game from it.
    let movie = autoplay_movie(&config);
    assert_eq!(movie.len(), 6_000);
    let mut best_lines = 0u16;
    for &b in &movie {
        e.step(b).unwrap();
        let ram = e.ram();
        if ram[GAME_MODE] == 4 {
            best_lines = best_lines.max(u16::from_le_bytes([ram[0x50], ram[0x51]]));
        }
    }
    assert!(
        best_lines >= 0x10,
        "cleared only {best_lines:x} (BCD) lines"
    );
    let mut nes = Nes::power_on();
    for &b in &movie {
        nes.step(b);
    }
    let frame = movie.len() as u64;
    let engine = TraceFrame::from_ram(frame, &nes.ram());
    assert_eq!(
        engine.first_difference(&TraceFrame::from_ram(frame, &e.ram())),
        None,
        "the engine and the ROM end the movie alike"
    );
}
