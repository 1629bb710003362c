//! Games the AI plays on the engine, replayed from their `.fm2` movies in the real ROM
//! (tetanes-core through `playfield-rom`): every frame's trace (the RAM variables of
//! `playfield nes replay --trace`) must be equal, so the score, lines and level are too.
//! Skipped without `PLAYFIELD_ROM`; fails without it when `PLAYFIELD_REQUIRE_ROM=1`.

use playfield_ai::nes::{GameConfig, GameEnd, InputModel, Player, play_game};
use playfield_nes::fm2::Movie;
use playfield_nes::trace::TraceFrame;
use playfield_rom::{Emulator, rom_for_tests};

/// Plays one game on the engine, then replays its movie in the ROM and compares every frame.
fn check_game(rom: &playfield_rom::Rom, player: &Player, level: u8, max_lines: u32, seed: u64) {
    let mut config = GameConfig::a_type(level, seed);
    config.max_lines = Some(max_lines);
    let mut engine_trace = Vec::new();
    let result = play_game(&config, player, |_, nes| {
        engine_trace.push(TraceFrame::from_ram(nes.frame(), &nes.ram()));
        Ok(())
    });
    assert_eq!(
        result.end,
        GameEnd::LineCap,
        "{} level {level}: {:?}",
        player.name,
        result.end
    );
    assert!(result.lines >= max_lines);

    // Through the file format, as a user would replay it.
    let text = Movie::new(result.input.iter().copied()).to_fm2();
    let movie = Movie::parse(&text).expect("our movie parses");
    assert_eq!(movie.lines.len(), result.input.len());
    let mut emu = Emulator::new(rom).expect("the ROM runs");
    for (line, engine) in movie.lines.iter().zip(&engine_trace) {
        emu.step_line(line).expect("the ROM does not crash");
        let rom_frame = emu.trace_frame();
        if let Some(diff) = engine.first_difference(&rom_frame) {
            panic!(
                "{} level {level} seed {seed}: engine and ROM differ: {diff}",
                player.name
            );
        }
    }
    let last = emu.trace_frame();
    let play = last.play.as_ref().expect("the game is still on screen");
    let bcd = |v: u64| -> u64 {
        let mut out = 0;
        for shift in (0..24).step_by(4).rev() {
            out = out * 10 + ((v >> shift) & 0xF);
        }
        out
    };
    assert_eq!(
        bcd(u64::from(play.score)),
        u64::from(result.score),
        "score in the ROM"
    );
    assert_eq!(
        bcd(u64::from(play.lines)),
        u64::from(result.lines),
        "lines in the ROM"
    );
    assert_eq!(play.level, result.level, "level in the ROM");
}

#[test]
fn ai_games_replay_identically_in_the_rom() {
    let Some(rom) = rom_for_tests() else { return };
    let input = InputModel::new("X.", true, 18).expect("valid");
    let birken = Player::birken(input.clone());
    let score = Player::score(input);
    // Short games so CI stays fast: level 0 (the opening delay and slow gravity, soft drops),
    // 18 and 19 (A held + Start on the level menu), for both players; the score player's
    // tetrises need longer games (a game that tops out early proves less: the level-19 game of
    // seed 6 meets a drought of more than 25 pieces without an I and tops out at 4 lines, so
    // seed 7).
    // One thread each: the emulator is the slow part.
    let games = [
        (&birken, 0u8, 2u32, 1u64),
        (&birken, 18, 8, 2),
        (&birken, 19, 8, 3),
        (&score, 0, 4, 4),
        (&score, 18, 24, 5),
        (&score, 19, 24, 7),
    ];
    std::thread::scope(|scope| {
        for (player, level, max_lines, seed) in games {
            let rom = &rom;
            scope.spawn(move || check_game(rom, player, level, max_lines, seed));
        }
    });
}
