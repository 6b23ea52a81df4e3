//! A small WebDriver client over plain HTTP, enough to drive headless Chromium through
//! chromedriver: sessions, navigation, elements, clicks, keys, pointer actions, scripts,
//! screenshots.
//!
//! Built so that nothing can hang or take the machine with it:
//! - chromedriver runs in its own process group, which is ended with `killpg(2)` on that
//!   group alone (never by running the `kill` command: procps-ng 4.0's `kill -KILL -PGID`
//!   reads a group id such as `-17048` as `-1` and kills every process on the machine);
//! - every HTTP call to chromedriver has a timeout, and the session's page-load and script
//!   timeouts are short, so a stuck browser ends in a test failure with a message;
//! - [`watchdog`] ends the whole test process (after killing the browsers) if a test
//!   overruns its budget anyway;
//! - each browser gets a fresh profile directory, removed when the driver goes.

#![allow(dead_code)] // Each test uses its own part of the client.

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The longest one WebDriver command may take before the test fails.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(45);

/// How long [`Session::wait`] waits for a condition.
const WAIT: Duration = Duration::from_secs(30);

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
    /// Tab.
    pub const TAB: &str = "\u{E004}";
    /// Shift (held for the keys after it in one `keys` call).
    pub const SHIFT: &str = "\u{E008}";
    /// Escape.
    pub const ESCAPE: &str = "\u{E00C}";
    /// Space.
    pub const SPACE: &str = "\u{E00D}";
}

/// Whether the server at `base` serves the WebAssembly module (scripts/wasm.sh builds it
/// before the server is built); says so when it does not, for `what`. Where
/// `PUNCT_REQUIRE_WASM` is set (CI builds the module first) a missing module fails instead.
pub async fn wasm_served(base: &str, what: &str) -> bool {
    let module = reqwest::get(format!("{base}/wasm/punct_wasm.wasm"))
        .await
        .expect("the server answers");
    let kind = module.headers().get("content-type").cloned();
    let served = kind.as_ref().and_then(|k| k.to_str().ok()) == Some("application/wasm");
    if !served {
        let why = "the server has no static/wasm/punct_wasm.wasm (scripts/wasm.sh builds it)";
        assert!(
            std::env::var_os("PUNCT_REQUIRE_WASM").is_none(),
            "{what}: {why}, and PUNCT_REQUIRE_WASM asks for it"
        );
        eprintln!("SKIPPED {what}: {why}");
    }
    served
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

/// The process group of the running chromedriver (0 when none), for the watchdog.
static DRIVER_GROUP: AtomicI32 = AtomicI32::new(0);

/// Sends SIGKILL to process group `pgid` and to nothing else. Refuses the groups that mean
/// "everyone" (`0`: our own group, `1` and below: every process).
pub fn kill_group(pgid: i32) {
    if pgid > 1 {
        // SAFETY: killpg has no memory-safety preconditions; the group is one we created.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

/// Runs one scenario of a browser test within `secs`, failing with a message if it takes
/// longer, and says how long it took.
pub async fn scenario(what: &str, secs: u64, fut: impl std::future::Future<Output = ()>) {
    let started = Instant::now();
    tokio::time::timeout(Duration::from_secs(secs), fut)
        .await
        .unwrap_or_else(|_| panic!("scenario `{what}` did not finish within {secs} s"));
    eprintln!(
        "scenario `{what}`: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// Ends the test process with a message if it is still running after `limit`, killing the
/// browsers first: a hang becomes a failure, never a stuck machine.
pub fn watchdog(what: &'static str, limit: Duration) {
    std::thread::Builder::new()
        .name("browser-test-watchdog".into())
        .spawn(move || {
            std::thread::sleep(limit);
            eprintln!("FAILED: {what} did not finish within {limit:?}; stopping the browsers");
            kill_group(DRIVER_GROUP.load(Ordering::SeqCst));
            std::process::exit(101);
        })
        .expect("the watchdog thread starts");
}

/// A port below the kernel's ephemeral range (32768 and up on Linux), free now. Outgoing
/// connections never take such a port, so a server restarted on it cannot find it taken
/// by a browser's reconnect attempt (nor by a socket connected to itself).
pub fn quiet_port() -> u16 {
    let seed = std::process::id() as usize ^ COUNTER.fetch_add(7919, Ordering::SeqCst);
    for i in 0..2000 {
        let port = 20_000 + ((seed.wrapping_mul(2_654_435_761) + i * 97) % 12_000) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(COMMAND_TIMEOUT)
        .connect_timeout(Duration::from_secs(5))
        .build()
        .expect("an HTTP client")
}

/// A running chromedriver, stopped (with every browser it started) when dropped.
pub struct Driver {
    child: Child,
    base: String,
    profiles: Mutex<Vec<PathBuf>>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Its whole process group: browsers left open by a failed test go too.
        kill_group(self.child.id() as i32);
        DRIVER_GROUP.store(0, Ordering::SeqCst);
        self.child.kill().ok();
        self.child.wait().ok();
        for dir in self
            .profiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

impl Driver {
    /// Starts chromedriver on a free port, in a process group of its own.
    pub async fn start() -> Driver {
        let port = quiet_port();
        let mut driver = Driver {
            child: Command::new(CHROMEDRIVER)
                .process_group(0)
                .arg(format!("--port={port}"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
            base: format!("http://127.0.0.1:{port}"),
            profiles: Mutex::new(Vec::new()),
        };
        DRIVER_GROUP.store(driver.child.id() as i32, Ordering::SeqCst);
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if let Ok(Some(status)) = driver.child.try_wait() {
                panic!("chromedriver exited at once ({status})");
            }
            if client
                .get(format!("{}/status", driver.base))
                .send()
                .await
                .is_ok()
            {
                return driver;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("chromedriver did not answer on port {port} within 20 s");
    }

    /// A new browser (its own profile, so its own storage: a separate person), with a
    /// window of `width` × `height`.
    pub async fn session_sized(&self, name: &str, width: u32, height: u32) -> Session {
        self.session_with(name, width, height, None, None).await
    }

    /// A new desktop-sized browser whose preferred language (`navigator.languages`, the
    /// `Accept-Language` header) is `lang`, such as "fr".
    pub async fn session_in_language(&self, name: &str, lang: &str) -> Session {
        self.session_with(name, 1280, 1000, None, Some(lang)).await
    }

    /// A new desktop-sized browser.
    pub async fn session(&self, name: &str) -> Session {
        self.session_sized(name, 1280, 1000).await
    }

    /// A new browser that looks like a phone to the page: a 390 × 844 screen with touch
    /// (Chromium's device emulation), so that taps are touch events.
    pub async fn session_phone(&self, name: &str) -> Session {
        let emulation = json!({
            "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 2, "touch": true },
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
        });
        self.session_with(name, 500, 1000, Some(emulation), None)
            .await
    }

    /// A new browser that looks like a touch phone with a `width` × `height` screen.
    pub async fn session_phone_sized(&self, name: &str, width: u32, height: u32) -> Session {
        let emulation = json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2, "touch": true },
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
        });
        self.session_with(name, width + 110, height + 160, Some(emulation), None)
            .await
    }

    async fn session_with(
        &self,
        name: &str,
        width: u32,
        height: u32,
        mobile: Option<Value>,
        lang: Option<&str>,
    ) -> Session {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let profile = std::env::temp_dir().join(format!(
            "punct-chromium-{name}-{}-{n}-{nanos}",
            std::process::id()
        ));
        self.profiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(profile.clone());
        let mut options = json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage",
                format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display()),
            ]
        });
        if let Some(m) = mobile {
            options["mobileEmulation"] = m;
        }
        if let Some(lang) = lang {
            options["args"]
                .as_array_mut()
                .expect("the arguments are a list")
                .push(json!(format!("--lang={lang}")));
            options["prefs"] = json!({ "intl": { "accept_languages": lang } });
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "timeouts": { "pageLoad": 30_000, "script": 30_000, "implicit": 0 },
            "goog:chromeOptions": options,
        }}});
        let client = http_client();
        let v: Value = client
            .post(format!("{}/session", self.base))
            .json(&caps)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{name}: chromedriver did not start a browser: {e}"))
            .json()
            .await
            .unwrap_or_else(|e| panic!("{name}: chromedriver's answer is not JSON: {e}"));
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
        let v = self.try_cmd(method, path, body).await;
        if v["error"].is_string() {
            panic!("{}: WebDriver {path}: {v}", self.name);
        }
        v
    }

    /// A WebDriver command's value, which holds `error` if it failed.
    async fn try_cmd(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.client.request(method, format!("{}{path}", self.url));
        req = req.json(&body.unwrap_or(json!({})));
        let resp = req
            .send()
            .await
            .unwrap_or_else(|e| panic!("{}: WebDriver {path} got no answer: {e}", self.name));
        let v: Value = resp
            .json()
            .await
            .unwrap_or_else(|e| panic!("{}: WebDriver {path}: bad answer: {e}", self.name));
        v["value"].clone()
    }

    /// The browser's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Opens `url`.
    pub async fn goto(&self, url: &str) {
        self.cmd(reqwest::Method::POST, "/url", Some(json!({ "url": url })))
            .await;
    }

    /// How many pixels the page is wider than the window (0 or less: it fits).
    pub async fn overflow_x(&self) -> i64 {
        self.eval(
            "return document.documentElement.scrollWidth - window.innerWidth;",
            json!([]),
        )
        .await
        .as_i64()
        .expect("a number of pixels")
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

    /// Runs `script` (a function body whose last argument is the callback to call with the
    /// result), returning what it passes to the callback.
    pub async fn eval_async(&self, script: &str, args: Value) -> Value {
        self.cmd(
            reqwest::Method::POST,
            "/execute/async",
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
            if start.elapsed() > WAIT {
                let page = self
                    .eval(
                        "return [document.getElementById('status')?.textContent, document.getElementById('game-error')?.textContent].join(' | ');",
                        json!([]),
                    )
                    .await;
                self.screenshot(&format!("timeout-{}", self.name)).await;
                panic!("{}: timed out waiting for {what} (page: {page})", self.name);
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

    /// Clicks the element matching `css` with the mouse (WebDriver element click), finding
    /// it again if the page replaced it between finding and clicking, and waiting up to 2 s
    /// for it to become clickable (a page being shown lays its elements out first).
    pub async fn click(&self, css: &str) {
        let mut last = Value::Null;
        for _ in 0..20 {
            let el = self.find(css).await;
            let v = self
                .try_cmd(reqwest::Method::POST, &format!("/element/{el}/click"), None)
                .await;
            match v["error"].as_str() {
                None => return,
                Some("stale element reference" | "element not interactable") => last = v,
                Some(_) => panic!("{}: WebDriver click on {css}: {v}", self.name),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{}: WebDriver click on {css}: {last}", self.name);
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

    /// Presses `text` (characters and [`keys`]) on whatever has the focus, as a person at
    /// the keyboard would; a [`keys::SHIFT`] is held until the end of `text`.
    pub async fn keys(&self, text: &str) {
        let mut actions = Vec::new();
        let mut held = Vec::new();
        for ch in text.chars() {
            let key = ch.to_string();
            actions.push(json!({ "type": "keyDown", "value": key }));
            if key == keys::SHIFT {
                held.push(key);
            } else {
                actions.push(json!({ "type": "keyUp", "value": key }));
            }
        }
        for key in held {
            actions.push(json!({ "type": "keyUp", "value": key }));
        }
        self.cmd(
            reqwest::Method::POST,
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        )
        .await;
        self.cmd(reqwest::Method::DELETE, "/actions", None).await;
    }

    /// Runs a pointer action sequence (`pointer_type` "mouse" or "touch") made of
    /// WebDriver pointer actions.
    pub async fn pointer(&self, pointer_type: &str, actions: Vec<Value>) {
        self.cmd(
            reqwest::Method::POST,
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": format!("{pointer_type}-1"),
                "parameters": { "pointerType": pointer_type },
                "actions": actions,
            }] })),
        )
        .await;
        self.cmd(reqwest::Method::DELETE, "/actions", None).await;
    }

    /// Turns the mouse wheel by `dy` over the element matching `css`.
    pub async fn wheel(&self, css: &str, dy: i64) {
        let el = self.find(css).await;
        self.cmd(
            reqwest::Method::POST,
            "/actions",
            Some(json!({ "actions": [{
                "type": "wheel", "id": "wheel-1",
                "actions": [{ "type": "scroll", "x": 0, "y": 0, "deltaX": 0, "deltaY": dy,
                              "origin": { ELEMENT: el } }],
            }] })),
        )
        .await;
    }

    /// Taps the element matching `css` with a finger (touch pointer), scrolling it into
    /// view first as a person would.
    pub async fn tap(&self, css: &str) {
        let el = self.find(css).await;
        self.eval(
            "arguments[0].scrollIntoView({ block: 'center' });",
            json!([{ ELEMENT: el }]),
        )
        .await;
        self.pointer(
            "touch",
            vec![
                json!({ "type": "pointerMove", "x": 0, "y": 0, "origin": { ELEMENT: el } }),
                json!({ "type": "pointerDown", "button": 0 }),
                json!({ "type": "pause", "duration": 40 }),
                json!({ "type": "pointerUp", "button": 0 }),
            ],
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

    /// Runs `script` in every page this browser loads from now on, before the page's own
    /// scripts (Chromium's DevTools command `Page.addScriptToEvaluateOnNewDocument`).
    pub async fn before_each_page(&self, script: &str) {
        self.devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": script }),
        )
        .await;
    }

    /// Chromium's DevTools command `cmd` with `params`; its answer.
    pub async fn devtools(&self, cmd: &str, params: Value) -> Value {
        self.cmd(
            reqwest::Method::POST,
            "/goog/cdp/execute",
            Some(json!({ "cmd": cmd, "params": params })),
        )
        .await
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
