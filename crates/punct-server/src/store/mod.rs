//! Durable storage: each game is a row holding its stored form as JSON, in an SQLite file
//! (the default) or in PostgreSQL (`--db postgres://…`, for when one machine is outgrown).
//!
//! A move that leaves its game running is not written as the whole game again (1–3 KB, most
//! of the database's work under load) but appended to `pending_moves` as a small row of
//! what it changed. The pending moves become part of their game's row when the game is next
//! stored whole (any other change, including a move that ends it), or when the writer folds
//! them in: at startup, and while running once a game has [`FOLD_AT`] of them. Everything
//! read from the database has the pending moves applied.
//!
//! Every write names the state of its game it was made on (its sequence number), and the
//! database refuses one made on a state it has moved on from ([`WriteError::Stale`]), so
//! that servers sharing one database never overwrite each other's changes.
//!
//! Writes go through one writer thread ([`writer`]) that commits whatever has queued up in
//! a single transaction (group commit) and only then answers each writer, so a change is
//! durable before the hub tells anyone of it, and many games moving at once share one
//! commit. The statements are written once per database behind one small trait
//! ([`backend::Backend`]): [`sqlite`] and [`postgres`].
//! Reads go through a reader thread with its own connection (SQLite's WAL mode, and
//! PostgreSQL itself, let it run beside the writer). Both threads own their connections, so
//! no database call ever runs on the async runtime.
//!
//! The writer also records, at least once a second, that the server is alive (`meta`
//! table, `alive_ms`), so that after a crash the clocks can charge the thinking time up to
//! the crash and not the downtime after it.
//!
//! The tables that came after the games' (the players') are made by [`migrations`] and
//! written with statements written once for both databases ([`sql`]); their writes run in
//! the writer's transaction too ([`Store::transact`]), and a game's row may carry some
//! ([`Store::save_with`]), written if and only if the row is.
//!
//! Durability: SQLite runs in WAL mode with `synchronous=NORMAL`, so a committed transaction
//! survives the server being killed (kill -9); PostgreSQL commits with its defaults
//! (`synchronous_commit=on`), which survive a crash of the database machine as well.

mod backend;
pub mod engine_queue;
mod form;
mod jobs;
pub mod lease;
pub mod migrations;
pub mod notify;
mod postgres;
pub mod sql;
mod sqlite;
mod writer;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use tokio::sync::{broadcast, oneshot};

use self::backend::{Backend, Change, GameRow};
use self::jobs::Work;
use self::sql::{Attached, Sql};
use self::writer::{Queued, Write, write_loop};
use crate::ops::outage::Outage;
use crate::ops::time::TimeSource;

pub use self::form::{Form, PendingMove};
pub use self::notify::{Channel, GameChanged, Notice};
pub use self::writer::{CHECKPOINT_EVERY, FOLD_AT};

/// A read for the reader thread.
type Read = Box<dyn FnOnce(&mut dyn Backend) + Send>;

/// Why a write was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The database failed or is out of reach (a commit whose answer was lost may have been
    /// made all the same).
    #[error("{0}")]
    Failed(String),
    /// The database holds another state of the game than the one the write was made on:
    /// another server changed it.
    #[error("{0}")]
    Stale(String),
}

/// A game found in the database that cannot be read back: its id and why.
pub type Unreadable = (String, String);

/// The database.
#[derive(Clone)]
pub struct Store {
    writes: mpsc::Sender<Queued>,
    reads: mpsc::Sender<Read>,
    /// The last heartbeat of the previous run, read before this run wrote its own.
    last_alive_ms: Option<i64>,
    /// When the writer last committed (ms since the epoch): at least once a second while
    /// it works, since it commits a heartbeat when nothing else is written.
    last_commit_ms: Arc<AtomicI64>,
    /// The server's time source, which the heartbeat and the commits' times are read from.
    time: TimeSource,
    /// An SQLite file is held locked while the store is open, so that a second server on
    /// the same file refuses to start rather than clash with this one.
    _lock: Option<Arc<File>>,
    /// Whether other servers may share the database (PostgreSQL).
    shared: bool,
    /// What the other servers sharing the database notify ([`notify`]).
    notices: notify::Notices,
}

/// Where the games are kept.
#[derive(Clone, Debug)]
pub(crate) enum Location {
    Sqlite(PathBuf),
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

    /// A new connection.
    fn connect(&self) -> anyhow::Result<Box<dyn Backend>> {
        Ok(match self {
            Location::Sqlite(path) => Box::new(sqlite::Sqlite::open(path).map_err(|e| {
                anyhow::anyhow!("cannot open the SQLite database {}: {e}", path.display())
            })?),
            Location::Postgres(url) => Box::new(postgres::Postgres::connect(url)?),
        })
    }
}

/// The database's name as it may be shown or logged: a PostgreSQL URL without its password.
pub fn redact(db: &str) -> String {
    let Some((scheme, rest)) = db.split_once("://") else {
        return db.to_owned();
    };
    // The user information ends at the last `@` before the path (a password may hold `@`).
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let hidden = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => format!("{user}@{host}"),
        },
        None => authority.to_owned(),
    };
    // A password may also come as a parameter.
    let path = match path.split_once('?') {
        Some((path, query)) => {
            let params: Vec<String> = query
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                    _ => p.to_owned(),
                })
                .collect();
            format!("{path}?{}", params.join("&"))
        }
        None => path.to_owned(),
    };
    format!("{scheme}://{hidden}{path}")
}

/// Holds the SQLite file at `path` locked for as long as the returned file is open: a
/// second server on the same file is refused with a message that says why.
fn lock_file(path: &Path) -> anyhow::Result<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot open the SQLite database {}: {e}", path.display()))?;
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => anyhow::anyhow!(
            "the database {} is in use by another punct server: stop that one first, or give \
             this one another --db",
            path.display()
        ),
        std::fs::TryLockError::Error(e) => {
            anyhow::anyhow!("cannot lock the SQLite database {}: {e}", path.display())
        }
    })?;
    Ok(file)
}

/// A game's row with its pending moves applied.
struct Folded {
    /// The stored form as JSON.
    data: String,
    /// The time of the last move.
    updated_ms: i64,
    /// The game's sequence number.
    seq: u64,
}

/// `data` (a game's row, in form `F`) with `moves` applied, or why the moves do not fit it.
fn folded<F: Form>(data: &str, moves: &[PendingMove]) -> Result<Folded, String> {
    let stored: F = with_moves(
        serde_json::from_str(data).map_err(|e| e.to_string())?,
        moves,
    )?;
    Ok(Folded {
        data: serde_json::to_string(&stored).map_err(|e| e.to_string())?,
        updated_ms: stored.updated_ms(),
        seq: stored.seq(),
    })
}

/// `stored` with `moves` applied.
fn with_moves<F: Form>(mut stored: F, moves: &[PendingMove]) -> Result<F, String> {
    for m in moves {
        stored.apply(m)?;
    }
    Ok(stored)
}

/// Starts a thread named `name` that connects to `at` and runs `body` with the connection;
/// returns once the connection is made (or with the error that prevented it), handing back
/// what `setup` found.
fn spawn_with_db<T: Send + 'static>(
    name: &str,
    at: &Location,
    setup: impl FnOnce(&mut dyn Backend) -> anyhow::Result<T> + Send + 'static,
    body: impl FnOnce(Box<dyn Backend>, T) + Send + 'static,
) -> anyhow::Result<()> {
    let (ready, started) = mpsc::channel();
    let at = at.clone();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let mut db = match at.connect() {
                Ok(db) => db,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            match setup(db.as_mut()) {
                Ok(found) => {
                    let _ = ready.send(Ok(()));
                    body(db, found);
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
    /// URL), creating its tables, and starts the writer and reader threads. An SQLite file
    /// that another server has open is refused. Games are stored in form `F`, into which the
    /// writer folds their pending moves; times (the heartbeat, commits) are read from `time`.
    pub fn open<F: Form>(path: &Path, time: TimeSource) -> anyhow::Result<Store> {
        let at = Location::of(path);
        let lock = match &at {
            Location::Sqlite(path) => Some(Arc::new(lock_file(path)?)),
            Location::Postgres(_) => None,
        };
        let notices = notify::notices();
        if let Location::Postgres(url) = &at {
            // Listening before anything is read, so that no change made meanwhile is missed.
            notify::listen(url.clone(), &notices)?;
        }
        let (tx, rx) = mpsc::channel();
        let checkpointed = Arc::new(AtomicBool::new(false));
        // The writer's setup below commits, or the store is not opened.
        let last_commit_ms = Arc::new(AtomicI64::new(time.now_ms()));
        // The writer creates the tables, folds the moves left pending by the last run and reads
        // the last heartbeat before writing anything of its own.
        let (alive_tx, alive_rx) = mpsc::channel();
        spawn_with_db(
            "punct-db-writer",
            &at,
            {
                let time = time.clone();
                move |db| {
                    db.init()?;
                    migrations::run(db.sql(), time.now_ms())?;
                    writer::fold_all::<F>(db, &time)?;
                    db.alive_ms()
                }
            },
            {
                let at = at.clone();
                let checkpointed = checkpointed.clone();
                let last_commit_ms = last_commit_ms.clone();
                let time = time.clone();
                move |db, alive| {
                    let _ = alive_tx.send(alive);
                    write_loop::<F>(db, rx, &at, &checkpointed, &last_commit_ms, &time);
                }
            },
        )?;
        let last_alive_ms = alive_rx.recv().ok().flatten();
        let (reads, read_rx) = mpsc::channel::<Read>();
        spawn_with_db("punct-db-reader", &at, |_| Ok(()), {
            let at = at.clone();
            move |mut db, ()| {
                let mut outage = Outage::new("reconnecting the database reader");
                while let Ok(read) = read_rx.recv() {
                    read(db.as_mut());
                    if db.is_lost() {
                        match at.connect() {
                            Ok(fresh) => {
                                db = fresh;
                                outage.worked(None);
                            }
                            Err(e) => outage.failed(None, &e),
                        }
                    }
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
                move |mut db, ()| loop {
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
            last_commit_ms,
            time,
            shared: matches!(at, Location::Postgres(_)),
            notices,
            _lock: lock,
        })
    }

    /// Whether other servers may share the database: PostgreSQL, where several nodes may
    /// run on one database; an SQLite file is held by one server alone.
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// What is notified from now on: on PostgreSQL every server's committed changes to
    /// games (this one's included) and every [`Store::notify`]; on SQLite the latter alone.
    pub fn notices(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    /// Notifies every server sharing the database (this one too) of a change on `channel`
    /// (the lobby's): once the writer's next transaction commits on PostgreSQL, so that it
    /// comes after the writes queued before it; at once on SQLite, where this server is
    /// the only one.
    pub async fn notify(&self, channel: Channel, payload: String) -> Result<(), WriteError> {
        if !self.shared {
            let notice = match channel {
                Channel::Games => Notice::Game(
                    GameChanged::parse(&payload)
                        .into_iter()
                        .next()
                        .ok_or_else(|| WriteError::Failed(format!("no game in {payload:?}")))?,
                ),
                Channel::Lobby => Notice::Lobby(payload),
                Channel::Jobs => Notice::Job(payload),
                Channel::Chat => Notice::Chat(payload),
            };
            let _ = self.notices.send(notice);
            return Ok(());
        }
        self.transact(move |db| {
            db.execute(
                "SELECT pg_notify($1, $2)",
                &sql::args![channel.name(), payload],
            )?;
            Ok(())
        })
        .await
    }

    /// When the previous run of the server was last known to be alive (ms since the epoch),
    /// if it ever ran with this database.
    pub fn last_alive_ms(&self) -> Option<i64> {
        self.last_alive_ms
    }

    /// Stores game `id` at state `seq` (its stored form as JSON, `data`), returning once it
    /// is committed; refused if the database holds a later state of the game.
    pub async fn save(
        &self,
        id: &str,
        seq: u64,
        data: String,
        live: bool,
        updated_ms: i64,
    ) -> Result<(), WriteError> {
        self.save_with(id, seq, data, live, updated_ms, Vec::new())
            .await
    }

    /// Stores game `id` as [`Store::save`] does, and with it, in the same transaction, what
    /// `with` writes: all of it or none (if the row is refused as stale, or if one of
    /// `with` fails, which fails this write alone).
    pub async fn save_with(
        &self,
        id: &str,
        seq: u64,
        data: String,
        live: bool,
        updated_ms: i64,
        with: Vec<Arc<dyn Attached>>,
    ) -> Result<(), WriteError> {
        self.write(Change::Game(GameRow {
            id: id.to_owned(),
            live,
            updated_ms,
            seq,
            data,
            with,
        }))
        .await
    }

    /// Runs `work` in the writer's next transaction, under a savepoint, and answers once
    /// that has committed: what `work` wrote is undone if it fails (an error of the
    /// database, or one it returns), and only its own writes.
    pub async fn transact<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut dyn Sql) -> anyhow::Result<T> + Send + 'static,
    ) -> Result<T, WriteError> {
        let (job, answer) = Work::queued(work);
        self.writes
            .send(Queued::Job(job))
            .map_err(|_| WriteError::Failed("the database writer has stopped".to_owned()))?;
        answer
            .await
            .map_err(|_| WriteError::Failed("the database writer has stopped".to_owned()))?
    }

    /// Runs the reads of `work` on the reader thread.
    pub async fn query<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut dyn Sql) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        self.read(move |db| work(db.sql())).await
    }

    /// Stores a move that left its game running, returning once it is committed: the game's
    /// stored form is the last one saved with this move applied. Refused unless the move
    /// follows the game's state in the database.
    pub async fn save_move(&self, m: PendingMove) -> Result<(), WriteError> {
        self.write(Change::Move(m)).await
    }

    /// Moves game `id`, which cannot be restored, and its pending moves out of the way into
    /// the table `damaged_games`, with `why`, for the operator to look at.
    pub async fn set_aside(&self, id: &str, why: &str) -> Result<(), WriteError> {
        self.write(writer::set_aside(id, why, self.time.now_ms()))
            .await
    }

    async fn write(&self, change: Change) -> Result<(), WriteError> {
        let stopped = || WriteError::Failed("the database writer has stopped".to_owned());
        let (done, wait) = oneshot::channel();
        self.writes
            .send(Queued::Change(Write { change, done }))
            .map_err(|_| stopped())?;
        wait.await.map_err(|_| stopped())?
    }

    /// Runs a read on the reader thread.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Backend) -> anyhow::Result<T> + Send + 'static,
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

    /// One game's stored form, with its pending moves applied.
    pub async fn load<F: Form>(&self, id: &str) -> anyhow::Result<Option<F>> {
        let id = id.to_owned();
        self.read(move |db| {
            // Pending moves first: a fold between the two reads then finds them in the row
            // already (and they are skipped), rather than in neither.
            let moves = db.pending_moves(Some(&id))?;
            let Some(data) = db.game_data(&id)? else {
                return Ok(None);
            };
            let stored = with_moves(serde_json::from_str(&data)?, &moves);
            Ok(Some(stored.map_err(anyhow::Error::msg)?))
        })
        .await
    }

    /// Every game still being played, with its pending moves applied; each game that cannot
    /// be read back is named with the reason instead, and does not stop the others.
    pub async fn live_games<F: Form>(&self) -> anyhow::Result<Vec<Result<F, Unreadable>>> {
        self.read(|db| {
            let mut moves: std::collections::HashMap<String, Vec<PendingMove>> =
                writer::by_game(db.pending_moves(None)?)
                    .into_iter()
                    .collect();
            Ok(db
                .live_data()?
                .iter()
                .map(|(id, data)| {
                    // The row's id, not the one its data names: the data may be what is
                    // damaged, and the row is what is set aside.
                    let stored: F = serde_json::from_str(data)
                        .map_err(|e| (id.clone(), format!("unreadable data: {e}")))?;
                    let pending = moves.remove(id).unwrap_or_default();
                    with_moves(stored, &pending).map_err(|e| (id.clone(), e))
                })
                .collect())
        })
        .await
    }

    /// The `limit` most recently finished games, the latest first.
    pub async fn finished<F: Form>(&self, limit: usize) -> anyhow::Result<Vec<F>> {
        self.read(move |db| {
            db.finished_data(limit)?
                .iter()
                .map(|d| Ok(serde_json::from_str(d)?))
                .collect()
        })
        .await
    }

    /// Whether the database answers: a trivial read through the reader's connection.
    pub async fn health(&self) -> anyhow::Result<()> {
        self.read(|db| db.ping()).await
    }

    /// How long ago the writer last committed. It commits at least once a second while it
    /// works (a heartbeat when nothing else is written), so a long time means that writes
    /// fail or are stuck.
    pub fn since_commit(&self) -> Duration {
        let ms = self.time.now_ms() - self.last_commit_ms.load(Ordering::Relaxed);
        Duration::from_millis(ms.max(0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(
            redact("postgres://punct:s3cr@t@db.example:5432/punct"),
            "postgres://punct:***@db.example:5432/punct"
        );
        assert_eq!(
            redact("postgresql://punct@localhost/punct?password=hunter2&sslmode=disable"),
            "postgresql://punct@localhost/punct?password=***&sslmode=disable"
        );
        assert_eq!(redact("punct.db"), "punct.db");
        assert_eq!(
            redact("postgres://localhost/punct"),
            "postgres://localhost/punct"
        );
    }
}
