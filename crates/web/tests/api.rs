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
    // A level that is not a byte, or a body that is not JSON: axum's 4xx with its reason.
    let (status, body) = post_json(
        &addr,
        "/api/analyse",
        request(&empty, "T", json!(300), "X."),
    );
    assert!((400..500).contains(&status), "{status} {body}");
    assert!(body.as_str().is_some_and(|s| s.contains("level")), "{body}");

    // Watch settings are checked before any game starts.
    let a = agent();
    let mut r = a
        .get(&format!("http://{addr}/api/watch/check?level=25"))
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.body_mut().read_json().unwrap();
    assert!(body["error"].as_str().unwrap().contains("level 25"));
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
