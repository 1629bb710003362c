//! The page in a real browser: headless Debian `chromium` driven through `chromedriver`
//! (WebDriver), against a server on 127.0.0.1 with a system-chosen port.
//!
//! Skipped with a notice when chromium or chromedriver is missing, unless
//! `PLAYFIELD_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs both). Screenshots of each
//! view go to the test's temporary directory, and to `docs/screenshots/` when
//! `PLAYFIELD_SCREENSHOTS=1`.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::webdriver::{Browser, browser_required, find_browser};
use playfield_ai::nes::{
    GameConfig, InputModel, PieceState, Player, Situation, Workspace, play_game,
};
use playfield_nes::Nes;
use playfield_nes::fm2::Movie;
use playfield_nes::tables::SPAWN_TABLE;
use serde_json::json;

struct Page {
    browser: Browser,
    base: String,
}

impl Page {
    fn open(&self, view: &str) {
        self.browser.goto(&format!("{}/#{view}", self.base));
        let view_name = view.to_owned();
        self.browser.wait_for(&format!("view {view}"), 20, |b| {
            b.run(
                "return document.getElementById('view').dataset.view;",
                json!([]),
            ) == json!(view_name)
        });
    }

    /// Fails on any console message of level SEVERE (errors, failed loads, uncaught exceptions).
    fn assert_no_console_errors(&self, view: &str) {
        self.assert_console_errors_only(view, None);
    }

    /// Like [`Page::assert_no_console_errors`], except Chromium's own notice of an expected 400
    /// answer from `endpoint` (a bad input refused on purpose).
    fn assert_console_errors_only(&self, view: &str, endpoint: Option<&str>) {
        let errors: Vec<_> = self
            .browser
            .console()
            .into_iter()
            .filter(|(level, message)| {
                level == "SEVERE"
                    && !endpoint.is_some_and(|e| {
                        message.contains(e) && message.contains("status of 400 (Bad Request)")
                    })
            })
            .collect();
        assert!(errors.is_empty(), "console errors in {view}: {errors:?}");
    }

    fn screenshot(&self, view: &str) {
        self.browser.run("window.scrollTo(0, 0);", json!([]));
        let png = self.browser.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{view}.png"));
        std::fs::write(&tmp, &png).unwrap();
        if std::env::var_os("PLAYFIELD_SCREENSHOTS").is_some_and(|v| v == "1") {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{view}.png")), &png).unwrap();
        }
    }

    /// The canvas's pixels as a data URL (to see whether it changed).
    fn canvas_pixels(&self, selector: &str) -> String {
        self.browser
            .run(
                "return document.querySelector(arguments[0]).toDataURL();",
                json!([selector]),
            )
            .as_str()
            .unwrap()
            .to_owned()
    }
}

fn start() -> Option<Page> {
    let (chromium, driver) = match find_browser() {
        Ok(found) => found,
        Err(why) => {
            assert!(!browser_required(), "PLAYFIELD_REQUIRE_BROWSER=1 but {why}");
            eprintln!("skipped: the browser tests need chromium and chromedriver: {why}");
            return None;
        }
    };
    let server = playfield_web::start_background(&playfield_web::ServeConfig {
        port: 0,
        ..Default::default()
    })
    .unwrap();
    let browser = Browser::start(&chromium, &driver);
    Some(Page {
        browser,
        base: format!("http://{}", server.addr),
    })
}

#[test]
fn every_view_works_in_chromium() {
    let Some(page) = start() else { return };
    watch_view(&page);
    replay_view(&page);
    analyse_view(&page);
    minijong_view(&page);
    standard_view(&page);
}

/// Replay: a movie of the AI's game (made here: no public movie is in the repository) ends with
/// the score `playfield nes replay` prints, which replays the movie on the engine from power-on.
/// A file that is not a movie shows the parser's message.
fn replay_view(page: &Page) {
    let config = GameConfig {
        max_frames: Some(5_000),
        stop_at_max_score: false,
        ..GameConfig::a_type(18, 11)
    };
    let player = Player::birken(InputModel::new("X.", true, 18).unwrap());
    let game = play_game(&config, &player, |_, _| Ok(()));
    let movie = Movie::new(game.input.iter().copied());
    // What `playfield nes replay` does: power on, step every input line, print the score.
    let mut nes = Nes::power_on();
    for line in &movie.lines {
        nes.step_line(line);
    }
    let expected = nes.raw().player.score_decimal();
    assert!(expected > 0, "the game scored");
    let dir = common::webdriver::TempDir::new("movie");
    let path = dir.0.join("ai-game.fm2");
    std::fs::write(&path, movie.to_fm2()).unwrap();
    let bad = dir.0.join("broken.fm2");
    std::fs::write(&bad, "version 3\n|0|........|||\n|0|..x..|||\n").unwrap();

    page.open("replay");
    let b = &page.browser;
    b.type_into("#replay-file", path.to_str().unwrap());
    b.wait_for("the movie", 30, |b| b.text("#replay-frames") != "0");
    assert_eq!(b.text("#replay-error"), "");
    let frames = b.text("#replay-frames");
    assert_eq!(frames, movie.lines.len().to_string());
    b.click("#replay-end");
    b.wait_for("the last frame", 20, |b| b.text("#replay-frame") == frames);
    assert_eq!(b.text("#replay-score"), expected.to_string());
    // The slider shows any frame with its traced state.
    b.run(
        "const s = document.getElementById('replay-slider'); s.value = 3000; \
         s.dispatchEvent(new Event('input'));",
        json!([]),
    );
    b.wait_for("frame 3000", 20, |b| b.text("#replay-frame") == "3000");
    assert!(b.text("#replay-trace").contains("\"frame\": 3000"));
    page.screenshot("replay");
    page.assert_no_console_errors("replay");
    b.type_into("#replay-file", bad.to_str().unwrap());
    b.wait_for("the parser's error", 20, |b| {
        !b.text("#replay-error").is_empty()
    });
    let error = b.text("#replay-error");
    assert!(error.starts_with("in broken.fm2: "), "{error}");
    page.assert_console_errors_only("replay", Some("/api/replay"));
}

/// Analyse: the page's best placement for a pasted board is the library's choice.
fn analyse_view(page: &Page) {
    let mut rows = vec![".........."; 14];
    rows.extend([
        "..........",
        "#.........",
        "##....#...",
        "###..###.#",
        "####.#####",
        "####.#####",
    ]);
    let board = rows.join("\n");
    page.open("analyse");
    let b = &page.browser;
    b.clear("#analyse-text");
    b.type_into("#analyse-text", &board);
    b.click("#analyse-from-text");
    b.run(
        "document.getElementById('analyse-piece').value = 'L'; \
         document.getElementById('analyse-next').value = 'I'; \
         const l = document.getElementById('analyse-level'); l.value = '18';",
        json!([]),
    );
    b.click("#analyse-run");
    b.wait_for("the ranking", 60, |b| {
        b.run(
            "return document.querySelectorAll('#analyse-results tr').length;",
            json!([]),
        )
        .as_u64()
            > Some(1)
    });
    let top = b.run(
        "const r = document.querySelector('#analyse-results tr'); \
         return [Number(r.dataset.x), Number(r.dataset.y), Number(r.dataset.orientation)];",
        json!([]),
    );
    // The library's choice for the same situation.
    let page_bytes = playfield_web::analyse::parse_board(&board).unwrap();
    let player = Player::birken(InputModel::new("X.", true, 0).unwrap());
    let l = SPAWN_TABLE[5];
    let decision = player
        .decide(
            &mut Workspace::new(),
            &page_bytes,
            PieceState::spawn(l, 0),
            Situation {
                level: 18,
                lines: [0, 0],
                game_type: 0,
                double_speed_level: None,
                line_cap: None,
            },
            Some(SPAWN_TABLE[6]),
        )
        .unwrap();
    let p = decision.placement;
    assert_eq!(top, json!([p.x, p.y, p.orientation]), "top placement");
    b.click("#analyse-results tr:first-child button");
    std::thread::sleep(Duration::from_millis(300));
    page.screenshot("analyse");
    page.assert_no_console_errors("analyse");
    // A bad level gets the server's message.
    b.run(
        "document.getElementById('analyse-piece').innerHTML = '<option>Q</option>';",
        json!([]),
    );
    b.click("#analyse-run");
    b.wait_for("the error", 20, |b| !b.text("#analyse-error").is_empty());
    let error = b.text("#analyse-error");
    assert!(error.contains("\"Q\" is not a piece"), "{error}");
    page.assert_console_errors_only("analyse", Some("/api/analyse"));
}

/// Minijong: a pair clicked disappears; undo brings it back.
fn minijong_view(page: &Page) {
    page.open("minijong");
    let b = &page.browser;
    b.wait_for("the deal", 30, |b| b.text("#mj-left") == "83");
    b.click("#mj-hint");
    b.wait_for("a hint", 30, |b| {
        !b.run("return window.playfieldMinijong.state().hint;", json!([]))
            .is_null()
    });
    let hint = b.run("return window.playfieldMinijong.state().hint;", json!([]));
    let visible_at = |pos: &serde_json::Value| {
        b.run(
            "return window.playfieldMinijong.state().tiles \
               .filter(t => t.pos === arguments[0] && t.visible).map(t => [t.level, t.face]);",
            json!([pos]),
        )
    };
    let before = [visible_at(&hint[0]), visible_at(&hint[1])];
    for pos in [&hint[0], &hint[1]] {
        let center = b.run(
            "return window.playfieldMinijong.center(arguments[0]);",
            json!([pos]),
        );
        b.click_at(
            "#mj-canvas",
            center[0].as_f64().unwrap(),
            center[1].as_f64().unwrap(),
        );
    }
    b.wait_for("the pair removed", 20, |b| b.text("#mj-left") == "81");
    let after = [visible_at(&hint[0]), visible_at(&hint[1])];
    assert_ne!(after, before, "the pair's tiles are gone");
    page.screenshot("minijong");
    b.click("#mj-undo");
    b.wait_for("the pair back", 20, |b| b.text("#mj-left") == "83");
    assert_eq!([visible_at(&hint[0]), visible_at(&hint[1])], before);
    page.assert_no_console_errors("minijong");
}

/// Standard Tetris: the AI plays (lines go up); the keyboard moves a piece.
fn standard_view(page: &Page) {
    page.open("standard");
    let b = &page.browser;
    b.run(
        "document.getElementById('std-speed').value = '256';",
        json!([]),
    );
    b.click("#std-start");
    b.wait_for("the AI clearing lines", 60, |b| {
        b.text("#std-lines").parse::<u64>().unwrap_or(0) >= 3
    });
    page.screenshot("standard");
    b.run(
        "document.getElementById('std-mode').value = 'play';",
        json!([]),
    );
    b.click("#std-start");
    b.wait_for("a piece", 20, |b| {
        b.run(
            "return document.getElementById('std-status').textContent;",
            json!([]),
        )
        .as_str()
        .is_some_and(|s| s.starts_with("you"))
    });
    // Wait for the first piece, then drop it with the keyboard: the board gains 4 cells.
    std::thread::sleep(Duration::from_millis(1500));
    b.click("#std-canvas");
    b.keys(&["\u{E012}", "\u{E012}", " "]);
    b.wait_for("the dropped piece", 20, |b| {
        b.run(
            "return document.querySelector('#std-score').textContent;",
            json!([]),
        )
        .as_str()
        .is_some_and(|s| s != "0")
    });
    page.assert_no_console_errors("standard");
}

/// Watch: the canvas changes from frame to frame while the AI plays.
fn watch_view(page: &Page) {
    page.open("watch");
    let b = &page.browser;
    b.wait_for("the first frames", 30, |b| {
        b.text("#watch-frame").parse::<u64>().unwrap_or(0) > 0
    });
    let mut seen = std::collections::HashSet::new();
    let mut frames = std::collections::HashSet::new();
    for _ in 0..20 {
        seen.insert(page.canvas_pixels("#watch-canvas"));
        frames.insert(b.text("#watch-frame"));
        std::thread::sleep(Duration::from_millis(150));
    }
    assert!(
        frames.len() >= 10 && seen.len() >= 5,
        "the watch canvas changes: {} distinct frames, {} distinct pictures in 20 samples",
        frames.len(),
        seen.len()
    );
    // Pause holds the picture; Step advances one frame.
    b.click("#watch-pause");
    std::thread::sleep(Duration::from_millis(300));
    let held = b.text("#watch-frame");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.text("#watch-frame"), held, "paused");
    b.click("#watch-step");
    let next = (held.parse::<u64>().unwrap() + 1).to_string();
    b.wait_for("one step", 10, |b| b.text("#watch-frame") == next);
    b.click("#watch-pause");
    std::thread::sleep(Duration::from_millis(500));
    page.screenshot("watch");
    page.assert_no_console_errors("watch");
}
