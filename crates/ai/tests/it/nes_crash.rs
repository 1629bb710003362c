//! Crash-robust play: at the levels where the frame that adds a clear's points can outlast the
//! frame, the player keeps clear of placements whose frames crash on any console (CPU phase).
//! Skipped without `PLAYFIELD_ROM` (the lag model runs the ROM's program).

use playfield_ai::nes::{
    GameConfig, InputModel, PieceState, Pilot, Player, Situation, Workspace, crash_free,
};
use playfield_nes::tables::{ORIENTATION_HIDDEN, TILE_EMPTY};
use playfield_nes::{Buttons, ClearPlay, GameSetup, MenuDriver, Nes, PlayState, ProgramData};
use playfield_rom::{EngineData, rom_for_tests};

/// A game in play at `level` with `lines` lines (BCD), the bottom four rows full but for a well
/// in the right column, and a horizontal I piece just spawned: the score player takes the
/// Tetris, whose points the next heavy frame adds.
fn tetris_ready(program: &std::sync::Arc<ProgramData>, level: u8, lines: [u8; 2]) -> Nes {
    let mut nes = Nes::power_on();
    nes.set_program_data(Some(program.clone()));
    Pilot::prepare(&mut nes);
    let mut input = Vec::new();
    let in_play =
        MenuDriver::new(GameSetup::a_type(19), 0)
            .drive_until(&mut nes, &mut input, 5_000, |n| n.controllable());
    assert!(in_play, "the menus lead to play");
    let raw = nes.raw_mut();
    raw.playfield[..200].fill(TILE_EMPTY);
    for cell in 160..200 {
        if cell % 10 != 9 {
            raw.playfield[cell] = 0x7B;
        }
    }
    for p in [&mut raw.player, &mut raw.player1] {
        p.tetrimino_x = 5;
        p.tetrimino_y = 0;
        p.current_piece = 0x12;
        p.level_number = level;
        p.fall_timer = 0;
        p.autorepeat_y = 0;
        p.hold_down_points = 0;
        p.lines = lines;
    }
    nes
}

/// Plays `nes` with `pilot` until the piece after the current one is under control: the frames
/// after which the next NMI crashes in some phase, counted, and where the piece locked.
fn play_piece(nes: &mut Nes, pilot: &mut Pilot) -> (u32, (u8, u8, u8)) {
    let mut crashing = 0;
    let mut lock = None;
    for _ in 0..200 {
        let buttons = pilot.buttons(nes);
        nes.step(buttons);
        assert_eq!(nes.crash(), None, "frame {}", nes.frame());
        crashing += u32::from(nes.phase_counts().is_some_and(|c| c.crash > 0));
        if let Some(lock) = lock
            && nes.controllable()
        {
            return (crashing, lock);
        }
        if lock.is_none() && nes.play_state() != PlayState::Active {
            let (x, y) = nes.piece_position();
            let orientation = nes.last_piece().map(|p| p.orientation.id());
            lock = Some((x, y, orientation.unwrap_or(ORIENTATION_HIDDEN)));
        }
    }
    panic!("the next piece never came under control");
}

#[test]
fn the_player_keeps_clear_of_a_tetris_that_crashes_on_some_consoles() {
    let Some(rom) = rom_for_tests() else { return };
    let program = EngineData::from_rom(&rom).expect("the ROM's data").program;
    let player = Player::score(InputModel::new("X.", true, 18).expect("a timeline"));
    // The first level from 150 at which the player's own choice, a Tetris, has frames that
    // crash in some phases (the recorded games crash at level 157).
    let mut ws = Workspace::new();
    let risky = (150..=255u8).find_map(|level| {
        let nes = tetris_ready(&program, level, [0x96, 0x15]);
        let start = PieceState::from_nes(&nes, 0)?;
        let situation = Situation::a_type(level, nes.line_count());
        let plain = player.decide(&mut ws, &nes.board(), start, situation, None)?;
        (!crash_free(&nes, &plain.inputs)).then_some((nes, plain))
    });
    let (nes, plain) = risky.expect("a level from 150 where the Tetris crashes in some phase");
    assert_eq!(
        plain.placement.x, 9,
        "the plain choice is the Tetris in the well"
    );
    let mut pilot = Pilot::new(&GameConfig::a_type(19, 0), player);
    let mut robust = nes.clone();
    let (crashing, lock) = play_piece(&mut robust, &mut pilot);
    assert_eq!(crashing, 0, "the pilot's placement crashes in no phase");
    assert_eq!(pilot.crash_risk().frames, 0);
    // Elsewhere, or the same Tetris played another way (the preview hidden, a soft drop: the
    // test below).
    let p = plain.placement;
    // The engine told to go on past a crash on some consoles keeps to the surviving phases.
    let mut plain_game = nes;
    let mut risk = playfield_ai::nes::CrashRisk::default();
    for &buttons in &plain.inputs {
        plain_game.step(buttons);
        risk.observe(&plain_game);
    }
    for _ in 0..80 {
        plain_game.step(Buttons::NONE);
        risk.observe(&plain_game);
    }
    assert_eq!(
        plain_game.crash(),
        None,
        "it follows a phase that does not crash"
    );
    assert!(
        risk.frames > 0 && risk.most_phases < risk.phases,
        "{risk:?}"
    );
    eprintln!(
        "level {}: the Tetris at {:?} crashes in {} of {} phases; the player locked at {lock:?}",
        robust.level(),
        (p.x, p.y, p.orientation),
        risk.most_phases,
        risk.phases
    );
}

/// Whether the next piece comes under control within `frames` frames of `inputs` played from
/// `nes` (then no buttons), following the phases that do not crash, as the player's games do.
fn next_piece_within(nes: &Nes, inputs: &[Buttons], frames: usize) -> bool {
    let mut n = nes.clone();
    n.set_phase_choice(playfield_nes::PhaseChoice::Surviving);
    let mut locked = false;
    for k in 0..inputs.len() + frames {
        n.step(inputs.get(k).copied().unwrap_or(Buttons::NONE));
        locked |= n.play_state() != PlayState::Active;
        if locked && n.controllable() {
            return true;
        }
    }
    false
}

#[test]
fn the_player_keeps_clear_of_a_clear_whose_frame_lags_for_good() {
    let Some(rom) = rom_for_tests() else { return };
    let program = EngineData::from_rom(&rom).expect("the ROM's data").program;
    let player = Player::score(InputModel::new("X.", true, 18).expect("a timeline"));
    // With the score at 999,999 the NMI that interrupts the score loop restarts it (it redraws
    // the score with the loop's counter): the first level from 160 where the player's own
    // Tetris makes every frame lag for 300 frames and more.
    let mut ws = Workspace::new();
    let frozen = (160..=255u8).find_map(|level| {
        let mut nes = tetris_ready(&program, level, [0x56, 0x16]);
        let raw = nes.raw_mut();
        for p in [&mut raw.player, &mut raw.player1] {
            p.score = [0x99, 0x99, 0x99];
        }
        let start = PieceState::from_nes(&nes, 0)?;
        let situation = Situation::a_type(level, nes.line_count());
        let plain = player.decide(&mut ws, &nes.board(), start, situation, None)?;
        (!next_piece_within(&nes, &plain.inputs, 300)).then_some((nes, plain))
    });
    let (nes, plain) = frozen.expect("a level from 160 where the Tetris's frame lags for good");
    assert!(
        !crash_free(&nes, &plain.inputs),
        "a freeze counts as a crash"
    );
    let mut pilot = Pilot::new(&GameConfig::a_type(19, 0), player);
    let mut robust = nes.clone();
    // `play_piece` fails unless the next piece comes within 200 frames.
    let (_, lock) = play_piece(&mut robust, &mut pilot);
    let p = plain.placement;
    assert_ne!(lock, (p.x, p.y, p.orientation), "not the plain Tetris");
    eprintln!(
        "level {}: the Tetris at {:?} lags for good; the player locked at {lock:?}",
        nes.level(),
        (p.x, p.y, p.orientation)
    );
}

#[test]
fn the_engine_tells_which_clears_freeze_or_crash_and_the_player_builds_for_the_others() {
    let Some(rom) = rom_for_tests() else { return };
    let program = EngineData::from_rom(&rom).expect("the ROM's data").program;
    // Level 120: every clear is safe. From level 160, at the score cap, some clear freezes or
    // crashes with the preview shown and hidden.
    let nes = tetris_ready(&program, 120, [0x56, 0x16]);
    for k in 1..=4 {
        let o = nes
            .clear_outcome(k, ClearPlay::default())
            .expect("a piece under control");
        assert!(o.safe(), "level 120, {k} rows: {o:?}");
    }
    assert_eq!(nes.clear_outcome(0, ClearPlay::default()), None);
    let player = Player::score(InputModel::new("X.", true, 18).expect("a timeline"));
    let mut ws = Workspace::new();
    let unsafe_tetris = (160..=255u8).find_map(|level| {
        let mut nes = tetris_ready(&program, level, [0x56, 0x16]);
        let raw = nes.raw_mut();
        for p in [&mut raw.player, &mut raw.player1] {
            p.score = [0x99, 0x99, 0x99];
        }
        let unsafe_both = [false, true].iter().all(|&hidden| {
            let how = ClearPlay {
                preview_hidden: hidden,
                push_down_points: 0,
            };
            nes.clear_outcome(4, how).is_some_and(|o| !o.safe())
        });
        unsafe_both.then_some(nes)
    });
    let nes = unsafe_tetris.expect("a level from 160 where the Tetris freezes or crashes");
    let start = PieceState::from_nes(&nes, 0).expect("a piece under control");
    let situation = Situation::a_type(nes.level(), nes.line_count());
    let plain = player
        .decide(&mut ws, &nes.board(), start, situation, None)
        .expect("a decision");
    assert_eq!(
        plain.placement.x, 9,
        "told nothing, the player takes the Tetris"
    );
    let told = Situation {
        unsafe_clears: 1 << 4,
        score_maxed: false,
        ..situation
    };
    let robust = player
        .decide(&mut ws, &nes.board(), start, told, None)
        .expect("a decision");
    assert_ne!(
        (robust.placement.x, robust.placement.y),
        (plain.placement.x, plain.placement.y),
        "told the Tetris is unsafe, the player builds elsewhere"
    );
}

#[test]
fn a_whole_game_passes_level_157_clear_of_the_crash() {
    let Some(rom) = rom_for_tests() else { return };
    let program = EngineData::from_rom(&rom).expect("the ROM's data").program;
    // `playfield nes bench --format rom --level 19 --seed 11 --games 1 --max-lines 1520`: before
    // the player kept clear of crashes, this game crashed at level 157 (1,511 lines); the
    // presses after a lock that hide the preview must survive until the lock even when the
    // piece locks before its informed re-plan.
    // As that command plays it: once the ROM's score is maxed the player plays to survive.
    let config = GameConfig {
        max_lines: Some(1520),
        survive_at_max_score: true,
        ..GameConfig::a_type(19, playfield_ai::nes::game_seed(11, 0))
    };
    let player = Player::score(InputModel::new("X.", true, 18).expect("a timeline"));
    let game =
        playfield_ai::nes::play_game_with_rom(&config, &player, Some(program), |_, _| Ok(()));
    assert_eq!(game.end, playfield_ai::nes::GameEnd::LineCap, "{game:?}");
    assert!(game.level >= 157, "level {}", game.level);
    assert_eq!(game.crash_risk.frames, 0, "{}", game.crash_risk);
}

#[test]
fn the_player_soft_drops_a_clear_out_of_the_crash() {
    let Some(rom) = rom_for_tests() else { return };
    let program = EngineData::from_rom(&rom).expect("the ROM's data").program;
    let player = Player::score(InputModel::new("X.", true, 18).expect("a timeline"));
    let mut ws = Workspace::new();
    // Down held over the last rows of the fall adds push-down points in the frame that adds the
    // clear's points: its work, and where the next NMI lands, change. The first position (levels
    // from 150, a few line counts) where the player's Tetris crashes in some phase as it falls
    // on its own, and the pilot keeps the Tetris by soft-dropping it.
    let found = (150..=255u8)
        .flat_map(|level| [[0x96, 0x15], [0x56, 0x16], [0x12, 0x17]].map(|l| (level, l)))
        .find_map(|(level, lines)| {
            let nes = tetris_ready(&program, level, lines);
            let start = PieceState::from_nes(&nes, 0)?;
            let situation = Situation::a_type(level, nes.line_count());
            let plain = player.decide(&mut ws, &nes.board(), start, situation, None)?;
            if crash_free(&nes, &plain.inputs) {
                return None;
            }
            let mut pilot = Pilot::new(&GameConfig::a_type(19, 0), player.clone());
            let mut game = nes.clone();
            let (mut crashing, mut lock, mut soft_dropped) = (0, None, 0);
            for _ in 0..200 {
                let buttons = pilot.buttons(&game);
                if lock.is_none() && buttons == Buttons::DOWN {
                    soft_dropped += 1;
                }
                game.step(buttons);
                crashing += u32::from(game.phase_counts().is_some_and(|c| c.crash > 0));
                if lock.is_some() && game.controllable() {
                    break;
                }
                if lock.is_none() && game.play_state() != PlayState::Active {
                    let (x, y) = game.piece_position();
                    lock = Some((x, y, game.last_piece().map(|p| p.orientation.id())));
                }
            }
            (soft_dropped > 0).then_some((level, plain, crashing, lock, soft_dropped))
        });
    let (level, plain, crashing, lock, soft_dropped) =
        found.expect("a position where the pilot soft-drops its Tetris clear of the crash");
    let p = plain.placement;
    assert_eq!(
        crashing, 0,
        "level {level}: the soft-dropped Tetris crashes in no phase"
    );
    assert_eq!(
        lock,
        Some((p.x, p.y, Some(p.orientation))),
        "level {level}: the same Tetris"
    );
    eprintln!(
        "level {level}: the Tetris at {:?} crashes in some phases as it falls; Down held over \
         its last {soft_dropped} frames, in none",
        (p.x, p.y, p.orientation)
    );
}
