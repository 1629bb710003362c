//! The integration tests of `playfield-minijong`, one module per subject, in one test binary
//! (one link instead of one per file).

mod proptests;
mod solver_vs_brute;
