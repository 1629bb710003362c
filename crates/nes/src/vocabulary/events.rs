//! What one frame did, for AIs and UIs that react to the game rather than poll it.

bitflags::bitflags! {
    /// Kinds of things a frame can do; [`Events`] holds a set of them.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Event: u16 {
        /// A piece spawned (`playState_spawnNextTetrimino`).
        const SPAWN = 1 << 0;
        /// A piece locked into the playfield (`playState_lockTetrimino`).
        const LOCK = 1 << 1;
        /// Lines were cleared and scored (`playState_updateLinesAndStatistics`); see
        /// `Events::lines_cleared`.
        const LINES_CLEARED = 1 << 2;
        /// `levelNumber` went up.
        const LEVEL_UP = 1 << 3;
        /// The game ended: a new piece overlapped the stack and the curtain starts.
        const TOP_OUT = 1 << 4;
        /// `gameMode` changed.
        const MODE_CHANGE = 1 << 5;
        /// A B-type game reached its 25 lines.
        const B_TYPE_GOAL = 1 << 6;
        /// The engine reached a state it does not model exactly and stopped (see
        /// `Nes::unsupported`).
        const UNSUPPORTED = 1 << 7;
        /// A lag frame: the NMI interrupted the main loop's work (or came before it cleared
        /// `verticalBlankingInterval`), so no game routine starts in this frame; a button newly
        /// pressed in it is no longer new in the next. See the `lag` module.
        const LAG = 1 << 8;
        /// The game crashed this frame: the NMI sent the main loop out of the program
        /// ([`crate::Nes::crash`] says where). The engine stops.
        const CRASH = 1 << 9;
    }
}

/// Things that happened during one `step`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Events {
    flags: Event,
    /// Lines cleared by the lock whose clear was scored this frame (0-4).
    pub lines_cleared: u8,
}

impl Events {
    /// [`Event::SPAWN`].
    pub const SPAWN: Event = Event::SPAWN;
    /// [`Event::LOCK`].
    pub const LOCK: Event = Event::LOCK;
    /// [`Event::LINES_CLEARED`].
    pub const LINES_CLEARED: Event = Event::LINES_CLEARED;
    /// [`Event::LEVEL_UP`].
    pub const LEVEL_UP: Event = Event::LEVEL_UP;
    /// [`Event::TOP_OUT`].
    pub const TOP_OUT: Event = Event::TOP_OUT;
    /// [`Event::MODE_CHANGE`].
    pub const MODE_CHANGE: Event = Event::MODE_CHANGE;
    /// [`Event::B_TYPE_GOAL`].
    pub const B_TYPE_GOAL: Event = Event::B_TYPE_GOAL;
    /// [`Event::UNSUPPORTED`].
    pub const UNSUPPORTED: Event = Event::UNSUPPORTED;
    /// [`Event::LAG`].
    pub const LAG: Event = Event::LAG;
    /// [`Event::CRASH`].
    pub const CRASH: Event = Event::CRASH;

    /// What happened, as a set.
    #[must_use]
    pub const fn flags(self) -> Event {
        self.flags
    }

    /// True when an event of `flag` happened.
    #[must_use]
    pub const fn has(self, flag: Event) -> bool {
        self.flags.intersects(flag)
    }

    /// True when nothing happened.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.flags.is_empty()
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

    pub(crate) fn add(&mut self, flag: Event) {
        self.flags |= flag;
    }
}
