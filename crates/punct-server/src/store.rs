//! Durable storage in one SQLite file: each game is a row holding its stored form as JSON.
//!
//! Writes go through one writer thread that commits whatever has queued up in a single
//! transaction (group commit) and only then answers each writer, so a change is on disk
//! before the hub tells anyone of it, and many games moving at once share one commit.
//! Reads use their own connection (WAL mode lets them run beside the writer).
//!
//! The writer also records, at least once a second, that the server is alive (`meta`
//! table, `alive_ms`), so that after a crash the clocks can charge the thinking time up to
//! the crash and not the downtime after it.

use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use crate::room::Stored;

/// How often the write-ahead log is copied into the database file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// How often the writer records that the server is alive when nothing else is written.
const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(1);

struct Write {
    id: String,
    live: bool,
    updated_ms: i64,
    data: String,
    done: oneshot::Sender<Result<(), String>>,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    writes: mpsc::Sender<Write>,
    reader: Arc<Mutex<Connection>>,
    /// The last heartbeat of the previous run, read before this run wrote its own.
    last_alive_ms: Option<i64>,
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    // WAL with synchronous=NORMAL: a committed transaction survives the process being
    // killed (it is in the OS's hands), which is the failure the server guards against;
    // FULL would add an fsync per commit for power loss.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

impl Store {
    /// Opens (creating if needed) the database at `path` and starts the writer thread.
    pub fn open(path: &Path) -> anyhow::Result<Store> {
        let writer = open(path)?;
        writer.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                live INTEGER NOT NULL,
                updated_ms INTEGER NOT NULL,
                data TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS games_recent ON games (live, updated_ms);
            CREATE TABLE IF NOT EXISTS meta (
                key TEXT PRIMARY KEY,
                value INTEGER NOT NULL
            );",
        )?;
        let last_alive_ms = writer
            .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
                r.get(0)
            })
            .optional()?;
        // Checkpoints (copying the WAL into the database, with an fsync) run on their own
        // thread rather than inside some unlucky commit, so no move waits for one.
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        let checkpointer = open(path)?;
        std::thread::Builder::new()
            .name("punct-db-checkpoint".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(CHECKPOINT_EVERY);
                    if let Err(e) = checkpointer.execute_batch("PRAGMA wal_checkpoint(PASSIVE);") {
                        tracing::warn!("checkpoint failed: {e}");
                    }
                }
            })?;
        let reader = open(path)?;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("punct-db-writer".into())
            .spawn(move || write_loop(writer, rx))?;
        Ok(Store {
            writes: tx,
            reader: Arc::new(Mutex::new(reader)),
            last_alive_ms,
        })
    }

    /// When the previous run of the server was last known to be alive (ms since the epoch),
    /// if it ever ran with this database.
    pub fn last_alive_ms(&self) -> Option<i64> {
        self.last_alive_ms
    }

    /// Stores game `id` (its stored form as JSON, `data`), returning once it is committed.
    pub async fn save(
        &self,
        id: &str,
        data: String,
        live: bool,
        updated_ms: i64,
    ) -> Result<(), String> {
        let (done, wait) = oneshot::channel();
        let write = Write {
            id: id.to_owned(),
            live,
            updated_ms,
            data,
            done,
        };
        self.writes
            .send(write)
            .map_err(|_| "the database writer has stopped".to_owned())?;
        wait.await
            .map_err(|_| "the database writer has stopped".to_owned())?
    }

    /// Runs a read on the reader connection off the async runtime.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let reader = self.reader.clone();
        let out = tokio::task::spawn_blocking(move || {
            let conn = reader.lock().unwrap_or_else(|e| e.into_inner());
            f(&conn)
        })
        .await??;
        Ok(out)
    }

    /// One game's stored form.
    pub async fn load(&self, id: &str) -> anyhow::Result<Option<Stored>> {
        let id = id.to_owned();
        let data: Option<String> = self
            .read(move |c| {
                c.query_row("SELECT data FROM games WHERE id = ?1", [id], |r| r.get(0))
                    .optional()
            })
            .await?;
        Ok(match data {
            Some(d) => Some(serde_json::from_str(&d)?),
            None => None,
        })
    }

    /// Every game still being played.
    pub async fn live_games(&self) -> anyhow::Result<Vec<Stored>> {
        let rows: Vec<String> = self
            .read(|c| {
                let mut st = c.prepare("SELECT data FROM games WHERE live = 1")?;
                st.query_map([], |r| r.get(0))?.collect()
            })
            .await?;
        rows.iter().map(|d| Ok(serde_json::from_str(d)?)).collect()
    }

    /// The `limit` most recently changed games that are still being played (`live`) or
    /// are over.
    pub async fn recent(&self, live: bool, limit: usize) -> anyhow::Result<Vec<Stored>> {
        let rows: Vec<String> = self
            .read(move |c| {
                let mut st = c.prepare_cached(
                    "SELECT data FROM games WHERE live = ?1 ORDER BY updated_ms DESC LIMIT ?2",
                )?;
                st.query_map(params![live, limit as i64], |r| r.get(0))?
                    .collect()
            })
            .await?;
        rows.iter().map(|d| Ok(serde_json::from_str(d)?)).collect()
    }
}

fn write_loop(mut conn: Connection, rx: mpsc::Receiver<Write>) {
    loop {
        let first = match rx.recv_timeout(HEARTBEAT) {
            Ok(w) => w,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = commit(&mut conn, &[]) {
                    tracing::warn!("cannot record the heartbeat: {e}");
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let result = commit(&mut conn, &batch).map_err(|e| format!("database error: {e}"));
        if let Err(e) = &result {
            tracing::error!("{e}");
        }
        for w in batch {
            let _ = w.done.send(result.clone());
        }
    }
}

/// Commits `batch` in one transaction, with the heartbeat.
fn commit(conn: &mut Connection, batch: &[Write]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.prepare_cached(
        "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
         ON CONFLICT (key) DO UPDATE SET value = ?1",
    )?
    .execute([crate::clock::now_ms()])?;
    {
        let mut st = tx.prepare_cached(
            "INSERT INTO games (id, live, updated_ms, data) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (id) DO UPDATE SET live = ?2, updated_ms = ?3, data = ?4",
        )?;
        for w in batch {
            st.execute(params![w.id, w.live, w.updated_ms, w.data])?;
        }
    }
    tx.commit()
}
