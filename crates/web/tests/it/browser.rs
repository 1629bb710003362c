//! The page in a real browser: headless Debian `chromium` driven through `chromedriver`
//! (WebDriver), against a server on 127.0.0.1 with a system-chosen port.
//!
//! Skipped with a notice when chromium or chromedriver is missing, unless
//! `PLAYFIELD_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs both). Screenshots of each
//! view, at 1280×800 (`VIEW.png`) and at a phone's 390×844 (`VIEW-390x844.png`), go to the
//! test's temporary directory, and to
//! `docs/screenshots/` when `PLAYFIELD_SCREENSHOTS=1`.

use std::path::PathBuf;
use std::time::Duration;

use crate::webdriver::{Browser, TempDir, browser_required, find_browser};
use playfield_ai::nes::{
    GameConfig, InputModel, PieceState, Player, Situation, Workspace, play_game,
};
use playfield_nes::fm2::Movie;
use playfield_nes::{Board, GameType, Nes, Piece};
use playfield_web::nes_frame::NesFrame;
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

/// The views, by their `#hash`.
const VIEWS: [&str; 6] = ["watch", "replay", "analyse", "play", "minijong", "standard"];

#[test]
fn every_view_works_in_chromium() {
    let _turn = crate::heavy_test_lock();
    let Some(page) = start() else { return };
    page.browser.set_viewport(1280, 800);
    watch_view(&page);
    replay_view(&page);
    tas_replays_show_their_results(&page);
    analyse_view(&page);
    shared_analyse_link(&page);
    screenshots_read_back(&page);
    play_view(&page);
    minijong_view(&page);
    standard_view(&page);
    bad_fields_leave_the_game_alone(&page);
    phone_layout(&page);
}

impl Page {
    /// No horizontal scroll; at the desktop size the view also fits the height.
    fn assert_fits(&self, view: &str, height_too: bool) {
        let sizes = self.browser.run(
            "const d = document.documentElement; \
             return [d.scrollWidth, window.innerWidth, d.scrollHeight, window.innerHeight];",
            json!([]),
        );
        let n = |i: usize| sizes[i].as_u64().unwrap();
        assert!(
            n(0) <= n(1),
            "{view}: {} px wide in a {} px window",
            n(0),
            n(1)
        );
        if height_too {
            assert!(
                n(2) <= n(3),
                "{view}: {} px tall in a {} px window",
                n(2),
                n(3)
            );
        }
    }
}

/// A phone's 390×844: one column, no horizontal scroll, in every view.
fn phone_layout(page: &Page) {
    let b = &page.browser;
    b.set_viewport(390, 844);
    for view in VIEWS {
        page.open(view);
        std::thread::sleep(Duration::from_millis(700));
        page.assert_fits(view, false);
        if view == "analyse" {
            touch_painting_and_keyboard(page);
        }
        page.screenshot(&format!("{view}-390x844"));
    }
    b.set_viewport(1280, 800);
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
    let expected = nes.score();
    assert!(expected > 0, "the game scored");
    let dir = TempDir::new("movie");
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
    // The movie stops mid-game: the game runs on with no input, so more frames show.
    let input_frames = movie.lines.len();
    assert!(frames.parse::<usize>().unwrap() > input_frames, "{frames}");
    b.run(
        "const s = document.getElementById('replay-slider'); s.value = arguments[0]; \
         s.dispatchEvent(new Event('input'));",
        json!([input_frames]),
    );
    b.wait_for("the last input frame", 20, |b| {
        b.text("#replay-frame") == input_frames.to_string()
    });
    assert_eq!(b.text("#replay-score"), expected.to_string());
    b.click("#replay-end");
    b.wait_for("the last frame", 20, |b| b.text("#replay-frame") == frames);
    assert!(b.text("#replay-input-note").contains("past the last input"));
    // The slider shows any frame with its traced state.
    b.run(
        "const s = document.getElementById('replay-slider'); s.value = 3000; \
         s.dispatchEvent(new Event('input'));",
        json!([]),
    );
    b.wait_for("frame 3000", 20, |b| b.text("#replay-frame") == "3000");
    // The variables decoded: the score a number, the piece by letter and rotation.
    let state = b.text("#replay-state");
    assert!(state.contains("score"), "{state}");
    assert!(!state.contains("playfield"), "no raw playfield: {state}");
    b.type_into("#replay-file", bad.to_str().unwrap());
    b.wait_for("the parser's error", 20, |b| {
        !b.text("#replay-error").is_empty()
    });
    let error = b.text("#replay-error");
    assert!(error.starts_with("in broken.fm2: "), "{error}");
    // The movie shown stays.
    assert_eq!(b.text("#replay-frames"), frames);
    page.assert_console_errors_only("replay", Some("/api/replay"));
}

/// The public TAS movies show their published results: the game runs on past the last input.
fn tas_replays_show_their_results(page: &Page) {
    let b = &page.browser;
    let movies = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../nes/tests/movies")
        .canonicalize()
        .unwrap();
    let tas = movies.join("a_type_999999_score/tasvideos_4853m.fm2");
    b.type_into("#replay-file", tas.to_str().unwrap());
    b.wait_for("4853M", 60, |b| {
        b.text("#replay-status").contains("final score")
    });
    b.click("#replay-end");
    b.wait_for("the last frame", 20, |b| {
        b.text("#replay-frame") == b.text("#replay-frames")
    });
    assert_eq!(b.text("#replay-score"), "999999", "4853M's published score");
    // Jump back to the start, then to the first line clear: the controller and state show.
    b.run("const s = document.getElementById('replay-slider'); s.value = 0; s.dispatchEvent(new Event('input'));", json!([]));
    b.wait_for("frame 0", 20, |b| b.text("#replay-frame") == "0");
    b.click("#replay-next-clear");
    b.wait_for("a line clear", 20, |b| b.text("#replay-frame") != "0");
    assert!(b.text("#replay-stats").contains("Tetris rate"));
    b.click("#replay-end");
    std::thread::sleep(Duration::from_millis(500));
    page.assert_fits("replay", true);
    page.screenshot("replay");
    let b_type = movies.join("b_type_clear/tasvideos_925m.fm2");
    b.type_into("#replay-file", b_type.to_str().unwrap());
    b.wait_for("925M", 60, |b| b.text("#replay-status").contains("925m"));
    b.click("#replay-end");
    b.wait_for("the last frame", 20, |b| {
        b.text("#replay-frame") == b.text("#replay-frames")
    });
    assert_eq!(b.text("#replay-lines"), "0", "925M clears its 25 lines");
    page.assert_no_console_errors("replay");
}

/// The board Analyse is tested with: a stack with a well at column 5.
fn analyse_board() -> String {
    let mut rows = vec![".........."; 14];
    rows.extend([
        "..........",
        "#.........",
        "##....#...",
        "###..###.#",
        "####.#####",
        "####.#####",
    ]);
    rows.join("\n")
}

/// The library's choice for an L with an I next at level 18 on [`analyse_board`].
fn library_choice(player: &Player) -> serde_json::Value {
    let page_bytes = playfield_web::analyse::parse_board(&analyse_board()).unwrap();
    let decision = player
        .decide(
            &mut Workspace::new(),
            &Board::from_page(&page_bytes),
            PieceState::spawn(Piece::L.spawn_orientation(), 0),
            Situation {
                level: 18,
                lines: 0,
                game_type: GameType::A,
                double_speed_level: None,
                line_cap: None,
                unsafe_clears: 0,
                score_maxed: false,
            },
            Some(Piece::I),
        )
        .unwrap();
    let p = decision.placement;
    json!([p.x, p.y, p.orientation])
}

fn top_placement(page: &Page) -> serde_json::Value {
    page.browser.run(
        "const r = document.querySelector('#analyse-results tr'); \
         return [Number(r.dataset.x), Number(r.dataset.y), Number(r.dataset.orientation)];",
        json!([]),
    )
}

fn wait_for_ranking(page: &Page) {
    page.browser.wait_for("the ranking", 60, |b| {
        b.run(
            "return document.getElementById('analyse-status').textContent;",
            json!([]),
        )
        .as_str()
        .is_some_and(|s| s.contains("best first") || s.contains("no ranking"))
    });
}

/// Analyse: the page's best placement for a pasted board is the chosen player's choice, for
/// each player.
fn analyse_view(page: &Page) {
    let board = analyse_board();
    page.open("analyse");
    let b = &page.browser;
    b.wait_for("the players", 20, |b| {
        b.run(
            "return document.getElementById('analyse-player').options.length;",
            json!([]),
        )
        .as_u64()
            >= Some(2)
    });
    b.clear("#analyse-text");
    b.type_into("#analyse-text", &board);
    b.click("#analyse-from-text");
    let model = InputModel::new("X.", true, 0).unwrap();
    for (name, player) in [
        ("birken", Player::birken(model.clone())),
        ("score", Player::score(model.clone())),
    ] {
        b.run(
            "document.getElementById('analyse-piece').value = 'L'; \
             document.getElementById('analyse-next').value = 'I'; \
             document.getElementById('analyse-level').value = '18'; \
             document.getElementById('analyse-player').value = arguments[0];",
            json!([name]),
        );
        b.run(
            "document.getElementById('analyse-status').textContent = '';",
            json!([]),
        );
        b.click("#analyse-run");
        wait_for_ranking(page);
        assert!(
            b.text("#analyse-status").starts_with(name),
            "{}",
            b.text("#analyse-status")
        );
        assert_eq!(
            top_placement(page),
            library_choice(&player),
            "{name}'s top placement"
        );
    }
    b.click("#analyse-results tr:first-child button");
    std::thread::sleep(Duration::from_millis(300));
    page.assert_fits("analyse", true);
    page.screenshot("analyse");
    page.assert_no_console_errors("analyse");
    // A piece that is not one: the server's message beside the piece.
    b.run(
        "document.getElementById('analyse-piece').innerHTML = '<option>Q</option>';",
        json!([]),
    );
    b.click("#analyse-run");
    b.wait_for("the error", 20, |b| {
        !b.text("#analyse-piece-error").is_empty()
    });
    let error = b.text("#analyse-piece-error");
    assert!(error.contains("\"Q\" is not a piece"), "{error}");
    page.assert_console_errors_only("analyse", Some("/api/analyse"));
    b.run(
        "const p = document.getElementById('analyse-piece'); p.innerHTML = ''; \
         for (const c of 'TJZOSLI') p.append(new Option(c, c)); p.value = 'L';",
        json!([]),
    );
}

/// A link to an Analyse view, opened afresh, restores the board, the settings and the ranking.
fn shared_analyse_link(page: &Page) {
    let b = &page.browser;
    b.run(
        "document.getElementById('analyse-player').value = 'birken';",
        json!([]),
    );
    b.run(
        "document.getElementById('analyse-status').textContent = '';",
        json!([]),
    );
    b.click("#analyse-run");
    wait_for_ranking(page);
    let link = b
        .run("return window.playfieldAnalyse.link();", json!([]))
        .as_str()
        .unwrap()
        .to_owned();
    let before = top_placement(page);
    b.goto(&format!("{}/#watch", page.base));
    b.goto(&link);
    b.run("location.reload();", json!([]));
    b.wait_for("the view", 20, |b| {
        b.run(
            "return document.getElementById('view').dataset.view;",
            json!([]),
        ) == json!("analyse")
    });
    wait_for_ranking(page);
    let board = b.run(
        "let t = ''; const c = window.playfieldAnalyse.cells; \
         for (let y = 0; y < 20; y++) { for (let x = 0; x < 10; x++) t += c[y * 10 + x] ? '#' : '.'; t += '\\n'; } \
         return t;",
        json!([]),
    );
    assert_eq!(
        board.as_str().unwrap().trim_end(),
        analyse_board(),
        "the board restored"
    );
    for (id, value) in [
        ("analyse-piece", "L"),
        ("analyse-next", "I"),
        ("analyse-level", "18"),
        ("analyse-player", "birken"),
    ] {
        assert_eq!(
            b.run(
                "return document.getElementById(arguments[0]).value;",
                json!([id])
            ),
            json!(value),
            "{id} restored"
        );
    }
    assert_eq!(top_placement(page), before, "the same ranking");
    page.assert_no_console_errors("shared analyse link");
}

/// Play: keys pressed in the page move and drop the piece on the engine; the game saved as an
/// .fm2 movie and replayed on the engine from power-on gives the board the page shows.
fn play_view(page: &Page) {
    page.open("play");
    let b = &page.browser;
    b.wait_for("the game", 30, |b| {
        b.run("return window.playfieldPlay && window.playfieldPlay.frame && window.playfieldPlay.frame.mode;", json!([]))
            == json!("play")
    });
    let board_cells = |b: &Browser| {
        b.run("return window.playfieldPlay.frame.board;", json!([]))
            .as_str()
            .unwrap()
            .chars()
            .filter(|&c| c != '0')
            .count()
    };
    b.click("#play-canvas");
    // Left five times (each a separate press), then hold Down until the piece locks.
    for _ in 0..5 {
        b.keys(&["\u{E012}"]);
        std::thread::sleep(Duration::from_millis(120));
    }
    b.wait_for("the first piece locked", 60, |b| {
        b.keys(&["\u{E015}"]);
        board_cells(b) >= 4
    });
    page.assert_fits("play", true);
    page.screenshot("play");
    b.click("#play-save");
    b.wait_for("the movie", 20, |b| {
        b.run("return window.playfieldPlay.saved;", json!([]))
            .as_u64()
            >= Some(1)
    });
    let saved = b.run(
        "const s = window.playfieldPlay; return [s.fm2, s.fm2Board];",
        json!([]),
    );
    let movie = Movie::parse(saved[0].as_str().unwrap()).unwrap();
    let mut nes = Nes::power_on();
    for line in &movie.lines {
        nes.step_line(line);
    }
    let engine = NesFrame::from_nes(&nes, None);
    assert_eq!(
        saved[1],
        json!(engine.board),
        "the page's board is the engine's"
    );
    // The piece went to the left wall: column 1 holds a block.
    let column_one = (0..20).any(|y| engine.board.as_bytes()[y * 10] != b'0');
    assert!(column_one, "pressed left five times: {}", engine.board);
    // The ghost: where the player would lock the next piece, once asked for.
    b.click("#play-ghost");
    b.wait_for("the ghost", 30, |b| {
        !b.run("return window.playfieldPlay.frame.target;", json!([]))
            .is_null()
    });
    page.assert_no_console_errors("play");
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
    page.assert_fits("minijong", true);
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
    page.assert_fits("standard", true);
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
    assert!(
        b.text("#watch-stats").contains("Tetris rate"),
        "{}",
        b.text("#watch-stats")
    );
    page.assert_fits("watch", true);
    page.screenshot("watch");
    page.assert_no_console_errors("watch");
}

/// Each bad field of each view: its message beside the field, and the running game (or the
/// shown result) left as it was.
fn bad_fields_leave_the_game_alone(page: &Page) {
    let b = &page.browser;
    let set = |id: &str, value: &str| {
        b.run(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1];",
            json!([id, value]),
        );
    };
    let error_of = |id: &str| b.text(&format!("#{id}-error"));
    let frame_of = |id: &str| b.text(id).parse::<u64>().unwrap_or(0);

    // Watch and Play: the frame counter keeps going on the same game.
    for (view, fields, start, frame, good) in [
        (
            "watch",
            vec![
                (
                    "watch-level",
                    "-3",
                    "Start level must be a whole number from 0 to 19, not \"-3\"",
                ),
                (
                    "watch-level",
                    "",
                    "Start level must be a whole number from 0 to 19, not empty",
                ),
                ("watch-level", "25", "from 0 to 19, not \"25\""),
                (
                    "watch-seed",
                    "",
                    "Seed must be a whole number from 0 up, not empty",
                ),
                ("watch-seed", "-1", "Seed must be a whole number from 0 up"),
                (
                    "watch-reaction",
                    "-1",
                    "Reaction time (frames) must be a whole number from 0 to 255",
                ),
                ("watch-reaction", "999", "from 0 to 255, not \"999\""),
            ],
            "#watch-start",
            "#watch-frame",
            [
                ("watch-level", "18"),
                ("watch-seed", "1"),
                ("watch-reaction", "18"),
            ],
        ),
        (
            "play",
            vec![
                (
                    "play-level",
                    "20",
                    "Start level must be a whole number from 0 to 19, not \"20\"",
                ),
                ("play-level", "", "not empty"),
                (
                    "play-seed",
                    "",
                    "Seed must be a whole number from 0 up, not empty",
                ),
            ],
            "#play-start",
            "#play-frame",
            [("play-level", "9"), ("play-seed", "1"), ("play-level", "9")],
        ),
    ] {
        page.open(view);
        b.wait_for("the game", 30, |_| frame_of(frame) > 0);
        for (id, value, message) in fields {
            set(id, value);
            b.click(start);
            b.wait_for("the message", 10, |_| !error_of(id).is_empty());
            assert!(
                error_of(id).contains(message),
                "{view} {id}={value:?}: {:?}",
                error_of(id)
            );
            let before = frame_of(frame);
            b.wait_for("the game going on", 10, |_| frame_of(frame) > before + 10);
            for (id, value) in good {
                set(id, value);
            }
        }
        // A value only the server knows to refuse: a player that is not one.
        if view == "watch" {
            b.run(
                "document.getElementById('watch-player').append(new Option('nobody', 'nobody')); \
                   document.getElementById('watch-player').value = 'nobody';",
                json!([]),
            );
            b.click(start);
            b.wait_for("the server's message", 10, |_| {
                !error_of("watch-player").is_empty()
            });
            assert!(error_of("watch-player").contains("the players are score, birken"));
            let before = frame_of(frame);
            b.wait_for("the game going on", 10, |_| frame_of(frame) > before + 10);
        }
        page.assert_console_errors_only(view, Some("/check"));
    }

    // Standard Tetris: the AI's game goes on (its board keeps changing).
    page.open("standard");
    b.wait_for("the game", 20, |b| {
        b.text("#std-status").starts_with("dellacherie")
    });
    for (id, value, message) in [
        (
            "std-level",
            "0",
            "Level must be a whole number from 1 to 10, not \"0\"",
        ),
        ("std-level", "11", "from 1 to 10"),
        (
            "std-seed",
            "",
            "Seed must be a whole number from 0 up, not empty",
        ),
    ] {
        set(id, value);
        b.click("#std-start");
        b.wait_for("the message", 10, |_| !error_of(id).is_empty());
        assert!(
            error_of(id).contains(message),
            "standard {id}: {:?}",
            error_of(id)
        );
        let before = page.canvas_pixels("#std-canvas");
        b.wait_for("the game going on", 20, |_| {
            page.canvas_pixels("#std-canvas") != before
        });
        set("std-level", "1");
        set("std-seed", "1");
    }

    // Analyse: the ranking shown stays.
    page.open("analyse");
    b.click("#analyse-run");
    wait_for_ranking(page);
    let rows = || {
        b.run(
            "return document.querySelectorAll('#analyse-results tr').length;",
            json!([]),
        )
    };
    let shown = rows();
    for (value, message) in [
        ("", "Level must be a whole number from 0 to 255, not empty"),
        ("300", "not \"300\""),
    ] {
        set("analyse-level", value);
        b.click("#analyse-run");
        b.wait_for("the message", 10, |_| !error_of("analyse-level").is_empty());
        assert!(
            error_of("analyse-level").contains(message),
            "{:?}",
            error_of("analyse-level")
        );
        assert_eq!(rows(), shown, "the ranking stays");
    }
    b.clear("#analyse-text");
    b.type_into("#analyse-text", "..........\n..#.");
    b.click("#analyse-from-text");
    assert!(
        error_of("analyse-board").contains("it needs 20 rows"),
        "{:?}",
        error_of("analyse-board")
    );

    // Minijong: the deal on the table stays.
    page.open("minijong");
    b.wait_for("the deal", 30, |b| b.text("#mj-left") == "83");
    for (value, message) in [
        ("", "Seed must be a whole number from 0 up, not empty"),
        ("-5", "not \"-5\""),
    ] {
        set("mj-seed", value);
        b.click("#mj-new");
        b.wait_for("the message", 10, |_| !error_of("mj-seed").is_empty());
        assert!(
            error_of("mj-seed").contains(message),
            "{:?}",
            error_of("mj-seed")
        );
        assert_eq!(b.text("#mj-left"), "83");
    }
    page.assert_no_console_errors("minijong");
}

/// A screenshot the page's NES renderer draws of a known board, at two scales and in ten
/// levels' colours, is read back to the same board.
fn screenshots_read_back(page: &Page) {
    let b = &page.browser;
    let (nes, _) = playfield_ai::nes::game::start_game(&GameConfig::a_type(0, 3)).unwrap();
    let mut frame = NesFrame::from_nes(&nes, None);
    // A board with every tile kind, a well and holes: cell (x, y) from a fixed pattern.
    let board: String = (0..200)
        .map(|i| {
            let (x, y) = (i % 10, i / 10);
            match (y, (x * 7 + y * 3) % 5) {
                (0..=7, _) | (_, 0) => '0',
                _ if x == 8 => '0',
                (_, k) => char::from(b'0' + (k as u8 % 3) + 1),
            }
        })
        .collect();
    frame.board = board.clone();
    frame.piece = None;
    let expected: String = board
        .chars()
        .map(|c| if c == '0' { '0' } else { '1' })
        .collect();
    for level in 0..10u8 {
        frame.colors = playfield_web::nes_frame::level_colors(level);
        for scale in [2, 3] {
            let read = b.run(
                "return (async () => { \
                   const nes = await import('/assets/nes.js'); \
                   const analyse = await import('/assets/analyse.js'); \
                   const looks = await nes.loadPieces(); \
                   const { canvas, g } = nes.makeCanvas(arguments[1]); \
                   nes.drawFrame(g, arguments[0], looks); \
                   const read = await analyse.readScreenshot(canvas.toDataURL()); \
                   return read.cells ? read.cells.join('') : read.error; })();",
                json!([serde_json::to_value(&frame).unwrap(), scale]),
            );
            assert_eq!(
                read.as_str().unwrap(),
                expected,
                "level {level}, scale {scale}"
            );
        }
    }
    // Through the page: the board loaded from the picture.
    page.open("analyse");
    let loaded = b.run(
        "return (async () => { \
           const nes = await import('/assets/nes.js'); \
           const looks = await nes.loadPieces(); \
           const { canvas, g } = nes.makeCanvas(2); \
           nes.drawFrame(g, arguments[0], looks); \
           await window.playfieldAnalyse.fromScreenshot(canvas.toDataURL()); \
           return Array.from(window.playfieldAnalyse.cells).join(''); })();",
        json!([serde_json::to_value(&frame).unwrap()]),
    );
    assert_eq!(loaded.as_str().unwrap(), expected);
    // A picture of the wrong shape is refused with the reason beside the board.
    b.run(
        "const c = document.createElement('canvas'); c.width = 100; c.height = 100; \
         window.playfieldAnalyse.fromScreenshot(c.toDataURL());",
        json!([]),
    );
    b.wait_for("the message", 10, |b| {
        !b.text("#analyse-board-error").is_empty()
    });
    assert!(b.text("#analyse-board-error").contains("256×224"));
}

/// On a phone, a finger dragged over the Analyse board fills the cells it crosses (the page
/// does not scroll instead); the keyboard toggles the cell under its cursor.
fn touch_painting_and_keyboard(page: &Page) {
    let b = &page.browser;
    b.click("#analyse-clear");
    let size = b.run(
        "const r = document.getElementById('analyse-board').getBoundingClientRect(); \
         return [r.width, r.height];",
        json!([]),
    );
    let cell = size[0].as_f64().unwrap() / 10.0;
    // Along row 10 from column 1 to column 4.
    let y = 9.5 * cell;
    let points: Vec<(f64, f64)> = (0..4).map(|x| ((f64::from(x) + 0.5) * cell, y)).collect();
    b.drag("#analyse-board", "touch", &points);
    let filled = b.run(
        "return Array.from(window.playfieldAnalyse.cells).map((c, i) => c ? i : -1).filter(i => i >= 0);",
        json!([]),
    );
    assert_eq!(
        filled,
        json!([90, 91, 92, 93]),
        "the cells the finger crossed"
    );
    // The keyboard: the cursor starts at the bottom-left cell; right, then Space.
    b.run(
        "document.getElementById('analyse-board').focus();",
        json!([]),
    );
    b.keys(&["\u{E014}", " "]);
    let bottom = b.run("return window.playfieldAnalyse.cells[191];", json!([]));
    assert_eq!(bottom, json!(1), "Space toggled the cell under the cursor");
}
