//! The HTTP API's answers to bad input (a 4xx with a message, never a panic or a dropped
//! connection) and the file boundary (only the bundled page is served).

use std::io::{Read, Write};
use std::net::TcpStream;

use playfield_nes::fm2::Movie;
use serde_json::{Value, json};

fn server() -> String {
    let bg = playfield_web::start_background(&playfield_web::ServeConfig {
        port: 0,
        ..Default::default()
    })
    .unwrap();
    bg.addr.to_string()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// Sends `path` byte for byte (no client-side normalisation of `..`), returns status and body.
fn raw_get(addr: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, out)
}

fn post_json(addr: &str, path: &str, body: Value) -> (u16, Value) {
    let mut r = agent()
        .post(&format!("http://{addr}{path}"))
        .send_json(body)
        .unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

#[test]
fn only_bundled_files_are_served() {
    let addr = server();
    let (status, body) = raw_get(&addr, "/");
    assert_eq!(status, 200);
    assert!(body.contains("<title>playfield</title>"));
    let (status, body) = raw_get(&addr, "/assets/app.js");
    assert_eq!(status, 200);
    assert!(body.contains("text/javascript"));
    for path in [
        "/assets/../Cargo.toml",
        "/assets/../../Cargo.toml",
        "/assets/..%2fCargo.toml",
        "/assets/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/assets/..%2F..%2F..%2FCargo.toml",
        "/../../../etc/passwd",
        "/etc/passwd",
        "/src/lib.rs",
        "/assets/",
        "/assets/%2fetc%2fpasswd",
        "/Cargo.toml",
    ] {
        let (status, body) = raw_get(&addr, path);
        assert!(status == 404 || status == 400, "{path}: status {status}");
        assert!(
            !body.contains("[package]") && !body.contains("root:"),
            "{path} leaked a file"
        );
    }
}

#[test]
fn replay_uploads_are_limited_and_parsed_with_the_cli_messages() {
    let addr = server();
    let a = agent();
    // Over 16 MiB: refused.
    let big = vec![b'|'; playfield_web::MAX_UPLOAD_BYTES + 1];
    let r = a
        .post(&format!("http://{addr}/api/replay?name=big.fm2"))
        .send(&big[..])
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let body: Value = r.into_body().read_json().unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("too large"),
        "{body}"
    );
    // Not a movie: the parser's message, prefixed as `playfield nes replay` prints it.
    let text = "version 3\n|0|....x...|||\n";
    let expected = format!("in bad.fm2: {}", Movie::parse(text).unwrap_err());
    let mut r = a
        .post(&format!("http://{addr}/api/replay?name=bad.fm2"))
        .send(text)
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.body_mut().read_json().unwrap();
    assert_eq!(body["error"], json!(expected));
    // A movie of another game: refused as `playfield nes replay` refuses it.
    let other = Movie::new(std::iter::repeat_n(playfield_nes::Buttons::NONE, 10))
        .to_fm2()
        .replace(
            playfield_nes::fm2::TETRIS_ROM_CHECKSUM,
            "base64:jjYwGG411HcjG/j9UOVM3Q==",
        );
    let mut r = a
        .post(&format!("http://{addr}/api/replay?name=smb.fm2"))
        .send(other)
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.body_mut().read_json().unwrap();
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("recorded for another game")),
        "{body}"
    );
    // Not text.
    let r = a
        .post(&format!("http://{addr}/api/replay?name=x.fm2"))
        .send(&[0xFFu8, 0xFE, 0x00][..])
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    // A good movie, then frames past its end and unknown movies.
    let movie = Movie::new(std::iter::repeat_n(playfield_nes::Buttons::NONE, 100));
    let mut r = a
        .post(&format!("http://{addr}/api/replay?name=empty.fm2"))
        .send(movie.to_fm2())
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let summary: Value = r.body_mut().read_json().unwrap();
    assert_eq!(summary["frames"], 100);
    let id = summary["id"].as_u64().unwrap();
    let get = |path: &str| {
        a.get(&format!("http://{addr}{path}"))
            .call()
            .unwrap()
            .status()
            .as_u16()
    };
    assert_eq!(get(&format!("/api/replay/{id}/frame/100")), 200);
    assert_eq!(get(&format!("/api/replay/{id}/frame/101")), 400);
    assert_eq!(get("/api/replay/999/frame/0"), 404);
    assert_eq!(get("/api/replay/abc/frame/0"), 400);
    // Every answer under /api/ is JSON {error}, even a refused path or an unknown endpoint.
    for path in ["/api/replay/abc/frame/0", "/api/nothing-here"] {
        let mut r = a.get(&format!("http://{addr}{path}")).call().unwrap();
        let body: Value = r.body_mut().read_json().unwrap();
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}: {body}"
        );
    }
}

#[test]
fn every_error_the_router_answers_is_json() {
    let addr = server();
    let a = agent();
    for (method, path, status) in [
        ("POST", "/api/info", 405),
        ("DELETE", "/api/players", 405),
        ("GET", "/api/analyse", 405),
        ("GET", "/ws/watch", 400),
        ("GET", "/no-such-page", 404),
    ] {
        let mut r = match method {
            "POST" => a.post(&format!("http://{addr}{path}")).send_empty(),
            "DELETE" => a.delete(&format!("http://{addr}{path}")).call(),
            _ => a.get(&format!("http://{addr}{path}")).call(),
        }
        .unwrap();
        assert_eq!(r.status().as_u16(), status, "{method} {path}");
        let text = r.body_mut().read_to_string().unwrap();
        let body: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:?}"));
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{method} {path}: {body}"
        );
    }
}

#[test]
fn bad_boards_pieces_and_levels_get_a_4xx_with_a_message() {
    let addr = server();
    let empty = ".........."
        .repeat(20)
        .as_bytes()
        .chunks(10)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let request = |board: &str, piece: &str, level: Value, input: &str| {
        json!({ "board": board, "piece": piece, "next": null, "level": level,
                "input": input, "das": true })
    };
    let (status, body) = post_json(&addr, "/api/analyse", request(&empty, "T", json!(18), "X."));
    assert_eq!(status, 200, "{body}");
    assert!(!body["placements"].as_array().unwrap().is_empty());

    let mut bad_cell = empty.clone();
    // Rows are 11 bytes with their newline: byte 25 is row 3, column 4.
    bad_cell.replace_range(25..26, "?");
    for (req, needle) in [
        (request(&bad_cell, "T", json!(18), "X."), "row 3, column 4"),
        (request("..........\n", "T", json!(18), "X."), "has 1 rows"),
        (
            request(&empty, "Q", json!(18), "X."),
            "\"Q\" is not a piece",
        ),
        (request(&empty, "T", json!(18), "Y"), "timeline"),
    ] {
        let (status, body) = post_json(&addr, "/api/analyse", req);
        assert_eq!(status, 400, "{body}");
        let message = body["error"].as_str().unwrap_or_default().to_owned();
        assert!(
            message.contains(needle),
            "{message:?} should mention {needle:?}"
        );
    }
    // A level that is not a byte: the field and its range, in words.
    let (status, body) = post_json(
        &addr,
        "/api/analyse",
        request(&empty, "T", json!(300), "X."),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["field"], "level");
    assert_eq!(
        body["error"],
        "Level must be a whole number from 0 to 255, not 300"
    );
    // A body that is not JSON.
    let r = agent()
        .post(&format!("http://{addr}/api/analyse"))
        .send("{level: 18")
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);

    // Watch settings are checked before any game starts.
    let a = agent();
    let mut r = a
        .get(&format!("http://{addr}/api/watch/check?level=25"))
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.body_mut().read_json().unwrap();
    assert_eq!(body["field"], "level");
    assert!(
        body["error"].as_str().unwrap().contains("0 to 19"),
        "{body}"
    );
    let r = a
        .get(&format!("http://{addr}/api/standard/check?level=11"))
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);

    // Minijong: an illegal pair says why; a position off the grid too.
    let (status, body) = post_json(
        &addr,
        "/api/minijong/state",
        json!({ "seed": 7, "moves": [[0, 0]] }),
    );
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("same tile"));
    let (status, _) = post_json(
        &addr,
        "/api/minijong/state",
        json!({ "seed": 7, "moves": [[0, 99]] }),
    );
    assert_eq!(status, 400);
    // And the server is still there.
    let (status, _) = post_json(&addr, "/api/minijong/state", json!({ "seed": 7 }));
    assert_eq!(status, 200);
}

/// Each setting of each view, refused with the field named and its range in words.
#[test]
fn every_bad_field_is_named_with_its_range() {
    let addr = server();
    let a = agent();
    let check = |path: &str, field: &str, needle: &str| {
        let mut r = a.get(&format!("http://{addr}{path}")).call().unwrap();
        assert_eq!(r.status().as_u16(), 400, "{path}");
        let body: Value = r.body_mut().read_json().unwrap();
        assert_eq!(body["field"], field, "{path}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains(needle),
            "{path}: {message:?} should say {needle:?}"
        );
    };
    check(
        "/api/watch/check?level=",
        "level",
        "Start level must be a whole number from 0 to 19, not empty",
    );
    check(
        "/api/watch/check?level=-3",
        "level",
        "from 0 to 19, not \"-3\"",
    );
    check(
        "/api/watch/check?seed=99999999999999999999999",
        "seed",
        "Seed must be a whole number from 0 up",
    );
    check(
        "/api/watch/check?reaction=-1",
        "reaction",
        "Reaction time (frames) must be a whole number from 0 to 255",
    );
    check("/api/watch/check?input=Y", "input", "X. (30 Hz)");
    check(
        "/api/watch/check?player=nobody",
        "player",
        "the players are score, birken",
    );
    check(
        "/api/watch/check?speed=0",
        "speed",
        "Speed must be a number",
    );
    check(
        "/api/standard/check?level=0",
        "level",
        "Level must be a whole number from 1 to 10",
    );
    check(
        "/api/standard/check?seed=x",
        "seed",
        "Seed must be a whole number from 0 up, not \"x\"",
    );
    check("/api/standard/check?ai=nobody", "ai", "nobody");
    let (status, body) = post_json(&addr, "/api/minijong/state", json!({ "seed": -1 }));
    assert_eq!(
        (status, body["field"].clone()),
        (400, json!("seed")),
        "{body}"
    );
    let (status, body) = post_json(
        &addr,
        "/api/minijong/state",
        json!({ "seed": 7, "moves": [[0, 0]] }),
    );
    assert_eq!(
        (status, body["field"].clone()),
        (400, json!("moves")),
        "{body}"
    );
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("pair 1: these two tiles cannot be removed"),
        "{body}"
    );
}

/// A movie's last input line is not its result: the game runs on with no input until it ends,
/// so the published results of the public TAS movies show.
#[test]
fn replays_run_past_the_last_input_to_the_result() {
    let addr = server();
    let a = agent();
    let movies = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../nes/tests/movies");
    let upload = |file: &str| -> Value {
        let text = std::fs::read_to_string(movies.join(file)).unwrap();
        let mut r = a
            .post(&format!("http://{addr}/api/replay?name=m.fm2"))
            .send(text)
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        r.body_mut().read_json().unwrap()
    };
    let tas = upload("a_type_999999_score/tasvideos_4853m.fm2");
    assert_eq!(tas["score"], 999_999, "{}", tas["ending"]);
    assert!(tas["frames"].as_u64() > tas["input_frames"].as_u64());
    let b_type = upload("b_type_clear/tasvideos_925m.fm2");
    assert_eq!(b_type["lines"], 0, "{}", b_type["ending"]);
    // The decoded state of the last frame says the same, in numbers.
    let id = tas["id"].as_u64().unwrap();
    let frames = tas["frames"].as_u64().unwrap();
    let mut r = a
        .get(&format!("http://{addr}/api/replay/{id}/frame/{frames}"))
        .call()
        .unwrap();
    let frame: Value = r.body_mut().read_json().unwrap();
    assert_eq!(frame["state"]["score"], 999_999);
    assert_eq!(frame["past_input"], true);
}

/// Each player ranks: every placement with a value that is the sum of its terms, and the best
/// follow-up for the preview.
#[test]
fn analyse_ranks_with_the_chosen_player_term_by_term() {
    let addr = server();
    let mut rows = vec![".........."; 16];
    rows.extend(["#########.", "#########.", "#########.", "#########."]);
    for player in ["score", "birken"] {
        let (status, body) = post_json(
            &addr,
            "/api/analyse",
            json!({ "board": rows.join("\n"), "piece": "T", "next": "I", "level": 18,
                    "input": "X.", "das": true, "player": player }),
        );
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["player"], player);
        let placements = body["placements"].as_array().unwrap();
        assert!(
            placements.len() > 10,
            "{player}: {} placements",
            placements.len()
        );
        for p in placements {
            let terms = p["terms"].as_array().unwrap();
            assert!(!terms.is_empty(), "{player}: terms");
            let sum: f64 = terms.iter().map(|t| t["value"].as_f64().unwrap()).sum();
            let value = p["value"].as_f64().unwrap();
            assert!(
                (sum - value).abs() < 1e-6 * value.abs().max(1.0),
                "{player}: {sum} vs {value}"
            );
        }
        assert!(
            body["follow_up"]["rotation"]
                .as_str()
                .unwrap()
                .starts_with('I')
        );
    }
}

fn get_json(addr: &str, path: &str) -> (u16, Value) {
    let mut r = agent().get(&format!("http://{addr}{path}")).call().unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap())
}

#[test]
fn without_a_rom_the_server_says_lag_and_crashes_are_not_modelled() {
    let addr = server();
    let (status, info) = get_json(&addr, "/api/info");
    assert_eq!(status, 200);
    assert_eq!(info["lag_modelled"], json!(false), "{info}");
    assert_eq!(
        info["note"],
        json!("lag and crashes not modelled (no ROM given to playfield serve)")
    );
    // The views' note comes only once the game reaches level 100.
    let nes = playfield_nes::Nes::power_on();
    assert_eq!(playfield_web::lag_note(&nes, 99), None);
    assert_eq!(
        playfield_web::lag_note(&nes, 100).as_deref(),
        Some("lag and crashes not modelled (no ROM given to playfield serve)")
    );
}

#[test]
fn with_the_rom_every_engine_models_lag_and_crashes() {
    let Some(rom) = playfield_rom::rom_for_tests() else {
        return;
    };
    let engine_data = playfield_rom::EngineData::from_rom(&rom).unwrap();
    let bg = playfield_web::start_background(&playfield_web::ServeConfig {
        port: 0,
        rom: Some(engine_data.clone()),
        ..Default::default()
    })
    .unwrap();
    let addr = bg.addr.to_string();
    let (status, info) = get_json(&addr, "/api/info");
    assert_eq!(status, 200);
    assert_eq!(info["lag_modelled"], json!(true), "{info}");
    assert_eq!(info["note"], Value::Null);
    let nes = bg.state.power_on();
    assert!(nes.lag_modelled());
    assert_eq!(playfield_web::lag_note(&nes, 255), None);
    let replay = playfield_web::replay::Replay::new(
        "idle.fm2",
        &Movie::new(std::iter::repeat_n(playfield_nes::Buttons::NONE, 60)).to_fm2(),
        Some(&engine_data),
    )
    .unwrap();
    assert!(replay.state_at(30).lag_modelled());
    assert_eq!(replay.lag_note, None);
}
