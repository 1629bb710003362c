//! The ROM's routines, one file per screen, as the main loop (`engine`) dispatches to them: the
//! menus before a game, play, the endings and the high-score entry after it. Each routine is a
//! method of [`crate::Nes`] named after the disassembly's. The screens themselves and the steps
//! of an ending are named here, for the waits of the main loop that stand in them.

pub(crate) mod ending;
pub(crate) mod high_score;
pub(crate) mod menus;
pub(crate) mod play;

/// The screens that are copied to the PPU with the NMI off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Screen {
    Legal,
    Title,
    GameTypeMenu,
    LevelMenu,
    GameBackground,
    HighScoreEntry,
    EndingA,
    EndingB,
}

/// Where an ending continues once a `render_endingUnskippable` sleep is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum EndingStep {
    /// Type A: then the rocket loop, which Start ends once the rocket has flown.
    TypeA,
    /// Type B: then the score moves to `totalScore`.
    TypeBScore,
    /// Type B: then the level bonus.
    TypeBBeforeLevelBonus,
    /// Type B: one level-bonus step done.
    TypeBLevelBonus,
    /// Type B: the pause after the level bonus.
    TypeBAfterLevelBonus,
    /// Type B: one height-bonus step done.
    TypeBHeightBonus,
    /// Type B: the pause after the height bonus.
    TypeBAfterHeightBonus,
}
