//! What playfield guarantees on bad input, command by command, one class at a time (the README's
//! "Bad input" section): no panic, no hang, no silent acceptance, no lost result.
//!
//! 1. Output that cannot be written: a closed pipe ends quietly with status 0; a full disk is an
//!    error with a non-zero status.
//! 2. Resources: devices and huge files are not read; counts and threads have stated limits.
//! 3. Options: real ranges in one wording; options that do not apply are errors.
//! 4. Integrity: the ROM's SHA-1 everywhere; movies of another game, malformed headers and input
//!    lines refused with their line; a trace written once.
//! 5. Work: output paths checked before work; outputs replaced atomically; per-game seeds replay.
//! 6. The terminal: SIGTERM/SIGHUP during a view restore it.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Output, Stdio};

use assert_cmd::Command;
use playfield_nes::Buttons;
use playfield_nes::fm2::Movie;
use predicates::prelude::*;

const BIN: &str = env!("CARGO_BIN_EXE_playfield");

fn pf() -> Command {
    let mut c = Command::new(BIN);
    c.env_remove("PLAYFIELD_ROM").env("RAYON_NUM_THREADS", "2");
    c
}

/// A short movie from power-on (200 frames, Start pressed now and then).
fn movie_text() -> String {
    Movie::new((0..200).map(|i| {
        if i % 40 == 20 {
            Buttons::START
        } else {
            Buttons::NONE
        }
    }))
    .to_fm2()
}

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// Runs with standard output a pipe that is closed before anything is written.
fn closed_pipe(args: &[&str]) -> Output {
    // The read end is closed before the program starts: closing it after the spawn would race
    // with a program that finishes its output in a few milliseconds.
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    StdCommand::new(BIN)
        .args(args)
        .env_remove("PLAYFIELD_ROM")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run")
}

/// Runs with standard output on a full disk.
fn full_disk(args: &[&str]) -> Output {
    StdCommand::new(BIN)
        .args(args)
        .env_remove("PLAYFIELD_ROM")
        .stdout(
            File::options()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        )
        .output()
        .expect("run")
}

/// Commands that print something, one per subcommand that can print without a terminal.
fn printing_commands(movie: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    vec![
        v(&["nes", "replay", movie]),
        v(&[
            "nes", "replay", movie, "--frames", "300000", "--repeat", "2",
        ]),
        v(&[
            "nes",
            "bench",
            "--level",
            "19",
            "--max-frames",
            "1500",
            "--games",
            "2",
        ]),
        v(&[
            "nes",
            "bench",
            "--level",
            "19",
            "--max-frames",
            "1500",
            "--json",
        ]),
        v(&["standard", "bench", "--games", "3", "--height", "6"]),
        v(&[
            "standard", "bench", "--games", "3", "--height", "6", "--json",
        ]),
        v(&["minijong", "solve", "--seed", "3"]),
        v(&["minijong", "solve", "--seed", "3", "--json"]),
        v(&["minijong", "stats", "--deals", "3"]),
    ]
}

// ---- 1. Output ------------------------------------------------------------------------------

#[test]
fn closed_pipe_ends_quietly_with_status_0_in_every_command() {
    let dir = temp();
    let movie = write(dir.path(), "m.fm2", &movie_text());
    for args in printing_commands(movie.to_str().unwrap()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = closed_pipe(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn full_disk_is_an_error_in_every_command() {
    let dir = temp();
    let movie = write(dir.path(), "m.fm2", &movie_text());
    for args in printing_commands(movie.to_str().unwrap()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = full_disk(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output") && err.contains("No space left"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

// ---- 2. Resources ---------------------------------------------------------------------------

#[test]
fn devices_directories_and_huge_counts_are_refused_before_work() {
    let dir = temp();
    let d = dir.path().to_str().unwrap();
    for (args, want) in [
        (vec!["nes", "replay", "/dev/zero"], "not a regular file"),
        (vec!["nes", "replay", d], "a directory"),
        (
            vec!["standard", "bench", "--pieces", "/dev/zero"],
            "not a regular file",
        ),
        (vec!["nes", "bench", "--rom", "/dev/zero"], "not a ROM file"),
        (
            vec!["nes", "replay", "x.fm2", "--frames", "10000000000"],
            "from 0 to 1000000000",
        ),
        (
            vec!["nes", "bench", "--games", "1000000000000000000"],
            "from 1 to 1000000",
        ),
        (vec!["nes", "bench", "--threads", "100000"], "from 1 to 256"),
        (
            vec!["standard", "bench", "--threads", "100000"],
            "from 1 to 256",
        ),
        (
            vec!["standard", "bench", "--games", "18446744073709551615"],
            "from 1 to 1000000",
        ),
        (
            vec!["minijong", "stats", "--deals", "18446744073709551615"],
            "from 1 to 10000000",
        ),
        (
            vec!["minijong", "stats", "--deals", "5", "--threads", "0"],
            "from 1 to 256",
        ),
        (
            vec!["nes", "replay", "x.fm2", "--repeat", "4294967295"],
            "from 1 to 1000000",
        ),
    ] {
        pf().args(&args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .failure()
            .stdout("")
            .stderr(predicate::str::contains(want).and(predicate::str::contains("panicked").not()));
    }
}

#[test]
fn a_long_padded_replay_streams_instead_of_allocating() {
    // A game paused by the movie's last line, padded to 3 million frames: streamed, not padded
    // up front (checked here as "it finishes and reports the frame count").
    let dir = temp();
    let recorded = dir.path().join("game.fm2");
    pf().args([
        "nes",
        "bench",
        "--level",
        "19",
        "--max-frames",
        "1000",
        "--record",
    ])
    .arg(&recorded)
    .assert()
    .success();
    let mut movie = Movie::parse(&std::fs::read_to_string(&recorded).unwrap()).unwrap();
    movie.lines.truncate(999);
    movie
        .lines
        .push(playfield_nes::fm2::InputLine::new(Buttons::START));
    let paused = write(dir.path(), "paused.fm2", &movie.to_fm2());
    pf().args([
        "nes",
        "replay",
        paused.to_str().unwrap(),
        "--frames",
        "3000000",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains("frame: 3000000"));
}

// ---- 3. Options -----------------------------------------------------------------------------

#[test]
fn ranges_use_one_wording_and_options_that_do_not_apply_are_errors() {
    for (args, want) in [
        (
            vec!["nes", "bench", "--level", "20"],
            "'20' for '--level <N>': must be a whole number from 0 to 19",
        ),
        (
            vec!["nes", "watch", "--level", "20"],
            "must be a whole number from 0 to 19",
        ),
        (
            vec!["nes", "bench", "--music", "4"],
            "must be a whole number from 0 to 3",
        ),
        (
            vec!["nes", "bench", "--type", "b", "--height", "6"],
            "must be a whole number from 0 to 5",
        ),
        (
            vec!["nes", "bench", "--height", "3"],
            "--height does not apply to A-type games",
        ),
        (
            vec!["nes", "bench", "--type", "b", "--max-lines", "10"],
            "--max-lines does not apply",
        ),
        (
            vec!["nes", "bench", "--max-lines", "0"],
            "must be a whole number from 1 to",
        ),
        (
            vec!["standard", "bench", "--max-lines", "0"],
            "must be a whole number from 1 to",
        ),
        (
            vec!["nes", "bench", "--input", "X.X"],
            "bad input timeline \"X.X\"",
        ),
        (
            vec!["nes", "bench", "--reaction", "100000"],
            "must be a whole number from 0 to 1000",
        ),
        (
            vec!["standard", "watch", "--speed", "1e-300"],
            "must be a number from 0.0625 to 1024",
        ),
        (
            vec!["standard", "watch", "--speed", "NaN"],
            "must be a number from 0.0625 to 1024",
        ),
        (
            vec!["nes", "watch", "--speed", "0.0001"],
            "must be a number from 0.015625",
        ),
        (
            vec!["standard", "bench", "--level", "0"],
            "must be a whole number from 1 to 10",
        ),
        (
            vec!["standard", "bench", "--height", "100"],
            "must be a whole number from 4 to 32",
        ),
        (
            vec!["standard", "bench", "--lookahead", "3"],
            "must be a whole number from 1 to 2",
        ),
        (
            vec!["standard", "bench", "--sz", "--seed", "4"],
            "--seed does not apply with --sz",
        ),
        (
            vec!["standard", "play", "--sz", "--game-seed", "4"],
            "--game-seed does not apply",
        ),
        (
            vec!["minijong", "solve", "--seed", "1", "--max-nodes", "0"],
            "from 1 to",
        ),
        (
            vec!["nes", "bench", "--game-seed", "5", "--games", "2"],
            "cannot be used with",
        ),
        (
            vec!["nes", "bench", "--type", "b", "--linecap", "5"],
            "--linecap does not apply to B-type",
        ),
        (vec!["nes", "bench", "--input", "x."], "--input: "),
        (
            vec!["nes", "bench", "--double-speed-level", "5", "--level", "18"],
            "below the start level 18",
        ),
        (vec!["standard", "bench", "--ai", "foo"], "--ai: "),
        (vec!["standard", "bench", "--model", "foo"], "--model: "),
        (
            vec!["standard", "bench", "--pieces", "p.txt", "--seed", "3"],
            "--seed does not apply with --pieces",
        ),
        (
            vec![
                "nes",
                "segments",
                "--segments",
                "s.json",
                "--weights",
                "shipped",
            ],
            "give at least two",
        ),
        (
            vec!["nes", "tune", "--make-segments-only"],
            "--segments <FILE.json>",
        ),
        // The options that set up the command-less view are not a command's.
        (
            vec!["--player", "birken", "nes", "bench", "--max-lines", "1"],
            "cannot be used with",
        ),
        (
            vec!["--weights", "bad.json", "nes", "bench"],
            "cannot be used with",
        ),
        (
            vec!["--player", "birken", "minijong", "solve", "--seed", "1"],
            "cannot be used with",
        ),
        // Tuning: options of the other objective, and settings a resumed run takes from its
        // checkpoint.
        (
            vec!["nes", "tune", "--games", "2", "--segments", "s.json"],
            "cannot be used with",
        ),
        (
            vec!["nes", "tune", "--segment-games", "3"],
            "--segments <FILE.json>",
        ),
        (
            vec!["nes", "tune", "--resume", "ck.json", "--population", "8"],
            "cannot be used with",
        ),
        (
            vec!["nes", "tune", "--resume", "ck.json", "--weights", "w.json"],
            "cannot be used with",
        ),
    ] {
        // Bad usage exits with 2, wherever it is found.
        pf().args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(want).and(predicate::str::contains("panicked").not()));
    }
}

#[test]
fn a_state_the_engine_does_not_model_is_an_error_not_a_notice() {
    // Four soft resets in a row would still be modelled; a power command is too. A PAL flag is a
    // clear refusal rather than a wrong replay.
    let dir = temp();
    let text = movie_text().replace("palFlag 0", "palFlag 1");
    let movie = write(dir.path(), "pal.fm2", &text);
    pf().args(["nes", "replay", movie.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("PAL movie"));
}

// ---- 4. Integrity ---------------------------------------------------------------------------

#[test]
fn every_command_that_takes_a_rom_checks_its_sha1() {
    let dir = temp();
    // A file of the ROM's size that is not the ROM (with a real ROM: the ROM with one byte
    // changed, which the demo table reader alone would accept).
    let bytes = match std::env::var_os("PLAYFIELD_ROM") {
        Some(p) if !p.is_empty() => {
            let mut b = std::fs::read(p).expect("PLAYFIELD_ROM readable");
            b[0x4000] ^= 1;
            b
        }
        _ => {
            let mut b = vec![0u8; 40_976];
            b[..4].copy_from_slice(b"NES\x1a");
            b
        }
    };
    let rom = dir.path().join("changed.nes");
    std::fs::write(&rom, bytes).unwrap();
    let movie = write(dir.path(), "m.fm2", &movie_text());
    let rom = rom.to_str().unwrap();
    for args in [
        vec!["nes", "replay", movie.to_str().unwrap(), "--rom", rom],
        vec!["nes", "bench", "--rom", rom, "--max-frames", "100"],
        vec!["nes", "watch", "--rom", rom],
        vec!["nes", "play", "--rom", rom],
    ] {
        let assert = pf().args(&args).assert().failure();
        let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        // watch and play need a terminal first; with one they check the ROM before drawing.
        assert!(
            err.contains("is not Tetris (USA)") || err.contains("needs a terminal"),
            "{args:?}: {err}"
        );
    }
    pf().args(["nes", "replay", movie.to_str().unwrap(), "--rom", rom])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "77747840541bfc62a28a5957692a98c550bd6b2b",
        ));
}

#[test]
fn a_missing_rom_is_named_with_the_os_error_once() {
    let out = pf()
        .args(["nes", "bench", "--rom", "/nonexistent.nes"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    assert!(err.contains("/nonexistent.nes"), "{err}");
    assert!(err.starts_with("error: --rom:"), "{err}");
    // A path from the environment is blamed on the environment, not on an option never typed.
    let dir = temp();
    let movie = write(dir.path(), "m.fm2", &movie_text());
    let movie = movie.to_str().unwrap();
    for command in [&["nes", "bench"][..], &["nes", "replay", movie], &["serve"]] {
        let out = pf()
            .env("PLAYFIELD_ROM", "/nonexistent.nes")
            .args(command)
            .assert()
            .failure();
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            err.contains("$PLAYFIELD_ROM") && !err.contains("--rom"),
            "{command:?}: {err}"
        );
    }
    // Set but empty means no ROM (clap would take "" as --rom's value and refuse it).
    pf().env("PLAYFIELD_ROM", "")
        .args(["nes", "bench", "--games", "1", "--linecap", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("game 1:"));
}

#[test]
fn a_movie_of_another_game_is_refused() {
    let dir = temp();
    let text = movie_text()
        .replace("romFilename Tetris", "romFilename Super Mario Bros.")
        .replace(
            playfield_nes::fm2::TETRIS_ROM_CHECKSUM,
            "base64:jjYwGG411HcjG/j9UOVM3Q==",
        );
    let movie = write(dir.path(), "smb.fm2", &text);
    pf().args(["nes", "replay", movie.to_str().unwrap()])
        .assert()
        .failure()
        .stdout("")
        .stderr(
            predicate::str::contains("recorded for another game")
                .and(predicate::str::contains("Super Mario Bros.")),
        );
}

#[test]
fn malformed_headers_and_input_lines_are_refused_with_their_line() {
    let dir = temp();
    let good = movie_text();
    let header_lines = good.lines().take_while(|l| !l.starts_with('|')).count();
    let mut cases = vec![
        (
            good.replace("palFlag 0", "palFlag x"),
            4,
            "`palFlag` must be 0 or 1",
        ),
        (
            good.replace("emuVersion 22020", "emuVersion 2.2"),
            2,
            "must be a number",
        ),
    ];
    let mut lines: Vec<&str> = good.lines().collect();
    let extra = format!("{}extra|", lines[header_lines + 5]);
    lines[header_lines + 5] = &extra;
    cases.push((lines.join("\n"), header_lines + 6, "more than five"));
    for (text, line, want) in cases {
        let movie = write(dir.path(), "bad.fm2", &text);
        pf().args(["nes", "replay", movie.to_str().unwrap()])
            .assert()
            .failure()
            .stderr(
                predicate::str::contains(format!("fm2 line {line}:"))
                    .and(predicate::str::contains(want)),
            );
    }
}

#[test]
fn trace_with_repeat_is_written_once() {
    let dir = temp();
    let movie = write(dir.path(), "m.fm2", &movie_text());
    let trace = dir.path().join("t.jsonl");
    pf().args([
        "nes",
        "replay",
        movie.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--repeat",
        "3",
    ])
    .assert()
    .success();
    let text = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(text.lines().count(), 200);
}

// ---- 5. Work --------------------------------------------------------------------------------

#[test]
fn unwritable_outputs_are_found_before_any_work() {
    let dir = temp();
    let movie = write(dir.path(), "m.fm2", &movie_text());
    let nowhere = "/nonexistent-dir/out";
    for args in [
        vec!["nes", "bench", "--games", "50", "--plot", nowhere],
        vec!["nes", "bench", "--games", "50", "--record", nowhere],
        vec!["standard", "bench", "--games", "100000", "--plot", nowhere],
        vec!["minijong", "stats", "--deals", "1000000", "--plot", nowhere],
        vec!["nes", "replay", movie.to_str().unwrap(), "--trace", nowhere],
    ] {
        pf().args(&args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .failure()
            .stdout("")
            .stderr(predicate::str::contains("/nonexistent-dir"));
    }
}

#[test]
fn outputs_checked_before_work_include_tuning_and_a_record_directory() {
    let dir = temp();
    let d = dir.path().to_str().unwrap();
    let tune = ["nes", "tune", "--generations", "1", "--population", "4"];
    for (extra, want) in [
        (vec!["--out", "/nonexistent-dir/x.json"], "/nonexistent-dir"),
        (vec!["--out", d], "is a directory"),
        (
            vec!["--checkpoint", "/nonexistent-dir/c.json"],
            "/nonexistent-dir",
        ),
    ] {
        pf().args(tune)
            .args(&extra)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(want));
    }
    let missing = format!("{d}/dd/");
    pf().args(["nes", "bench", "--games", "50", "--record", &missing])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("names a directory"));
}

#[test]
fn an_output_never_replaces_an_input_or_another_output() {
    let dir = temp();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let movie = write(dir.path(), "g.fm2", &movie_text());
    let weights = write(
        dir.path(),
        "ws.json",
        &serde_json::to_string(&playfield_ai::nes::ScoreWeights::shipped()).unwrap(),
    );
    let (movie, weights) = (movie.to_str().unwrap(), weights.to_str().unwrap());
    let bench = ["nes", "bench", "--max-frames", "100"];
    let cases: Vec<(Vec<String>, [&str; 2])> = vec![
        (
            vec![
                "nes".into(),
                "replay".into(),
                movie.into(),
                "--trace".into(),
                movie.into(),
            ],
            ["--trace", "the movie"],
        ),
        (
            // The same file by another name.
            vec![
                "nes".into(),
                "replay".into(),
                movie.into(),
                "--trace".into(),
                format!("{}/./g.fm2", dir.path().display()),
            ],
            ["--trace", "the movie"],
        ),
        (
            [&bench[..], &["--weights", weights, "--plot", weights]]
                .concat()
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            ["--plot", "--weights"],
        ),
        (
            [
                &bench[..],
                &["--record", &at("p.svg"), "--plot", &at("p.svg")],
            ]
            .concat()
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
            ["--record", "--plot"],
        ),
        (
            [
                &bench[..],
                &[
                    "--games",
                    "2",
                    "--record",
                    &at("r.fm2"),
                    "--plot",
                    &at("r-1.fm2"),
                ],
            ]
            .concat()
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
            ["--record", "--plot"],
        ),
        (
            vec![
                "nes".into(),
                "tune".into(),
                "--weights".into(),
                weights.into(),
                "--out".into(),
                weights.into(),
            ],
            ["--out", "--weights"],
        ),
        (
            vec![
                "nes".into(),
                "tune".into(),
                "--out".into(),
                at("t.json"),
                "--checkpoint".into(),
                at("t.json"),
            ],
            ["--checkpoint", "--out"],
        ),
    ];
    for (args, [a, b]) in cases {
        pf().args(&args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(a).and(predicate::str::contains(b)));
    }
    // Nothing was replaced or written.
    assert_eq!(std::fs::read_to_string(movie).unwrap(), movie_text());
    assert!(std::fs::read_to_string(weights).unwrap().contains("holes"));
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["g.fm2", "ws.json"]);
}

#[test]
fn a_device_takes_one_games_movie() {
    for device in ["/dev/null", "/dev/stdout"] {
        pf().args([
            "nes",
            "bench",
            "--max-frames",
            "100",
            "--games",
            "2",
            "--record",
            device,
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("a device takes one game's movie"));
    }
    assert!(!Path::new("/dev/null-1.fm2").exists());
    // One game's movie goes to the device as it is.
    pf().args([
        "nes",
        "bench",
        "--max-frames",
        "100",
        "--record",
        "/dev/stdout",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains("version 3"));
}

#[test]
fn a_corrupt_checkpoint_is_refused_naming_the_file_and_field() {
    let dir = temp();
    let checkpoint = dir.path().join("ck.json");
    pf().args([
        "nes",
        "tune",
        "--format",
        "rom",
        "--generations",
        "1",
        "--population",
        "4",
        "--games",
        "1",
        "--linecap",
        "1",
        "--fixed",
        "surface",
        "--checkpoint",
    ])
    .arg(&checkpoint)
    .assert()
    .success();
    let good: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    // A field to name and how to spoil it.
    type Edit = (&'static str, fn(&mut serde_json::Value));
    let edits: [Edit; 4] = [
        ("setup.games", |v| v["setup"]["games"] = 0.into()),
        ("es.mean", |v| {
            v["es"]["mean"].as_array_mut().unwrap().truncate(5);
        }),
        ("es.sigma", |v| v["es"]["sigma"] = "NaN".into()),
        ("es.variances[0]", |v| v["es"]["variances"][0] = "-5".into()),
    ];
    for (field, edit) in edits {
        let mut v = good.clone();
        edit(&mut v);
        std::fs::write(&checkpoint, v.to_string()).unwrap();
        pf().args(["nes", "tune", "--generations", "1", "--resume"])
            .arg(&checkpoint)
            .assert()
            .code(1)
            .stderr(
                predicate::str::contains(format!("--resume {}", checkpoint.display()))
                    .and(predicate::str::contains(field))
                    .and(predicate::str::contains("panicked").not()),
            );
    }
}

#[test]
fn a_repeated_movie_header_key_is_refused_with_its_line() {
    let dir = temp();
    let good = movie_text();
    let header_lines = good.lines().take_while(|l| !l.starts_with('|')).count();
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(header_lines, "romChecksum base64:AAAA");
    let movie = write(dir.path(), "twice.fm2", &(lines.join("\n") + "\n"));
    pf().args(["nes", "replay", movie.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(format!("fm2 line {}:", header_lines + 1))
                .and(predicate::str::contains("`romChecksum` given again")),
        );
}

#[test]
fn a_failed_run_leaves_the_old_output_and_no_temporary_file() {
    let dir = temp();
    let trace = write(dir.path(), "t.jsonl", "old\n");
    let bad = write(dir.path(), "bad.fm2", "version 3\nnot a movie\n");
    pf().args([
        "nes",
        "replay",
        bad.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ])
    .assert()
    .failure();
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), "old\n");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

#[test]
fn a_seed_printed_by_a_batch_replays_that_game() {
    let base = ["nes", "bench", "--level", "19", "--max-frames", "2500"];
    let batch = pf()
        .args(base)
        .args(["--games", "3", "--seed", "11", "--json"])
        .assert()
        .success();
    let games = json_lines(&batch.get_output().stdout);
    let third = &games[2];
    let seed = third["seed"].as_u64().unwrap().to_string();
    let one = pf()
        .args(base)
        .args(["--game-seed", &seed, "--json"])
        .assert()
        .success();
    let again = &json_lines(&one.get_output().stdout)[0];
    for key in ["seed", "score", "lines", "level", "frames", "pieces"] {
        assert_eq!(again[key], third[key], "{key}");
    }

    let standard = ["standard", "bench", "--height", "8", "--json"];
    let batch = pf()
        .args(standard)
        .args(["--games", "4"])
        .assert()
        .success();
    let all: serde_json::Value = serde_json::from_slice(&batch.get_output().stdout).unwrap();
    let game = &all["games"][3];
    let seed = game["seed"].as_u64().unwrap().to_string();
    let one = pf()
        .args(standard)
        .args(["--game-seed", &seed])
        .assert()
        .success();
    let again: serde_json::Value = serde_json::from_slice(&one.get_output().stdout).unwrap();
    assert_eq!(again["games"][0]["lines"], game["lines"]);
    assert_eq!(again["games"][0]["pieces"], game["pieces"]);
}

// ---- 6. The terminal ------------------------------------------------------------------------

/// Runs `args` in a pseudo-terminal (util-linux `script`), sends `signal` after `after`, and
/// returns (exit status of playfield as `script` reports it, everything written to the terminal).
fn in_a_terminal_then_signal(args: &str, signal: &str, after_ms: u64) -> Option<(i32, Vec<u8>)> {
    if StdCommand::new("script").arg("--version").output().is_err() {
        println!("skipped: util-linux `script` (a pseudo-terminal) is not installed");
        return None;
    }
    let dir = temp();
    let pid = dir.path().join("pid");
    let log = dir.path().join("log");
    let inner = format!("echo $$ > {}; exec {BIN} {args}", pid.display());
    let mut child = StdCommand::new("script")
        .args(["-q", "-e", "-c", &inner, log.to_str().unwrap()])
        .env("TERM", "xterm")
        .env_remove("PLAYFIELD_ROM")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("script runs");
    let mut waited = 0;
    while !pid.exists()
        || std::fs::read_to_string(&pid)
            .unwrap_or_default()
            .trim()
            .is_empty()
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 50;
        assert!(waited < 10_000, "playfield did not start");
    }
    std::thread::sleep(std::time::Duration::from_millis(after_ms));
    let id = std::fs::read_to_string(&pid).unwrap().trim().to_owned();
    let kill = StdCommand::new("kill")
        .args([signal, &id])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().expect("script ends");
    let bytes = std::fs::read(&log).unwrap_or_default();
    Some((status.code().unwrap_or(-1), bytes))
}

#[test]
fn sigterm_and_sighup_during_a_view_restore_the_terminal() {
    // The alternate screen is entered with CSI ?1049h and left with CSI ?1049l.
    for (args, signal, code) in [
        ("standard watch --height 10", "-TERM", 143),
        ("minijong play --seed 1", "-HUP", 129),
        ("nes play", "-TERM", 143),
        ("standard play", "-HUP", 129),
    ] {
        let Some((status, screen)) = in_a_terminal_then_signal(args, signal, 700) else {
            return;
        };
        let text = String::from_utf8_lossy(&screen);
        let entered = text.rfind("\x1b[?1049h");
        let left = text.rfind("\x1b[?1049l");
        assert!(
            entered.is_some(),
            "{args}: never entered the view: {text:?}"
        );
        assert!(
            left > entered,
            "{args}: left the terminal in the alternate screen"
        );
        assert_eq!(status, code, "{args}: exit status");
    }
}
