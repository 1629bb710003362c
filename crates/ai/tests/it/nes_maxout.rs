//! A game stopped where its score first reaches 999,999 (`GameConfig::stop_at_max_score`) is
//! the full game up to there: the player does not see the stop, unlike a line cap.

use playfield_ai::nes::{GameConfig, GameEnd, InputModel, Player, game_seed, play_game};

#[test]
fn a_game_stopped_at_the_max_score_is_the_full_game_up_to_there() {
    let player = Player::score(InputModel::new("X.", true, 18).unwrap());
    let config = GameConfig::a_type(18, game_seed(1, 0));
    // The full game, watched from outside until its score first shows 999,999.
    let mut frames = 0u64;
    let full = play_game(&config, &player, |_, nes| {
        frames += 1;
        if nes.score() >= 999_999 {
            Err("maxed out".to_owned())
        } else {
            Ok(())
        }
    });
    assert_eq!(
        full.end,
        GameEnd::Stopped("maxed out".to_owned()),
        "this game maxes out"
    );
    let stopped = play_game(
        &GameConfig {
            stop_at_max_score: true,
            ..config
        },
        &player,
        |_, _| Ok(()),
    );
    assert_eq!(stopped.end, GameEnd::MaxedOut);
    assert_eq!(stopped.score, 999_999);
    assert_eq!(stopped.frames, frames);
    assert_eq!(stopped.input, full.input);
    assert!(
        stopped.lines >= 170,
        "999,999 takes at least 170 lines from level 18"
    );
}
