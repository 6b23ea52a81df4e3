//! Engine workers (`punct worker`, here `punct-server worker`) as real processes on a real
//! PostgreSQL (Debian's `postgresql` package; without it these tests are skipped with a
//! message): a computer game on a node whose engine is off is played by a worker; a worker
//! killed with SIGKILL in the middle of its search has its job taken again by another once
//! its lease has run out (the controlled clock moved past it), and the move is applied once;
//! a job that does not read is ended with an error naming it and the worker goes on; the
//! queue serves a game's move before any analysis. With no worker (and always on SQLite)
//! the node plays the computer's moves itself.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::pg_cluster::Cluster;
use common::*;
use postgres::{Client, NoTls};
use punct_server::store::engine_queue::{self, ANALYSIS_LANE, GAME_LANE, Renewed};
use serde_json::{Value, json};

/// The workers' lease in the test: a killed worker's job is taken again once the controlled
/// clock is moved past it.
const JOB_LEASE_MS: i64 = 30_000;

/// Runs `f` with a connection of its own to the PostgreSQL at `url`, off the runtime.
async fn with_db<T: Send + 'static>(
    url: &str,
    f: impl FnOnce(&mut Client) -> T + Send + 'static,
) -> T {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut client = Client::connect(&url, NoTls).expect("the test reaches PostgreSQL");
        f(&mut client)
    })
    .await
    .unwrap()
}

/// The queue's row of job `id`: (worker, attempts, whether it has a result, its error).
async fn job_row(url: &str, id: &str) -> Option<(Option<String>, i32, bool, Option<String>)> {
    let id = id.to_owned();
    with_db(url, move |db| {
        db.query_opt(
            "SELECT worker, attempts, result IS NOT NULL, error FROM engine_jobs WHERE id = $1",
            &[&id],
        )
        .unwrap()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
    })
    .await
}

/// Waits (20 s at most) until job `id`'s row satisfies `done`.
async fn until_job(
    url: &str,
    id: &str,
    what: &str,
    done: impl Fn(&(Option<String>, i32, bool, Option<String>)) -> bool,
) -> (Option<String>, i32, bool, Option<String>) {
    let started = Instant::now();
    loop {
        let row = job_row(url, id).await;
        if let Some(row) = row.as_ref().filter(|r| done(r)) {
            return row.clone();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what}: not within 20 s; the job is {row:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn node(addr: SocketAddr, db: &Path, clock: &ClockFile, movetime_ms: u64) -> Process {
    let clock = clock.path.clone();
    Process::start_with(addr, db, move |c| {
        c.env("PUNCT_NODE", "node-w")
            .env("PUNCT_ENGINE", "workers")
            .env("PUNCT_ENGINE_MOVETIME_MS", movetime_ms.to_string())
            .env("PUNCT_CLOCK_FILE", clock);
    })
    .await
}

/// A worker process named `name` on `url`.
fn worker(url: &str, name: &str, clock: &ClockFile) -> Process {
    let child = Command::new(env!("CARGO_BIN_EXE_punct-server"))
        .args(["worker", url, "1"])
        .env("PUNCT_WORKER", name)
        .env("PUNCT_JOB_LEASE_MS", JOB_LEASE_MS.to_string())
        .env("PUNCT_CLOCK_FILE", &clock.path)
        .stdin(Stdio::null())
        .spawn()
        .expect("the worker starts");
    Process(child)
}

async fn state(base: &str, id: &str) -> Value {
    let (status, v) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{v}");
    v
}

fn moves(v: &Value) -> usize {
    v["moves"].as_array().map_or(0, Vec::len)
}

/// Waits (20 s at most) until game `id` on `base` has `n` moves.
async fn until_moves(base: &str, id: &str, n: usize) -> Value {
    let started = Instant::now();
    loop {
        let v = state(base, id).await;
        if moves(&v) >= n {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "not {n} moves within 20 s: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn human_moves(base: &str, id: &str, token: &str, seed: usize) {
    let now = state(base, id).await;
    let mv = pick_move(base, now["position"].as_str().unwrap(), seed).await;
    let (status, v) = play_move(base, id, token, &mv).await;
    assert_eq!(status, 200, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_worker_plays_the_computer_and_a_killed_workers_move_is_made_once_by_another() {
    let Some(pg) = tokio::task::spawn_blocking(|| Cluster::start("workers"))
        .await
        .unwrap()
    else {
        return;
    };
    let db = Path::new(&pg.url).to_owned();
    let mut clock = ClockFile::beside(&temp_db("workers-clock"));
    let addr = free_addr();
    // Three seconds a move: long enough to kill the worker in the middle of its search.
    let _node = node(addr, &db, &clock, 3_000).await;
    let base = format!("http://{addr}");
    let (id, human) = create(
        &base,
        json!({ "mode": "computer", "level": 9, "colour": "white" }),
    )
    .await;
    human_moves(&base, &id, &human, 0).await;
    let seq = state(&base, &id).await["seq"].as_u64().unwrap();
    let job = engine_queue::game_job_id(&id, seq);

    // No worker yet: the node does not search; the job waits, and /metrics shows it.
    until_job(&pg.url, &job, "the job queued", |_| true).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        moves(&state(&base, &id).await),
        1,
        "the node searched itself"
    );
    assert_eq!(
        metric(&base, "punct_engine_jobs{lane=\"game\"}").await,
        Some(1.0)
    );
    assert!(metric(&base, "punct_engine_job_oldest_seconds{lane=\"game\"}").await > Some(0.2));

    // Worker A takes it and is killed while it searches: nothing is played.
    let mut a = worker(&pg.url, "worker-a", &clock);
    until_job(&pg.url, &job, "worker A taking the job", |r| {
        r.0.as_deref() == Some("worker-a")
    })
    .await;
    a.kill();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let row = job_row(&pg.url, &job).await.unwrap();
    assert!(
        !row.2 && row.3.is_none(),
        "no end for a killed search: {row:?}"
    );
    assert_eq!(moves(&state(&base, &id).await), 1);

    // Worker B takes it again once A's lease has run out, and its move is applied once.
    let mut b = worker(&pg.url, "worker-b", &clock);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        job_row(&pg.url, &job).await.unwrap().0.as_deref(),
        Some("worker-a"),
        "taken again within its lease"
    );
    clock.advance(JOB_LEASE_MS + 1_000);
    let replied = until_moves(&base, &id, 2).await;
    assert_eq!(replied["turn"], "white", "{replied}");
    let row = job_row(&pg.url, &job).await.unwrap();
    assert_eq!(
        (row.0.as_deref(), row.1, row.2),
        (Some("worker-b"), 2, true),
        "{row:?}"
    );
    // A second result for the same job (a worker whose lease ran out finishing late) is
    // dropped, and the game does not move again.
    let late = job.clone();
    let dropped = with_db(&pg.url, move |db| {
        engine_queue::finish(db, &late, "{}", 0).unwrap()
    })
    .await;
    assert!(!dropped, "a second result was written");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let settled = state(&base, &id).await;
    assert_eq!(
        (moves(&settled), &settled["seq"]),
        (2, &replied["seq"]),
        "{settled}"
    );

    // Jobs that do not read are ended with an error naming them; the worker goes on.
    with_db(&pg.url, |db| {
        db.execute(
            "INSERT INTO engine_jobs (id, lane, game, seq, job, created_ms)
             VALUES ('bad:1', 0, 'bad', 1, '{\"start\": 3}', 0),
                    ('bad:2', 0, 'bad', 2, $1, 0)",
            &[&json!({
                "start": state_start(),
                "moves": ["ZZ99:9"],
                "level": 3,
                "clock": null,
                "movetime_ms": 10
            })
            .to_string()],
        )
        .unwrap();
    })
    .await;
    let bad = until_job(&pg.url, "bad:1", "the bad job ended", |r| r.3.is_some()).await;
    let why = bad.3.unwrap();
    assert!(why.contains("engine job bad:1 does not read"), "{why}");
    let bad = until_job(&pg.url, "bad:2", "the bad move ended", |r| r.3.is_some()).await;
    let why = bad.3.unwrap();
    assert!(why.contains("engine job bad:2: move 1 `ZZ99:9`"), "{why}");
    assert!(b.0.try_wait().unwrap().is_none(), "the worker stopped");
    human_moves(&base, &id, &human, 1).await;
    until_moves(&base, &id, 4).await;
    b.kill();
}

/// The text of the standard starting position.
fn state_start() -> String {
    punct_core::Position::new(punct_core::Variant::Standard).to_string()
}

#[tokio::test]
async fn the_queue_serves_game_moves_before_analyses_and_takes_a_dead_workers_job_again() {
    let Some(pg) = tokio::task::spawn_blocking(|| Cluster::start("workers-queue"))
        .await
        .unwrap()
    else {
        return;
    };
    with_db(&pg.url, |db| {
        punct_server::store::migrations::run(db, 0).unwrap();
        // An analysis queued first, then a game's move: the move is taken first.
        assert!(engine_queue::enqueue(db, "analysis-1", ANALYSIS_LANE, "f", 0, "{}", 1).unwrap());
        assert!(engine_queue::enqueue(db, "g:3", GAME_LANE, "g", 3, "{}", 2).unwrap());
        assert!(engine_queue::enqueue(db, "g:4", GAME_LANE, "g", 4, "{}", 3).unwrap());
        assert!(
            !engine_queue::enqueue(db, "g:3", GAME_LANE, "g", 3, "{}", 5).unwrap(),
            "a game's state is queued once"
        );
        let depths = engine_queue::depths(db).unwrap();
        assert_eq!((depths[0].jobs, depths[0].oldest_ms), (2, Some(2)));
        assert_eq!((depths[1].jobs, depths[1].oldest_ms), (1, Some(1)));
        let first = engine_queue::take(db, "w1", 10, 100).unwrap().unwrap();
        assert_eq!(
            (first.id.as_str(), first.attempts, first.behind),
            ("g:3", 1, 1)
        );
        let second = engine_queue::take(db, "w1", 10, 100).unwrap().unwrap();
        assert_eq!(second.id, "g:4");
        let third = engine_queue::take(db, "w2", 10, 100).unwrap().unwrap();
        assert_eq!(third.id, "analysis-1");
        assert!(engine_queue::take(db, "w2", 10, 100).unwrap().is_none());

        // w1 dies holding g:4: nobody takes it while its lease holds, w2 after.
        assert_eq!(
            engine_queue::renew(db, "g:3", "w1", 50, 100).unwrap(),
            Renewed::Kept
        );
        assert!(engine_queue::take(db, "w2", 109, 100).unwrap().is_none());
        let again = engine_queue::take(db, "w2", 111, 100).unwrap().unwrap();
        assert_eq!((again.id.as_str(), again.attempts), ("g:4", 2));
        assert_eq!(
            engine_queue::renew(db, "g:4", "w1", 112, 100).unwrap(),
            Renewed::Lost,
            "the dead worker's lease is gone"
        );
        assert_eq!(
            engine_queue::renew(db, "analysis-1", "w2", 111, 100).unwrap(),
            Renewed::Kept
        );
        // g:3's lease was renewed to 150: still w1's.
        assert!(engine_queue::take(db, "w2", 140, 100).unwrap().is_none());

        // The first result is kept, a second dropped; an abandoned analysis is stopped.
        assert!(engine_queue::finish(db, "g:4", "{\"a\":1}", 120).unwrap());
        assert!(!engine_queue::finish(db, "g:4", "{\"b\":2}", 121).unwrap());
        assert_eq!(
            engine_queue::ended(db, "g:4").unwrap(),
            Some(engine_queue::Ended::Result("{\"a\":1}".into()))
        );
        engine_queue::cancel(db, "analysis-1").unwrap();
        assert_eq!(
            engine_queue::renew(db, "analysis-1", "w2", 122, 100).unwrap(),
            Renewed::Cancelled
        );
        assert!(engine_queue::fail(db, "g:3", "the engine panicked", 130).unwrap());
        assert_eq!(
            engine_queue::ended(db, "g:3").unwrap(),
            Some(engine_queue::Ended::Error("the engine panicked".into()))
        );
        let depths = engine_queue::depths(db).unwrap();
        assert_eq!((depths[0].jobs, depths[1].jobs), (0, 0));
        assert_eq!(engine_queue::prune(db, 200).unwrap(), 3);
    })
    .await;
}

#[tokio::test]
async fn without_workers_the_node_plays_the_computer_itself() {
    let db = temp_db("workers-none");
    let base = start_in_process(&db).await;
    let (id, human) = create(
        &base,
        json!({ "mode": "computer", "level": 1, "colour": "white" }),
    )
    .await;
    human_moves(&base, &id, &human, 0).await;
    until_moves(&base, &id, 2).await;

    // Workers need the shared PostgreSQL: asked for on SQLite, the server refuses to start.
    let out = Command::new(env!("CARGO_BIN_EXE_punct-server"))
        .args([
            free_addr().to_string(),
            temp_db("workers-sqlite").display().to_string(),
        ])
        .env("PUNCT_ENGINE", "workers")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--engine workers needs a PostgreSQL database"),
        "{said}"
    );
}
