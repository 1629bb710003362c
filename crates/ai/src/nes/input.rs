//! The input model: which frames may carry a new button press, whether DAS may be used, and how
//! late the preview piece is seen.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The longest input timeline accepted (frames per cycle).
pub const MAX_TIMELINE: usize = 16;

/// A bad input model.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InputModelError {
    /// The timeline string is not made of `X` and `.`, starts with `.`, or is too long.
    #[error(
        "bad input timeline {0:?}: expected `X` followed by up to {max} `.` (e.g. `X`, `X.`, `X...`)",
        max = MAX_TIMELINE - 1
    )]
    Timeline(String),
}

/// How the AI may press buttons.
///
/// A new press (a button not held on the previous frame) may only happen on a frame whose
/// timeline position is `X`; releases may happen on any frame. The timeline restarts on the first
/// frame after each spawn (frame 1 = the first frame the piece can move), as a human restarts
/// their rhythm for each piece. The d-pad never holds Left and Right together nor Up, as on a real
/// gamepad's cross; the d-pad holds one direction at a time (no diagonals).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputModel {
    /// `true` at the timeline positions that may carry a new press.
    pub timeline: Vec<bool>,
    /// Whether Left/Right may be held for more than one frame (and so reach autorepeat).
    pub das: bool,
    /// Frames after spawn before the preview piece is known (0 = at spawn).
    pub reaction: u32,
    /// Whether Down (soft drop) may be used.
    pub soft_drop: bool,
}

impl InputModel {
    /// A model from a timeline string such as `X.` (30 Hz).
    ///
    /// # Errors
    /// When the timeline is not `X` followed by zero or more `.` (at most [`MAX_TIMELINE`] chars).
    pub fn new(timeline: &str, das: bool, reaction: u32) -> Result<Self, InputModelError> {
        let bad = || InputModelError::Timeline(timeline.to_owned());
        if timeline.is_empty() || timeline.len() > MAX_TIMELINE || !timeline.starts_with('X') {
            return Err(bad());
        }
        // One press per cycle, at its start: any other `X` (as in `X.X`) is outside the grammar.
        let timeline = timeline
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'X' if i == 0 => Ok(true),
                '.' if i > 0 => Ok(false),
                _ => Err(bad()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(InputModel {
            timeline,
            das,
            reaction,
            soft_drop: true,
        })
    }

    /// Whether frame `n` after spawn (1-based) may carry a new press.
    #[must_use]
    pub fn may_press(&self, frame: u32) -> bool {
        let period = self.timeline.len().max(1);
        self.timeline[(frame.wrapping_sub(1) as usize) % period]
    }

    /// The cheaper model the lookahead searches the preview piece with: same timeline, taps only
    /// (no DAS) and no soft drop. It only estimates the preview's best placement (it is never
    /// played as such; the preview is searched exactly once it is the current piece), and it
    /// visits 5-10 times fewer states. At 30 Hz and slower, taps shift at least as fast as DAS
    /// (one column per 2 frames against one per 6 after 16), so little reach is lost.
    #[must_use]
    pub fn lookahead_model(&self) -> Self {
        InputModel {
            soft_drop: false,
            das: false,
            ..self.clone()
        }
    }

    /// The timeline as a string (`X.`).
    #[must_use]
    pub fn timeline_string(&self) -> String {
        self.timeline
            .iter()
            .map(|&x| if x { 'X' } else { '.' })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeline_grammar_is_x_then_dots() {
        for good in ["X", "X.", "X...", "X..............."] {
            assert!(InputModel::new(good, true, 0).is_ok(), "{good}");
        }
        for bad in ["", ".X", "X.X", "XX", "x.", "X.a", "X................"] {
            assert!(InputModel::new(bad, true, 0).is_err(), "{bad}");
        }
    }
}
