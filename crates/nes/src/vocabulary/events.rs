//! What one frame did, for AIs and UIs that react to the game rather than poll it.

/// Things that happened during one `step`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Events {
    bits: u16,
    /// Lines cleared by the lock whose clear was scored this frame (0-4).
    pub lines_cleared: u8,
}

impl Events {
    /// A piece spawned (`playState_spawnNextTetrimino`).
    pub const SPAWN: u16 = 1 << 0;
    /// A piece locked into the playfield (`playState_lockTetrimino`).
    pub const LOCK: u16 = 1 << 1;
    /// Lines were cleared and scored (`playState_updateLinesAndStatistics`); see `lines_cleared`.
    pub const LINES_CLEARED: u16 = 1 << 2;
    /// `levelNumber` went up.
    pub const LEVEL_UP: u16 = 1 << 3;
    /// The game ended: a new piece overlapped the stack and the curtain starts.
    pub const TOP_OUT: u16 = 1 << 4;
    /// `gameMode` changed.
    pub const MODE_CHANGE: u16 = 1 << 5;
    /// A B-type game reached its 25 lines.
    pub const B_TYPE_GOAL: u16 = 1 << 6;
    /// The engine reached a state it does not model exactly and stopped (see `Nes::unsupported`).
    pub const UNSUPPORTED: u16 = 1 << 7;
    /// A lag frame: the NMI interrupted the main loop's work (or came before it cleared
    /// `verticalBlankingInterval`), so no game routine starts in this frame; a button newly
    /// pressed in it is no longer new in the next. See the `lag` module.
    pub const LAG: u16 = 1 << 8;
    /// The game crashed this frame: the NMI sent the main loop out of the program
    /// ([`crate::Nes::crash`] says where). The engine stops.
    pub const CRASH: u16 = 1 << 9;

    /// True when the event `flag` (one of the constants) happened.
    #[must_use]
    pub const fn has(self, flag: u16) -> bool {
        self.bits & flag != 0
    }

    /// True when nothing happened.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// A piece spawned this frame.
    #[must_use]
    pub const fn spawned(self) -> bool {
        self.has(Self::SPAWN)
    }

    /// A piece locked into the playfield this frame.
    #[must_use]
    pub const fn locked(self) -> bool {
        self.has(Self::LOCK)
    }

    /// The lines cleared and scored this frame (0 when none).
    #[must_use]
    pub const fn cleared(self) -> u8 {
        if self.has(Self::LINES_CLEARED) {
            self.lines_cleared
        } else {
            0
        }
    }

    /// The level went up this frame.
    #[must_use]
    pub const fn leveled_up(self) -> bool {
        self.has(Self::LEVEL_UP)
    }

    /// The game ended this frame (a new piece overlapped the stack).
    #[must_use]
    pub const fn topped_out(self) -> bool {
        self.has(Self::TOP_OUT)
    }

    /// The screen (`gameMode`) changed this frame.
    #[must_use]
    pub const fn mode_changed(self) -> bool {
        self.has(Self::MODE_CHANGE)
    }

    /// A B-type game reached its 25 lines this frame.
    #[must_use]
    pub const fn b_type_goal(self) -> bool {
        self.has(Self::B_TYPE_GOAL)
    }

    /// The engine stopped this frame at a state it does not model (see `Nes::unsupported`).
    #[must_use]
    pub const fn stopped_unsupported(self) -> bool {
        self.has(Self::UNSUPPORTED)
    }

    /// This frame was a lag frame.
    #[must_use]
    pub const fn lagged(self) -> bool {
        self.has(Self::LAG)
    }

    /// The game crashed this frame.
    #[must_use]
    pub const fn crashed(self) -> bool {
        self.has(Self::CRASH)
    }

    pub(crate) fn add(&mut self, flag: u16) {
        self.bits |= flag;
    }
}
