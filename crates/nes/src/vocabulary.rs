//! The engine's public vocabulary: the types a user of [`crate::Nes`] holds and passes (the
//! gamepad, what a frame did, the pieces, the region, the departures from the ROM, why the engine
//! stopped), the typed view of the game read off the RAM, the colours front ends draw with, and
//! the driver that gets from power-on to a game through the menus.

pub(crate) mod buttons;
pub(crate) mod events;
pub(crate) mod modifiers;
pub mod palette;
pub(crate) mod piece;
pub(crate) mod region;
pub(crate) mod setup;
pub(crate) mod typed_view;
pub(crate) mod unsupported;
