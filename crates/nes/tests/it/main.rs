//! The integration tests of `playfield-nes`, one module per subject, in one test binary (one link
//! instead of one per file). Shared support (the facts' situations, the public movies) is in
//! `playfield-testkit`.

mod claims;
mod hints;
mod parsers_proptest;
mod properties;
mod public_movies;
