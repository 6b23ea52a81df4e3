//! The store's portable layer, on SQLite and on a real PostgreSQL: work in the writer's
//! transaction, statements that go with a game's row (written with it or not at all), and
//! migrations applied once when two servers start together.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::pg_cluster::{Cluster, databases};
use punct_server::ops::time::TimeSource;
use punct_server::room::Stored;
use punct_server::store::sql::{Attached, Sql, Statement, Value};
use punct_server::store::{Store, WriteError};

/// A game row's data as the store keeps it (only its sequence number is read back here).
fn data(seq: u64) -> String {
    format!("{{\"seq\":{seq}}}")
}

async fn count(store: &Store, sql: &'static str) -> i64 {
    store
        .query(move |db| db.query(sql, &[])?[0].int("n"))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_in_the_writers_transaction_commits_or_is_undone_alone() {
    let (dbs, _cluster) = databases("transact");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        store
            .transact(|db| db.batch("CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT NOT NULL)"))
            .await
            .unwrap();
        let ok = store.transact(|db| {
            db.execute(
                "INSERT INTO t (k, n) VALUES ($1, $2)",
                &[Value::from("a"), 1i64.into()],
            )
        });
        // Writes one row, then fails: its row is undone, the other work's is not.
        let failing = store.transact(|db| {
            db.execute(
                "INSERT INTO t (k, n) VALUES ($1, $2)",
                &[Value::from("b"), 2i64.into()],
            )?;
            db.execute(
                "INSERT INTO t (k, n) VALUES ($1, $2)",
                &[Value::from("a"), 3i64.into()],
            )
        });
        let (ok, failing) = tokio::join!(ok, failing);
        assert_eq!(ok, Ok(1), "{db:?}");
        assert!(matches!(failing, Err(WriteError::Failed(_))), "{failing:?}");
        let rows = store
            .query(|db| {
                db.query("SELECT k, n FROM t ORDER BY k", &[])?
                    .iter()
                    .map(|r| Ok((r.text("k")?, r.int("n")?)))
                    .collect::<anyhow::Result<Vec<_>>>()
            })
            .await
            .unwrap();
        assert_eq!(rows, [("a".to_owned(), 1)], "{db:?}");
    }
}

/// A statement that fails whenever it runs.
#[derive(Debug)]
struct Failing;

impl Attached for Failing {
    fn apply(&self, db: &mut dyn Sql) -> anyhow::Result<()> {
        db.execute("INSERT INTO no_such_table VALUES (1)", &[])?;
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_goes_with_a_game_row_is_written_with_it_or_not_at_all() {
    let (dbs, _cluster) = databases("attached");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        store
            .transact(|db| db.batch("CREATE TABLE ends (game TEXT NOT NULL, seq BIGINT NOT NULL)"))
            .await
            .unwrap();
        let end = |seq: i64| -> Vec<Arc<dyn Attached>> {
            vec![Arc::new(Statement::new(
                "INSERT INTO ends (game, seq) VALUES ($1, $2)",
                [Value::from("g1"), seq.into()],
            ))]
        };
        store
            .save_with("g1", 5, data(5), false, 5, end(5))
            .await
            .unwrap();
        // A stale write of the same game: refused, and its statement not run.
        let stale = store.save_with("g1", 4, data(4), false, 4, end(4)).await;
        assert!(matches!(stale, Err(WriteError::Stale(_))), "{stale:?}");
        // What goes with the row fails: the row is not written either, and the write fails
        // alone (another game's write beside it commits).
        let (failed, other) = tokio::join!(
            store.save_with("g1", 6, data(6), false, 6, vec![Arc::new(Failing)]),
            store.save("g2", 1, data(1), true, 1),
        );
        assert!(matches!(failed, Err(WriteError::Failed(_))), "{failed:?}");
        assert_eq!(other, Ok(()));
        let seq = count(&store, "SELECT seq AS n FROM games WHERE id = 'g1'").await;
        assert_eq!(seq, 5, "{db:?}");
        assert_eq!(count(&store, "SELECT COUNT(*) AS n FROM ends").await, 1);
        assert_eq!(
            count(&store, "SELECT COUNT(*) AS n FROM games WHERE id = 'g2'").await,
            1
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_starting_at_once_apply_each_migration_once() {
    let Some(cluster) = Cluster::start("migrations at once") else {
        return;
    };
    let url = PathBuf::from(&cluster.url);
    let opened: Vec<_> = (0..3)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                Store::open::<Stored>(&url, TimeSource::system()).map(|_| ())
            })
        })
        .collect();
    for o in opened {
        o.join().unwrap().unwrap();
    }
    let store = Store::open::<Stored>(&url, TimeSource::system()).unwrap();
    let n = count(&store, "SELECT COUNT(*) AS n FROM schema_migrations").await;
    assert_eq!(n, punct_server::store::migrations::MIGRATIONS.len() as i64);
}
