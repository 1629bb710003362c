//! The registry of NES players: every place that lets a person choose a player (the command
//! line, the terminal view, the web app, Python) lists these, by these names, and plays the
//! first by default.

use thiserror::Error;

use super::input::InputModel;
use super::player::Player;
use super::score::{ScoreWeights, WeightsError};

/// A player a person can choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The name it is chosen by.
    pub name: &'static str,
    /// What it plays for, in a line.
    pub description: &'static str,
}

/// Every player, the default first.
pub const PLAYERS: [PlayerInfo; 2] = [
    PlayerInfo {
        name: "score",
        description: "plays for score: tetrises in a right-hand well, the stack kept within \
                      reach of the gravity and the input timeline, lines cashed in before level \
                      29 (the strongest player)",
    },
    PlayerInfo {
        name: "birken",
        description: "Eric Birken's 2014 player: six features tuned for survival, exhaustive \
                      two-piece search (clears lines as they come)",
    },
];

/// The name of the default player (the strongest).
pub const DEFAULT_PLAYER: &str = PLAYERS[0].name;

/// A player that cannot be made as asked.
#[derive(Debug, Error)]
pub enum PlayerError {
    /// No player has this name.
    #[error("unknown player `{name}`: the players are {}", names())]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// Weights were given for a player whose evaluator takes none from a file.
    #[error("player `{name}` takes no weights file (only `score` does)")]
    WeightsNotTaken {
        /// The player asked for.
        name: String,
    },
    /// The weights file could not be read.
    #[error(transparent)]
    Weights(#[from] WeightsError),
}

fn names() -> String {
    PLAYERS.map(|p| p.name).join(", ")
}

/// The registry's entry for `name`, if any.
#[must_use]
pub fn info(name: &str) -> Option<PlayerInfo> {
    PLAYERS.into_iter().find(|p| p.name == name)
}

/// The player `name` with its own weights, pressing buttons as `input` allows.
///
/// # Errors
/// [`PlayerError::Unknown`] when no player has that name.
pub fn by_name(name: &str, input: InputModel) -> Result<Player, PlayerError> {
    match name {
        "score" => Ok(Player::score(input)),
        "birken" => Ok(Player::birken(input)),
        _ => Err(PlayerError::Unknown {
            name: name.to_owned(),
        }),
    }
}

/// The player `name`, with the score player's weights from `weights` when given.
///
/// # Errors
/// An unknown name, weights given to a player that takes none, or a weights file that cannot be
/// read or parsed (its path and what is wrong).
pub fn with_weights(
    name: &str,
    input: InputModel,
    weights: Option<&std::path::Path>,
) -> Result<Player, PlayerError> {
    match (name, weights) {
        (_, None) => by_name(name, input),
        ("score", Some(path)) => Ok(Player::score_with(ScoreWeights::load(path)?, input)),
        (_, Some(_)) if info(name).is_some() => Err(PlayerError::WeightsNotTaken {
            name: name.to_owned(),
        }),
        _ => by_name(name, input),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_name_makes_its_player_and_others_are_refused() {
        let input = InputModel::new("X.", true, 18).unwrap();
        for p in PLAYERS {
            assert_eq!(by_name(p.name, input.clone()).unwrap().name, p.name);
        }
        assert_eq!(DEFAULT_PLAYER, "score");
        let err = by_name("stackrabbit", input.clone())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("stackrabbit") && err.contains("score, birken"),
            "{err}"
        );
        let err = with_weights("birken", input, Some(std::path::Path::new("w.json")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("takes no weights"), "{err}");
    }
}
