//! `playfield nes replay --follow-rom`: the engine told the CPU phase the ROM has in tetanes.

use std::process::Command;

fn playfield(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_playfield"))
        .args(args)
        .env_remove("PLAYFIELD_ROM")
        .output()
        .expect("the binary runs")
}

fn movie(name: &str) -> String {
    format!("{}/../nes/tests/movies/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn following_the_rom_needs_the_rom() {
    let out = playfield(&[
        "nes",
        "replay",
        &movie("menuing/gameplay.fm2"),
        "--follow-rom",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--follow-rom runs the ROM"), "{err}");
}

#[test]
fn a_tas_replays_equal_to_the_rom_with_tetanes_phase_told() {
    let Some(rom) = playfield_rom::rom_for_tests() else {
        return;
    };
    let path = rom.path().to_str().expect("utf-8 path").to_owned();
    let out = playfield(&[
        "nes",
        "replay",
        &movie("a_type_999999_score/tasvideos_4853m.fm2"),
        "--follow-rom",
        "--rom",
        &path,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("lines: 168"), "{text}");
    assert!(
        text.contains("engine and ROM: every traced variable equal at every frame (10405 frames)"),
        "{text}"
    );
    // Every frame after power-on's first has an NMI in play: the phase is told at nearly all.
    let told: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("CPU phase: tetanes' (the ROM run a frame ahead), told at "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the phase line");
    assert!(told > 9_000, "{text}");
}
