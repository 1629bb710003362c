//! Load: 200 watch connections at once on 127.0.0.1 for a bounded time. Every connection must
//! get frames, the process's memory must stay bounded, and closing the connections must free
//! every game. Prints the figures the README quotes (run it with `--nocapture`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::Message;

/// Connections opened together.
const CONNECTIONS: usize = 200;
/// How long every connection watches.
const WATCH: Duration = Duration::from_secs(20);
/// The ceiling on the whole test process's peak resident memory (server, 200 games and the 200
/// clients): far above what a working server needs, far below what leaking games would take.
const PEAK_MEMORY_LIMIT_KIB: u64 = 1_500_000;

/// A field of /proc/self/status in KiB (VmRSS = now, VmHWM = peak), when the system has it.
fn memory_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn two_hundred_watch_connections_get_frames_and_free_their_games() {
    let _turn = crate::heavy_test_lock();
    let server = playfield_web::start_background(&playfield_web::ServeConfig {
        port: 0,
        ..Default::default()
    })
    .unwrap();
    let rss_before = memory_kib("VmRSS:");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let addr = server.addr;
    let counters = server.state.counters.clone();
    let peak_games = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let frames: Vec<u64> = runtime.block_on(async {
        let done = Arc::new(AtomicBool::new(false));
        // Sample the number of live games while the clients watch.
        let sampler = {
            let (done, counters, peak_games) = (done.clone(), counters.clone(), peak_games.clone());
            tokio::spawn(async move {
                while !done.load(Ordering::SeqCst) {
                    let live = counters.watch_games.load(Ordering::SeqCst) as u64;
                    peak_games.fetch_max(live, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        };
        let clients: Vec<_> = (0..CONNECTIONS)
            .map(|i| {
                tokio::spawn(async move {
                    let url = format!("ws://{addr}/ws/watch?level=18&seed={i}");
                    let (mut ws, _) = tokio_tungstenite::connect_async(&url)
                        .await
                        .unwrap_or_else(|e| panic!("connection {i}: {e}"));
                    let mut frames = 0u64;
                    let until = tokio::time::Instant::now() + WATCH;
                    while let Ok(Some(message)) = tokio::time::timeout_at(until, ws.next()).await {
                        if let Message::Text(_) = message.unwrap() {
                            frames += 1;
                        }
                    }
                    let _ = ws.close(None).await;
                    frames
                })
            })
            .collect();
        let mut frames = Vec::new();
        for c in clients {
            frames.push(c.await.unwrap());
        }
        done.store(true, Ordering::SeqCst);
        sampler.await.unwrap();
        frames
    });
    let elapsed = started.elapsed();
    let peak = memory_kib("VmHWM:");
    let total: u64 = frames.iter().sum();
    let least = frames.iter().copied().min().unwrap_or(0);
    println!(
        "load: {CONNECTIONS} watch connections for {} s: {total} frames delivered \
         ({:.0} frames/s in all, {:.1} per connection per second; least {least} frames on one \
         connection); {} games live at the peak; process memory {} KiB before, peak {} KiB",
        WATCH.as_secs(),
        total as f64 / elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64() / CONNECTIONS as f64,
        peak_games.load(Ordering::SeqCst),
        rss_before.map_or("?".to_owned(), |k| k.to_string()),
        peak.map_or("?".to_owned(), |k| k.to_string()),
    );
    assert!(
        frames.iter().all(|&f| f >= 10),
        "every connection gets frames: {frames:?}"
    );
    assert_eq!(
        peak_games.load(Ordering::SeqCst),
        CONNECTIONS as u64,
        "one game per connection"
    );
    if let Some(peak) = peak {
        assert!(
            peak < PEAK_MEMORY_LIMIT_KIB,
            "peak memory {peak} KiB exceeds {PEAK_MEMORY_LIMIT_KIB} KiB"
        );
    }
    // Closed connections free their games.
    let freed = Instant::now();
    while counters.watch_games.load(Ordering::SeqCst) > 0 {
        assert!(
            freed.elapsed() < Duration::from_secs(30),
            "{} games still live 30 s after their connections closed",
            counters.watch_games.load(Ordering::SeqCst)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    println!(
        "load: all games freed {:.2} s after the last connection closed",
        freed.elapsed().as_secs_f64()
    );
}
