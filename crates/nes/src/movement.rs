//! Piece movement under the player's control, the rule `playState_playerControlsActiveTetrimino`
//! runs each frame: `shift_tetrimino` (DAS), `rotate_tetrimino` and `drop_tetrimino` (the
//! opening delay, soft drop and gravity). The engine's play frame runs it on the RAM's piece, the
//! AI's searches on their own states (the sweep's faster form by its parts, [`Das::autorepeat`]
//! and [`drop_timers`], held to [`PieceState::control_frame`] by property tests), so the
//! movement and its constants have one home.

use crate::Buttons;
use crate::rules::is_position_valid;
use crate::vocabulary::modifiers::Modifiers;
use crate::vocabulary::piece::Orientation;
use crate::vocabulary::region::Region;

const RIGHT: u8 = Buttons::RIGHT.bits();
const LEFT: u8 = Buttons::LEFT.bits();
const DOWN: u8 = Buttons::DOWN.bits();
const DPAD: u8 = Buttons::UP.bits() | DOWN | LEFT | RIGHT;

/// The active piece's movement state: everything that decides where it goes next but the
/// buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceState {
    /// `tetriminoX`: the centre's column.
    pub x: u8,
    /// `tetriminoY`: the centre's row.
    pub y: u8,
    /// `currentPiece`.
    pub orientation: Orientation,
    /// `autorepeatX`: the DAS counter.
    pub autorepeat_x: u8,
    /// `fallTimer`: frames since the last row down.
    pub fall_timer: u8,
    /// `autorepeatY`: the soft-drop counter, negative during the opening delay.
    pub autorepeat_y: u8,
}

/// The DAS timing of a region: `shift_tetrimino`'s reload after a shift and the count at which a
/// held direction shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Das {
    /// `autorepeatX` after an autorepeated shift: a held direction counts from it up to
    /// [`Das::reset`] before the next (on NTSC from 10 to 16, a shift every 6 frames).
    pub delay: u8,
    /// `autorepeatX` at which a held direction shifts, and its value after a blocked shift.
    pub reset: u8,
}

impl Das {
    /// The region's DAS.
    #[must_use]
    pub const fn of(region: Region) -> Das {
        Das {
            delay: region.das_delay(),
            reset: region.das_reset(),
        }
    }

    /// `shift_tetrimino`'s counter over a frame with `newly` pressed and `held`: whether the
    /// piece tries a shift (towards Right when held, else Left), and `autorepeatX` after the
    /// count (a blocked shift then sets it to [`Das::reset`]). Down held stops everything.
    #[inline(always)]
    #[must_use]
    pub const fn autorepeat(self, autorepeat_x: u8, newly: Buttons, held: Buttons) -> (bool, u8) {
        let lr = LEFT | RIGHT;
        if held.bits() & DOWN != 0 {
            (false, autorepeat_x)
        } else if newly.bits() & lr != 0 {
            (true, 0)
        } else if held.bits() & lr == 0 {
            (false, autorepeat_x)
        } else {
            let counted = autorepeat_x.wrapping_add(1);
            if (counted.wrapping_sub(self.reset) as i8) < 0 {
                (false, counted)
            } else {
                (true, self.delay)
            }
        }
    }
}

/// How the piece falls: the level's `dropSpeed`, and whether the double-speed benchmark option
/// (two rows a frame, see [`Modifiers`]) is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gravity {
    /// Frames per row (`@lookupDropSpeed`).
    pub drop_speed: u8,
    /// TetrisGYM's "kill screen ×2": the drop routine runs three times a frame.
    pub double: bool,
}

impl Gravity {
    /// The NTSC gravity at `level` under `modifiers`.
    #[must_use]
    pub fn at(level: u8, modifiers: Modifiers) -> Gravity {
        Gravity::in_region(Region::Ntsc, level, modifiers)
    }

    /// The gravity at `level` in `region` under `modifiers`.
    #[inline]
    #[must_use]
    pub fn in_region(region: Region, level: u8, modifiers: Modifiers) -> Gravity {
        Gravity {
            drop_speed: region.drop_speed(level),
            double: modifiers.double_speed_at(level),
        }
    }

    /// The NTSC gravity at `level` with the double-speed option from `double_speed_level`
    /// (`None`: the ROM's), the only modifier that changes it.
    #[must_use]
    pub fn with_double_speed(level: u8, double_speed_level: Option<u8>) -> Gravity {
        Gravity::at(
            level,
            Modifiers {
                double_speed_level,
                ..Modifiers::default()
            },
        )
    }
}

impl From<u8> for Gravity {
    /// The ROM's NTSC gravity at a level.
    fn from(level: u8) -> Gravity {
        Gravity {
            drop_speed: Region::Ntsc.drop_speed(level),
            double: false,
        }
    }
}

/// What one run of `drop_tetrimino`'s timers decided ([`drop_timers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropStep {
    /// The opening delay counted (`autorepeatY` negative): nothing else happens.
    Delayed,
    /// A soft-drop row: the piece tries one row down (`holdDownPoints` counts it).
    SoftDrop,
    /// `@lookupDropSpeed` ran (the ROM stores `dropSpeed`). `released`: soft drop ended here
    /// (`holdDownPoints` cleared); `falls`: `fallTimer` reached the speed, so the piece tries
    /// one row down.
    Gravity {
        /// Soft drop ended in this run.
        released: bool,
        /// Gravity moves the piece.
        falls: bool,
    },
}

impl DropStep {
    /// Whether the piece tries one row down (and `fallTimer` is cleared).
    #[inline(always)]
    #[must_use]
    pub const fn falls(self) -> bool {
        matches!(
            self,
            DropStep::SoftDrop | DropStep::Gravity { falls: true, .. }
        )
    }
}

/// `drop_tetrimino`'s timers: updates `autorepeat_y` as the ROM does and says whether the piece
/// tries a row down. Of the buttons only Down is read, and Left or Right only with a new press of
/// Down. The caller clears `fallTimer` when the piece tries the row.
#[inline(always)]
#[must_use]
pub const fn drop_timers(
    fall_timer: u8,
    autorepeat_y: &mut u8,
    newly: Buttons,
    held: Buttons,
    drop_speed: u8,
) -> DropStep {
    let mut released = false;
    if (*autorepeat_y as i8) < 0 {
        // The opening delay: only a Down press ends it early.
        if newly.bits() & DOWN == 0 {
            *autorepeat_y = autorepeat_y.wrapping_add(1);
            return DropStep::Delayed;
        }
        *autorepeat_y = 0;
    }
    if *autorepeat_y == 0 {
        // @playing: a soft drop starts on a fresh Down press without Left or Right held.
        if held.bits() & (LEFT | RIGHT) == 0 && newly.bits() & DPAD == DOWN {
            *autorepeat_y = 1;
        }
    } else if held.bits() & DPAD != DOWN {
        *autorepeat_y = 0;
        released = true;
    } else {
        *autorepeat_y = autorepeat_y.wrapping_add(1);
        if *autorepeat_y >= 3 {
            *autorepeat_y = 1;
            return DropStep::SoftDrop;
        }
    }
    // The comparison with `fallTimer` is signed (`bpl`).
    DropStep::Gravity {
        released,
        falls: (fall_timer.wrapping_sub(drop_speed) as i8) >= 0,
    }
}

/// What a frame of [`PieceState::control_frame`] did besides moving the piece: what the engine
/// records in RAM around it (the sounds, `holdDownPoints`, `dropSpeed`, the lock).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moved {
    /// The piece shifted a column.
    pub shifted: bool,
    /// The piece rotated.
    pub rotated: bool,
    /// Soft-drop rows tried (each adds one to `holdDownPoints`).
    pub soft_drop_rows: u8,
    /// Soft drop ended (`holdDownPoints` cleared).
    pub soft_drop_released: bool,
    /// `@lookupDropSpeed` ran.
    pub gravity_looked_up: bool,
    /// A row down was blocked: the piece locks where it is (`playState` 2).
    pub locked: bool,
}

impl PieceState {
    /// A freshly spawned piece: (5, 0), timers cleared, `autorepeatX` carried over.
    #[must_use]
    pub const fn spawn(orientation: Orientation, autorepeat_x: u8) -> PieceState {
        PieceState {
            x: 5,
            y: 0,
            orientation,
            autorepeat_x,
            fall_timer: 0,
            autorepeat_y: 0,
        }
    }

    /// One frame of `playState_playerControlsActiveTetrimino` with `newly` pressed and `held`
    /// (`fallTimer` already counted by `gameModeState_updateCountersAndNonPlayerState`):
    /// shift, rotate, drop. With the double-speed option the drop routine runs three times, the
    /// first two with `fallTimer` forced to the speed, and runs on after a lock as TetrisGYM
    /// runs it.
    #[inline(always)]
    pub fn control_frame(
        &mut self,
        page: &[u8; 256],
        newly: Buttons,
        held: Buttons,
        das: Das,
        gravity: Gravity,
    ) -> Moved {
        let mut moved = Moved {
            shifted: self.shift(page, newly, held, das),
            rotated: self.rotate(page, newly),
            ..Moved::default()
        };
        if gravity.double {
            for _ in 0..2 {
                self.fall_timer = gravity.drop_speed;
                self.drop(page, newly, held, gravity.drop_speed, &mut moved);
            }
        }
        self.drop(page, newly, held, gravity.drop_speed, &mut moved);
        moved
    }

    /// `shift_tetrimino`: DAS, undone (and the counter set to [`Das::reset`]) when blocked.
    #[inline(always)]
    fn shift(&mut self, page: &[u8; 256], newly: Buttons, held: Buttons, das: Das) -> bool {
        let (tries, autorepeat_x) = das.autorepeat(self.autorepeat_x, newly, held);
        self.autorepeat_x = autorepeat_x;
        if !tries {
            return false;
        }
        let x = if held.bits() & RIGHT != 0 {
            self.x.wrapping_add(1)
        } else if held.bits() & LEFT != 0 {
            self.x.wrapping_sub(1)
        } else {
            // A new press in `newlyPressedButtons` without its button held: only a RAM image
            // written by hand has one.
            return false;
        };
        if is_position_valid(page, x, self.y, self.orientation.id()) {
            self.x = x;
            true
        } else {
            self.autorepeat_x = das.reset;
            false
        }
    }

    /// `rotate_tetrimino`: A clockwise wins over B counter-clockwise; undone when blocked (no
    /// kicks).
    #[inline(always)]
    fn rotate(&mut self, page: &[u8; 256], newly: Buttons) -> bool {
        let turned = if newly.bits() & Buttons::A.bits() != 0 {
            self.orientation.clockwise()
        } else if newly.bits() & Buttons::B.bits() != 0 {
            self.orientation.counter_clockwise()
        } else {
            return false;
        };
        if is_position_valid(page, self.x, self.y, turned.id()) {
            self.orientation = turned;
            true
        } else {
            false
        }
    }

    /// One run of `drop_tetrimino`: its timers, then `@drop`'s row down or lock.
    #[inline(always)]
    fn drop(
        &mut self,
        page: &[u8; 256],
        newly: Buttons,
        held: Buttons,
        drop_speed: u8,
        moved: &mut Moved,
    ) {
        let step = drop_timers(
            self.fall_timer,
            &mut self.autorepeat_y,
            newly,
            held,
            drop_speed,
        );
        match step {
            DropStep::Delayed => return,
            DropStep::SoftDrop => moved.soft_drop_rows = moved.soft_drop_rows.wrapping_add(1),
            DropStep::Gravity { released, falls } => {
                moved.gravity_looked_up = true;
                moved.soft_drop_released |= released;
                if !falls {
                    return;
                }
            }
        }
        self.fall_timer = 0;
        let y = self.y.wrapping_add(1);
        if is_position_valid(page, self.x, y, self.orientation.id()) {
            self.y = y;
        } else {
            moved.locked = true;
        }
    }
}
