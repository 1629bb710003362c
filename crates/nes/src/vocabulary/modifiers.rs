//! Options that depart from the ROM, for the community's benchmark formats. None is on by
//! default, and each says what it changes; the game without them is the ROM's, frame for frame.

/// The engine's departures from the ROM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modifiers {
    /// From this level on the piece falls two rows a frame at level-29 gravity (TetrisGYM's
    /// line-cap "kill screen ×2", which the BetaTetris benchmark starts at level 39). `None`: the
    /// ROM's gravity.
    pub double_speed_level: Option<u8>,
    /// No lag frames and no crashes at the highest levels: every frame's work fits in the frame,
    /// as on an infinitely fast console. `false`: the ROM (see the `lag` module).
    pub ignore_lag: bool,
}

impl Modifiers {
    /// Whether the piece falls two rows a frame at `level` (`double_speed_level` reached).
    #[must_use]
    pub fn double_speed_at(&self, level: u8) -> bool {
        self.double_speed_level.is_some_and(|from| level >= from)
    }
}

/// The score without the ROM's 999,999 cap: the same BCD additions on a copy of the score whose
/// top byte carries into a count of millions instead of capping. Kept beside the RAM (which
/// stays the ROM's), so a game can report both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UncappedScore {
    /// The low six digits, BCD, low byte first (as `score`).
    pub low: [u8; 3],
    /// Millions carried out of the top byte.
    pub millions: u32,
}

impl UncappedScore {
    /// The score the game would show with more digits.
    #[must_use]
    pub fn decimal(&self) -> u64 {
        let low = crate::ram::player_vars::bcd(self.low[2]) * 10_000
            + crate::ram::player_vars::bcd(self.low[1]) * 100
            + crate::ram::player_vars::bcd(self.low[0]);
        u64::from(self.millions) * 1_000_000 + u64::from(low)
    }

    /// An uncapped score equal to a RAM score.
    #[must_use]
    pub fn from_score(score: [u8; 3]) -> Self {
        UncappedScore {
            low: score,
            millions: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_speed_starts_at_its_level() {
        assert!(!Modifiers::default().double_speed_at(255));
        let modifiers = Modifiers {
            double_speed_level: Some(39),
            ..Modifiers::default()
        };
        assert!(!modifiers.double_speed_at(38));
        assert!(modifiers.double_speed_at(39) && modifiers.double_speed_at(200));
    }
}
