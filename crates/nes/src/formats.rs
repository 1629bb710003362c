//! File formats: FCEUX movies (`fm2`), the input the engine and the ROM are both fed, and the
//! per-frame traces (`trace`) they are compared on.

pub mod fm2;
pub mod trace;
