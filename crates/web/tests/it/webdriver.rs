//! A small WebDriver client (the W3C protocol is JSON over HTTP) driving Debian's headless
//! `chromium` through `chromedriver`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The key WebDriver names element references by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where the browser and its driver are, or why the browser tests cannot run here.
pub fn find_browser() -> Result<(PathBuf, PathBuf), String> {
    let which = |names: &[&str]| -> Option<PathBuf> {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
            .find(|p| p.is_file())
    };
    let chromium = which(&["chromium", "chromium-browser"])
        .ok_or("no `chromium` on PATH (Debian: apt-get install chromium chromium-driver)")?;
    let driver = which(&["chromedriver"])
        .ok_or("no `chromedriver` on PATH (Debian: apt-get install chromium-driver)")?;
    Ok((chromium, driver))
}

/// True when the browser tests must run (CI): a missing browser is then a failure, not a skip.
pub fn browser_required() -> bool {
    std::env::var_os("PLAYFIELD_REQUIRE_BROWSER").is_some_and(|v| v == "1")
}

/// A browser session; the driver process ends when it is dropped.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    _profile: TempDir,
}

/// A directory removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "playfield-web-{tag}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// Starts chromedriver and a headless chromium session with a fresh profile.
    pub fn start(chromium: &Path, driver: &Path) -> Browser {
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let ready = Instant::now();
        while agent.get(&format!("{base}/status")).call().is_err() {
            assert!(
                ready.elapsed() < Duration::from_secs(30),
                "chromedriver did not answer within 30 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = TempDir::new("profile");
        let args = [
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--window-size=1280,960".to_owned(),
            format!("--user-data-dir={}", profile.0.display()),
        ];
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
            "goog:loggingPrefs": { "browser": "ALL" },
        }}});
        let mut browser = Browser {
            driver: child,
            base,
            session: String::new(),
            agent,
            _profile: profile,
        };
        let created = browser.request("POST", "/session", Some(caps));
        browser.session = created["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_owned();
        browser
    }

    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let mut response = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .send_json(body.unwrap_or_else(|| json!({}))),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status();
        let value: Value = response
            .body_mut()
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_json()
            .unwrap_or_else(|e| panic!("{method} {path}: bad JSON: {e}"));
        assert!(
            status.is_success(),
            "{method} {path}: {status}: {}",
            value["value"]
        );
        value
    }

    fn session_request(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.request(method, &path, body)["value"].clone()
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.session_request("POST", "/url", Some(json!({ "url": url })));
    }

    /// The element matching the CSS `selector`, waiting up to 20 s for it.
    pub fn find(&self, selector: &str) -> String {
        let start = Instant::now();
        loop {
            let path = format!("/session/{}/element", self.session);
            let url = format!("{}{path}", self.base);
            let mut r = self
                .agent
                .post(&url)
                .send_json(json!({ "using": "css selector", "value": selector }))
                .unwrap();
            let v: Value = r.body_mut().read_json().unwrap();
            if r.status().is_success() {
                return v["value"][ELEMENT]
                    .as_str()
                    .unwrap_or_else(|| panic!("find {selector}: {v}"))
                    .to_owned();
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no element {selector} after 20 s: {}",
                v["value"]
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the element matching `selector`.
    pub fn click(&self, selector: &str) {
        let id = self.find(selector);
        self.session_request("POST", &format!("/element/{id}/click"), None);
    }

    /// Types `text` into the element matching `selector` (a file input takes a path).
    pub fn type_into(&self, selector: &str, text: &str) {
        let id = self.find(selector);
        self.session_request(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Clears an input.
    pub fn clear(&self, selector: &str) {
        let id = self.find(selector);
        self.session_request("POST", &format!("/element/{id}/clear"), None);
    }

    /// The text of the element matching `selector`.
    pub fn text(&self, selector: &str) -> String {
        let id = self.find(selector);
        self.session_request("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its result.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.session_request(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Waits up to `secs` for `check` to hold, polling.
    pub fn wait_for(&self, what: &str, secs: u64, mut check: impl FnMut(&Browser) -> bool) {
        let start = Instant::now();
        while !check(self) {
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "timed out after {secs} s waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A real mouse click at (x, y) pixels from the top-left of the element matching `selector`.
    pub fn click_at(&self, selector: &str, x: f64, y: f64) {
        let id = self.find(selector);
        let rect = self.session_request("GET", &format!("/element/{id}/rect"), None);
        let (w, h) = (
            rect["width"].as_f64().unwrap(),
            rect["height"].as_f64().unwrap(),
        );
        // Pointer offsets are from the element's centre.
        let (dx, dy) = ((x - w / 2.0).round(), (y - h / 2.0).round());
        let mut origin = serde_json::Map::new();
        origin.insert(ELEMENT.to_owned(), Value::String(id));
        self.session_request(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
                "actions": [
                    { "type": "pointerMove", "duration": 0,
                      "origin": origin, "x": dx as i64, "y": dy as i64 },
                    { "type": "pointerDown", "button": 0 },
                    { "type": "pointerUp", "button": 0 },
                ]
            }]})),
        );
        self.session_request("DELETE", "/actions", None);
    }

    /// A drag through `points` (pixels from the element's top-left) with a `pointer` of the kind
    /// `mouse`, `pen` or `touch`: down at the first, moves, up at the last.
    pub fn drag(&self, selector: &str, pointer: &str, points: &[(f64, f64)]) {
        let id = self.find(selector);
        let rect = self.session_request("GET", &format!("/element/{id}/rect"), None);
        let (w, h) = (
            rect["width"].as_f64().unwrap(),
            rect["height"].as_f64().unwrap(),
        );
        let mut origin = serde_json::Map::new();
        origin.insert(ELEMENT.to_owned(), Value::String(id));
        let mut actions = Vec::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            actions.push(
                json!({ "type": "pointerMove", "duration": 50, "origin": origin,
                "x": (x - w / 2.0).round() as i64, "y": (y - h / 2.0).round() as i64 }),
            );
            if i == 0 {
                actions.push(json!({ "type": "pointerDown", "button": 0 }));
            }
        }
        actions.push(json!({ "type": "pointerUp", "button": 0 }));
        self.session_request(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": "drag", "parameters": { "pointerType": pointer },
                "actions": actions,
            }]})),
        );
        self.session_request("DELETE", "/actions", None);
    }

    /// Presses and releases keys (WebDriver key codes, e.g. "\u{E012}" = left arrow).
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for k in keys {
            actions.push(json!({ "type": "keyDown", "value": k }));
            actions.push(json!({ "type": "keyUp", "value": k }));
        }
        self.session_request(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
    }

    /// The browser console's messages since the last call, as (level, message).
    pub fn console(&self) -> Vec<(String, String)> {
        let logs = self.session_request("POST", "/se/log", Some(json!({ "type": "browser" })));
        logs.as_array()
            .map(|a| {
                a.iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or_default().to_owned(),
                            e["message"].as_str().unwrap_or_default().to_owned(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Sizes the window so that the page's viewport is `width` × `height` CSS pixels.
    pub fn set_viewport(&self, width: u32, height: u32) {
        let (mut w, mut h) = (i64::from(width), i64::from(height));
        for _ in 0..3 {
            self.session_request(
                "POST",
                "/window/rect",
                Some(json!({ "width": w, "height": h })),
            );
            let inner = self.run("return [window.innerWidth, window.innerHeight];", json!([]));
            let (iw, ih) = (inner[0].as_i64().unwrap(), inner[1].as_i64().unwrap());
            if (iw, ih) == (i64::from(width), i64::from(height)) {
                return;
            }
            w += i64::from(width) - iw;
            h += i64::from(height) - ih;
        }
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let data = self.session_request("GET", "/screenshot", None);
        base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let url = format!("{}/session/{}", self.base, self.session);
            let _ = self.agent.delete(&url).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
