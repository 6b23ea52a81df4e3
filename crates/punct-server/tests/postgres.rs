//! The games kept in PostgreSQL (`--db postgres://…`) instead of SQLite: a real PostgreSQL
//! server is started for the test (Debian's `postgresql` package; without it the test is
//! skipped with a message), the real punct-server binary is killed with SIGKILL mid-game and
//! restarted, and every move, the turn, the clocks (charged up to the crash) and a pending
//! computer move survive, exactly as with SQLite.

mod common;

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::json;

/// A throwaway PostgreSQL cluster, killed and removed when dropped.
struct Postgres {
    dir: PathBuf,
    server: Child,
    url: String,
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let group = self.server.id() as i32;
        if group > 1 {
            // SAFETY: killpg has no memory-safety preconditions; the group is the server's own.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
        self.server.wait().ok();
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// The newest installed PostgreSQL's programs.
fn postgres_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|bin| bin.join("postgres").exists() && bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

/// `program` with `args`, as the `postgres` user when we are root (PostgreSQL refuses to run
/// as root).
fn as_postgres(program: &Path, args: &[&str]) -> Command {
    // SAFETY: geteuid only reads the process's user id.
    if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program).args(args);
        c
    } else {
        let mut c = Command::new(program);
        c.args(args);
        c
    }
}

impl Postgres {
    /// Starts a fresh cluster on a free port, or says why it cannot.
    fn start() -> Option<Postgres> {
        let Some(bin) = postgres_bin() else {
            eprintln!(
                "SKIPPED PostgreSQL test: no PostgreSQL server installed (apt-get install -y postgresql)"
            );
            return None;
        };
        let dir = temp_db("postgres").parent().unwrap().to_owned();
        // The cluster belongs to whoever runs it; when that is the postgres user, let it in.
        Command::new("chmod")
            .args(["777", &dir.display().to_string()])
            .status()
            .ok();
        let data = dir.join("data");
        let data = data.display().to_string();
        let init = as_postgres(
            &bin.join("initdb"),
            &["-D", &data, "-A", "trust", "-U", "punct", "--no-sync"],
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("initdb runs");
        assert!(init.success(), "initdb failed");
        let port = free_addr().port().to_string();
        let socket_dir = dir.display().to_string();
        let server = as_postgres(
            &bin.join("postgres"),
            &[
                "-D",
                &data,
                "-p",
                &port,
                "-k",
                &socket_dir,
                "-c",
                "listen_addresses=127.0.0.1",
            ],
        )
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("postgres starts");
        let pg = Postgres {
            dir,
            server,
            url: format!("postgres://punct@127.0.0.1:{port}/postgres"),
        };
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            let ready = Command::new(bin.join("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &port, "-U", "punct"])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Some(pg);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("PostgreSQL did not start on port {port} within 30 s");
    }
}

#[tokio::test]
async fn games_in_postgres_survive_kill_9() {
    let Some(pg) = tokio::task::spawn_blocking(Postgres::start).await.unwrap() else {
        return;
    };
    let db = Path::new(&pg.url);
    let addr = free_addr();
    let base = format!("http://{addr}");
    let mut server = Process::start(addr, db).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 10, "increment": 0 }))).await;
    let (vs_id, vs_token) = create(&base, json!({ "mode": "computer", "level": 1 })).await;
    let mut played = Vec::new();
    for i in 0..5 {
        let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
        let token = if state["turn"] == "white" {
            &white
        } else {
            &black
        };
        let mv = pick_move(&base, state["position"].as_str().unwrap(), i).await;
        let (status, v) = post(
            &format!("{base}/api/games/{id}/move"),
            Some(token),
            json!({ "move": mv }),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        played.push(mv);
    }
    // The computer is to move as the server dies; Black has thought for 2 s.
    let (status, _) = post(
        &format!("{base}/api/games/{vs_id}/move"),
        Some(&vs_token),
        json!({ "move": "TE4:0" }),
    )
    .await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, before) = get(&format!("{base}/api/games/{id}"), None).await;
    server.kill();
    tokio::time::sleep(Duration::from_secs(1)).await;

    let _server = Process::start(addr, db).await;
    let (status, after) = get(&format!("{base}/api/games/{id}"), Some(&black)).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"], json!(played));
    assert_eq!(after["seq"], before["seq"]);
    assert_eq!(after["turn"], "black");
    assert_eq!(after["you"], json!(["black"]));
    let (b0, b1) = (
        before["clock"]["black_ms"].as_i64().unwrap(),
        after["clock"]["black_ms"].as_i64().unwrap(),
    );
    assert!(
        b1 <= b0 + 1_300 && b1 >= b0 - 500,
        "black had {b0} ms before the crash and {b1} ms after"
    );

    // Play goes on and is seen live; the computer's pending move is made.
    let mut ws = connect(&base, &id, None).await;
    next_json(&mut ws, 5).await.unwrap();
    let mv = pick_move(&base, after["position"].as_str().unwrap(), 7).await;
    let (status, v) = post(
        &format!("{base}/api/games/{id}/move"),
        Some(&black),
        json!({ "move": mv }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let ev = next_json(&mut ws, 5).await.unwrap();
    assert_eq!(ev["detail"]["move"], mv.as_str());
    let mut vs_ws = connect(&base, &vs_id, None).await;
    wait_for(&mut vs_ws, 30, |v| {
        v["state"]["moves"].as_array().is_some_and(|m| m.len() == 2)
    })
    .await;
    // Finished games are read back from PostgreSQL too.
    let (status, _) = post(
        &format!("{base}/api/games/{vs_id}/resign"),
        Some(&vs_token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, list) = get(&format!("{base}/api/games"), None).await;
    let games = list["games"].as_array().unwrap();
    assert!(
        games
            .iter()
            .any(|g| g["id"] == vs_id.as_str() && g["live"] == false)
    );
    assert!(
        games
            .iter()
            .any(|g| g["id"] == id.as_str() && g["live"] == true)
    );
    let (status, record) = get(&format!("{base}/api/games/{vs_id}/replay"), None).await;
    assert_eq!(status, 200, "{record}");
    // And they are really in PostgreSQL.
    let psql = Command::new(postgres_bin().unwrap().join("psql"))
        .args([&pg.url, "-tAc", "SELECT count(*) FROM games"])
        .output()
        .expect("psql runs");
    assert_eq!(String::from_utf8_lossy(&psql.stdout).trim(), "2");
}
