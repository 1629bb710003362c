//! The frame-by-frame pilot presses exactly the buttons of a whole game played by `play_game`.

use playfield_ai::nes::{GameConfig, InputModel, Pilot, Player, play_game};
use playfield_nes::Nes;

#[test]
fn pilot_plays_the_same_game_as_play_game() {
    let player = Player::birken(InputModel::new("X.", true, 18).unwrap());
    let config = GameConfig {
        max_frames: Some(4_000),
        ..GameConfig::a_type(19, 3)
    };
    let game = play_game(&config, &player, |_, _| Ok(()));
    assert!(game.pieces > 10, "the game placed {} pieces", game.pieces);
    let mut pilot = Pilot::new(&config, player);
    let mut nes = Nes::power_on();
    for (frame, &expected) in game.input.iter().enumerate() {
        let buttons = pilot.buttons(&nes);
        assert_eq!(buttons, expected, "frame {frame}");
        nes.step(buttons);
    }
    assert_eq!(nes.score(), game.score);
}
