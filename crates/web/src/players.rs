//! The NES players the page offers, by name, with a line saying how each plays
//! (`GET /api/players`).

use axum::Json;
use playfield_ai::nes::{InputModel, Player};
use serde::Serialize;

use crate::ApiError;

/// The player chosen when the request names none.
pub const DEFAULT: &str = "score";

/// A player the page can choose.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerEntry {
    /// Its name in requests.
    pub name: &'static str,
    /// How it plays, in a line.
    pub description: &'static str,
}

/// Every player, the default first.
pub const PLAYERS: &[PlayerEntry] = &[
    PlayerEntry {
        name: "score",
        description: "plays for score: builds for tetrises in a right well, looks at the preview",
    },
    PlayerEntry {
        name: "birken",
        description: "Birken's six-feature evaluator: plays to survive, two-piece lookahead",
    },
];

/// The player called `name`, pressing buttons as `input` allows.
///
/// # Errors
/// A 400 on the `player` field listing the names.
pub fn by_name(name: &str, input: InputModel) -> Result<Player, ApiError> {
    match name {
        "score" => Ok(Player::score(input)),
        "birken" => Ok(Player::birken(input)),
        other => Err(ApiError::field(
            "player",
            format!(
                "Player {other:?} is not one of: {}",
                PLAYERS
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// `GET /api/players`: `[{name, description}]`, the default first.
pub async fn list() -> Json<&'static [PlayerEntry]> {
    Json(PLAYERS)
}
