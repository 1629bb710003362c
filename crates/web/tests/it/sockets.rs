//! The WebSockets without a browser: frames arrive, controls act, closed connections free their
//! games.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

fn server() -> playfield_web::Background {
    playfield_web::start_background(&playfield_web::ServeConfig {
        port: 0,
        ..Default::default()
    })
    .unwrap()
}

async fn next_json(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> serde_json::Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a message within 30 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// Runs the client side on its own runtime (the server has its own).
fn client<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

#[test]
fn standard_socket_plays_and_frees_its_game() {
    let server = server();
    client(standard_game(server));
}

async fn standard_game(server: playfield_web::Background) {
    let url = format!(
        "ws://{}/ws/standard?mode=watch&ai=dellacherie&seed=1&level=1&speed=256",
        server.addr
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = next_json(&mut ws).await;
    assert_eq!(first["width"], 10);
    let mut lines = 0;
    for _ in 0..2000 {
        let m = next_json(&mut ws).await;
        lines = m["lines"].as_u64().unwrap();
        if lines >= 3 {
            break;
        }
    }
    assert!(lines >= 3, "the AI cleared {lines} lines");
    ws.send(Message::Text(r#"{"pause": true}"#.into()))
        .await
        .unwrap();
    ws.close(None).await.unwrap();
    drop(ws);
    let counters = server.state.counters.clone();
    for _ in 0..100 {
        if counters
            .standard_games
            .load(std::sync::atomic::Ordering::SeqCst)
            == 0
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the closed connection's game is still running");
}

#[test]
fn watch_socket_pauses_steps_and_frees_its_game() {
    let server = server();
    client(watch_game(server));
}

fn json_level(m: &serde_json::Value) -> u64 {
    m["frame"]["level"].as_u64().unwrap_or(0)
}

async fn watch_game(server: playfield_web::Background) {
    let url = format!("ws://{}/ws/watch?level=19&seed=2&speed=4", server.addr);
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = next_json(&mut ws).await;
    assert_eq!(first["frame"]["mode"], "play");
    // The game's variables are set up during the first frames of play.
    let mut level = json_level(&first);
    for _ in 0..1000 {
        if level == 19 {
            break;
        }
        level = json_level(&next_json(&mut ws).await);
    }
    assert_eq!(level, 19);
    ws.send(Message::Text(r#"{"pause": true}"#.into()))
        .await
        .unwrap();
    let mut paused_at = 0;
    for _ in 0..1000 {
        let m = next_json(&mut ws).await;
        if m["paused"] == true {
            paused_at = m["frame"]["frame"].as_u64().unwrap();
            break;
        }
    }
    assert!(paused_at > 0, "the game paused");
    ws.send(Message::Text(r#"{"step": 3}"#.into()))
        .await
        .unwrap();
    let stepped = next_json(&mut ws).await;
    assert_eq!(stepped["frame"]["frame"].as_u64(), Some(paused_at + 3));
    assert_eq!(stepped["frame"]["level"], 19);
    // A message the server does not understand gets an error, and the connection stays up.
    ws.send(Message::Text("nonsense".into())).await.unwrap();
    let error = next_json(&mut ws).await;
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("bad control message")),
        "{error}"
    );
    // So does a speed out of range, which the game would otherwise pass over.
    for speed in ["-1", "0", "4000"] {
        ws.send(Message::Text(format!(r#"{{"speed": {speed}}}"#).into()))
            .await
            .unwrap();
        let error = next_json(&mut ws).await;
        assert!(
            error["error"]
                .as_str()
                .is_some_and(|e| e.contains("bad control message") && e.contains("speed")),
            "{speed}: {error}"
        );
    }
    ws.send(Message::Text(r#"{"step": 1}"#.into()))
        .await
        .unwrap();
    let after = next_json(&mut ws).await;
    assert_eq!(after["frame"]["frame"].as_u64(), Some(paused_at + 4));
    assert_eq!(
        server
            .state
            .counters
            .watch_games
            .load(std::sync::atomic::Ordering::SeqCst),
        1
    );
    ws.close(None).await.unwrap();
    drop(ws);
    for _ in 0..200 {
        if server
            .state
            .counters
            .watch_games
            .load(std::sync::atomic::Ordering::SeqCst)
            == 0
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the closed connection's game is still running");
}

/// Sends `bad` and checks that an error answers it; frames keep coming, so the answer is
/// looked for among the next messages.
async fn assert_answered(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    bad: &str,
) {
    ws.send(Message::Text(bad.into())).await.unwrap();
    for _ in 0..500 {
        let m = next_json(ws).await;
        if let Some(e) = m["error"].as_str() {
            assert!(e.contains("bad control message"), "{bad}: {e}");
            return;
        }
    }
    panic!("{bad}: no error answered");
}

#[test]
fn play_socket_answers_a_bad_control_message() {
    let server = server();
    client(async move {
        let url = format!("ws://{}/ws/play?level=0&seed=1", server.addr);
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        for bad in [
            r#"{"buttons": 999999}"#,
            r#"{"buttons": -1}"#,
            r#"{"buttons": "x"}"#,
            r#"{"ghost": "x"}"#,
            "garbage",
        ] {
            assert_answered(&mut ws, bad).await;
        }
        ws.close(None).await.unwrap();
    });
}

#[test]
fn standard_socket_answers_a_bad_control_message() {
    let server = server();
    client(async move {
        let url = format!(
            "ws://{}/ws/standard?mode=play&ai=dellacherie&seed=1&level=1&speed=1",
            server.addr
        );
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        for bad in [
            r#""jump""#,
            r#"{"speed": 0}"#,
            r#"{"speed": 5000}"#,
            r#"{"pause": "x"}"#,
            "garbage",
        ] {
            assert_answered(&mut ws, bad).await;
        }
        // A good control still plays: the piece moves.
        ws.send(Message::Text(r#""left""#.into())).await.unwrap();
        let m = next_json(&mut ws).await;
        assert!(m.get("error").is_none(), "{m}");
        ws.close(None).await.unwrap();
    });
}
