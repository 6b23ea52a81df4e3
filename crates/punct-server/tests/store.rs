//! The SQLite store under a steady stream of writes.

mod common;

use std::time::{Duration, Instant};

use punct_server::store::Store;

/// SQLite's write-ahead log starts again from its beginning after each checkpoint, even
/// while writes never stop: its size is that of a second or two of writes, not of all the
/// writes so far (it once grew for as long as the server was busy).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_stays_bounded_under_steady_writes() {
    let path = common::temp_db("wal");
    let store = Store::open(&path).unwrap();
    let wal = path.with_extension("db-wal");
    let start = Instant::now();
    // 32 games writing as fast as the store takes them, each row a few KB like a long game.
    let writers: Vec<_> = (0..32)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let data = format!("{{\"moves\":\"{}\"}}", "x".repeat(2000));
                let mut n = 0;
                while start.elapsed() < Duration::from_secs(5) {
                    store
                        .save(&format!("{i:016x}"), data.clone(), true, n)
                        .await
                        .unwrap();
                    n += 1;
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let early = std::fs::metadata(&wal).unwrap().len();
    for w in writers {
        w.await.unwrap();
    }
    let late = std::fs::metadata(&wal).unwrap().len();
    // Growing with the writes, the log would be 2.5 times as long at 5 s as at 2 s.
    assert!(
        late < early * 3 / 2,
        "the log grew from {early} bytes at 2 s to {late} at 5 s"
    );
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}
