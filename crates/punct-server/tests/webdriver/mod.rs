//! A small WebDriver client over plain HTTP, enough to drive headless Chromium through
//! chromedriver: sessions, navigation, elements, clicks, keys, scripts, screenshots.

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Keys as WebDriver codes.
pub mod keys {
    /// Home.
    pub const HOME: &str = "\u{E011}";
    /// End.
    pub const END: &str = "\u{E010}";
    /// Arrow left.
    pub const LEFT: &str = "\u{E012}";
    /// Arrow right.
    pub const RIGHT: &str = "\u{E014}";
    /// Arrow up.
    pub const UP: &str = "\u{E013}";
    /// Arrow down.
    pub const DOWN: &str = "\u{E015}";
    /// Enter.
    pub const ENTER: &str = "\u{E007}";
}

/// Whether Chromium and chromedriver are installed; says why not when they are not.
pub fn available() -> bool {
    let ok = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !ok {
        eprintln!(
            "SKIPPED browser test: {CHROMIUM} or {CHROMEDRIVER} is not installed \
             (apt-get install -y chromium chromium-driver)"
        );
    }
    ok
}

/// A running chromedriver, stopped when dropped.
pub struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Kill chromedriver's whole process group, so that browsers left open by a failed
        // test go too.
        let group = format!("-{}", self.child.id());
        Command::new("kill").args(["-KILL", &group]).status().ok();
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

impl Driver {
    /// Starts chromedriver on a free port.
    pub async fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Driver {
            child: Command::new(CHROMEDRIVER)
                .process_group(0)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
            base: format!("http://127.0.0.1:{port}"),
        };
        for _ in 0..100 {
            if reqwest::get(format!("{}/status", driver.base))
                .await
                .is_ok()
            {
                return driver;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("chromedriver did not start");
    }

    /// A new browser (its own profile, so its own storage: a separate person).
    pub async fn session(&self, name: &str) -> Session {
        let profile = std::env::temp_dir().join(format!(
            "punct-chromium-{name}-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos()
        ));
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1280,1000",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let client = reqwest::Client::new();
        let v: Value = client
            .post(format!("{}/session", self.base))
            .json(&caps)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_owned();
        Session {
            client,
            url: format!("{}/session/{id}", self.base),
            name: name.to_owned(),
        }
    }
}

/// One browser.
pub struct Session {
    client: reqwest::Client,
    url: String,
    name: String,
}

/// Where screenshots go: target/screenshots.
pub fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Session {
    async fn cmd(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.client.request(method, format!("{}{path}", self.url));
        req = req.json(&body.unwrap_or(json!({})));
        let v: Value = req.send().await.unwrap().json().await.unwrap();
        if v["value"]["error"].is_string() {
            panic!("{}: WebDriver {path}: {}", self.name, v["value"]);
        }
        v["value"].clone()
    }

    /// Opens `url`.
    pub async fn goto(&self, url: &str) {
        self.cmd(reqwest::Method::POST, "/url", Some(json!({ "url": url })))
            .await;
    }

    /// Runs `script` (a function body) with `args`, returning its value.
    pub async fn eval(&self, script: &str, args: Value) -> Value {
        self.cmd(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
        .await
    }

    /// Waits until `script` returns something truthy, returning it.
    pub async fn wait(&self, what: &str, script: &str) -> Value {
        let start = Instant::now();
        loop {
            let v = self.eval(script, json!([])).await;
            let truthy = !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0));
            if truthy {
                return v;
            }
            if start.elapsed() > Duration::from_secs(30) {
                self.screenshot(&format!("timeout-{}", self.name)).await;
                panic!("{}: timed out waiting for {what}", self.name);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The first element matching `css`.
    pub async fn find(&self, css: &str) -> String {
        let v = self
            .cmd(
                reqwest::Method::POST,
                "/element",
                Some(json!({ "using": "css selector", "value": css })),
            )
            .await;
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{}: no element `{css}`: {v}", self.name))
            .to_owned()
    }

    /// Clicks the element matching `css` with the mouse (WebDriver element click).
    pub async fn click(&self, css: &str) {
        let el = self.find(css).await;
        self.cmd(reqwest::Method::POST, &format!("/element/{el}/click"), None)
            .await;
    }

    /// Types `text` into the element matching `css`.
    pub async fn type_into(&self, css: &str, text: &str) {
        let el = self.find(css).await;
        self.cmd(
            reqwest::Method::POST,
            &format!("/element/{el}/value"),
            Some(json!({ "text": text })),
        )
        .await;
    }

    /// The text of the element matching `css`.
    pub async fn text(&self, css: &str) -> String {
        let v = self
            .eval(
                "const e = document.querySelector(arguments[0]); return !e ? null : (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA') ? e.value : e.textContent;",
                json!([css]),
            )
            .await;
        v.as_str().unwrap_or("").to_owned()
    }

    /// Resizes the window (a phone is about 390 × 844).
    pub async fn resize(&self, width: u32, height: u32) {
        self.cmd(
            reqwest::Method::POST,
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        )
        .await;
    }

    /// Saves a screenshot as target/screenshots/`name`.png.
    pub async fn screenshot(&self, name: &str) {
        let v = self.cmd(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap_or(""))
            .unwrap_or_default();
        std::fs::write(screenshot_dir().join(format!("{name}.png")), png).unwrap();
    }

    /// Ends the browser.
    pub async fn quit(self) {
        self.client.delete(&self.url).send().await.ok();
    }
}
