//! The ROM's routines, one file per screen, as the main loop (`engine`) dispatches to them: the
//! menus before a game, play, the endings and the high-score entry after it. Each routine is a
//! method of [`crate::Nes`] named after the disassembly's.

pub(crate) mod ending;
pub(crate) mod high_score;
pub(crate) mod menus;
pub(crate) mod play;
