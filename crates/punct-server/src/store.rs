//! Durable storage: each game is a row holding its stored form as JSON, in an SQLite file
//! (the default) or in PostgreSQL (`--db postgres://…`, for when one machine is outgrown).
//!
//! A move that leaves its game running is not written as the whole game again (1–3 KB, most
//! of the database's work under load) but appended to `pending_moves` as a small row of
//! what it changed. The pending moves become part of their game's row when the game is next
//! stored whole (any other change, including a move that ends it), or when the writer folds
//! them in: at startup, and while running for a game whose pending moves are the oldest rows
//! left for too long. Rows no game needs any more are deleted in runs. Everything read from
//! the database has the pending moves applied.
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

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use rusqlite::{OptionalExtension, params};
use tokio::sync::oneshot;

use crate::room::{PendingMove, Stored};

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

/// Once the oldest pending move lies this many rows behind the newest, the writer folds the
/// games holding up the log (an idle game's moves would keep every later row alive). Under
/// the load test a game ends, and its moves go with it, well within this.
const FOLD_BEHIND: i64 = 1 << 16;

/// Most games folded after one commit, so that folding never holds up the moves waiting.
const FOLDS_PER_COMMIT: usize = 4;

/// Rows of `pending_moves` that no game needs any more are deleted once there are this many
/// in a row: a few pages freed at once rather than a row at a time, yet few enough that the
/// commit carrying the delete is not held up (4096 at once took milliseconds).
const TRIM_EVERY: i64 = 256;

/// A game's row: its whole stored form as JSON, and the columns the lists sort on.
struct GameRow {
    id: String,
    live: bool,
    updated_ms: i64,
    data: String,
}

/// A change to store.
enum Change {
    /// A game's whole stored form.
    Game(GameRow),
    /// A move that left its game running.
    Move(PendingMove),
}

struct Write {
    change: Change,
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

/// The columns of `pending_moves` that make a [`PendingMove`], as read by [`sqlite_pending`]
/// and [`postgres_pending`].
const PENDING_COLUMNS: &str = "SELECT game, seq, at_ms, mover, move, left_ms FROM pending_moves";

fn sqlite_pending(r: &rusqlite::Row) -> rusqlite::Result<PendingMove> {
    Ok(PendingMove {
        game: r.get(0)?,
        seq: r.get::<_, i64>(1)? as u64,
        at_ms: r.get(2)?,
        mover: r.get(3)?,
        text: r.get(4)?,
        left_ms: r.get(5)?,
    })
}

fn postgres_pending(r: &postgres::Row) -> PendingMove {
    PendingMove {
        game: r.get(0),
        seq: r.get::<_, i64>(1) as u64,
        at_ms: r.get(2),
        mover: r.get::<_, i16>(3) as u8,
        text: r.get(4),
        left_ms: r.get(5),
    }
}

/// Work on `pending_moves` done in a commit before its writes: folding games' pending moves
/// into their rows, then deleting the rows numbered below `trim_below`.
#[derive(Default)]
struct Upkeep {
    /// Games with their pending moves, oldest first.
    folds: Vec<(String, Vec<PendingMove>)>,
    /// Rows numbered below this go.
    trim_below: Option<i64>,
}

/// `stored` with `moves` applied.
fn with_moves(mut stored: Stored, moves: &[PendingMove]) -> Result<Stored, String> {
    for m in moves {
        stored.apply(m)?;
    }
    Ok(stored)
}

/// `data` (a game's row) with `moves` applied, and the time of the last of them. A game
/// whose moves do not fit its stored form (a damaged database) keeps it as it was: the
/// moves are dropped and the error is logged.
fn folded(id: &str, data: &str, moves: &[PendingMove]) -> Option<(String, i64)> {
    serde_json::from_str(data)
        .map_err(|e| e.to_string())
        .and_then(|stored| with_moves(stored, moves))
        .and_then(|stored| serde_json::to_string(&stored).map_err(|e| e.to_string()))
        .map(|data| (data, moves.last().map_or(0, |m| m.at_ms)))
        .inspect_err(|e| tracing::error!("game {id}: pending moves not kept: {e}"))
        .ok()
}

impl Upkeep {
    fn sqlite(&self, tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
        for (id, moves) in &self.folds {
            let data: Option<String> = tx
                .prepare_cached("SELECT data FROM games WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?;
            if let Some((data, updated_ms)) = data.and_then(|d| folded(id, &d, moves)) {
                tx.prepare_cached("UPDATE games SET updated_ms = ?2, data = ?3 WHERE id = ?1")?
                    .execute(params![id, updated_ms, data])?;
            }
        }
        if let Some(below) = self.trim_below {
            tx.prepare_cached("DELETE FROM pending_moves WHERE id < ?1")?
                .execute([below])?;
        }
        Ok(())
    }

    fn postgres(&self, tx: &mut postgres::Transaction) -> Result<(), postgres::Error> {
        for (id, moves) in &self.folds {
            let data: Option<String> = tx
                .query_opt("SELECT data FROM games WHERE id = $1", &[id])?
                .map(|r| r.get(0));
            if let Some((data, updated_ms)) = data.and_then(|d| folded(id, &d, moves)) {
                tx.execute(
                    "UPDATE games SET updated_ms = $2, data = $3 WHERE id = $1",
                    &[id, &updated_ms, &data],
                )?;
            }
        }
        if let Some(below) = self.trim_below {
            tx.execute("DELETE FROM pending_moves WHERE id < $1", &[&below])?;
        }
        Ok(())
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
                    );
                    CREATE TABLE IF NOT EXISTS pending_moves (
                        id INTEGER PRIMARY KEY,
                        game TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        at_ms INTEGER NOT NULL,
                        mover INTEGER NOT NULL,
                        move TEXT NOT NULL,
                        left_ms INTEGER
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
                );
                CREATE TABLE IF NOT EXISTS pending_moves (
                    id BIGINT PRIMARY KEY,
                    game TEXT NOT NULL,
                    seq BIGINT NOT NULL,
                    at_ms BIGINT NOT NULL,
                    mover SMALLINT NOT NULL,
                    move TEXT NOT NULL,
                    left_ms BIGINT
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

    /// Commits `upkeep` and `batch` in one transaction, with the heartbeat if `heartbeat`;
    /// the batch's pending moves become rows numbered from `first_id` on, in order.
    fn commit(
        &mut self,
        batch: &[Write],
        heartbeat: bool,
        first_id: i64,
        upkeep: &Upkeep,
    ) -> anyhow::Result<()> {
        let now = crate::clock::now_ms();
        match self {
            Db::Sqlite(c) => {
                let tx = c.transaction()?;
                upkeep.sqlite(&tx)?;
                if heartbeat {
                    tx.prepare_cached(
                        "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                         ON CONFLICT (key) DO UPDATE SET value = ?1",
                    )?
                    .execute([now])?;
                }
                {
                    let mut game = tx.prepare_cached(
                        "INSERT INTO games (id, live, updated_ms, data) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (id) DO UPDATE SET live = ?2, updated_ms = ?3, data = ?4",
                    )?;
                    let mut pending = tx.prepare_cached(
                        "INSERT INTO pending_moves (id, game, seq, at_ms, mover, move, left_ms)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    )?;
                    let mut row = first_id;
                    for w in batch {
                        match &w.change {
                            Change::Game(g) => {
                                game.execute(params![g.id, g.live, g.updated_ms, g.data])?;
                            }
                            Change::Move(m) => {
                                pending.execute(params![
                                    row,
                                    m.game,
                                    m.seq as i64,
                                    m.at_ms,
                                    m.mover,
                                    m.text,
                                    m.left_ms
                                ])?;
                                row += 1;
                            }
                        }
                    }
                }
                tx.commit()?;
            }
            Db::Postgres(c) => {
                let mut tx = c.transaction()?;
                upkeep.postgres(&mut tx)?;
                if heartbeat {
                    tx.execute(
                        "INSERT INTO meta (key, value) VALUES ('alive_ms', $1)
                         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                        &[&now],
                    )?;
                }
                // Each statement is prepared once per batch (a round trip), when first needed.
                let (mut game, mut pending) = (None, None);
                let mut row = first_id;
                for w in batch {
                    match &w.change {
                        Change::Game(g) => {
                            let st = match &game {
                                Some(st) => st,
                                None => game.insert(tx.prepare(
                                    "INSERT INTO games (id, live, updated_ms, data)
                                     VALUES ($1, $2, $3, $4)
                                     ON CONFLICT (id) DO UPDATE SET live = EXCLUDED.live,
                                         updated_ms = EXCLUDED.updated_ms, data = EXCLUDED.data",
                                )?),
                            };
                            tx.execute(st, &[&g.id, &g.live, &g.updated_ms, &g.data])?;
                        }
                        Change::Move(m) => {
                            let st = match &pending {
                                Some(st) => st,
                                None => pending.insert(tx.prepare(
                                    "INSERT INTO pending_moves
                                     (id, game, seq, at_ms, mover, move, left_ms)
                                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                                )?),
                            };
                            tx.execute(
                                st,
                                &[
                                    &row,
                                    &m.game,
                                    &(m.seq as i64),
                                    &m.at_ms,
                                    &i16::from(m.mover),
                                    &m.text,
                                    &m.left_ms,
                                ],
                            )?;
                            row += 1;
                        }
                    }
                }
                tx.commit()?;
            }
        }
        Ok(())
    }

    /// The pending moves (of game `game`, or of all games), oldest first.
    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>> {
        Ok(match (self, game) {
            (Db::Sqlite(c), Some(g)) => c
                .prepare_cached(&format!("{PENDING_COLUMNS} WHERE game = ?1 ORDER BY id"))?
                .query_map([g], sqlite_pending)?
                .collect::<Result<_, _>>()?,
            (Db::Sqlite(c), None) => c
                .prepare_cached(&format!("{PENDING_COLUMNS} ORDER BY id"))?
                .query_map([], sqlite_pending)?
                .collect::<Result<_, _>>()?,
            (Db::Postgres(c), Some(g)) => c
                .query(
                    &format!("{PENDING_COLUMNS} WHERE game = $1 ORDER BY id"),
                    &[&g],
                )?
                .iter()
                .map(postgres_pending)
                .collect(),
            (Db::Postgres(c), None) => c
                .query(&format!("{PENDING_COLUMNS} ORDER BY id"), &[])?
                .iter()
                .map(postgres_pending)
                .collect(),
        })
    }

    /// The pending moves in rows `ids`.
    fn pending_moves_in(&mut self, ids: &[i64]) -> anyhow::Result<Vec<PendingMove>> {
        match self {
            Db::Sqlite(c) => {
                let mut st = c.prepare_cached(&format!("{PENDING_COLUMNS} WHERE id = ?1"))?;
                ids.iter()
                    .map(|id| Ok(st.query_row([id], sqlite_pending)?))
                    .collect()
            }
            Db::Postgres(c) => Ok(c
                .query(
                    &format!("{PENDING_COLUMNS} WHERE id = ANY($1) ORDER BY id"),
                    &[&ids],
                )?
                .iter()
                .map(postgres_pending)
                .collect()),
        }
    }

    /// Every game's pending moves, oldest first, the games in the order of their oldest.
    fn pending_by_game(&mut self) -> anyhow::Result<Vec<(String, Vec<PendingMove>)>> {
        let mut games: Vec<(String, Vec<PendingMove>)> = Vec::new();
        let mut index = HashMap::new();
        for m in self.pending_moves(None)? {
            let at = *index.entry(m.game.clone()).or_insert_with(|| {
                games.push((m.game.clone(), Vec::new()));
                games.len() - 1
            });
            games[at].1.push(m);
        }
        Ok(games)
    }

    /// Folds every pending move into its game's row and empties `pending_moves`: done at
    /// startup, before anything else is written.
    fn fold_all(&mut self) -> anyhow::Result<()> {
        let upkeep = Upkeep {
            folds: self.pending_by_game()?,
            trim_below: Some(i64::MAX),
        };
        self.commit(&[], false, 1, &upkeep)
    }

    /// The stored form of game `id` with its pending moves applied.
    fn load(&mut self, id: &str) -> anyhow::Result<Option<Stored>> {
        // Pending moves first: a fold between the two reads then finds them in the row
        // already (and they are skipped), rather than in neither.
        let moves = self.pending_moves(Some(id))?;
        let data: Option<String> = match self {
            Db::Sqlite(c) => c
                .prepare_cached("SELECT data FROM games WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?,
            Db::Postgres(c) => c
                .query_opt("SELECT data FROM games WHERE id = $1", &[&id])?
                .map(|r| r.get(0)),
        };
        let Some(data) = data else { return Ok(None) };
        let stored = with_moves(serde_json::from_str(&data)?, &moves);
        Ok(Some(stored.map_err(anyhow::Error::msg)?))
    }

    /// Every game still being played, with its pending moves applied.
    fn live_games(&mut self) -> anyhow::Result<Vec<Stored>> {
        let moves: HashMap<String, Vec<PendingMove>> =
            self.pending_by_game()?.into_iter().collect();
        let rows: Vec<String> = match self {
            Db::Sqlite(c) => c
                .prepare_cached("SELECT data FROM games WHERE live = 1")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?,
            Db::Postgres(c) => c
                .query("SELECT data FROM games WHERE live", &[])?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        };
        rows.iter()
            .map(|data| {
                let stored: Stored = serde_json::from_str(data)?;
                let pending = moves.get(stored.id()).map_or(&[][..], Vec::as_slice);
                with_moves(stored, pending).map_err(anyhow::Error::msg)
            })
            .collect()
    }

    /// The `limit` most recently finished games (which have no pending moves).
    fn finished(&mut self, limit: usize) -> anyhow::Result<Vec<Stored>> {
        let limit = limit as i64;
        let rows: Vec<String> = match self {
            Db::Sqlite(c) => c
                .prepare_cached(
                    "SELECT data FROM games WHERE live = 0 ORDER BY updated_ms DESC LIMIT ?1",
                )?
                .query_map([limit], |r| r.get(0))?
                .collect::<Result<_, _>>()?,
            Db::Postgres(c) => c
                .query(
                    "SELECT data FROM games WHERE NOT live ORDER BY updated_ms DESC LIMIT $1",
                    &[&limit],
                )?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        };
        rows.iter().map(|d| Ok(serde_json::from_str(d)?)).collect()
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
        // The writer creates the tables, folds the moves left pending by the last run and reads
        // the last heartbeat before writing anything of its own.
        let last_alive_ms = spawn_with_db(
            "punct-db-writer",
            &at,
            |db| {
                db.init()?;
                db.fold_all()?;
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
        self.write(Change::Game(GameRow {
            id: id.to_owned(),
            live,
            updated_ms,
            data,
        }))
        .await
    }

    /// Stores a move that left its game running, returning once it is committed: the game's
    /// stored form is the last one saved with this move applied.
    pub async fn save_move(&self, m: PendingMove) -> Result<(), String> {
        self.write(Change::Move(m)).await
    }

    async fn write(&self, change: Change) -> Result<(), String> {
        let (done, wait) = oneshot::channel();
        self.writes
            .send(Write { change, done })
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
        self.read(move |db| db.load(&id)).await
    }

    /// Every game still being played.
    pub async fn live_games(&self) -> anyhow::Result<Vec<Stored>> {
        self.read(Db::live_games).await
    }

    /// The `limit` most recently finished games, the latest first.
    pub async fn finished(&self, limit: usize) -> anyhow::Result<Vec<Stored>> {
        self.read(move |db| db.finished(limit)).await
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

/// The writer's account of `pending_moves`: which rows each game still needs (its moves not
/// yet folded into its row), so that rows no game needs can be deleted and the games holding
/// up the oldest rows folded. Only the rows' ids are kept here: 8 bytes a move.
struct PendingLog {
    /// The id of the next row.
    next_id: i64,
    /// Rows numbered below this are deleted.
    kept_from: i64,
    /// The ids of each game's pending moves' rows, oldest first.
    games: HashMap<String, Vec<i64>>,
    /// The games with pending moves by the id of their oldest one's row.
    by_oldest: BTreeMap<i64, String>,
}

/// Games taken out of the account to be folded, each with its pending moves' rows.
type Due = Vec<(String, Vec<i64>)>;

impl PendingLog {
    /// The account of an empty `pending_moves` (as the writer leaves it at startup).
    fn new() -> PendingLog {
        PendingLog {
            next_id: 1,
            kept_from: 1,
            games: HashMap::new(),
            by_oldest: BTreeMap::new(),
        }
    }

    /// Takes note of a committed change (in commit order).
    fn committed(&mut self, change: &Change) {
        match change {
            // The row holds all of the game now.
            Change::Game(g) => {
                if let Some(rows) = self.games.remove(&g.id) {
                    self.by_oldest.remove(&rows[0]);
                }
            }
            Change::Move(m) => {
                let id = self.next_id;
                self.next_id += 1;
                match self.games.get_mut(&m.game) {
                    Some(rows) => rows.push(id),
                    None => {
                        self.by_oldest.insert(id, m.game.clone());
                        self.games.insert(m.game.clone(), vec![id]);
                    }
                }
            }
        }
    }

    /// Takes out the games whose oldest pending move lies more than [`FOLD_BEHIND`] rows
    /// behind the newest (at most [`FOLDS_PER_COMMIT`], the oldest first), to be folded.
    fn take_due(&mut self) -> Due {
        let mut due = Vec::new();
        while due.len() < FOLDS_PER_COMMIT {
            let Some(entry) = self.by_oldest.first_entry() else {
                break;
            };
            if *entry.key() >= self.next_id - FOLD_BEHIND {
                break;
            }
            let game = entry.remove();
            if let Some(rows) = self.games.remove(&game) {
                due.push((game, rows));
            }
        }
        due
    }

    /// Puts back games taken out to be folded, when the fold failed.
    fn put_back(&mut self, due: Due) {
        for (game, rows) in due {
            self.by_oldest.insert(rows[0], game.clone());
            self.games.insert(game, rows);
        }
    }

    /// The id below which no game needs the rows any more, if enough have gathered there to
    /// be worth deleting.
    fn trim_below(&self) -> Option<i64> {
        let oldest = self
            .by_oldest
            .keys()
            .next()
            .copied()
            .unwrap_or(self.next_id);
        (oldest - self.kept_from >= TRIM_EVERY).then_some(oldest)
    }
}

/// The upkeep for the next commit: the games holding up the oldest rows of `pending_moves`
/// to fold (taken out of `log`, with their moves read back) and the rows no game needs any
/// more to delete.
fn upkeep(db: &mut Db, log: &mut PendingLog) -> (Due, Upkeep) {
    let due = log.take_due();
    let folds = due
        .iter()
        .map(|(game, rows)| Ok((game.clone(), db.pending_moves_in(rows)?)))
        .collect::<anyhow::Result<Vec<_>>>();
    match folds {
        Ok(folds) => {
            let upkeep = Upkeep {
                folds,
                trim_below: log.trim_below(),
            };
            (due, upkeep)
        }
        Err(e) => {
            tracing::warn!("cannot read pending moves to fold: {e}");
            log.put_back(due);
            (Vec::new(), Upkeep::default())
        }
    }
}

fn write_loop(mut db: Db, rx: mpsc::Receiver<Write>, at: &Location, checkpointed: &AtomicBool) {
    // A moving average of the number of writes per commit.
    let mut batch_size = 1.0_f32;
    let mut heartbeat = Heartbeat::default();
    let mut log = PendingLog::new();
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
        let batch = match rx.recv_timeout(heartbeat.due_in()) {
            Ok(first) => {
                // Under load (recent batches held more than one write on average), the batch
                // gathers for a moment before it is committed, so that writes join it without
                // waking this thread and one commit serves many games. At a quiet time a
                // write is committed at once.
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
                batch
            }
            // A quiet moment: the heartbeat is due, and commits alone.
            Err(mpsc::RecvTimeoutError::Timeout) => Vec::new(),
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        // Folding and deleting ride with the batch (or the heartbeat): one commit, not two.
        let (due, upkeep) = upkeep(&mut db, &mut log);
        let result = db
            .commit(&batch, heartbeat.take(), log.next_id, &upkeep)
            .map_err(|e| format!("database error: {e}"));
        match &result {
            Ok(()) => {
                if let Some(below) = upkeep.trim_below {
                    log.kept_from = below;
                }
            }
            Err(e) => {
                tracing::error!("{e}");
                log.put_back(due);
                db.reconnect_if_lost(at);
            }
        }
        for w in batch {
            if result.is_ok() {
                log.committed(&w.change);
            }
            let _ = w.done.send(result.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(game: &str, seq: u64) -> Change {
        Change::Move(PendingMove {
            game: game.into(),
            seq,
            at_ms: 0,
            mover: 0,
            text: "TE4:0".into(),
            left_ms: None,
        })
    }

    fn whole(game: &str) -> Change {
        Change::Game(GameRow {
            id: game.into(),
            live: false,
            updated_ms: 0,
            data: String::new(),
        })
    }

    #[test]
    fn rows_no_game_needs_are_trimmed_in_runs() {
        let mut log = PendingLog::new();
        for seq in 0..TRIM_EVERY as u64 {
            log.committed(&pending("a", seq));
        }
        log.committed(&pending("b", 1));
        // Game a still needs the first row.
        assert_eq!(log.trim_below(), None);
        // Its whole row is stored (it ended): every row before b's goes.
        log.committed(&whole("a"));
        assert_eq!(log.trim_below(), Some(TRIM_EVERY + 1));
        log.kept_from = TRIM_EVERY + 1;
        log.committed(&whole("b"));
        // Only one more row is free: not yet worth a delete.
        assert_eq!(log.trim_below(), None);
        assert!(log.take_due().is_empty());
    }

    #[test]
    fn an_idle_game_is_folded_once_it_holds_up_the_log() {
        let mut log = PendingLog::new();
        log.committed(&pending("idle", 2));
        log.committed(&pending("busy", 0));
        log.committed(&pending("idle", 3));
        for seq in 1..FOLD_BEHIND as u64 - 2 {
            log.committed(&pending("busy", seq));
        }
        assert!(log.take_due().is_empty());
        log.committed(&pending("busy", FOLD_BEHIND as u64));
        let due = log.take_due();
        assert_eq!(
            due,
            [("idle".to_owned(), vec![1, 3])],
            "all of its rows, in order"
        );
        // The busy game's oldest row is not far enough behind.
        assert!(log.take_due().is_empty());
        // A failed fold puts the game back as it was.
        log.put_back(due.clone());
        assert_eq!(log.take_due(), due);
    }
}
