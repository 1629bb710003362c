//! Code shared by test binaries (and by `playfield-rom`'s claims tests, which include it).

pub mod claims;
pub mod facts;
