//! The NES players the page offers (the library's registry), by name, with a line saying how
//! each plays (`GET /api/players`), and the input model a request asks them to play with.

use axum::Json;
use playfield_ai::nes::players::{self, PLAYERS, PlayerInfo};
use playfield_ai::nes::{InputModel, Player};
use serde::Serialize;

use crate::ApiError;
use crate::fields::Fields;

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

/// The longest reaction time accepted, in frames (about 4 seconds).
pub const MAX_REACTION: u8 = 255;

/// The input model of a request's `input` (tap speed), `das` and `reaction` fields.
///
/// # Errors
/// A 400 naming the field.
pub fn input_model(fields: &Fields, reaction_default: u8) -> Result<InputModel, ApiError> {
    let input = fields.text("input", "Tap speed", "X.")?;
    let das = fields.flag("das", "DAS", true)?;
    let reaction = fields.byte(
        "reaction",
        "Reaction time (frames)",
        0..=MAX_REACTION,
        Some(reaction_default),
    )?;
    InputModel::new(input.trim(), das, u32::from(reaction)).map_err(|_| {
        ApiError::field(
            "input",
            format!(
                "Tap speed {:?} is not one of the timelines: X (60 Hz), X. (30 Hz), X.. (20 Hz), \
                 ... up to X followed by 15 dots",
                input.trim()
            ),
        )
    })
}
