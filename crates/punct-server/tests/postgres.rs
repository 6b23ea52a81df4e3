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
    bin: PathBuf,
    port: String,
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
        let server = Postgres::spawn(&bin, &dir, &port);
        let pg = Postgres {
            dir,
            server,
            url: format!("postgres://punct@127.0.0.1:{port}/postgres"),
            bin,
            port,
        };
        pg.wait_ready();
        Some(pg)
    }

    /// The postmaster of the cluster in `dir`, on `port`.
    fn spawn(bin: &Path, dir: &Path, port: &str) -> Child {
        let data = dir.join("data").display().to_string();
        as_postgres(
            &bin.join("postgres"),
            &[
                "-D",
                &data,
                "-p",
                port,
                "-k",
                &dir.display().to_string(),
                "-c",
                "listen_addresses=127.0.0.1",
            ],
        )
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("postgres starts")
    }

    fn wait_ready(&self) {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            let ready = Command::new(self.bin.join("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &self.port, "-U", "punct"])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("PostgreSQL did not start on port {} within 30 s", self.port);
    }

    /// `pg_ctl stop -m fast`: every connection is cut and the server shuts down.
    fn stop_fast(&mut self) {
        let data = self.dir.join("data").display().to_string();
        let stopped = as_postgres(
            &self.bin.join("pg_ctl"),
            &["-D", &data, "stop", "-m", "fast", "-w"],
        )
        .stdout(Stdio::null())
        .status()
        .expect("pg_ctl runs");
        assert!(stopped.success(), "pg_ctl stop failed");
        self.server.wait().ok();
    }

    /// Starts the stopped cluster again on the same port.
    fn start_again(&mut self) {
        self.server = Postgres::spawn(&self.bin, &self.dir, &self.port);
        self.wait_ready();
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
        let (status, v) = play_move(&base, &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        played.push(mv);
    }
    // The computer is to move as the server dies; Black has thought for 2 s.
    let (status, _) = play_move(&base, &vs_id, &vs_token, "TE4:0").await;
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
    let (status, v) = play_move(&base, &id, &black, &mv).await;
    assert_eq!(status, 200, "{v}");
    // A catch-up announcement may come before the move's own event.
    wait_for(&mut ws, 5, |ev| ev["detail"]["move"] == mv.as_str()).await;
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

/// Plays a move for whoever is to move in friend game `id`, naming the state it was made
/// on and sending it again, as a client that heard no answer would, until it is answered:
/// returns the move and how many tries were refused as the database being away.
async fn play_until_answered(
    base: &str,
    id: &str,
    tokens: [&str; 2],
    seed: usize,
) -> (String, usize) {
    let mut refused = 0;
    let started = Instant::now();
    let state = loop {
        let (status, state) = get(&format!("{base}/api/games/{id}"), None).await;
        if status == 200 {
            break state;
        }
        assert_eq!(status, 503, "{state}");
        refused += 1;
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no answer for 60 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let token = if state["turn"] == "white" {
        tokens[0]
    } else {
        tokens[1]
    };
    let mv = pick_move(base, state["position"].as_str().unwrap(), seed).await;
    let body = json!({ "move": mv, "seq": state["seq"] });
    loop {
        let (status, v) = post(
            &format!("{base}/api/games/{id}/move"),
            Some(token),
            body.clone(),
        )
        .await;
        if status == 200 {
            return (mv, refused);
        }
        assert_eq!(status, 503, "{v}");
        refused += 1;
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no answer for 60 s: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// PostgreSQL stopped (`pg_ctl stop -m fast`) and started again mid-game: moves meanwhile are
/// refused as the database being away (503), the server finds the database again by itself
/// within seconds, and every acknowledged move is there once, also after a kill -9.
#[tokio::test]
async fn a_postgres_restart_is_weathered_without_losing_or_doubling_a_move() {
    let Some(mut pg) = tokio::task::spawn_blocking(Postgres::start).await.unwrap() else {
        return;
    };
    let db = PathBuf::from(&pg.url);
    let addr = free_addr();
    let base = format!("http://{addr}");
    let mut server = Process::start(addr, &db).await;
    let (id, white, black) = friend_game(&base, None).await;
    let tokens = [white.as_str(), black.as_str()];
    let mut played = Vec::new();
    for seed in 0..3 {
        played.push(play_until_answered(&base, &id, tokens, seed).await.0);
    }
    for round in 0..3 {
        pg = tokio::task::spawn_blocking(move || {
            pg.stop_fast();
            pg
        })
        .await
        .unwrap();
        // The health check says so while the database is away.
        let (status, health) = get(&format!("{base}/healthz"), None).await;
        assert_eq!(
            (status, &health["status"]),
            (503, &json!("unavailable")),
            "{health}"
        );
        // The move is tried while the database is away, and answered once it is back.
        let restart = tokio::task::spawn_blocking(move || {
            std::thread::sleep(Duration::from_millis(1500));
            pg.start_again();
            (pg, Instant::now())
        });
        let (mv, refused) = play_until_answered(&base, &id, tokens, 10 + round).await;
        let (back, up_at) = restart.await.unwrap();
        pg = back;
        assert!(
            refused > 0,
            "round {round}: no move was refused while the database was away"
        );
        let recovered = up_at.elapsed();
        assert!(
            recovered < Duration::from_secs(10),
            "round {round}: {recovered:?} after PostgreSQL was back"
        );
        played.push(mv);
        played.push(play_until_answered(&base, &id, tokens, 20 + round).await.0);
    }
    let (status, health) = get(&format!("{base}/healthz"), None).await;
    assert_eq!(status, 200, "{health}");
    let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(state["moves"], json!(played));
    server.kill();
    let _server = Process::start(addr, &db).await;
    let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(state["moves"], json!(played));
    drop(pg);
}

/// Two servers on one PostgreSQL database never overwrite each other: a move sent to a
/// server that has not yet heard of the other's last change is made on the true state (the
/// stale write is refused by the database, the game read back and the move made again),
/// never answered 409 for it; a server starting beside a running one folds that one's
/// pending moves without losing any.
#[tokio::test]
async fn two_servers_on_one_database_never_overwrite_each_other() {
    let Some(pg) = tokio::task::spawn_blocking(Postgres::start).await.unwrap() else {
        return;
    };
    let db = PathBuf::from(&pg.url);
    let (a_addr, b_addr) = (free_addr(), free_addr());
    let (a, b) = (format!("http://{a_addr}"), format!("http://{b_addr}"));
    let mut server_a = Process::start(a_addr, &db).await;
    let mut server_b = Process::start(b_addr, &db).await;
    let (id, white, black) = friend_game(&a, None).await;
    let game = |base: &str| format!("{base}/api/games/{id}");
    let position = |state: &serde_json::Value| state["position"].as_str().unwrap().to_owned();
    let play = |base: String, token: String, mv: String| {
        let url = format!("{}/move", game(&base));
        async move { post(&url, Some(&token), json!({ "move": mv })).await }
    };
    // White moves on A; then B reads the game.
    let (_, state) = get(&game(&a), None).await;
    let x = pick_move(&a, &position(&state), 0).await;
    let (status, v) = play(a.clone(), white.clone(), x.clone()).await;
    assert_eq!(status, 200, "{v}");
    let (_, on_b) = get(&game(&b), None).await;
    assert_eq!(on_b["moves"], json!([x]));
    // Black moves on A, and at once White's answer goes to B, which may not have heard of
    // Black's move: it is made after it all the same.
    let y = pick_move(&a, &position(&on_b), 1).await;
    let (status, v) = play(a.clone(), black.clone(), y.clone()).await;
    assert_eq!(status, 200, "{v}");
    let (_, on_a) = get(&game(&a), None).await;
    let x2 = pick_move(&a, &position(&on_a), 2).await;
    let (status, v) = play(b.clone(), white.clone(), x2.clone()).await;
    assert_eq!(status, 200, "{v}");
    // Both hold what the database holds.
    let (_, on_b) = get(&game(&b), None).await;
    assert_eq!(on_b["moves"], json!([x, y, x2]));
    let (_, on_a) = get(&game(&a), None).await;
    assert_eq!(on_a["moves"], json!([x, y, x2]));
    // B starts again (folding every pending move as it starts) while A plays on.
    server_b.kill();
    let _server_b = Process::start(b_addr, &db).await;
    let w = pick_move(&a, &position(&on_b), 3).await;
    let (status, v) = play(a.clone(), black.clone(), w.clone()).await;
    assert_eq!(status, 200, "{v}");
    // Nothing was lost: A, started again, reads every move from the database.
    server_a.kill();
    let _server_a = Process::start(a_addr, &db).await;
    let (_, on_a) = get(&game(&a), None).await;
    assert_eq!(on_a["moves"], json!([x, y, x2, w]));
    drop(pg);
}

/// While PostgreSQL is away, a game whose move could not be stored (its room in memory is
/// stale, to be read back) still answers reads from its last committed state, over HTTP and
/// on a new WebSocket; once the database is back the game is read back and play goes on.
#[tokio::test]
async fn reads_go_on_from_memory_while_the_database_is_away() {
    let Some(mut pg) = tokio::task::spawn_blocking(Postgres::start).await.unwrap() else {
        return;
    };
    let db = PathBuf::from(&pg.url);
    let addr = free_addr();
    let base = format!("http://{addr}");
    let _server = Process::start(addr, &db).await;
    let (id, white, black) = friend_game(&base, None).await;
    let url = format!("{base}/api/games/{id}");
    let (status, played) = play_move(&base, &id, &white, "TE4:0").await;
    assert_eq!(status, 200, "{played}");
    let seq = played["seq"].as_u64().unwrap();
    pg = tokio::task::spawn_blocking(move || {
        pg.stop_fast();
        pg
    })
    .await
    .unwrap();
    let body = json!({ "move": "TK5:0", "seq": seq });
    let (status, refused) = post(&format!("{url}/move"), Some(&black), body.clone()).await;
    assert_eq!(status, 503, "{refused}");
    for token in [None, Some(black.as_str())] {
        let (status, state) = get(&url, token).await;
        assert_eq!(status, 200, "a read while the database is away: {state}");
        assert_eq!(
            (state["seq"].as_u64(), &state["moves"]),
            (Some(seq), &json!(["TE4:0"]))
        );
    }
    let (_, state) = get(&url, Some(&black)).await;
    assert_eq!(state["you"], json!(["black"]));
    let mut ws = connect(&base, &id, Some(&black)).await;
    let first = next_json(&mut ws, 5).await.unwrap();
    assert_eq!(
        (&first["type"], first["seq"].as_u64()),
        (&json!("state"), Some(seq))
    );
    pg = tokio::task::spawn_blocking(move || {
        pg.start_again();
        pg
    })
    .await
    .unwrap();
    // The move that failed was not made; sent again, it is.
    let started = Instant::now();
    loop {
        let (status, v) = post(&format!("{url}/move"), Some(&black), body.clone()).await;
        if status == 200 {
            assert_eq!(v["moves"], json!(["TE4:0", "TK5:0"]));
            break;
        }
        assert_eq!(status, 503, "{v}");
        assert!(started.elapsed() < Duration::from_secs(30), "{v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let seen = wait_for(&mut ws, 10, |m| m["type"] == "event").await;
    assert_eq!(seen["seq"].as_u64(), Some(seq + 1), "{seen}");
    drop(pg);
}

/// With several nodes, a node's copy of a game may be behind what another node committed,
/// so while the database is away a node that knows of others refuses reads (503) rather
/// than show a state whose acknowledged moves may be undone; once the database is back it
/// answers with every move, wherever each was made.
#[tokio::test]
async fn with_several_nodes_reads_wait_for_the_database() {
    let Some(mut pg) = tokio::task::spawn_blocking(Postgres::start).await.unwrap() else {
        return;
    };
    let db = PathBuf::from(&pg.url);
    let (a, b) = (free_addr(), free_addr());
    let _node_a = Process::node(a, &db, "node-a").await;
    // Started second, node B knows of node A from its start.
    let _node_b = Process::node(b, &db, "node-b").await;
    let (base_a, base_b) = (format!("http://{a}"), format!("http://{b}"));
    let (id, white, black) = friend_game(&base_a, None).await;
    let (status, v) = play_move(&base_a, &id, &white, "TE4:0").await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = play_move(&base_b, &id, &black, "TK5:0").await;
    assert_eq!(status, 200, "{v}");
    let seq = v["seq"].as_u64().unwrap();
    let url = format!("{base_b}/api/games/{id}");
    pg = tokio::task::spawn_blocking(move || {
        pg.stop_fast();
        pg
    })
    .await
    .unwrap();
    for token in [None, Some(black.as_str())] {
        let (status, v) = get(&url, token).await;
        assert_eq!(
            status, 503,
            "a read on node B while the database is away: {v}"
        );
    }
    pg = tokio::task::spawn_blocking(move || {
        pg.start_again();
        pg
    })
    .await
    .unwrap();
    let started = Instant::now();
    let state = loop {
        let (status, v) = get(&url, None).await;
        if status == 200 {
            break v;
        }
        assert_eq!(status, 503, "{v}");
        assert!(started.elapsed() < Duration::from_secs(30), "{v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        (state["seq"].as_u64(), &state["moves"]),
        (Some(seq), &json!(["TE4:0", "TK5:0"]))
    );
    drop(pg);
}

/// A database outage is logged once, not once per refused request: a line when it begins
/// and one when it ends, naming when it began, how long it lasted and how many requests it
/// refused, however many clients try meanwhile.
#[tokio::test]
async fn a_database_outage_is_logged_once_with_its_start_end_and_the_requests_it_refused() {
    let Some(mut pg) = tokio::task::spawn_blocking(Postgres::start).await.unwrap() else {
        return;
    };
    let db = PathBuf::from(&pg.url);
    let addr = free_addr();
    let base = format!("http://{addr}");
    let mut server = Process::start_with(addr, &db, |c| {
        c.stderr(Stdio::piped()).env("PUNCT_LOG_FORMAT", "json");
    })
    .await;
    let log = server.stderr_lines();
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(friend_game(&base, None).await);
    }
    pg = tokio::task::spawn_blocking(move || {
        pg.stop_fast();
        pg
    })
    .await
    .unwrap();
    // Four clients try a move ten times a second for three seconds, and go on once the
    // database is back until their move is made.
    let outage = Instant::now() + Duration::from_secs(3);
    let clients: Vec<_> = games
        .into_iter()
        .map(|(id, white, _)| {
            let base = base.clone();
            tokio::spawn(async move {
                let mut refused = 0;
                loop {
                    let (status, v) = play_move(&base, &id, &white, "TE4:0").await;
                    match status {
                        200 => return refused,
                        503 => refused += 1,
                        _ => panic!("{status}: {v}"),
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        })
        .collect();
    tokio::time::sleep_until(outage.into()).await;
    pg = tokio::task::spawn_blocking(move || {
        pg.start_again();
        pg
    })
    .await
    .unwrap();
    let mut refused = 0;
    for client in clients {
        refused += client.await.unwrap();
    }
    assert!(refused >= 40, "only {refused} requests were refused");
    // The writer's commit after the outage comes within a second; then the log is read.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let lines: Vec<serde_json::Value> = log
        .lock()
        .unwrap()
        .iter()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let loud: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["level"] == "ERROR" || l["level"] == "WARN")
        .collect();
    assert!(
        loud.len() <= 6,
        "{} lines at warning or error for one outage and {refused} refusals: {loud:#?}",
        loud.len()
    );
    let ended: Vec<&&serde_json::Value> = loud
        .iter()
        .filter(|l| {
            l["message"]
                .as_str()
                .is_some_and(|m| m.contains("works again"))
        })
        .collect();
    assert_eq!(ended.len(), 1, "{loud:#?}");
    let ended = ended[0];
    assert_eq!(ended["refused"], refused, "{ended}");
    assert!(ended["began"].is_string(), "{ended}");
    assert!(
        ended["lasted_s"].as_f64().is_some_and(|s| s >= 2.5),
        "{ended}"
    );
    drop(pg);
}
