//! The games in PostgreSQL (`--db postgres://…`), for when one machine is outgrown. Commits
//! use the database's defaults (`synchronous_commit=on`), which survive a crash of the
//! database machine as well.

use postgres::{Client, NoTls, Row};

use super::backend::{Backend, Change, Commit, PENDING_COLUMNS};
use crate::room::PendingMove;

/// A connection to PostgreSQL.
pub struct Postgres(Box<Client>);

impl Postgres {
    /// Connects to `url`.
    pub fn connect(url: &str) -> anyhow::Result<Postgres> {
        let client = Client::connect(url, NoTls).map_err(|e| {
            anyhow::anyhow!(
                "cannot connect to PostgreSQL at {}: {e}",
                super::redact(url)
            )
        })?;
        Ok(Postgres(Box::new(client)))
    }
}

fn pending(r: &Row) -> PendingMove {
    PendingMove {
        game: r.get(0),
        seq: r.get::<_, i64>(1) as u64,
        at_ms: r.get(2),
        mover: r.get::<_, i16>(3) as u8,
        text: r.get(4),
        left_ms: r.get(5),
    }
}

impl Backend for Postgres {
    fn init(&mut self) -> anyhow::Result<()> {
        // Without this, every start logs PostgreSQL's notice that each table already exists.
        self.0.batch_execute(
            "SET client_min_messages TO warning;
            CREATE TABLE IF NOT EXISTS games (
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
            );
            CREATE TABLE IF NOT EXISTS damaged_games (
                id TEXT PRIMARY KEY,
                reason TEXT NOT NULL,
                at_ms BIGINT NOT NULL,
                data TEXT,
                pending TEXT
            );",
        )?;
        Ok(())
    }

    fn alive_ms(&mut self) -> anyhow::Result<Option<i64>> {
        Ok(self
            .0
            .query_opt("SELECT value FROM meta WHERE key = 'alive_ms'", &[])?
            .map(|r| r.get(0)))
    }

    fn checkpoint(&mut self) -> anyhow::Result<()> {
        Ok(())
    }

    fn commit(&mut self, commit: &Commit) -> anyhow::Result<()> {
        let mut tx = self.0.transaction()?;
        for (id, data, updated_ms) in commit.folds {
            tx.execute(
                "UPDATE games SET updated_ms = $2, data = $3 WHERE id = $1",
                &[id, updated_ms, data],
            )?;
        }
        if let Some(below) = commit.trim_below {
            tx.execute("DELETE FROM pending_moves WHERE id < $1", &[&below])?;
        }
        if let Some(now) = commit.heartbeat {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', $1)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[&now],
            )?;
        }
        // Each statement is prepared once per batch (a round trip), when first needed.
        let (mut game, mut pending) = (None, None);
        let mut row = commit.first_id;
        for change in commit.changes {
            match change {
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
                Change::SetAside { id, why, at_ms } => {
                    tx.execute(
                        "INSERT INTO damaged_games (id, reason, at_ms, data, pending)
                         VALUES ($1, $2, $3, (SELECT data FROM games WHERE id = $1),
                             (SELECT json_agg(json_build_object('seq', seq, 'at_ms', at_ms,
                                 'mover', mover, 'move', move, 'left_ms', left_ms)
                                 ORDER BY id)::text
                              FROM pending_moves WHERE game = $1))
                         ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason,
                             at_ms = EXCLUDED.at_ms",
                        &[id, why, at_ms],
                    )?;
                    tx.execute("DELETE FROM pending_moves WHERE game = $1", &[id])?;
                    tx.execute("DELETE FROM games WHERE id = $1", &[id])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>> {
        let rows = match game {
            Some(g) => self.0.query(
                &format!("{PENDING_COLUMNS} WHERE game = $1 ORDER BY id"),
                &[&g],
            )?,
            None => self
                .0
                .query(&format!("{PENDING_COLUMNS} ORDER BY id"), &[])?,
        };
        Ok(rows.iter().map(pending).collect())
    }

    fn pending_moves_in(&mut self, ids: &[i64]) -> anyhow::Result<Vec<PendingMove>> {
        Ok(self
            .0
            .query(
                &format!("{PENDING_COLUMNS} WHERE id = ANY($1) ORDER BY id"),
                &[&ids],
            )?
            .iter()
            .map(pending)
            .collect())
    }

    fn pending_rows(&mut self) -> anyhow::Result<Vec<(i64, String)>> {
        Ok(self
            .0
            .query("SELECT id, game FROM pending_moves ORDER BY id", &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn game_data(&mut self, id: &str) -> anyhow::Result<Option<String>> {
        Ok(self
            .0
            .query_opt("SELECT data FROM games WHERE id = $1", &[&id])?
            .map(|r| r.get(0)))
    }

    fn live_data(&mut self) -> anyhow::Result<Vec<(String, String)>> {
        Ok(self
            .0
            .query("SELECT id, data FROM games WHERE live", &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn finished_data(&mut self, limit: usize) -> anyhow::Result<Vec<String>> {
        Ok(self
            .0
            .query(
                "SELECT data FROM games WHERE NOT live ORDER BY updated_ms DESC LIMIT $1",
                &[&(limit as i64)],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn is_lost(&self) -> bool {
        self.0.is_closed()
    }

    fn ping(&mut self) -> anyhow::Result<()> {
        self.0.simple_query("SELECT 1")?;
        Ok(())
    }
}
