//! What the engine reads from the user's ROM file at run time, because playfield does not ship
//! it: the program bytes (which the lag model runs, and the NMI reads past `levelDisplayTable`)
//! and the demo's tables.

pub(crate) mod demo;
pub(crate) mod program;
