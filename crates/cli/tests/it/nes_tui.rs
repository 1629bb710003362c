//! The NES terminal commands, run as the built binary with standard output a pipe (not a TTY).

use std::process::{Command, Output};

fn playfield(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playfield"))
        .args(args)
        .env_remove("PLAYFIELD_ROM")
        .output()
        .expect("run playfield")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn default_without_a_terminal_prints_a_summary() {
    let out = playfield(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("start level 18"), "{text}");
    // The strongest player by default, and it says so.
    assert!(
        text.contains("score player (30 Hz, 18-frame reaction)"),
        "{text}"
    );
    let value = |key: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap_or_else(|| panic!("no {key} in {text}"))
            .parse()
            .unwrap()
    };
    assert!(value("level") >= 18);
    assert!(value("frames") > 0);
    // Same game every time (fixed seed): the summary is deterministic.
    assert_eq!(playfield(&[]).stdout, text.as_bytes());
    let _ = (value("score"), value("lines"));
}

#[test]
fn the_default_game_can_be_played_by_any_registered_player() {
    let out = playfield(&["--player", "birken"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("birken player"), "{text}");
    let out = playfield(&["--player", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("nobody") && err.contains("score") && err.contains("birken"),
        "{err}"
    );
    // `nes watch` takes the same choice (refused here only for want of a terminal).
    let out = playfield(&["nes", "watch", "--player", "birken"]);
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn watch_without_a_terminal_is_an_error() {
    let out = playfield(&["nes", "watch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn replay_watch_without_a_terminal_is_an_error() {
    let dir = std::env::temp_dir().join(format!("playfield-nes-tui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let movie = dir.join("m.fm2");
    let fm2 = playfield_nes::fm2::Movie::new([playfield_nes::Buttons::NONE; 3]).to_fm2();
    std::fs::write(&movie, fm2).unwrap();
    let out = playfield(&["nes", "replay", movie.to_str().unwrap(), "--watch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
    // Without --watch the same movie replays and prints.
    let out = playfield(&["nes", "replay", movie.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("frame: 3"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_values_name_the_value_and_what_is_allowed() {
    let out = playfield(&["nes", "watch", "--speed", "fast"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("fast") && err.contains("max"), "{err}");
    let out = playfield(&["nes", "watch", "--level", "20"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("20") && err.contains("from 0 to 19"), "{err}");
    let out = playfield(&["nes", "replay", "x.fm2", "--speed", "2"]);
    assert_eq!(out.status.code(), Some(2), "--speed needs --watch");
}
