//! The games in an SQLite file: WAL mode with `synchronous=NORMAL`, so that a committed
//! transaction survives the server being killed (kill -9).

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::backend::{Backend, Change, Commit, Made, PENDING_COLUMNS, seq_in, write_with};
use super::form::PendingMove;
use super::jobs::{self, Job};
use super::sql::{On, Sql};

/// How long a batch gathers under load before it is committed: at 17 000 moves a second,
/// 0.5 ms gathers about 20 writes into one commit (rather than 3), which halves the database
/// work per move and the thread wakeups.
const GATHER: Duration = Duration::from_micros(500);

/// The pending moves up to a game's stored sequence number are part of its row.
const HELD: &str = "DELETE FROM pending_moves
     WHERE game = ?1 AND seq <= (SELECT seq FROM games WHERE id = ?1)";

/// A game is written over a stored one only if that is not further on, counting its pending
/// moves (a move at the game's own number is another state of it).
const GAME: &str = "INSERT INTO games (id, live, updated_ms, seq, data) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (id) DO UPDATE SET live = ?2, updated_ms = ?3, seq = ?4, data = ?5
     WHERE games.seq <= ?4 AND NOT EXISTS
         (SELECT 1 FROM pending_moves WHERE game = ?1 AND seq >= ?4)";

/// A connection to an SQLite file.
pub struct Sqlite(Connection);

impl Sqlite {
    /// Opens (or creates) the file at `path`.
    pub fn open(path: &Path) -> rusqlite::Result<Sqlite> {
        let conn = Connection::open(path)?;
        // WAL with synchronous=NORMAL: a committed transaction survives the process being
        // killed (it is in the OS's hands), which is the failure the server guards against;
        // FULL would add an fsync per commit for power loss.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // As PostgreSQL does, so that the players' tables behave the same on both.
        conn.pragma_update(None, "foreign_keys", "ON")?;
        Ok(Sqlite(conn))
    }
}

fn pending(r: &rusqlite::Row) -> rusqlite::Result<PendingMove> {
    Ok(PendingMove {
        game: r.get(0)?,
        seq: r.get::<_, i64>(1)? as u64,
        at_ms: r.get(2)?,
        mover: r.get(3)?,
        text: r.get(4)?,
        left_ms: r.get(5)?,
    })
}

/// Whether table `table` has a column `column`.
fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
        [table, column],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

impl Backend for Sqlite {
    fn init(&mut self) -> anyhow::Result<()> {
        let tx = self.0.transaction()?;
        // Databases of earlier versions numbered the pending moves' rows in the server; their
        // moves are carried over to rows keyed by game and sequence number.
        let numbered = has_column(&tx, "pending_moves", "id")?;
        if numbered {
            tx.execute_batch("ALTER TABLE pending_moves RENAME TO pending_moves_numbered;")?;
        }
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                live INTEGER NOT NULL,
                updated_ms INTEGER NOT NULL,
                seq INTEGER NOT NULL DEFAULT 0,
                data TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS games_recent ON games (live, updated_ms);
            CREATE TABLE IF NOT EXISTS meta (
                key TEXT PRIMARY KEY,
                value INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS pending_moves (
                game TEXT NOT NULL,
                seq INTEGER NOT NULL,
                at_ms INTEGER NOT NULL,
                mover INTEGER NOT NULL,
                move TEXT NOT NULL,
                left_ms INTEGER,
                PRIMARY KEY (game, seq)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS damaged_games (
                id TEXT PRIMARY KEY,
                reason TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                data TEXT,
                pending TEXT
            );",
        )?;
        if numbered {
            tx.execute_batch(
                "INSERT OR IGNORE INTO pending_moves (game, seq, at_ms, mover, move, left_ms)
                 SELECT game, seq, at_ms, mover, move, left_ms FROM pending_moves_numbered
                 ORDER BY id;
                 DROP TABLE pending_moves_numbered;",
            )?;
        }
        // Rows of earlier versions get their sequence numbers from their data.
        if !has_column(&tx, "games", "seq")? {
            tx.execute_batch("ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;")?;
            let rows: Vec<(String, String)> = tx
                .prepare("SELECT id, data FROM games")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut set = tx.prepare("UPDATE games SET seq = ?2 WHERE id = ?1")?;
            for (id, data) in rows {
                set.execute(params![id, seq_in(&data)])?;
            }
        }
        if numbered {
            // Earlier versions deleted a game's pending moves some time after it was stored
            // whole.
            tx.execute_batch(
                "DELETE FROM pending_moves
                 WHERE seq <= (SELECT seq FROM games WHERE id = pending_moves.game);",
            )?;
        }
        tx.commit()?;
        // Checkpoints run on their own thread rather than inside some unlucky commit (see
        // the store's writer).
        self.0.pragma_update(None, "wal_autocheckpoint", 0)?;
        Ok(())
    }

    fn alive_ms(&mut self) -> anyhow::Result<Option<i64>> {
        Ok(self
            .0
            .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
                r.get(0)
            })
            .optional()?)
    }

    fn checkpoint(&mut self) -> anyhow::Result<()> {
        Ok(self.0.execute_batch("PRAGMA wal_checkpoint(PASSIVE);")?)
    }

    fn gather(&self) -> Duration {
        GATHER
    }

    fn sql(&mut self) -> &mut dyn Sql {
        &mut self.0
    }

    fn commit(&mut self, commit: &Commit, jobs: &mut [Box<dyn Job>]) -> anyhow::Result<Vec<Made>> {
        let tx = self.0.transaction()?;
        let mut made = Vec::with_capacity(commit.changes.len());
        {
            let mut held = tx.prepare_cached(HELD)?;
            for f in commit.folds {
                tx.prepare_cached(
                    "UPDATE games SET updated_ms = ?2, data = ?3, seq = ?4
                     WHERE id = ?1 AND seq < ?4",
                )?
                .execute(params![f.game, f.updated_ms, f.data, f.seq as i64])?;
                held.execute([&f.game])?;
            }
            if let Some(now) = commit.heartbeat {
                tx.prepare_cached(
                    "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                     ON CONFLICT (key) DO UPDATE SET value = ?1",
                )?
                .execute([now])?;
            }
            let mut game = tx.prepare_cached(GAME)?;
            // A move is kept only if it follows the stored state: the row's, or its last
            // pending move's (and no move with its number is there yet).
            let mut pending = tx.prepare_cached(
                "INSERT INTO pending_moves (game, seq, at_ms, mover, move, left_ms)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6
                 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1 AND seq < ?2)
                   AND (EXISTS (SELECT 1 FROM games WHERE id = ?1 AND seq = ?2 - 1)
                     OR EXISTS (SELECT 1 FROM pending_moves WHERE game = ?1 AND seq = ?2 - 1))
                 ON CONFLICT DO NOTHING",
            )?;
            for change in commit.changes {
                made.push(match change {
                    Change::Game(g) if !g.with.is_empty() => {
                        write_with(&mut On(&tx), GAME, HELD, g)
                    }
                    Change::Game(g) => {
                        let seq = g.seq as i64;
                        let written =
                            game.execute(params![g.id, g.live, g.updated_ms, seq, g.data])? > 0;
                        if written {
                            held.execute([&g.id])?;
                        }
                        Made::of(written)
                    }
                    Change::Move(m) => Made::of(
                        pending.execute(params![
                            m.game,
                            m.seq as i64,
                            m.at_ms,
                            m.mover,
                            m.text,
                            m.left_ms
                        ])? > 0,
                    ),
                    Change::SetAside { id, why, at_ms } => {
                        tx.prepare_cached(
                            "INSERT INTO damaged_games (id, reason, at_ms, data, pending)
                             VALUES (?1, ?2, ?3, (SELECT data FROM games WHERE id = ?1),
                                 (SELECT json_group_array(json_object('seq', seq, 'at_ms', at_ms,
                                     'mover', mover, 'move', move, 'left_ms', left_ms))
                                  FROM (SELECT * FROM pending_moves WHERE game = ?1 ORDER BY seq)))
                             ON CONFLICT (id) DO UPDATE SET reason = ?2, at_ms = ?3",
                        )?
                        .execute(params![id, why, at_ms])?;
                        tx.prepare_cached("DELETE FROM pending_moves WHERE game = ?1")?
                            .execute([id])?;
                        tx.prepare_cached("DELETE FROM games WHERE id = ?1")?
                            .execute([id])?;
                        Made::Yes
                    }
                });
            }
        }
        jobs::run_all(&mut On(&tx), jobs);
        tx.commit()?;
        Ok(made)
    }

    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>> {
        Ok(match game {
            Some(g) => self
                .0
                .prepare_cached(&format!("{PENDING_COLUMNS} WHERE game = ?1 ORDER BY seq"))?
                .query_map([g], pending)?
                .collect::<Result<_, _>>()?,
            None => self
                .0
                .prepare_cached(&format!("{PENDING_COLUMNS} ORDER BY game, seq"))?
                .query_map([], pending)?
                .collect::<Result<_, _>>()?,
        })
    }

    fn game_data(&mut self, id: &str) -> anyhow::Result<Option<String>> {
        Ok(self
            .0
            .prepare_cached("SELECT data FROM games WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?)
    }

    fn live_data(&mut self) -> anyhow::Result<Vec<(String, String)>> {
        Ok(self
            .0
            .prepare_cached("SELECT id, data FROM games WHERE live = 1")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?)
    }

    fn finished_data(&mut self, limit: usize) -> anyhow::Result<Vec<String>> {
        Ok(self
            .0
            .prepare_cached(
                "SELECT data FROM games WHERE live = 0 ORDER BY updated_ms DESC LIMIT ?1",
            )?
            .query_map([limit as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    }

    fn is_lost(&self) -> bool {
        false
    }

    fn ping(&mut self) -> anyhow::Result<()> {
        Ok(self.0.query_row("SELECT 1", [], |_| Ok(()))?)
    }
}
