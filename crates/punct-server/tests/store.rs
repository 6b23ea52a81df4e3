//! The SQLite store under a steady stream of writes.

mod common;

use std::time::{Duration, Instant};

use punct_server::store::{CHECKPOINT_EVERY, Store};

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
    let writers: Vec<_> = (0..32)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let data = format!("{{\"moves\":\"{}\"}}", "x".repeat(2000));
                let mut n = 0;
                while start.elapsed() < late_at {
                    store
                        .save(&format!("{i:016x}"), data.clone(), true, n)
                        .await
                        .unwrap();
                    n += 1;
                }
            })
        })
        .collect();
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
