//! Durable storage: each game is a row holding its stored form as JSON, in an SQLite file
//! (the default) or in PostgreSQL (`--db postgres://…`, for when one machine is outgrown).
//!
//! Writes go through one writer thread that commits whatever has queued up in a single
//! transaction (group commit) and only then answers each writer, so a change is durable
//! before the hub tells anyone of it, and many games moving at once share one commit.
//! Reads go through a reader thread with its own connection (SQLite's WAL mode, and
//! PostgreSQL itself, let it run beside the writer). Both threads own their connections, so
//! no database call ever runs on the async runtime.
//!
//! The writer also records, at least once a second, that the server is alive (`meta`
//! table, `alive_ms`), so that after a crash the clocks can charge the thinking time up to
//! the crash and not the downtime after it.
//!
//! Durability: SQLite runs in WAL mode with `synchronous=NORMAL`, so a committed transaction
//! survives the server being killed (kill -9); PostgreSQL commits with its defaults
//! (`synchronous_commit=on`), which survive a crash of the database machine as well.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use rusqlite::{OptionalExtension, params};
use tokio::sync::oneshot;

use crate::room::Stored;

/// How often SQLite's write-ahead log is copied into the database file, and so how long the
/// log may grow before it starts again (see `write_loop`). Each start costs the writer a
/// pause of about 5 ms, which the moves arriving meanwhile wait out: every 4 s that is about
/// 0.2% of the moves under the load test rather than 1% every second, which keeps it out of
/// the p99 (5–10% lower in four interleaved pairs of runs). The log is then at most 4 s of
/// writes: 240 MB at the load test's 20 000 moves a second, kilobytes at the pace of people.
pub const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(4);

/// How long a batch gathers under load before it is committed: at 17 000 moves a second,
/// 0.5 ms gathers about 20 writes into one commit (rather than 3), which halves the database
/// work per move and the thread wakeups, and raised the load test's throughput by a fifth.
const GATHER: std::time::Duration = std::time::Duration::from_micros(500);

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

/// A read for the reader thread.
type Read = Box<dyn FnOnce(&mut Db) + Send>;

/// The database.
#[derive(Clone)]
pub struct Store {
    writes: mpsc::Sender<Write>,
    reads: mpsc::Sender<Read>,
    /// The last heartbeat of the previous run, read before this run wrote its own.
    last_alive_ms: Option<i64>,
}

/// Where the games are kept.
#[derive(Clone, Debug)]
enum Location {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Location {
    fn of(path: &Path) -> Location {
        match path.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Location::Postgres(url.to_owned())
            }
            _ => Location::Sqlite(path.to_owned()),
        }
    }
}

/// One connection to either database.
enum Db {
    Sqlite(rusqlite::Connection),
    Postgres(Box<postgres::Client>),
}

fn open_sqlite(path: &Path) -> rusqlite::Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(path)?;
    // WAL with synchronous=NORMAL: a committed transaction survives the process being
    // killed (it is in the OS's hands), which is the failure the server guards against;
    // FULL would add an fsync per commit for power loss.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

impl Db {
    fn connect(at: &Location) -> anyhow::Result<Db> {
        Ok(match at {
            Location::Sqlite(path) => Db::Sqlite(open_sqlite(path)?),
            Location::Postgres(url) => Db::Postgres(Box::new(
                postgres::Client::connect(url, postgres::NoTls)
                    .map_err(|e| anyhow::anyhow!("cannot connect to PostgreSQL: {e}"))?,
            )),
        })
    }

    /// After a failure: a PostgreSQL connection that was lost (the database restarted) is
    /// made again, so that the next commit can succeed.
    fn reconnect_if_lost(&mut self, at: &Location) {
        if let Db::Postgres(c) = self
            && c.is_closed()
        {
            match Db::connect(at) {
                Ok(db) => *self = db,
                Err(e) => tracing::error!("{e}"),
            }
        }
    }

    /// Creates the tables if they are missing.
    fn init(&mut self) -> anyhow::Result<()> {
        match self {
            Db::Sqlite(c) => {
                c.execute_batch(
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
                // Checkpoints run on their own thread rather than inside some unlucky commit
                // (see `write_loop`).
                c.pragma_update(None, "wal_autocheckpoint", 0)?;
            }
            Db::Postgres(c) => c.batch_execute(
                "CREATE TABLE IF NOT EXISTS games (
                    id TEXT PRIMARY KEY,
                    live BOOLEAN NOT NULL,
                    updated_ms BIGINT NOT NULL,
                    data TEXT NOT NULL
                );
                CREATE INDEX IF NOT EXISTS games_recent ON games (live, updated_ms);
                CREATE TABLE IF NOT EXISTS meta (
                    key TEXT PRIMARY KEY,
                    value BIGINT NOT NULL
                );",
            )?,
        }
        Ok(())
    }

    fn alive_ms(&mut self) -> anyhow::Result<Option<i64>> {
        Ok(match self {
            Db::Sqlite(c) => c
                .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
                    r.get(0)
                })
                .optional()?,
            Db::Postgres(c) => c
                .query_opt("SELECT value FROM meta WHERE key = 'alive_ms'", &[])?
                .map(|r| r.get(0)),
        })
    }

    /// Copies SQLite's write-ahead log into the database file (PostgreSQL does its own).
    fn checkpoint(&mut self) -> rusqlite::Result<()> {
        match self {
            Db::Sqlite(c) => c.execute_batch("PRAGMA wal_checkpoint(PASSIVE);"),
            Db::Postgres(_) => Ok(()),
        }
    }

    /// Commits `batch` in one transaction, with the heartbeat if `heartbeat`.
    fn commit(&mut self, batch: &[Write], heartbeat: bool) -> anyhow::Result<()> {
        let now = crate::clock::now_ms();
        match self {
            Db::Sqlite(c) => {
                let tx = c.transaction()?;
                if heartbeat {
                    tx.prepare_cached(
                        "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                         ON CONFLICT (key) DO UPDATE SET value = ?1",
                    )?
                    .execute([now])?;
                }
                {
                    let mut st = tx.prepare_cached(
                        "INSERT INTO games (id, live, updated_ms, data) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (id) DO UPDATE SET live = ?2, updated_ms = ?3, data = ?4",
                    )?;
                    for w in batch {
                        st.execute(params![w.id, w.live, w.updated_ms, w.data])?;
                    }
                }
                tx.commit()?;
            }
            Db::Postgres(c) => {
                let mut tx = c.transaction()?;
                if heartbeat {
                    tx.execute(
                        "INSERT INTO meta (key, value) VALUES ('alive_ms', $1)
                         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                        &[&now],
                    )?;
                }
                if !batch.is_empty() {
                    let st = tx.prepare(
                        "INSERT INTO games (id, live, updated_ms, data) VALUES ($1, $2, $3, $4)
                         ON CONFLICT (id) DO UPDATE SET live = EXCLUDED.live,
                             updated_ms = EXCLUDED.updated_ms, data = EXCLUDED.data",
                    )?;
                    for w in batch {
                        tx.execute(&st, &[&w.id, &w.live, &w.updated_ms, &w.data])?;
                    }
                }
                tx.commit()?;
            }
        }
        Ok(())
    }

    fn load(&mut self, id: &str) -> anyhow::Result<Option<String>> {
        Ok(match self {
            Db::Sqlite(c) => c
                .prepare_cached("SELECT data FROM games WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?,
            Db::Postgres(c) => c
                .query_opt("SELECT data FROM games WHERE id = $1", &[&id])?
                .map(|r| r.get(0)),
        })
    }

    fn live_games(&mut self) -> anyhow::Result<Vec<String>> {
        Ok(match self {
            Db::Sqlite(c) => c
                .prepare_cached("SELECT data FROM games WHERE live = 1")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?,
            Db::Postgres(c) => c
                .query("SELECT data FROM games WHERE live", &[])?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        })
    }

    fn recent(&mut self, live: bool, limit: usize) -> anyhow::Result<Vec<String>> {
        let limit = limit as i64;
        Ok(match self {
            Db::Sqlite(c) => c
                .prepare_cached(
                    "SELECT data FROM games WHERE live = ?1 ORDER BY updated_ms DESC LIMIT ?2",
                )?
                .query_map(params![live, limit], |r| r.get(0))?
                .collect::<Result<_, _>>()?,
            Db::Postgres(c) => c
                .query(
                    "SELECT data FROM games WHERE live = $1 ORDER BY updated_ms DESC LIMIT $2",
                    &[&live, &limit],
                )?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        })
    }
}

/// Starts a thread named `name` that connects to `at` and runs `body` with the connection;
/// returns once the connection is made (or with the error that prevented it), handing back
/// what `setup` found.
fn spawn_with_db<T: Send + 'static>(
    name: &str,
    at: &Location,
    setup: impl FnOnce(&mut Db) -> anyhow::Result<T> + Send + 'static,
    body: impl FnOnce(Db) + Send + 'static,
) -> anyhow::Result<T> {
    let (ready, started) = mpsc::channel();
    let at = at.clone();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let mut db = match Db::connect(&at) {
                Ok(db) => db,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            match setup(&mut db) {
                Ok(found) => {
                    let _ = ready.send(Ok(found));
                    body(db);
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            }
        })?;
    started
        .recv()
        .map_err(|_| anyhow::anyhow!("the {name} thread stopped at once"))?
}

impl Store {
    /// Opens the database at `path` (an SQLite file, created if needed, or a `postgres://`
    /// URL), creating its tables, and starts the writer and reader threads.
    pub fn open(path: &Path) -> anyhow::Result<Store> {
        let at = Location::of(path);
        let (tx, rx) = mpsc::channel();
        let checkpointed = Arc::new(AtomicBool::new(false));
        // The writer creates the tables and reads the last heartbeat before writing its own.
        let last_alive_ms = spawn_with_db(
            "punct-db-writer",
            &at,
            |db| {
                db.init()?;
                db.alive_ms()
            },
            {
                let at = at.clone();
                let checkpointed = checkpointed.clone();
                move |db| write_loop(db, rx, &at, &checkpointed)
            },
        )?;
        let (reads, read_rx) = mpsc::channel::<Read>();
        spawn_with_db("punct-db-reader", &at, |_| Ok(()), {
            let at = at.clone();
            move |mut db| {
                while let Ok(read) = read_rx.recv() {
                    read(&mut db);
                    db.reconnect_if_lost(&at);
                }
            }
        })?;
        if let Location::Sqlite(_) = at {
            // Checkpoints (copying the log into the database, with an fsync: 40 ms on this
            // disk) run on their own thread, so that no move waits for one.
            spawn_with_db(
                "punct-db-checkpoint",
                &at,
                |_| Ok(()),
                move |mut db| loop {
                    std::thread::sleep(CHECKPOINT_EVERY);
                    if let Err(e) = db.checkpoint() {
                        tracing::warn!("checkpoint failed: {e}");
                    }
                    checkpointed.store(true, Ordering::Relaxed);
                },
            )?;
        }
        Ok(Store {
            writes: tx,
            reads,
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

    /// Runs a read on the reader thread.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Db) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let (done, wait) = oneshot::channel();
        self.reads
            .send(Box::new(move |db| {
                let _ = done.send(f(db));
            }))
            .map_err(|_| anyhow::anyhow!("the database reader has stopped"))?;
        wait.await
            .map_err(|_| anyhow::anyhow!("the database reader has stopped"))?
    }

    /// One game's stored form.
    pub async fn load(&self, id: &str) -> anyhow::Result<Option<Stored>> {
        let id = id.to_owned();
        let data = self.read(move |db| db.load(&id)).await?;
        Ok(match data {
            Some(d) => Some(serde_json::from_str(&d)?),
            None => None,
        })
    }

    /// Every game still being played.
    pub async fn live_games(&self) -> anyhow::Result<Vec<Stored>> {
        let rows = self.read(Db::live_games).await?;
        rows.iter().map(|d| Ok(serde_json::from_str(d)?)).collect()
    }

    /// The `limit` most recently changed games that are still being played (`live`) or
    /// are over.
    pub async fn recent(&self, live: bool, limit: usize) -> anyhow::Result<Vec<Stored>> {
        let rows = self.read(move |db| db.recent(live, limit)).await?;
        rows.iter().map(|d| Ok(serde_json::from_str(d)?)).collect()
    }
}

/// When the writer records next that the server is alive. The heartbeat rides along with the
/// first commit after it falls due, or is written alone when it falls due in a quiet moment:
/// under load, writing it in every commit (a thousand a second) added a page to each.
#[derive(Default)]
struct Heartbeat {
    /// When it was last written; `None` before the first time.
    written: Option<std::time::Instant>,
}

impl Heartbeat {
    /// How long until it falls due.
    fn due_in(&self) -> std::time::Duration {
        self.written.map_or(std::time::Duration::ZERO, |t| {
            HEARTBEAT.saturating_sub(t.elapsed())
        })
    }

    /// Whether the next commit should carry it; if so, it counts as written.
    fn take(&mut self) -> bool {
        let due = self.due_in().is_zero();
        if due {
            self.written = Some(std::time::Instant::now());
        }
        due
    }
}

fn write_loop(mut db: Db, rx: mpsc::Receiver<Write>, at: &Location, checkpointed: &AtomicBool) {
    // A moving average of the number of writes per commit.
    let mut batch_size = 1.0_f32;
    let mut heartbeat = Heartbeat::default();
    loop {
        // After each checkpoint of the checkpoint thread, the writer finishes the job itself
        // between two commits: with no write running it catches up with the whole log, and
        // the next commit starts the log again from its beginning. A checkpoint beside a busy
        // writer never catches up, and the log grew without end (40 MB a second under the
        // load test). The thread did the bulk and the fsync: what is left takes a few ms.
        if checkpointed.swap(false, Ordering::Relaxed)
            && let Err(e) = db.checkpoint()
        {
            tracing::warn!("checkpoint failed: {e}");
        }
        let first = match rx.recv_timeout(heartbeat.due_in()) {
            Ok(w) => w,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = db.commit(&[], heartbeat.take()) {
                    tracing::warn!("cannot record the heartbeat: {e}");
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        // Under load (recent batches held more than one write on average), the batch
        // gathers for a moment before it is committed, so that writes join it without
        // waking this thread and one commit serves many games. At a quiet time a write is
        // committed at once.
        if batch_size > 1.5 {
            std::thread::sleep(GATHER);
        }
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        batch_size = 0.9 * batch_size + 0.1 * batch.len() as f32;
        let result = db
            .commit(&batch, heartbeat.take())
            .map_err(|e| format!("database error: {e}"));
        if let Err(e) = &result {
            tracing::error!("{e}");
            db.reconnect_if_lost(at);
        }
        for w in batch {
            let _ = w.done.send(result.clone());
        }
    }
}
