//! Arbitrary bytes fed to every parser playfield reads files or text with: movies (.fm2), piece
//! sequences, Standard boards, Minijong boards, ROM images (the demo tables), the score player's
//! weights files, and the AI and
//! move-model names (trace lines, which only tests read, are fuzzed in `playfield-testkit`). None
//! may panic; what they accept must make sense. The number of cases is proptest's default (256)
//! or `PROPTEST_CASES`; `.ci/run` runs a longer, time-bounded round of these as its fuzzing step.

use std::process::Command;

use playfield_ai::nes::ScoreWeights;
use playfield_ai::nes::score::{TERM_NAMES, term_problem};
use playfield_ai::standard::{Evaluator, MoveModel};
use playfield_nes::DemoData;
use playfield_nes::fm2::Movie;
use playfield_standard::{FULL_ROW, MAX_HEIGHT, MIN_HEIGHT, parse_pieces};
use proptest::prelude::*;

/// Text that is mostly an .fm2 (a real header, then lines that look like input lines), so the
/// later stages of the parser are reached.
fn fm2_like() -> impl Strategy<Value = String> {
    let header = Movie::new([]).to_fm2();
    let line = prop_oneof![
        "\\|[0-9]{0,3}\\|[.RLDUTSBA ]{6,10}\\|[.RLDUTSBA]{0,9}\\|[.a-z]{0,2}\\|[ -~]{0,3}",
        "[a-zA-Z]{1,12} [ -~]{0,20}",
        "[|.RLDUTSBA 0-9\r]{0,24}",
        any::<String>(),
    ];
    prop::collection::vec(line, 0..12)
        .prop_map(move |lines| format!("{header}{}", lines.join("\n")))
}

proptest! {
    #[test]
    fn movies_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(movie) = Movie::parse(&text) {
            let _ = movie.check_tetris();
            // What was accepted writes back to a movie that reads the same.
            let again = Movie::parse(&movie.to_fm2()).expect("written movie reads back");
            prop_assert_eq!(again.lines, movie.lines);
        }
    }

    #[test]
    fn movies_never_panic_on_near_movies(text in fm2_like()) {
        match Movie::parse(&text) {
            Ok(movie) => {
                prop_assert!(movie.check_tetris().is_ok());
                let again = Movie::parse(&movie.to_fm2()).expect("written movie reads back");
                prop_assert_eq!(again.lines, movie.lines);
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= text.split('\n').count()),
        }
    }

    #[test]
    fn piece_files_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(pieces) = parse_pieces(&text, "f") {
            let letters = text.chars().filter(|c| !c.is_whitespace()).count();
            prop_assert_eq!(pieces.len(), letters);
        }
    }

    #[test]
    fn standard_boards_never_panic(height in 0usize..80, rows in prop::collection::vec(any::<u16>(), 0..80)) {
        let ok = playfield_standard::Board::from_rows(height, &rows).is_ok();
        let valid = (MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
            && rows.len() <= height
            && rows.iter().all(|&r| r & !FULL_ROW == 0);
        prop_assert_eq!(ok, valid);
    }

    #[test]
    fn minijong_boards_never_panic(faces in prop::collection::vec(any::<u8>(), 0..100)) {
        let _ = playfield_minijong::Board::from_faces(&faces);
    }

    #[test]
    fn rom_images_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..50_000)) {
        let _ = DemoData::from_ines(&bytes);
    }

    #[test]
    fn weights_files_never_panic_and_what_they_accept_is_in_range(
        term in 0..TERM_NAMES.len(),
        value in prop_oneof![
            any::<f64>().prop_map(|v| format!("{v:?}")),
            "-?[0-9]{1,6}(\\.[0-9]{0,3})?(e[+-]?[0-9]{1,3})?",
            "\"[a-z0-9]{0,4}\"",
            Just("null".to_owned()),
            "[\\[\\]{}:,0-9.e\" ]{0,12}",
        ],
        repeated in proptest::option::of(0..TERM_NAMES.len()),
    ) {
        // The shipped terms, one of them given `value` as written, and maybe one key twice.
        let shipped = ScoreWeights::shipped();
        let mut parts: Vec<String> = shipped
            .terms()
            .iter()
            .map(|(name, v)| format!("\"{name}\":{v:?}"))
            .collect();
        parts[term] = format!("\"{}\":{value}", TERM_NAMES[term]);
        if let Some(again) = repeated {
            parts.push(format!("\"{}\":1", TERM_NAMES[again]));
        }
        let text = format!("{{{}}}", parts.join(","));
        if let Ok(w) = ScoreWeights::parse(&text) {
            prop_assert!(repeated.is_none(), "a key given twice was accepted: {text}");
            for (name, v) in w.terms() {
                prop_assert!(term_problem(name, v).is_none(), "{name} {v} accepted");
            }
            let again = ScoreWeights::parse(&serde_json::to_string(&w).unwrap()).unwrap();
            prop_assert_eq!(again, w);
        }
    }

    #[test]
    fn player_names_never_panic(text in any::<String>()) {
        let _ = text.parse::<Evaluator>();
        let _ = text.parse::<MoveModel>();
    }
}

proptest! {
    // Each case starts the binary: fewer of them.
    #![proptest_config(ProptestConfig {
        cases: ProptestConfig::default().cases.min(48),
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_binary_answers_every_movie_and_piece_file(
        movie in prop_oneof![fm2_like(), any::<String>()],
        pieces in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let movie_path = dir.path().join("m.fm2");
        std::fs::write(&movie_path, &movie).unwrap();
        let pieces_path = dir.path().join("p.txt");
        std::fs::write(&pieces_path, &pieces).unwrap();
        for args in [
            vec!["nes", "replay", movie_path.to_str().unwrap()],
            vec![
                "standard", "bench", "--games", "1", "--height", "6", "--pieces",
                pieces_path.to_str().unwrap(),
            ],
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_playfield"))
                .args(&args)
                .env_remove("PLAYFIELD_ROM")
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            // 0 = accepted, 1 = a clear error; a panic would be 101.
            prop_assert!(matches!(out.status.code(), Some(0 | 1)), "{:?}: {}", args, err);
            prop_assert!(!err.contains("panicked"), "{}", err);
            if out.status.code() == Some(1) {
                prop_assert!(err.starts_with("error: "), "{}", err);
            }
        }
    }
}
