//! The states the engine does not model: where the ROM would jump through a table past its end
//! or read data playfield does not ship. The engine stops there ([`crate::Nes::unsupported`]).

/// Why the engine stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unsupported {
    /// The title screen timed out into the demo, and the demo's tables were not given
    /// ([`crate::Nes::set_demo_data`]).
    DemoTables,
    /// `gameMode` above 6: `branchOnGameMode` jumps outside its dispatch table.
    GameMode,
    /// `gameModeState` above 8: its dispatch jumps outside the table.
    GameModeState,
    /// `startHeight` above 5: the B-type garbage reads past `typeBBlankInitCountByHeightTable`.
    StartHeight,
    /// An active piece whose orientation is the hidden one (or past `rotationTable`).
    HiddenOrientation,
    /// `playState` above 11: `branchOnPlayStatePlayer1` jumps outside its table.
    PlayState,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unsupported::DemoTables => "the demo needs the ROM's demo tables (give the ROM file)",
            Unsupported::GameMode => "gameMode above 6 jumps outside the dispatch table",
            Unsupported::GameModeState => "gameModeState above 8 jumps outside the dispatch table",
            Unsupported::StartHeight => "startHeight above 5 reads past its table",
            Unsupported::HiddenOrientation => "an active piece with a hidden orientation",
            Unsupported::PlayState => "playState above 11 jumps outside its table",
        })
    }
}

impl std::error::Error for Unsupported {}
