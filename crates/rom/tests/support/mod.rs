//! Code shared by several test binaries of this crate.

pub mod suite;
