//! Choosing a player: `--player NAME` (the registry's names, the strongest by default) and
//! `--weights FILE`, shared by every command that plays.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser};
use playfield_ai::nes::{DEFAULT_PLAYER, InputModel, PLAYERS, Player, players};

/// `--player NAME`'s values, each with its description for `--help`.
pub fn player_names() -> PossibleValuesParser {
    PossibleValuesParser::new(PLAYERS.map(|p| PossibleValue::new(p.name).help(p.description)))
}

/// Who plays.
#[derive(Debug, Clone, Args)]
pub struct PlayerArgs {
    /// Which AI plays.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_PLAYER, value_parser = player_names())]
    pub player: String,
    /// The score player's weights as JSON (every term, no other; see crates/ai/weights/).
    #[arg(long, value_name = "FILE.json")]
    pub weights: Option<PathBuf>,
}

impl PlayerArgs {
    /// The chosen player, pressing buttons as `input` allows.
    ///
    /// # Errors
    /// A weights file that cannot be read, or weights given to a player that takes none.
    pub fn player(&self, input: InputModel) -> Result<Player> {
        players::with_weights(&self.player, input, self.weights.as_deref()).with_context(|| {
            match &self.weights {
                Some(path) => format!("--player {} --weights {}", self.player, path.display()),
                None => format!("--player {}", self.player),
            }
        })
    }
}

/// How a player is named on screen: its name and input model.
pub fn label(player: &Player) -> String {
    let input = &player.input;
    // One press every `timeline.len()` frames: 60 Hz / length.
    let hz = 60 / input.timeline.len().max(1);
    format!(
        "{} player ({hz} Hz, {}-frame reaction)",
        player.name, input.reaction
    )
}
