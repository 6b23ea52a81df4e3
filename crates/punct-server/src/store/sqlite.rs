//! The games in an SQLite file: WAL mode with `synchronous=NORMAL`, so that a committed
//! transaction survives the server being killed (kill -9).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::backend::{Backend, Change, Commit, PENDING_COLUMNS};
use crate::room::PendingMove;

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

impl Backend for Sqlite {
    fn init(&mut self) -> anyhow::Result<()> {
        self.0.execute_batch(
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
            );
            CREATE TABLE IF NOT EXISTS damaged_games (
                id TEXT PRIMARY KEY,
                reason TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                data TEXT,
                pending TEXT
            );",
        )?;
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

    fn commit(&mut self, commit: &Commit) -> anyhow::Result<()> {
        let tx = self.0.transaction()?;
        for (id, data, updated_ms) in commit.folds {
            tx.prepare_cached("UPDATE games SET updated_ms = ?2, data = ?3 WHERE id = ?1")?
                .execute(params![id, updated_ms, data])?;
        }
        if let Some(below) = commit.trim_below {
            tx.prepare_cached("DELETE FROM pending_moves WHERE id < ?1")?
                .execute([below])?;
        }
        if let Some(now) = commit.heartbeat {
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
            let mut row = commit.first_id;
            for change in commit.changes {
                match change {
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
                    Change::SetAside { id, why, at_ms } => {
                        tx.prepare_cached(
                            "INSERT INTO damaged_games (id, reason, at_ms, data, pending)
                             VALUES (?1, ?2, ?3, (SELECT data FROM games WHERE id = ?1),
                                 (SELECT json_group_array(json_object('seq', seq, 'at_ms', at_ms,
                                     'mover', mover, 'move', move, 'left_ms', left_ms))
                                  FROM pending_moves WHERE game = ?1))
                             ON CONFLICT (id) DO UPDATE SET reason = ?2, at_ms = ?3",
                        )?
                        .execute(params![id, why, at_ms])?;
                        tx.prepare_cached("DELETE FROM pending_moves WHERE game = ?1")?
                            .execute([id])?;
                        tx.prepare_cached("DELETE FROM games WHERE id = ?1")?
                            .execute([id])?;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>> {
        Ok(match game {
            Some(g) => self
                .0
                .prepare_cached(&format!("{PENDING_COLUMNS} WHERE game = ?1 ORDER BY id"))?
                .query_map([g], pending)?
                .collect::<Result<_, _>>()?,
            None => self
                .0
                .prepare_cached(&format!("{PENDING_COLUMNS} ORDER BY id"))?
                .query_map([], pending)?
                .collect::<Result<_, _>>()?,
        })
    }

    fn pending_moves_in(&mut self, ids: &[i64]) -> anyhow::Result<Vec<PendingMove>> {
        let mut st = self
            .0
            .prepare_cached(&format!("{PENDING_COLUMNS} WHERE id = ?1"))?;
        ids.iter()
            .map(|id| Ok(st.query_row([id], pending)?))
            .collect()
    }

    fn pending_rows(&mut self) -> anyhow::Result<Vec<(i64, String)>> {
        Ok(self
            .0
            .prepare_cached("SELECT id, game FROM pending_moves ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?)
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
