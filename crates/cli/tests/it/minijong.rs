//! `playfield minijong ...` run as the built binary: exit codes, JSON shape, errors.

use std::process::{Command, Output, Stdio};

fn playfield(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playfield"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn solve_json_has_the_documented_shape() {
    let v = json(&playfield(&["minijong", "solve", "--seed", "3", "--json"]));
    let obj = v.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["board", "seed", "solution", "winnable"]);
    assert_eq!(v["seed"], 3);
    let board = v["board"].as_array().unwrap();
    let sides: Vec<usize> = board.iter().map(|l| l.as_array().unwrap().len()).collect();
    assert_eq!(sides, [7, 5, 3]);
    let mut tiles = 0;
    for (l, level) in board.iter().enumerate() {
        for row in level.as_array().unwrap() {
            let row = row.as_array().unwrap();
            assert_eq!(row.len(), 7 - 2 * l);
            for f in row {
                let f = f.as_u64().expect("a full deal has a face everywhere");
                assert!((1..=21).contains(&f));
                tiles += 1;
            }
        }
    }
    assert_eq!(tiles, 83);
    let solution = v["solution"].as_array().unwrap();
    if v["winnable"].as_bool().unwrap() {
        assert_eq!(solution.len(), 41);
    }
    // Every pair is two [level,row,col] of the same face, each slot used once.
    let mut used = std::collections::HashSet::new();
    for pair in solution {
        let pair = pair.as_array().unwrap();
        assert_eq!(pair.len(), 2);
        let mut face = |s: &serde_json::Value| {
            let s: Vec<usize> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect();
            assert_eq!(s.len(), 3);
            assert!(used.insert(s.clone()), "slot {s:?} used twice");
            board[s[0]][s[1]][s[2]].as_u64().unwrap()
        };
        let (a, b) = (face(&pair[0]), face(&pair[1]));
        assert_eq!(a, b);
    }
}

#[test]
fn solve_is_reproducible_and_text_mode_works() {
    let a = playfield(&["minijong", "solve", "--seed", "42", "--json"]);
    let b = playfield(&["minijong", "solve", "--seed", "42", "--json"]);
    assert_eq!(a.stdout, b.stdout);
    let text = playfield(&["minijong", "solve", "--seed", "42"]);
    assert!(text.status.success());
    let s = String::from_utf8(text.stdout).unwrap();
    assert!(
        s.contains("level 2 (3x3)") && s.contains("winnable:"),
        "{s}"
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in [
        &["minijong", "solve", "--seed", "abc"][..],
        &["minijong", "solve"],
        &["minijong", "solve", "--seed", "-1"],
        &["minijong", "stats", "--deals", "0"],
        &["minijong", "stats"],
        &["minijong", "bogus"],
    ] {
        let out = playfield(args);
        assert!(!out.status.success(), "{args:?} should fail");
        assert_eq!(out.status.code(), Some(2), "{args:?}: usage errors exit 2");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = playfield(&[
        "minijong",
        "stats",
        "--deals",
        "2",
        "--seed",
        "18446744073709551615",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("overflows"));
}

#[test]
fn solve_with_a_tiny_budget_is_a_clear_error() {
    // Deal 204 needs thousands of positions to decide.
    let out = playfield(&["minijong", "solve", "--seed", "204", "--max-nodes", "10"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not decided within --max-nodes 10"), "{err}");
}

#[test]
fn play_without_a_terminal_says_a_terminal_is_needed() {
    let out = playfield(&["minijong", "play", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn stats_json_is_the_same_for_any_thread_count() {
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_playfield"))
            .args([
                "minijong", "stats", "--deals", "40", "--seed", "500", "--json",
            ])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let mut v = json(&out);
        assert!(
            out.stderr.is_empty(),
            "no progress bar when stderr is not a terminal"
        );
        assert_eq!(
            v["threads"].as_u64().unwrap(),
            threads.parse::<u64>().unwrap()
        );
        let t = &v["time_ms"];
        assert!(t["median"].as_f64().unwrap() <= t["p99"].as_f64().unwrap());
        assert!(t["p99"].as_f64().unwrap() <= t["max"].as_f64().unwrap());
        let obj = v.as_object_mut().unwrap();
        obj.remove("time_ms");
        obj.remove("threads");
        v
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one, two);
    assert_eq!(one["deals"], 40);
    let decided = 40 - one["undecided"].as_u64().unwrap();
    let frac = one["fraction"].as_f64().unwrap();
    assert!((frac - one["winnable"].as_f64().unwrap() / decided as f64).abs() < 1e-12);
    let ci = one["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= frac && frac <= ci[1].as_f64().unwrap());
    let counted: u64 = one["tiles_left"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(counted, decided);
}

#[test]
fn stats_plot_writes_an_svg() {
    let dir = std::env::temp_dir().join(format!("playfield-minijong-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("times.svg");
    let out = playfield(&[
        "minijong",
        "stats",
        "--deals",
        "10",
        "--plot",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("10 deals"));
    let bad = playfield(&[
        "minijong",
        "stats",
        "--deals",
        "1",
        "--plot",
        "/nonexistent-dir/x.svg",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--plot /nonexistent-dir/x.svg"), "{err}");
    // Refused before any deal is solved: nothing on standard output.
    assert!(bad.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
