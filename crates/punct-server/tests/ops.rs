//! What an operator sees: `/metrics` counting what is played and refused, `/healthz` telling
//! a database that works from one whose writes are stuck, and the real binary's log (one
//! line naming a damaged game, JSON lines on request, no PostgreSQL password, a database
//! that cannot be opened reported before anything is served).

mod common;

use std::collections::HashMap;
use std::io::BufRead as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};

/// A server in this process with `/healthz`'s limits set small.
async fn start(db: &Path) -> String {
    start_in_process_with(db, |c| {
        c.health_timeout = Duration::from_millis(500);
        c.health_commit_age = Duration::from_millis(400);
    })
    .await
}

/// `/metrics` read as the Prometheus text format: each sample (`name{labels}`) with its
/// value. Fails on any line that is not a comment or `name{labels} value`, and on a sample
/// whose metric has no `# TYPE`.
async fn scrape(base: &str) -> HashMap<String, f64> {
    let resp = reqwest::get(format!("{base}/metrics")).await.unwrap();
    assert_eq!(resp.status(), 200);
    let kind = resp.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let text = resp.text().await.unwrap();
    let mut typed = Vec::new();
    let mut samples = HashMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap();
            assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
            typed.push(name.to_owned());
            continue;
        }
        if line.starts_with("# HELP ") || line.is_empty() {
            continue;
        }
        let (sample, value) = line.rsplit_once(' ').expect("`sample value`");
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("bad value: {line}"));
        let name = sample.split('{').next().unwrap();
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
        assert!(name.chars().all(valid), "bad name: {line}");
        if sample.contains('{') {
            assert!(sample.ends_with('}'), "bad labels: {line}");
        }
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .filter(|f| typed.iter().any(|t| t == f))
            .unwrap_or(name);
        assert!(typed.iter().any(|t| t == family), "no # TYPE for {line}");
        samples.insert(sample.to_owned(), value);
    }
    samples
}

fn value(samples: &HashMap<String, f64>, sample: &str) -> f64 {
    *samples
        .get(sample)
        .unwrap_or_else(|| panic!("no {sample} in /metrics"))
}

#[tokio::test]
async fn metrics_count_moves_their_latencies_and_refusals() {
    let db = temp_db("ops-metrics");
    let base = start(&db).await;
    let (id, white, black) = friend_game(&base, None).await;
    let before = scrape(&base).await;
    assert!(value(&before, "punct_live_games") >= 1.0);
    // Four moves over the API, alternating seats.
    let mut position = get(&format!("{base}/api/games/{id}"), None).await.1["position"]
        .as_str()
        .unwrap()
        .to_owned();
    for i in 0..4 {
        let mv = pick_move(&base, &position, i).await;
        let token = if i % 2 == 0 { &white } else { &black };
        let (status, v) = play_move(&base, &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        position = v["position"].as_str().unwrap().to_owned();
    }
    // A move out of turn and one that is no move at all are refused.
    let (status, _) = play_move(&base, &id, &black, "TE4:0").await;
    assert_eq!(status, 409);
    let (status, _) = play_move(&base, &id, &white, "ZZ99").await;
    assert_eq!(status, 400);
    let after = scrape(&base).await;
    let grew = |sample: &str| value(&after, sample) - value(&before, sample);
    assert_eq!(grew("punct_moves_total"), 4.0);
    assert_eq!(grew("punct_changes_total{change=\"move\"}"), 4.0);
    assert_eq!(grew("punct_move_commit_seconds_count"), 4.0);
    assert_eq!(grew("punct_move_broadcast_seconds_count"), 4.0);
    assert!(grew("punct_move_commit_seconds_sum") > 0.0);
    // Every move is committed before it is broadcast.
    assert!(
        value(&after, "punct_move_broadcast_seconds_sum")
            >= value(&after, "punct_move_commit_seconds_sum")
    );
    assert_eq!(
        value(&after, "punct_move_commit_seconds_bucket{le=\"+Inf\"}"),
        value(&after, "punct_move_commit_seconds_count")
    );
    assert_eq!(grew("punct_errors_total{kind=\"conflict\"}"), 1.0);
    assert_eq!(grew("punct_errors_total{kind=\"bad_request\"}"), 1.0);
    assert_eq!(grew("punct_errors_total{kind=\"storage\"}"), 0.0);
    // The computer's move waited for the engine, and the wait was counted.
    let (status, _) = post(
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "computer", "colour": "black", "level": 1 }),
    )
    .await;
    assert_eq!(status, 201);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = scrape(&base).await;
        if value(&now, "punct_engine_wait_seconds_count") >= 1.0
            && value(&now, "punct_moves_total") > value(&after, "punct_moves_total")
        {
            assert_eq!(value(&now, "punct_engine_queue_depth"), 0.0);
            break;
        }
        assert!(Instant::now() < deadline, "the computer never moved");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}

#[tokio::test]
async fn the_websocket_gauge_follows_sockets_opened_and_closed() {
    let db = temp_db("ops-sockets");
    let base = start(&db).await;
    let (id, white, _) = friend_game(&base, None).await;
    let open = |s: &HashMap<String, f64>| value(s, "punct_websockets_open");
    assert_eq!(open(&scrape(&base).await), 0.0);
    let mut a = connect(&base, &id, Some(&white)).await;
    let mut b = connect(&base, &id, None).await;
    wait_for(&mut a, 5, |m| m["type"] == "state").await;
    wait_for(&mut b, 5, |m| m["type"] == "state").await;
    assert_eq!(open(&scrape(&base).await), 2.0);
    a.close(None).await.unwrap();
    drop(a);
    // One hangs up without a close handshake.
    drop(b);
    let deadline = Instant::now() + Duration::from_secs(5);
    while open(&scrape(&base).await) != 0.0 {
        assert!(
            Instant::now() < deadline,
            "closed sockets are still counted"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}

async fn healthz(base: &str) -> (u16, Value) {
    get(&format!("{base}/healthz"), None).await
}

/// A database whose writes are stuck (another program holds SQLite's write lock, so every
/// commit waits and fails) makes `/healthz` answer 503 with the reason, and 200 again once
/// writes go through.
#[tokio::test]
async fn healthz_says_when_the_database_cannot_be_written() {
    let db = temp_db("ops-health");
    let base = start(&db).await;
    let (status, v) = healthz(&base).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "ok");
    let blocker = rusqlite::Connection::open(&db).unwrap();
    blocker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let v = loop {
        let (status, v) = healthz(&base).await;
        if status == 503 {
            break v;
        }
        assert_eq!(status, 200, "{v}");
        assert!(
            Instant::now() < deadline,
            "/healthz never saw the stuck writes"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(v["status"], "unavailable");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.contains("has not committed"), "{reason}");
    blocker.execute_batch("ROLLBACK").unwrap();
    drop(blocker);
    let deadline = Instant::now() + Duration::from_secs(10);
    while healthz(&base).await.0 != 200 {
        assert!(Instant::now() < deadline, "/healthz did not recover");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}

/// The real binary's standard error, line by line, as it comes.
struct Server {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Server {
    fn start(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_punct-server"))
            .args(args)
            .envs(env.iter().copied())
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        for out in [
            Box::new(child.stderr.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stdout.take().unwrap()),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in std::io::BufReader::new(out).lines() {
                    let Ok(line) = line else { return };
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            });
        }
        Server {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Reads lines until one contains `text` (true) or the output ends (false).
    fn until(&mut self, text: &str) -> bool {
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(20)) {
            self.seen.push(line);
            if self.seen.last().unwrap().contains(text) {
                return true;
            }
        }
        false
    }

    /// Waits for the process to end, returning whether it succeeded, with all it wrote.
    fn exit(mut self) -> (bool, String) {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the server did not exit: {:?}",
                self.seen
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        (status.success(), self.seen.join("\n"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// A database holding one live game whose row is not JSON.
fn damaged_db(name: &str, id: &str) -> std::path::PathBuf {
    let db = temp_db(name);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE games (
            id TEXT PRIMARY KEY,
            live INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL,
            data TEXT NOT NULL
        );",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO games (id, live, updated_ms, data) VALUES (?1, 1, 0, '{\"id\": broken')",
        [id],
    )
    .unwrap();
    db
}

#[test]
fn a_damaged_game_is_one_log_line_naming_it_in_either_format() {
    let id = "00000000deadbeef";
    // JSON lines: every line is an object with the usual fields, and the game is a field.
    let json_db = damaged_db("ops-log-json", id);
    let addr = free_addr().to_string();
    let mut server = Server::start(
        &[&addr, json_db.to_str().unwrap()],
        &[("PUNCT_LOG_FORMAT", "json")],
    );
    assert!(server.until("serving on"), "{:?}", server.seen);
    let lines: Vec<Value> = server
        .seen
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    for line in &lines {
        for field in ["timestamp", "level", "message", "target"] {
            assert!(line.get(field).is_some(), "no {field} in {line}");
        }
    }
    let naming: Vec<&Value> = lines.iter().filter(|l| l["game"] == id).collect();
    assert_eq!(naming.len(), 1, "{lines:?}");
    assert_eq!(naming[0]["level"], "ERROR");
    let message = naming[0]["message"].as_str().unwrap();
    assert!(message.contains("cannot be restored"), "{message}");
    let serving = lines.last().unwrap();
    assert_eq!(serving["level"], "INFO");
    assert_eq!(serving["live_games"], 0);
    assert_eq!(serving["database"], json_db.to_str().unwrap());
    drop(server);
    // Readable lines, the game as `game=…`.
    let db = damaged_db("ops-log-human", id);
    let addr = free_addr().to_string();
    let mut server = Server::start(&[&addr, db.to_str().unwrap()], &[]);
    assert!(server.until("serving on"), "{:?}", server.seen);
    let naming: Vec<&String> = server
        .seen
        .iter()
        .filter(|l| l.contains(&format!("game={id}")))
        .collect();
    assert_eq!(naming.len(), 1, "{:?}", server.seen);
    assert!(naming[0].contains("ERROR"), "{}", naming[0]);
    drop(server);
    for db in [json_db, db] {
        std::fs::remove_dir_all(db.parent().unwrap()).ok();
    }
}

#[test]
fn a_database_that_cannot_be_opened_is_reported_before_serving() {
    let dir = temp_db("ops-missing");
    let db = dir.parent().unwrap().join("no-such-directory/punct.db");
    let addr = free_addr().to_string();
    let (ok, out) = Server::start(&[&addr, db.to_str().unwrap()], &[]).exit();
    assert!(!ok, "{out}");
    assert!(!out.contains("serving on"), "{out}");
    assert!(out.contains("cannot open the SQLite database"), "{out}");
    assert!(out.contains(db.to_str().unwrap()), "{out}");
    // Nothing listened meanwhile.
    assert!(std::net::TcpStream::connect(&addr).is_err());
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}

#[test]
fn the_postgres_password_never_appears_in_the_output() {
    // Nothing listens on a port just found free: the connection is refused.
    let port = free_addr().port();
    for url in [
        format!("postgres://punct:Sw0rdf1sh-s3cret@127.0.0.1:{port}/punct"),
        format!("postgresql://punct@127.0.0.1:{port}/punct?password=Sw0rdf1sh-s3cret"),
    ] {
        for format in ["human", "json"] {
            let addr = free_addr().to_string();
            let server = Server::start(&[&addr, &url], &[("PUNCT_LOG_FORMAT", format)]);
            let (ok, out) = server.exit();
            assert!(!ok, "{out}");
            assert!(out.contains("cannot connect to PostgreSQL"), "{out}");
            assert!(out.contains("***"), "{out}");
            assert!(!out.contains("Sw0rdf1sh"), "the password was shown: {out}");
        }
    }
}

#[test]
fn a_log_format_that_does_not_exist_is_refused_with_the_choices() {
    let addr = free_addr().to_string();
    let (ok, out) = Server::start(&[&addr], &[("PUNCT_LOG_FORMAT", "xml")]).exit();
    assert!(!ok);
    assert!(out.contains("unknown log format `xml`"), "{out}");
}
