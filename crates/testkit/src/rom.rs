//! The user's ROM for the tests that need its program (the lag model runs it).

use std::sync::Arc;

use playfield_nes::ProgramData;

/// The ROM's program from the file `PLAYFIELD_ROM` names, or `None` after printing a notice when
/// it is not set. With `PLAYFIELD_REQUIRE_ROM=1` a missing ROM fails the test instead. The
/// `playfield-rom` crate checks the file's SHA-1; here only its shape is checked.
///
/// # Panics
/// When the ROM is required but not set, or the file cannot be read or is no iNES image with
/// 32 KiB of PRG ROM: a broken setup, not a skip.
#[must_use]
pub fn program_for_tests() -> Option<Arc<ProgramData>> {
    let Some(path) = std::env::var_os("PLAYFIELD_ROM").filter(|p| !p.is_empty()) else {
        assert!(
            std::env::var("PLAYFIELD_REQUIRE_ROM").as_deref() != Ok("1"),
            "PLAYFIELD_REQUIRE_ROM=1 but PLAYFIELD_ROM is not set"
        );
        eprintln!("skipped: no ROM (set PLAYFIELD_ROM)");
        return None;
    };
    let image = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("PLAYFIELD_ROM={}: {e}", path.to_string_lossy()));
    let program = ProgramData::from_ines(&image)
        .unwrap_or_else(|e| panic!("PLAYFIELD_ROM={}: {e}", path.to_string_lossy()));
    Some(Arc::new(program))
}
