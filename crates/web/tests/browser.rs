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
        let errors: Vec<_> = self
            .browser
            .console()
            .into_iter()
            .filter(|(level, _)| level == "SEVERE")
            .collect();
        assert!(errors.is_empty(), "console errors in {view}: {errors:?}");
    }

    fn screenshot(&self, view: &str) {
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
