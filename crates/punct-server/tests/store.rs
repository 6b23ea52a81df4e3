//! The SQLite store under a steady stream of writes.

mod common;

use std::time::{Duration, Instant};

use punct_server::store::{CHECKPOINT_EVERY, Store};
use tokio::task::JoinHandle;

/// `count` games, each storing `data` again as soon as its last write is committed, until
/// `until`.
fn writers(store: &Store, count: usize, data: &str, until: Instant) -> Vec<JoinHandle<()>> {
    (0..count)
        .map(|i| {
            let (store, data) = (store.clone(), data.to_owned());
            tokio::spawn(async move {
                let mut n = 0;
                while Instant::now() < until {
                    store
                        .save(&format!("{i:016x}"), data.clone(), true, n)
                        .await
                        .unwrap();
                    n += 1;
                }
            })
        })
        .collect()
}

/// SQLite's write-ahead log starts again from its beginning after each checkpoint, even
/// while writes never stop: its size is that of one checkpoint interval of writes, not of all
/// the writes so far (it once grew for as long as the server was busy).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_stays_bounded_under_steady_writes() {
    let path = common::temp_db("wal");
    let store = Store::open(&path).unwrap();
    let wal = path.with_extension("db-wal");
    let start = Instant::now();
    // Measured after the first checkpoint interval and again after three: a log that grew
    // with the writes would be 2.6 times as long the second time.
    let early_at = CHECKPOINT_EVERY + Duration::from_secs(1);
    let late_at = 3 * CHECKPOINT_EVERY + Duration::from_secs(1);
    // 32 games writing as fast as the store takes them, each row a few KB like a long game.
    let data = format!("{{\"moves\":\"{}\"}}", "x".repeat(2000));
    let writers = writers(&store, 32, &data, start + late_at);
    tokio::time::sleep(early_at).await;
    let early = std::fs::metadata(&wal).unwrap().len();
    for w in writers {
        w.await.unwrap();
    }
    let late = std::fs::metadata(&wal).unwrap().len();
    assert!(
        late < early * 3 / 2,
        "the log grew from {early} bytes at {early_at:?} to {late} at {late_at:?}"
    );
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// The writer records that the server is alive at least once a second even when commits
/// never stop (the heartbeat rides with one of them), so that after a crash the clocks are
/// charged up to the last second before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_heartbeat_keeps_up_under_steady_writes() {
    let path = common::temp_db("heartbeat");
    let store = Store::open(&path).unwrap();
    let start = Instant::now();
    // Eight times as many writers as a commit takes: some are always queued when a commit
    // ends, so the writer is never idle (when it is, it writes the heartbeat alone).
    let writers = writers(&store, 2048, "{}", start + Duration::from_millis(3000));
    tokio::time::sleep(Duration::from_millis(2500)).await;
    // Read while the writes still go on.
    let alive: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let age = punct_server::clock::now_ms() - alive;
    for w in writers {
        w.await.unwrap();
    }
    // A second, and room for a slow commit on a busy machine.
    assert!(age <= 1500, "the last heartbeat was {age} ms old");
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}
