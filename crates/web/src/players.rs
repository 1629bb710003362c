//! The NES players the page offers (the library's registry), by name, with a line saying how
//! each plays (`GET /api/players`).

use axum::Json;
use playfield_ai::nes::players::{self, PLAYERS, PlayerInfo};
use playfield_ai::nes::{InputModel, Player};
use serde::Serialize;

use crate::ApiError;

/// The player chosen when the request names none.
pub const DEFAULT: &str = playfield_ai::nes::DEFAULT_PLAYER;

/// A player the page can choose.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerEntry {
    /// Its name in requests.
    pub name: &'static str,
    /// How it plays, in a line.
    pub description: &'static str,
}

impl From<PlayerInfo> for PlayerEntry {
    fn from(info: PlayerInfo) -> Self {
        PlayerEntry {
            name: info.name,
            description: info.description,
        }
    }
}

/// The player called `name`, pressing buttons as `input` allows.
///
/// # Errors
/// A 400 on the `player` field listing the names.
pub fn by_name(name: &str, input: InputModel) -> Result<Player, ApiError> {
    players::by_name(name, input).map_err(|e| ApiError::field("player", e.to_string()))
}

/// `GET /api/players`: `[{name, description}]`, the default first.
pub async fn list() -> Json<Vec<PlayerEntry>> {
    Json(PLAYERS.into_iter().map(PlayerEntry::from).collect())
}
