//! The integration tests of `playfield-ai`, one module per subject, in one test binary (one link
//! instead of one per file).

mod nes_crash;
mod nes_eval;
mod nes_maxout;
mod nes_pilot;
mod nes_rom;
mod nes_search;
mod nes_start;
