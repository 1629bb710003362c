//! The integration tests of `playfield-rom`, one module per subject, in one test binary (one link
//! instead of one per file). Most need the user's ROM (`PLAYFIELD_ROM`): without it they print
//! that they were skipped, and with `PLAYFIELD_REQUIRE_ROM=1` they fail.

mod alignment;
mod claims;
mod differential;
mod golden;
mod lag;
mod lag_model;
mod menu_timing;
mod movies;
mod public_movies;
mod rebirth;
mod suite;
mod trace;
