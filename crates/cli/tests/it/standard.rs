//! Command tests for `playfield standard ...`: run the built binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn playfield(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playfield"))
        .args(args)
        .output()
        .expect("run playfield")
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("playfield-standard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn bench_text_reports_mean_ci_median_min_max_and_speed() {
    let out = playfield(&["standard", "bench", "--games", "8", "--height", "8"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "games        8",
        "lines mean",
        "95% CI",
        "median",
        "min / max",
        "pieces/s",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn bench_json_shape_and_thread_independence() {
    let args = [
        "standard", "bench", "--games", "12", "--height", "9", "--seed", "42", "--json",
    ];
    let one = json(&playfield(&[&args[..], &["--threads", "1"]].concat()));
    let two = json(&playfield(&[&args[..], &["--threads", "2"]].concat()));
    let games = one["games"].as_array().unwrap();
    assert_eq!(games.len(), 12);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["index"].as_u64(), Some(i as u64));
        assert!(g["lines"].is_u64() && g["pieces"].is_u64() && g["score"].is_u64());
        assert_eq!(g["ended"], "spawn-blocked");
    }
    assert_eq!(one["games"], two["games"], "results depend on thread count");
    let s = &one["summary"];
    let lines: Vec<u64> = games.iter().map(|g| g["lines"].as_u64().unwrap()).collect();
    let mean = lines.iter().sum::<u64>() as f64 / lines.len() as f64;
    assert!((s["mean_lines"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert_eq!(s["min_lines"].as_u64(), lines.iter().min().copied());
    assert_eq!(s["max_lines"].as_u64(), lines.iter().max().copied());
    assert!(s["ci95_low"].as_f64().unwrap() <= mean && mean <= s["ci95_high"].as_f64().unwrap());
    assert_eq!(one["config"]["model"], "standard");
}

#[test]
fn bench_line_cap_is_reported() {
    let out = playfield(&[
        "standard",
        "bench",
        "--games",
        "2",
        "--max-lines",
        "5",
        "--json",
    ]);
    let v = json(&out);
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["capped"], true);
        assert!(g["lines"].as_u64().unwrap() >= 5);
    }
    assert_eq!(v["summary"]["capped_games"], 2);
    let text = playfield(&["standard", "bench", "--games", "2", "--max-lines", "5"]);
    assert!(
        String::from_utf8(text.stdout)
            .unwrap()
            .contains("stopped at the cap of 5 lines")
    );
}

#[test]
fn bench_pieces_file_and_sz_sequence_end_games() {
    let f = temp_file("seq.txt", "I I\nI I\n");
    let v = json(&playfield(&[
        "standard",
        "bench",
        "--games",
        "1",
        "--json",
        "--pieces",
        f.to_str().unwrap(),
    ]));
    assert_eq!(v["games"][0]["pieces"], 4);
    assert_eq!(v["games"][0]["ended"], "sequence-ended");
    let v = json(&playfield(&[
        "standard", "bench", "--games", "2", "--sz", "--json",
    ]));
    assert_eq!(v["games"][0]["ended"], "spawn-blocked");
    assert_eq!(v["config"]["sequence"], "alternating-sz");
}

#[test]
fn end_rule_is_reported_and_lets_games_run_longer() {
    let run = |rule: &str| {
        json(&playfield(&[
            "standard",
            "bench",
            "--games",
            "20",
            "--height",
            "8",
            "--model",
            "simplified",
            "--end-rule",
            rule,
            "--json",
        ]))
    };
    let fahey = run("spawn-blocked");
    let research = run("no-placement");
    assert_eq!(research["config"]["end_rule"], "no-placement");
    assert_eq!(research["games"][0]["ended"], "no-placement");
    assert_eq!(fahey["games"][0]["ended"], "spawn-blocked");
    let mean = |v: &serde_json::Value| v["summary"]["mean_lines"].as_f64().unwrap();
    assert!(mean(&research) > mean(&fahey));
}

#[test]
fn bad_input_is_an_error_with_a_location() {
    let f = temp_file("bad.txt", "OIS\nZ Q\n");
    let out = playfield(&["standard", "bench", "--pieces", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.txt:2:3"), "{err}");
    assert!(err.contains("'Q'"), "{err}");

    // A name that is not an AI's: a usage error, as clap's own are.
    let out = playfield(&["standard", "bench", "--ai", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("unknown AI")
    );

    // Out of range: a usage error, with the real range.
    let out = playfield(&["standard", "bench", "--height", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("must be a whole number from 4 to 32")
    );

    let out = playfield(&["standard", "bench", "--lookahead", "3"]);
    assert_eq!(out.status.code(), Some(2)); // clap usage error

    // The research end rule needs the simplified model.
    let out = playfield(&["standard", "bench", "--end-rule", "no-placement"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("needs --model simplified")
    );

    let out = playfield(&["standard", "bench", "--pieces", "/nonexistent/seq.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("/nonexistent/seq.txt")
    );
}

#[test]
fn plot_writes_an_svg() {
    let dir = std::env::temp_dir().join(format!("playfield-standard-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("h.svg");
    let out = playfield(&[
        "standard",
        "bench",
        "--games",
        "6",
        "--height",
        "8",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
    assert!(s.contains("mean "));
}

#[test]
fn watch_and_play_refuse_without_a_terminal() {
    for cmd in ["watch", "play"] {
        let out = playfield(&["standard", cmd]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8(out.stderr)
                .unwrap()
                .contains("needs a terminal")
        );
    }
}
