//! Piece movement under the player's control, the rule `playState_playerControlsActiveTetrimino`
//! runs each frame: `shift_tetrimino` (DAS), `rotate_tetrimino` and `drop_tetrimino` (the
//! opening delay, soft drop and gravity). Each step is written once, generic over where the
//! piece is kept ([`PieceFields`]): the engine's play frame runs it on the RAM's piece, the AI's
//! searches on their own states ([`PieceState::control_frame`]; the sweep's faster form by its
//! parts, [`Das::autorepeat`] and [`drop_timers`], held to it by property tests), so the movement
//! and its constants have one home.

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
/// Down. The caller clears `fallTimer` when the piece tries the row. The AI's sweep runs the
/// timers alone through this form; it is [`drop_tetrimino`]'s first half.
#[inline(always)]
#[must_use]
pub fn drop_timers(
    fall_timer: u8,
    autorepeat_y: &mut u8,
    newly: Buttons,
    held: Buttons,
    drop_speed: u8,
) -> DropStep {
    let mut timers = TimersAlone {
        fall_timer,
        drop_speed,
        autorepeat_y: *autorepeat_y,
        soft_drop: false,
        released: false,
        looked_up: false,
    };
    let falls = run_drop_timers(&mut timers, newly, held);
    *autorepeat_y = timers.autorepeat_y;
    if timers.soft_drop {
        DropStep::SoftDrop
    } else if timers.looked_up {
        DropStep::Gravity {
            released: timers.released,
            falls,
        }
    } else {
        DropStep::Delayed
    }
}

/// The timers of [`drop_timers`], with what they reported.
struct TimersAlone {
    fall_timer: u8,
    drop_speed: u8,
    autorepeat_y: u8,
    soft_drop: bool,
    released: bool,
    looked_up: bool,
}

impl DropTimerFields for TimersAlone {
    #[inline(always)]
    fn fall_timer(&self) -> u8 {
        self.fall_timer
    }
    #[inline(always)]
    fn drop_speed(&self) -> u8 {
        self.drop_speed
    }
    #[inline(always)]
    fn autorepeat_y(&self) -> u8 {
        self.autorepeat_y
    }
    #[inline(always)]
    fn set_autorepeat_y(&mut self, autorepeat_y: u8) {
        self.autorepeat_y = autorepeat_y;
    }
    #[inline(always)]
    fn soft_drop_row(&mut self) {
        self.soft_drop = true;
    }
    #[inline(always)]
    fn soft_drop_released(&mut self) {
        self.released = true;
    }
    #[inline(always)]
    fn drop_speed_looked_up(&mut self, _drop_speed: u8) {
        self.looked_up = true;
    }
}

/// The fields `drop_tetrimino`'s timers read and write, and what they tell their holder.
pub trait DropTimerFields {
    /// `fallTimer`: frames since the last row down.
    fn fall_timer(&self) -> u8;
    /// `@lookupDropSpeed`: frames per row at the current level, read where the routine reads it
    /// (the engine looks it up then; the AI's states carry it).
    fn drop_speed(&self) -> u8;
    /// `autorepeatY`: the soft-drop counter, negative during the opening delay.
    fn autorepeat_y(&self) -> u8;
    /// Stores `autorepeatY`.
    fn set_autorepeat_y(&mut self, autorepeat_y: u8);
    /// A soft-drop row is tried (`holdDownPoints` counts it).
    fn soft_drop_row(&mut self) {}
    /// Soft drop ended (`holdDownPoints` is cleared).
    fn soft_drop_released(&mut self) {}
    /// `@lookupDropSpeed` ran (the ROM stores `dropSpeed`).
    fn drop_speed_looked_up(&mut self, _drop_speed: u8) {}
}

/// Where the movement rule finds the active piece and keeps its moves: the AI's [`PieceState`]
/// on a playfield page, or the engine's RAM, which stores each move into both player blocks and
/// plays the sounds. The rule's steps ([`control_frame`], [`shift_tetrimino`],
/// [`rotate_tetrimino`], [`drop_tetrimino`]) are written once, generic over this.
pub trait PieceFields: DropTimerFields {
    /// `tetriminoX`.
    fn x(&self) -> u8;
    /// Stores `tetriminoX`.
    fn set_x(&mut self, x: u8);
    /// `tetriminoY`.
    fn y(&self) -> u8;
    /// Stores `tetriminoY`.
    fn set_y(&mut self, y: u8);
    /// `currentPiece`.
    fn orientation(&self) -> Orientation;
    /// Stores `currentPiece`.
    fn set_orientation(&mut self, orientation: Orientation);
    /// `autorepeatX`.
    fn autorepeat_x(&self) -> u8;
    /// Stores `autorepeatX`.
    fn set_autorepeat_x(&mut self, autorepeat_x: u8);
    /// Stores `fallTimer`.
    fn set_fall_timer(&mut self, fall_timer: u8);
    /// `isPositionValid` on the holder's playfield.
    fn is_position_valid(&self, x: u8, y: u8, orientation: Orientation) -> bool;
    /// The region's DAS timing.
    fn das(&self) -> Das;
    /// Whether the double-speed option ([`Gravity::double`]) is on at the current level.
    fn double_speed(&self) -> bool;
    /// The piece shifted a column (the shift sound).
    fn shifted(&mut self) {}
    /// The piece rotated (the rotation sound).
    fn rotated(&mut self) {}
    /// A row down was blocked: the piece locks where it is (`playState` 2).
    fn locked(&mut self) {}
}

/// One frame of `playState_playerControlsActiveTetrimino` with `newly` pressed and `held`
/// (`fallTimer` already counted by `gameModeState_updateCountersAndNonPlayerState`): shift,
/// rotate, drop. With the double-speed option the drop routine runs three times, the first two
/// with `fallTimer` forced to the speed, and runs on after a lock as TetrisGYM runs it.
#[inline(always)]
pub fn control_frame<P: PieceFields>(piece: &mut P, newly: Buttons, held: Buttons) {
    shift_tetrimino(piece, newly, held);
    rotate_tetrimino(piece, newly);
    if piece.double_speed() {
        for _ in 0..2 {
            piece.set_fall_timer(piece.drop_speed());
            drop_tetrimino(piece, newly, held);
        }
    }
    drop_tetrimino(piece, newly, held);
}

/// `shift_tetrimino`: DAS ([`Das::autorepeat`]), undone (and the counter set to
/// [`Das::reset`]) when blocked.
#[inline(always)]
pub fn shift_tetrimino<P: PieceFields>(piece: &mut P, newly: Buttons, held: Buttons) {
    let before = piece.autorepeat_x();
    let (tries, autorepeat_x) = piece.das().autorepeat(before, newly, held);
    if autorepeat_x != before {
        piece.set_autorepeat_x(autorepeat_x);
    }
    if !tries {
        return;
    }
    let x = if held.bits() & RIGHT != 0 {
        piece.x().wrapping_add(1)
    } else if held.bits() & LEFT != 0 {
        piece.x().wrapping_sub(1)
    } else {
        // A new press in `newlyPressedButtons` without its button held: only a RAM image
        // written by hand has one.
        return;
    };
    if piece.is_position_valid(x, piece.y(), piece.orientation()) {
        piece.set_x(x);
        piece.shifted();
    } else {
        piece.set_autorepeat_x(piece.das().reset);
    }
}

/// `rotate_tetrimino`: A clockwise wins over B counter-clockwise; undone when blocked (no
/// kicks).
#[inline(always)]
pub fn rotate_tetrimino<P: PieceFields>(piece: &mut P, newly: Buttons) {
    let turned = if newly.bits() & Buttons::A.bits() != 0 {
        piece.orientation().clockwise()
    } else if newly.bits() & Buttons::B.bits() != 0 {
        piece.orientation().counter_clockwise()
    } else {
        return;
    };
    if piece.is_position_valid(piece.x(), piece.y(), turned) {
        piece.set_orientation(turned);
        piece.rotated();
    }
}

/// One run of `drop_tetrimino`: its timers (the opening delay, soft drop, gravity), then
/// `@drop`'s row down, or the lock when the row is blocked.
#[inline(always)]
pub fn drop_tetrimino<P: PieceFields>(piece: &mut P, newly: Buttons, held: Buttons) {
    if run_drop_timers(piece, newly, held) {
        drop_one_row(piece);
    }
}

/// `@drop`: `fallTimer` cleared, one row down, or the lock when blocked.
#[inline]
fn drop_one_row<P: PieceFields>(piece: &mut P) {
    piece.set_fall_timer(0);
    let y = piece.y().wrapping_add(1);
    if piece.is_position_valid(piece.x(), y, piece.orientation()) {
        piece.set_y(y);
    } else {
        piece.locked();
    }
}

/// `drop_tetrimino`'s timers on `timers`: whether the piece tries a row down.
#[inline(always)]
fn run_drop_timers<T: DropTimerFields>(timers: &mut T, newly: Buttons, held: Buttons) -> bool {
    let mut autorepeat_y = timers.autorepeat_y();
    if (autorepeat_y as i8) < 0 {
        // The opening delay: only a Down press ends it early.
        if newly.bits() & DOWN == 0 {
            timers.set_autorepeat_y(autorepeat_y.wrapping_add(1));
            return false;
        }
        autorepeat_y = 0;
        timers.set_autorepeat_y(0);
    }
    if autorepeat_y == 0 {
        // @playing: a soft drop starts on a fresh Down press without Left or Right held.
        if held.bits() & (LEFT | RIGHT) == 0 && newly.bits() & DPAD == DOWN {
            timers.set_autorepeat_y(1);
        }
    } else if held.bits() & DPAD != DOWN {
        timers.set_autorepeat_y(0);
        timers.soft_drop_released();
    } else {
        let counted = autorepeat_y.wrapping_add(1);
        if counted >= 3 {
            timers.set_autorepeat_y(1);
            timers.soft_drop_row();
            return true;
        }
        timers.set_autorepeat_y(counted);
    }
    // @lookupDropSpeed; the comparison with `fallTimer` is signed (`bpl`).
    let drop_speed = timers.drop_speed();
    timers.drop_speed_looked_up(drop_speed);
    (timers.fall_timer().wrapping_sub(drop_speed) as i8) >= 0
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

    /// One frame of the movement rule ([`control_frame`]) on this piece over `page`, with what
    /// it did besides moving the piece.
    #[inline(always)]
    pub fn control_frame(
        &mut self,
        page: &[u8; 256],
        newly: Buttons,
        held: Buttons,
        das: Das,
        gravity: Gravity,
    ) -> Moved {
        let mut on_page = PieceOnPage {
            piece: self,
            page,
            das,
            gravity,
            moved: Moved::default(),
        };
        control_frame(&mut on_page, newly, held);
        on_page.moved
    }
}

/// A [`PieceState`] on a playfield page, recording what the rule did ([`Moved`]).
struct PieceOnPage<'a> {
    piece: &'a mut PieceState,
    page: &'a [u8; 256],
    das: Das,
    gravity: Gravity,
    moved: Moved,
}

impl DropTimerFields for PieceOnPage<'_> {
    #[inline(always)]
    fn fall_timer(&self) -> u8 {
        self.piece.fall_timer
    }
    #[inline(always)]
    fn drop_speed(&self) -> u8 {
        self.gravity.drop_speed
    }
    #[inline(always)]
    fn autorepeat_y(&self) -> u8 {
        self.piece.autorepeat_y
    }
    #[inline(always)]
    fn set_autorepeat_y(&mut self, autorepeat_y: u8) {
        self.piece.autorepeat_y = autorepeat_y;
    }
    #[inline(always)]
    fn soft_drop_row(&mut self) {
        self.moved.soft_drop_rows = self.moved.soft_drop_rows.wrapping_add(1);
    }
    #[inline(always)]
    fn soft_drop_released(&mut self) {
        self.moved.soft_drop_released = true;
    }
    #[inline(always)]
    fn drop_speed_looked_up(&mut self, _drop_speed: u8) {
        self.moved.gravity_looked_up = true;
    }
}

impl PieceFields for PieceOnPage<'_> {
    #[inline(always)]
    fn x(&self) -> u8 {
        self.piece.x
    }
    #[inline(always)]
    fn set_x(&mut self, x: u8) {
        self.piece.x = x;
    }
    #[inline(always)]
    fn y(&self) -> u8 {
        self.piece.y
    }
    #[inline(always)]
    fn set_y(&mut self, y: u8) {
        self.piece.y = y;
    }
    #[inline(always)]
    fn orientation(&self) -> Orientation {
        self.piece.orientation
    }
    #[inline(always)]
    fn set_orientation(&mut self, orientation: Orientation) {
        self.piece.orientation = orientation;
    }
    #[inline(always)]
    fn autorepeat_x(&self) -> u8 {
        self.piece.autorepeat_x
    }
    #[inline(always)]
    fn set_autorepeat_x(&mut self, autorepeat_x: u8) {
        self.piece.autorepeat_x = autorepeat_x;
    }
    #[inline(always)]
    fn set_fall_timer(&mut self, fall_timer: u8) {
        self.piece.fall_timer = fall_timer;
    }
    #[inline(always)]
    fn is_position_valid(&self, x: u8, y: u8, orientation: Orientation) -> bool {
        is_position_valid(self.page, x, y, orientation.id())
    }
    #[inline(always)]
    fn das(&self) -> Das {
        self.das
    }
    #[inline(always)]
    fn double_speed(&self) -> bool {
        self.gravity.double
    }
    #[inline(always)]
    fn shifted(&mut self) {
        self.moved.shifted = true;
    }
    #[inline(always)]
    fn rotated(&mut self) {
        self.moved.rotated = true;
    }
    #[inline(always)]
    fn locked(&mut self) {
        self.moved.locked = true;
    }
}
