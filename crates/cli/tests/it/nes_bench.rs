//! `playfield nes bench`: exit codes, output shape, errors, determinism across thread counts.

use std::process::Command;

fn playfield(args: &[&str], threads: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_playfield"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("the binary runs")
}

/// The JSON objects of a `--json` run that succeeded, one per line.
fn json_objects(out: std::process::Output) -> Vec<serde_json::Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn json_has_one_object_per_game_and_a_summary() {
    let out = playfield(
        &[
            "nes",
            "bench",
            "--level",
            "19",
            "--games",
            "3",
            "--max-lines",
            "4",
            "--json",
        ],
        "2",
    );
    let lines = json_objects(out);
    assert_eq!(lines.len(), 4);
    for game in &lines[..3] {
        for key in ["score", "lines", "level", "frames"] {
            assert!(game[key].is_u64(), "{key} in {game}");
        }
        assert!(game["lines"].as_u64().expect("lines") >= 4);
        assert_eq!(game["end"], "line_cap");
    }
    assert_eq!(lines[3]["summary"]["games"], 3);
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let args = [
        "nes",
        "bench",
        "--level",
        "18",
        "--games",
        "3",
        "--max-lines",
        "3",
        "--seed",
        "9",
    ];
    let one = playfield(&args, "1");
    let two = playfield(&args, "2");
    assert!(one.status.success());
    // The games (the summary also reports measured decision times, which vary).
    let games = |out: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(out)
            .lines()
            .filter(|l| l.starts_with("game "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(games(&one.stdout).len(), 3);
    assert_eq!(games(&one.stdout), games(&two.stdout));
}

#[test]
fn bad_values_are_named() {
    let out = playfield(&["nes", "bench", "--level", "20"], "1");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'20'") && err.contains("--level") && err.contains("from 0 to 19"),
        "{err}"
    );

    let out = playfield(&["nes", "bench", "--input", "X-"], "1");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"X-\"") && err.contains("X..."), "{err}");

    let out = playfield(&["nes", "bench", "--type", "b", "--height", "7"], "1");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'7'") && err.contains("from 0 to 5"), "{err}");
}

#[test]
fn recorded_movie_replays_to_the_same_result() {
    let dir = std::env::temp_dir().join(format!("playfield-nes-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let movie = dir.join("game.fm2");
    let out = playfield(
        &[
            "nes",
            "bench",
            "--level",
            "9",
            "--max-lines",
            "3",
            "--json",
            "--record",
            movie.to_str().expect("utf-8 path"),
        ],
        "1",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .expect("a game"),
    )
    .expect("JSON");
    let replay = playfield(&["nes", "replay", movie.to_str().expect("utf-8 path")], "1");
    assert!(replay.status.success());
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(
        text.contains(&format!("score: {}\n", game["score"])),
        "{text}"
    );
    assert!(
        text.contains(&format!("lines: {}\n", game["lines"])),
        "{text}"
    );
    assert!(
        text.contains(&format!("frame: {}\n", game["frames"])),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_double_speed_game_replays_with_its_double_speed_level() {
    let dir = std::env::temp_dir().join(format!("playfield-nes-double-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let movie = dir.join("game.fm2");
    let movie_arg = movie.to_str().expect("utf-8 path");
    let out = playfield(
        &[
            "nes",
            "bench",
            "--level",
            "19",
            "--double-speed-level",
            "19",
            "--seed",
            "1",
            "--max-lines",
            "4",
            "--json",
            "--record",
            movie_arg,
        ],
        "1",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .expect("a game"),
    )
    .expect("JSON");
    // The game stops at the clear that reaches the cap, which may pass it (a double from 3).
    assert!(
        game["lines"].as_u64().is_some_and(|l| l >= 4),
        "the game reaches its line cap: {game}"
    );
    let result = |extra: &[&str]| {
        let mut args = vec!["nes", "replay", movie_arg];
        args.extend_from_slice(extra);
        let replay = playfield(&args, "1");
        assert!(replay.status.success());
        String::from_utf8_lossy(&replay.stdout).into_owned()
    };
    let expected = format!("lines: {}\n", game["lines"]);
    let with = result(&["--double-speed-level", "19"]);
    assert!(with.contains(&expected), "{with}");
    assert!(
        with.contains(&format!("frame: {}\n", game["frames"])),
        "{with}"
    );
    // At the ROM's gravity the same buttons place the pieces elsewhere.
    let without = result(&[]);
    assert!(!without.contains(&expected), "{without}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rom_in_lockstep_agrees_with_the_engine() {
    let Some(rom) = playfield_rom::rom_for_tests() else {
        return;
    };
    let path = rom.path().to_str().expect("utf-8 path").to_owned();
    let out = playfield(
        &[
            "nes",
            "bench",
            "--level",
            "19",
            "--max-lines",
            "2",
            "--json",
            "--rom",
            &path,
            "--lockstep",
        ],
        "1",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let game: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a game")).expect("JSON");
    assert_eq!(game["end"], "line_cap", "{text}");
}

#[test]
fn a_file_that_is_not_the_rom_is_refused() {
    let out = playfield(&["nes", "bench", "--rom", "Cargo.toml"], "1");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("77747840541bfc62a28a5957692a98c550bd6b2b"),
        "{err}"
    );
}

#[test]
fn plot_writes_a_histogram_for_several_games_and_a_timeline_for_one() {
    let dir = std::env::temp_dir().join(format!("playfield-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let many = dir.join("many.svg");
    let one = dir.join("one.svg");
    // Games past level 18 also get the points by line band beside BetaTetris's.
    let bands = dir.join("bands.svg");
    let level_19 = ["--level", "19", "--max-lines", "4"];
    let betatetris = ["--format", "betatetris", "--linecap", "140"];
    for (options, games, path) in [
        (level_19, "3", &many),
        (level_19, "1", &one),
        (betatetris, "2", &bands),
    ] {
        let mut args = vec!["nes", "bench", "--games", games, "--plot"];
        args.push(path.to_str().expect("utf-8 path"));
        args.extend(options);
        let out = playfield(&args, "2");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let many = std::fs::read_to_string(&many).expect("histogram written");
    assert!(many.starts_with("<svg") && many.contains("score per game (3 games"));
    let bands = std::fs::read_to_string(&bands).expect("chart written");
    assert!(
        bands.contains("mean points per game by line band")
            && bands.contains("130-230 lines")
            && bands.contains("% tetris)")
            && bands.contains("657.9k"),
        "{bands}"
    );
    let one = std::fs::read_to_string(&one).expect("timeline written");
    assert!(
        one.starts_with("<svg")
            && one.contains("score (left axis)")
            && one.contains("level (right axis)")
            && one.contains("stroke=\"#FF0000\""),
        "{one}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn formats_label_what_is_not_the_rom_and_bad_format_options_are_refused() {
    let out = playfield(
        &[
            "nes",
            "bench",
            "--format",
            "betatetris",
            "--linecap",
            "4",
            "--seed",
            "3",
        ],
        "1",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("uncapped"), "{text}");
    let out = playfield(
        &[
            "nes",
            "bench",
            "--format",
            "betatetris",
            "--linecap",
            "4",
            "--games",
            "2",
        ],
        "1",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not the ROM: double speed from level 39"),
        "{text}"
    );

    for (args, message) in [
        (
            &["nes", "bench", "--format", "tgm"][..],
            "unknown format \"tgm\"",
        ),
        (&["nes", "bench", "--linecap", "0"][..], "--linecap"),
        (
            &["nes", "bench", "--double-speed-level", "10"][..],
            "double-speed level 10 is below the start level 18",
        ),
    ] {
        let out = playfield(args, "1");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn weights_files_are_checked_and_tuning_writes_loadable_weights() {
    let dir = std::env::temp_dir().join(format!("playfield-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"holes\": 1}").unwrap();
    let out = playfield(&["nes", "bench", "--weights", bad.to_str().unwrap()], "1");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing field"), "{err}");
    // A term set twice (serde_json would keep the second in silence) and a term out of its
    // range are refused with the file and the term.
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../ai/weights/score.json"
    ))
    .unwrap();
    for (text, says) in [
        (
            shipped.replacen('{', "{\"tetris\": 90,", 1),
            "key \"tetris\" given twice",
        ),
        (
            shipped.replacen("\"safe_height\": 8.0", "\"safe_height\": -8.0", 1),
            "term safe_height is -8, expected 0 to 20 (rows)",
        ),
    ] {
        std::fs::write(&bad, text).unwrap();
        let out = playfield(&["nes", "bench", "--weights", bad.to_str().unwrap()], "1");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.contains("bad.json"), "{err}");
    }
    let out = playfield(
        &[
            "nes",
            "bench",
            "--player",
            "birken",
            "--weights",
            bad.to_str().unwrap(),
        ],
        "1",
    );
    assert!(!out.status.success());

    let tuned = dir.join("tuned.json");
    let tune = |generations: &str, extra: &[&str]| {
        let mut args = vec!["nes", "tune", "--generations", generations];
        // A resumed run's settings are the checkpoint's (giving them again is refused).
        if !extra.contains(&"--resume") {
            args.extend_from_slice(&[
                "--format",
                "rom",
                "--linecap",
                "1",
                "--population",
                "4",
                "--games",
                "1",
                // The surface table costs seconds at its first use in each process.
                "--fixed",
                "surface",
            ]);
        }
        args.extend_from_slice(extra);
        let out = playfield(&args, "1");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Two generations in a row, and one then one more resumed: the same run.
    let straight = dir.join("straight.json");
    let stopped = dir.join("stopped.json");
    tune("2", &["--checkpoint", straight.to_str().unwrap()]);
    tune("1", &["--checkpoint", stopped.to_str().unwrap()]);
    tune(
        "1",
        &[
            "--resume",
            stopped.to_str().unwrap(),
            "--out",
            tuned.to_str().unwrap(),
        ],
    );
    let state = |path: &std::path::Path| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        v.as_object_mut().unwrap().remove("made_by");
        v
    };
    assert_eq!(state(&straight)["es"]["generation"], 2);
    assert_eq!(state(&straight), state(&stopped));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tuned).unwrap()).unwrap();
    assert_eq!(written["how_made"]["generations"], 2);
    assert_eq!(written["how_made"]["commands"].as_array().unwrap().len(), 2);
    let out = playfield(
        &[
            "nes",
            "bench",
            "--weights",
            tuned.to_str().unwrap(),
            "--max-lines",
            "2",
        ],
        "1",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_band_is_tuned_alone_and_weights_are_compared_on_the_same_positions() {
    let dir = std::env::temp_dir().join(format!("playfield-bands-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let run = |args: &[&str]| {
        let out = playfield(args, "1");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    // One generation tuning level 19's band (never reached in a one-line game: the base terms
    // must come out as they went in).
    let tuned = path("band.json");
    run(&[
        "nes",
        "tune",
        "--format",
        "rom",
        "--linecap",
        "1",
        "--generations",
        "1",
        "--population",
        "4",
        "--games",
        "1",
        "--fixed",
        "surface",
        "--band",
        "19",
        "--out",
        &tuned,
    ]);
    let mut written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tuned).unwrap()).unwrap();
    assert_eq!(written["how_made"]["band"], "19");
    let band = written["bands"]["19"].as_object().unwrap().clone();
    assert!(
        !band.is_empty() && !band.contains_key("surface"),
        "{band:?}"
    );
    let mut shipped: serde_json::Value =
        serde_json::from_str(include_str!("../../../ai/weights/score.json")).unwrap();
    // The start's own band is kept as it was, beside the tuned one.
    assert_eq!(written["bands"]["29"], shipped["bands"]["29"]);
    let object = written.as_object_mut().unwrap();
    object.remove("bands");
    object.remove("how_made");
    shipped.as_object_mut().unwrap().remove("bands");
    assert_eq!(written, shipped);
    // A band the positions do not reach is refused, naming it.
    let positions = path("positions.json");
    run(&[
        "nes",
        "tune",
        "--format",
        "betatetris",
        "--linecap",
        "6",
        "--segments",
        &positions,
        "--segment-games",
        "2",
        "--make-segments-only",
    ]);
    let out = playfield(
        &[
            "nes",
            "tune",
            "--format",
            "betatetris",
            "--linecap",
            "6",
            "--segments",
            &positions,
            "--band",
            "29",
            "--generations",
            "1",
        ],
        "1",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--band 29") && err.contains("230"), "{err}");
    // `nes segments` on the saved positions, 3 lines each, with `more` arguments.
    let segments = |more: &[&str]| {
        let mut args = vec![
            "nes",
            "segments",
            "--format",
            "betatetris",
            "--linecap",
            "6",
            "--segments",
            &positions,
            "--lines",
            "3",
            "--json",
        ];
        args.extend_from_slice(more);
        playfield(&args, "1")
    };
    // Weights compared on the saved positions, the pieces the ROM's or dealt; the same weights
    // twice give a paired difference of exactly 0.
    let segments_with = |second: &str, pieces: &str| {
        segments(&[
            "--weights",
            "shipped",
            "--weights",
            second,
            "--pieces",
            pieces,
        ])
    };
    let lines = json_objects(segments_with(&tuned, "rom"));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["points_difference"]["mean"], 0.0);
    assert_eq!(lines[1]["points"]["n"], 2);
    let lines = json_objects(segments_with("shipped", "dealt"));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["points_difference"]["mean"], 0.0);
    assert_eq!(lines[1]["points"]["n"], 2);
    // Each segment's own result comes with the summary, in the file's order, and sums to it.
    let each = lines[1]["segments"].as_array().expect("segments");
    assert_eq!(each.len(), 2);
    let sum: f64 = each.iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(sum / 2.0, lines[1]["points"]["mean"].as_f64().unwrap());
    assert_eq!(each, lines[0]["segments"].as_array().unwrap());
    assert!(
        each.iter()
            .all(|s| s["seed"].is_u64() && s["topped_out"].is_boolean())
    );
    // Another run (another build, or other settings) is paired against an earlier run's
    // reference with --against: one weights file is enough then.
    let earlier = path("earlier-run.json");
    std::fs::write(&earlier, format!("{}\n", lines[0])).unwrap();
    let against = || {
        segments(&[
            "--weights",
            &tuned,
            "--pieces",
            "dealt",
            "--against",
            &earlier,
        ])
    };
    let paired = json_objects(against());
    assert_eq!(paired.len(), 1);
    assert_eq!(paired[0]["points_difference"]["mean"], 0.0);
    assert_eq!(paired[0]["points_difference"]["n"], 2);
    assert_eq!(paired[0]["segments"], lines[0]["segments"]);
    // A run on other positions is refused, saying how it differs.
    let refused = |run: serde_json::Value, expected: &[&str]| {
        std::fs::write(&earlier, format!("{run}\n")).unwrap();
        let out = against();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--against") && expected.iter().all(|e| err.contains(e)),
            "{err}"
        );
    };
    let mut fewer = lines[0].clone();
    fewer["segments"].as_array_mut().unwrap().pop();
    refused(fewer, &["1 segments", "give 2"]);
    let mut other_seed = lines[0].clone();
    other_seed["segments"][1]["seed"] = serde_json::json!(12_345_678_u64);
    refused(other_seed, &["segment 2", "seed 12345678"]);
    // A tuning run on dealt pieces keeps that in its checkpoint, and a resumed run plays them.
    let checkpoint = path("dealt-run.json");
    run(&[
        "nes",
        "tune",
        "--format",
        "betatetris",
        "--linecap",
        "6",
        "--segments",
        &positions,
        "--segment-lines",
        "3",
        "--segment-pieces",
        "dealt",
        "--population",
        "4",
        "--fixed",
        "surface",
        "--generations",
        "1",
        "--checkpoint",
        &checkpoint,
    ]);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(saved["setup"]["segments"]["pieces"], "dealt");
    run(&["nes", "tune", "--resume", &checkpoint, "--generations", "1"]);
    let resumed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(resumed["setup"]["segments"]["pieces"], "dealt");
    assert_eq!(resumed["history"].as_array().unwrap().len(), 2);
    // Whole games always play the ROM's pieces: dealt ones without segments are refused.
    let out = playfield(
        &[
            "nes",
            "tune",
            "--segment-pieces",
            "dealt",
            "--generations",
            "1",
        ],
        "1",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--segment-pieces") && err.contains("--segments <FILE.json>"),
        "{err}"
    );
    let out = segments_with("shipped", "shuffled");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--pieces") && err.contains("rom or dealt"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_menu_wait_plays_each_distinct_game_once() {
    // Stopped on the level menu: only the games' seeds matter here.
    let out = playfield(
        &[
            "nes",
            "bench",
            "--every-menu-wait",
            "--max-frames",
            "100",
            "--json",
        ],
        "2",
    );
    let games: Vec<serde_json::Value> = json_objects(out)
        .into_iter()
        .filter(|v| v.get("game").is_some())
        .collect();
    assert_eq!(games.len(), 1024);
    let seeds: std::collections::BTreeSet<u64> = games
        .iter()
        .map(|g| g["seed"].as_u64().expect("a seed"))
        .collect();
    assert_eq!(seeds.len(), 1024, "every game has its own seed");
    // Seed 1474 is the first whose wait is 637 frames (split_mix(1474) % 1024 = 637; the
    // library's test checks every wait).
    assert_eq!(games[637]["seed"], 1474);

    for other in [
        &["--games", "5"][..],
        &["--seed", "3"],
        &["--game-seed", "1474"],
    ] {
        let mut args = vec!["nes", "bench", "--every-menu-wait"];
        args.extend_from_slice(other);
        let out = playfield(&args, "1");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--every-menu-wait") && err.contains("cannot be used with"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn held_out_games_are_other_games_and_say_so() {
    let bench = |extra: &[&str]| {
        let mut args = vec!["nes", "bench", "--level", "18", "--max-lines", "2"];
        args.extend_from_slice(extra);
        playfield(&args, "1")
    };
    // The same seed, one game of the benchmark and one held out: the held-out game waits 1,024
    // frames more on the level menu and meets other pieces.
    let game = |extra: &[&str]| {
        let mut args = vec!["--game-seed", "1474", "--json"];
        args.extend_from_slice(extra);
        json_objects(bench(&args)).remove(0)
    };
    let benchmark = game(&[]);
    let held_out = game(&["--held-out"]);
    assert_eq!(benchmark["seed"], 1474);
    assert_eq!(held_out["seed"], 1474);
    assert_ne!(benchmark, held_out);
    // A batch's text summary names them.
    let summary = |extra: &[&str]| {
        let mut args = vec!["--games", "2"];
        args.extend_from_slice(extra);
        let out = bench(&args);
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = summary(&["--held-out"]);
    assert!(
        text.contains("held-out games (level-menu waits 1,024-2,047)"),
        "{text}"
    );
    let text = summary(&[]);
    assert!(!text.contains("held-out"), "{text}");
}

#[test]
fn a_value_is_learned_from_games_and_played_with() {
    let dir = std::env::temp_dir().join(format!("playfield-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let learned = dir.join("learned.json");
    let learned = learned.to_str().unwrap();
    // Learns with `fit` (options after the shared ones); returns what it printed and wrote.
    let learn = |fit: &[&str]| {
        let mut args = vec![
            "nes",
            "learn",
            "--linecap",
            "12",
            "--games",
            "2",
            "--out",
            learned,
        ];
        args.extend_from_slice(fit);
        let out = playfield(&args, "1");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(learned).unwrap()).unwrap();
        (String::from_utf8(out.stdout).unwrap(), file)
    };
    // Only the terms' value and the lines left are fitted by default, by either fit.
    let fits_the_terms_and_lines = |file: &serde_json::Value| {
        let level_18 = file["value"]["by_gravity"]["level_18"].as_array().unwrap();
        assert_eq!(
            level_18.len(),
            file["value"]["features"].as_array().unwrap().len()
        );
        assert_eq!(level_18[2], 0.0, "holes");
        assert_ne!(level_18[1], 0.0, "terms_value");
    };
    let (text, file) = learn(&["--iterations", "2", "--lambda", "1"]);
    assert!(
        text.contains("iteration 1:") && text.contains("iteration 2:"),
        "{text}"
    );
    assert_eq!(file["how_made"]["iterations"].as_array().unwrap().len(), 2);
    assert_eq!(file["how_made"]["linecap"], 12);
    fits_the_terms_and_lines(&file);
    assert_eq!(file["value"]["rates"], serde_json::json!(["level_18"]));
    // The file plays: the bench loads it.
    let games = json_objects(playfield(
        &[
            "nes",
            "bench",
            "--format",
            "betatetris",
            "--linecap",
            "12",
            "--games",
            "1",
            "--weights",
            learned,
            "--json",
        ],
        "1",
    ));
    assert!(games[0]["lines"].as_u64().is_some());
    // The regression on the points to the end, with every board written for fits outside.
    let samples = dir.join("boards.csv");
    let (text, file) = learn(&["--samples-out", samples.to_str().unwrap()]);
    fits_the_terms_and_lines(&file);
    // Twelve lines at level 18 meet no other gravity: the value rates level 18 alone and
    // leaves the others to the terms (a value of zeros would rate all their boards alike).
    assert_eq!(file["value"]["rates"], serde_json::json!(["level_18"]));
    assert!(
        text.contains("double_speed 0 boards, too few: the terms rate it"),
        "{text}"
    );
    let csv = std::fs::read_to_string(&samples).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let features = file["value"]["features"].as_array().unwrap();
    assert_eq!(&header[..3], ["game", "class", "future"]);
    assert_eq!(header.len(), 3 + features.len());
    assert!(header[3..].iter().zip(features).all(|(h, f)| f == h));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    // Both games' boards, each from its first (the most points to come) to its last.
    assert!(rows.iter().any(|r| r[0] == 0.0) && rows.iter().any(|r| r[0] == 1.0));
    assert!(
        rows.iter()
            .all(|r| r.len() == header.len() && r[1] == 0.0 && r[3] == 1.0)
    );
    let first_game: Vec<f64> = rows.iter().filter(|r| r[0] == 0.0).map(|r| r[2]).collect();
    assert!(
        first_game.windows(2).all(|w| w[0] >= w[1]),
        "{first_game:?}"
    );
    // A format without a line cap has no lines left to learn from.
    let out = playfield(
        &[
            "nes", "learn", "--format", "rom", "--games", "2", "--out", learned,
        ],
        "1",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a line cap"), "{err}");
    // One game gives no interval for its scores.
    let out = playfield(&["nes", "learn", "--games", "1", "--out", learned], "1");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--games") && err.contains("from 2 to 100000"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
