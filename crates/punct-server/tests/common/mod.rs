//! Helpers shared by the integration tests: a server (in-process or the real binary), an
//! HTTP client and WebSocket readers.

#![allow(dead_code)] // Each test file uses its own part of the helpers.

pub mod browser;
pub mod pg_cluster;
pub mod players;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A fresh database path in a fresh temporary directory.
pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "punct-server-test-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("punct.db")
}

/// Starts a server inside the test process on a free port.
pub async fn start_in_process(db: &Path) -> String {
    start_in_process_with(db, |_| {}).await
}

/// Starts a server inside the test process on a free port, its configuration changed by
/// `tune`.
pub async fn start_in_process_with(
    db: &Path,
    tune: impl FnOnce(&mut punct_server::Config),
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = punct_server::Config {
        addr,
        db: db.to_owned(),
        engine_threads: 1,
        engine_queue: 16,
        engine_movetime: Duration::from_millis(50),
        // Every request of a test comes from one address: the rate limits have tests of
        // their own (tests/limits.rs).
        rate_limits: None,
        ..punct_server::Config::default()
    };
    tune(&mut config);
    tokio::spawn(punct_server::serve_on(listener, config));
    format!("http://{addr}")
}

/// A free loopback port (bound and released) below the kernel's ephemeral range (32768 and
/// up on Linux): outgoing connections never take such a port, so a server restarted on it
/// cannot find it taken by a client's reconnect attempt (or by a socket connected to itself).
pub fn free_addr() -> SocketAddr {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let seed = std::process::id() as usize ^ COUNTER.fetch_add(7919, Ordering::SeqCst);
    for i in 0..2000 {
        let port = 20_000 + ((seed.wrapping_mul(2_654_435_761) + i * 97) % 12_000) as u16;
        if let Ok(l) = std::net::TcpListener::bind(("127.0.0.1", port)) {
            return l.local_addr().unwrap();
        }
    }
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// The real server binary, killed when dropped.
pub struct Process(pub Child);

impl Process {
    /// Starts `punct-server` on `addr` with `db`, waiting (20 s at most) until it answers;
    /// fails with a message if it exits or never answers.
    pub async fn start(addr: SocketAddr, db: &Path) -> Process {
        Process::start_with(addr, db, |_| {}).await
    }

    /// [`Process::start`] as the node `name` of several sharing the database `db`.
    pub async fn node(addr: SocketAddr, db: &Path, name: &str) -> Process {
        Process::start_with(addr, db, |c| {
            c.env("PUNCT_NODE", name);
        })
        .await
    }

    /// [`Process::start`] with the command changed by `tune` (its environment, its
    /// standard error) before it is run.
    pub async fn start_with(
        addr: SocketAddr,
        db: &Path,
        tune: impl FnOnce(&mut Command),
    ) -> Process {
        let mut command = Command::new(env!("CARGO_BIN_EXE_punct-server"));
        command
            .args([addr.to_string(), db.display().to_string(), "50".into()])
            .stdin(std::process::Stdio::null());
        tune(&mut command);
        let mut process = Process(command.spawn().expect("the server binary starts"));
        let base = format!("http://{addr}");
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if let Ok(Some(status)) = process.0.try_wait() {
                panic!("the server on {addr} exited at once ({status})");
            }
            if client
                .get(format!("{base}/api/games"))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success())
            {
                return process;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the server did not answer on {addr} within 20 s");
    }

    /// The lines the process writes to standard error from now on (it must have been
    /// started with `Stdio::piped()` there), read on a thread of their own so that the
    /// process never waits on a full pipe.
    pub fn stderr_lines(&mut self) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
        use std::io::BufRead as _;
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let out = self.0.stderr.take().expect("standard error is piped");
        let kept = lines.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        lines
    }

    /// Kills the process at once, like `kill -9`.
    pub fn kill(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The server's controlled clock: a clock file holding the milliseconds its time is ahead
/// of the system clock (`Config::clock_file`, `PUNCT_CLOCK_FILE`), which a test moves on
/// instead of waiting.
pub struct ClockFile {
    /// The file.
    pub path: PathBuf,
    /// What it holds.
    offset_ms: i64,
}

impl ClockFile {
    /// A clock file beside `db`, at no offset.
    pub fn beside(db: &Path) -> ClockFile {
        let clock = ClockFile {
            path: db.with_extension("clock"),
            offset_ms: 0,
        };
        clock.write();
        clock
    }

    /// Moves the server's time on by `ms`.
    pub fn advance(&mut self, ms: i64) {
        self.offset_ms += ms;
        self.write();
    }

    /// Writes the offset whole (a new file renamed over the old one), so that the server
    /// never reads half of it.
    fn write(&self) {
        let next = self.path.with_extension("clock-next");
        std::fs::write(&next, self.offset_ms.to_string()).unwrap();
        std::fs::rename(&next, &self.path).unwrap();
    }
}

/// A JSON call: returns the status and the body.
pub async fn call(
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let mut req = client.request(method, url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.expect("the server answers");
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// POST with a JSON body.
pub async fn post(url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    call(reqwest::Method::POST, url, token, Some(body)).await
}

/// Plays `mv` in game `id` for the holder of `token`: the answer's status and body.
pub async fn play_move(base: &str, id: &str, token: &str, mv: &str) -> (u16, Value) {
    post(
        &format!("{base}/api/games/{id}/move"),
        Some(token),
        json!({ "move": mv }),
    )
    .await
}

/// GET.
pub async fn get(url: &str, token: Option<&str>) -> (u16, Value) {
    call(reqwest::Method::GET, url, token, None).await
}

/// Creates a game, returning (id, token).
pub async fn create(base: &str, body: Value) -> (String, String) {
    let (status, v) = post(&format!("{base}/api/games"), None, body).await;
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().to_owned(),
        v["token"].as_str().unwrap().to_owned(),
    )
}

/// A legal move for `position` that places a piece when it can, chosen by `seed`, so that
/// games end within 36 placements.
pub async fn pick_move(base: &str, position: &str, seed: usize) -> String {
    let url =
        reqwest::Url::parse_with_params(&format!("{base}/api/legal"), [("position", position)])
            .unwrap();
    let (status, v) = get(url.as_str(), None).await;
    assert_eq!(status, 200, "{v}");
    let moves: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let placements: Vec<&String> = moves.iter().filter(|m| !m.contains('-')).collect();
    if placements.is_empty() {
        moves[seed.wrapping_mul(7919) % moves.len()].clone()
    } else {
        placements[seed.wrapping_mul(7919) % placements.len()].clone()
    }
}

/// A game on one screen with `plies` moves played over the API (each by `pick_move`):
/// (id, token).
pub async fn local_game_played(base: &str, plies: usize) -> (String, String) {
    let (id, token) = create(base, json!({ "mode": "local" })).await;
    for i in 0..plies {
        let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
        let mv = pick_move(base, state["position"].as_str().unwrap(), i).await;
        let (status, v) = play_move(base, &id, &token, &mv).await;
        assert_eq!(status, 200, "{mv}: {v}");
    }
    (id, token)
}

/// A WebSocket to a game.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens the game's WebSocket.
pub async fn connect(base: &str, id: &str, token: Option<&str>) -> Ws {
    let mut url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    if let Some(t) = token {
        url.push_str(&format!("?token={t}"));
    }
    tokio::time::timeout(
        Duration::from_secs(20),
        tokio_tungstenite::connect_async(url),
    )
    .await
    .expect("the WebSocket opens within 20 s")
    .unwrap()
    .0
}

/// The next JSON text message, waiting at most `secs`.
pub async fn next_json(ws: &mut Ws, secs: u64) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(secs), ws.next())
            .await
            .ok()??
            .ok()?;
        if let Message::Text(t) = msg {
            return Some(serde_json::from_str(&t).unwrap());
        }
    }
}

/// Reads messages until one satisfies `pred`.
pub async fn wait_for(ws: &mut Ws, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next_json(ws, secs)
            .await
            .expect("a message before the timeout");
        if pred(&v) {
            return v;
        }
    }
}

/// Sends a JSON message.
pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// A friend game with both seats taken: (id, white token, black token).
pub async fn friend_game(base: &str, clock: Option<Value>) -> (String, String, String) {
    let mut body = json!({ "mode": "friend", "name": "Ada" });
    if let Some(c) = clock {
        body["clock"] = c;
    }
    let (status, created) = post(&format!("{base}/api/games"), None, body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let white = created["token"].as_str().unwrap().to_owned();
    let invite = created["invite"].clone();
    let (status, v) = post(
        &format!("{base}/api/games/{id}/join"),
        None,
        json!({ "name": "Bo", "invite": invite }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["colours"], json!(["black"]));
    (id, white, v["token"].as_str().unwrap().to_owned())
}

/// The state of game `id` read through `base`, which must answer 200.
pub async fn game_state(base: &str, id: &str) -> Value {
    let (status, v) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// Waits (20 s at most) until `done` holds of game `id` read through `base`; `what` names
/// what is waited for.
pub async fn game_until(base: &str, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = std::time::Instant::now();
    loop {
        let v = game_state(base, id).await;
        if done(&v) {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what}: not within 20 s; the game is {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The value of `sample` (`name{labels}`) in the `/metrics` of the server at `base`, if it
/// is there.
pub async fn metric(base: &str, sample: &str) -> Option<f64> {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(sample)?.trim().parse().ok())
}
