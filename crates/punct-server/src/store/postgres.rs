//! The games in PostgreSQL (`--db postgres://…`), for when one machine is outgrown. Commits
//! use the database's defaults (`synchronous_commit=on`), which survive a crash of the
//! database machine as well.

use std::time::Duration;

use postgres::{Client, NoTls, Row, Statement};

use super::backend::{Backend, Change, Commit, Made, PENDING_COLUMNS, seq_in, write_with};
use super::form::PendingMove;
use super::jobs::{self, Job};
use super::notify::{Channel, GameChanged};
use super::sql::Sql;

/// The pending moves up to a game's stored sequence number are part of its row.
const HELD: &str = "DELETE FROM pending_moves
     WHERE game = $1 AND seq <= (SELECT seq FROM games WHERE id = $1)";

/// A game is written over a stored one only if that is behind it, counting its pending
/// moves (a move at the game's own number is another state of it). At its own number only
/// the very same state (a write repeated after a lost answer): with several servers, two
/// different ones at one number are two servers' changes of one state (a draw agreed on
/// one, the flag on the owner), and only the first may be kept.
const GAME: &str = "INSERT INTO games (id, live, updated_ms, seq, data)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET live = EXCLUDED.live,
         updated_ms = EXCLUDED.updated_ms, seq = EXCLUDED.seq,
         data = EXCLUDED.data
     WHERE (games.seq < EXCLUDED.seq
            OR (games.seq = EXCLUDED.seq AND games.data = EXCLUDED.data)) AND NOT EXISTS
         (SELECT 1 FROM pending_moves p
          WHERE p.game = EXCLUDED.id AND p.seq >= EXCLUDED.seq)";

/// Takes the transaction's lock of each game it changes, in the order given. Two servers'
/// changes of one game are thus made one after the other: under READ COMMITTED, a pending
/// move and a whole state written at once on the same state would each miss the other's
/// uncommitted row and both be kept, while each statement after the lock sees what the
/// other committed.
const LOCK_GAMES: &str =
    "SELECT pg_advisory_xact_lock(hashtextextended(g, 0)) FROM unnest($1::text[]) AS g";

/// The games `commit` changes, sorted, so that two transactions take their locks in one
/// order.
fn changed_games<'a>(commit: &'a Commit) -> Vec<&'a str> {
    let mut games: Vec<&str> = commit
        .folds
        .iter()
        .map(|f| f.game.as_str())
        .chain(commit.changes.iter().map(|change| match change {
            Change::Game(g) => g.id.as_str(),
            Change::Move(m) => m.game.as_str(),
            Change::SetAside { id, .. } => id.as_str(),
        }))
        .collect();
    games.sort_unstable();
    games.dedup();
    games
}

/// The pending move's insert: a move is kept only if it follows the stored state, the
/// row's or its last pending move's (and no move with its number is there yet).
const PENDING: &str = "INSERT INTO pending_moves (game, seq, at_ms, mover, move, left_ms)
     SELECT $1::text, $2::bigint, $3::bigint, $4::smallint, $5::text, $6::bigint
     WHERE EXISTS (SELECT 1 FROM games WHERE id = $1 AND seq < $2)
       AND (EXISTS (SELECT 1 FROM games WHERE id = $1 AND seq = $2 - 1)
         OR EXISTS (SELECT 1 FROM pending_moves
                    WHERE game = $1 AND seq = $2 - 1))
     ON CONFLICT DO NOTHING";

/// How long a batch gathers under load before it is committed. A PostgreSQL commit costs
/// the server about ten times a move (its round trips and the log's flush), so with several
/// nodes, each with its share of the moves, a longer gather than SQLite's keeps the commits
/// per move down; 4 ms under load is far inside a player's network round trip.
const GATHER: Duration = Duration::from_millis(4);

/// The statements every commit runs, prepared once on the connection: preparing is a round
/// trip and a plan each time.
struct Prepared {
    lock: Statement,
    game: Statement,
    held: Statement,
    pending: Statement,
    notify: Statement,
}

impl Prepared {
    fn on(client: &mut Client) -> anyhow::Result<Prepared> {
        Ok(Prepared {
            lock: client.prepare(LOCK_GAMES)?,
            game: client.prepare(GAME)?,
            held: client.prepare(HELD)?,
            pending: client.prepare(PENDING)?,
            notify: client.prepare("SELECT pg_notify($1, $2)")?,
        })
    }
}

/// A connection to PostgreSQL.
pub struct Postgres {
    client: Box<Client>,
    /// Prepared at the first commit (after `init` has made the tables).
    prepared: Option<Prepared>,
}

impl Postgres {
    /// Connects to `url`.
    pub fn connect(url: &str) -> anyhow::Result<Postgres> {
        let client = Client::connect(url, NoTls).map_err(|e| {
            anyhow::anyhow!(
                "cannot connect to PostgreSQL at {}: {e}",
                super::redact(url)
            )
        })?;
        Ok(Postgres {
            client: Box::new(client),
            prepared: None,
        })
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

/// Whether table `table` of the current schema has a column `column`.
fn has_column(tx: &mut postgres::Transaction, table: &str, column: &str) -> anyhow::Result<bool> {
    Ok(tx
        .query_opt(
            "SELECT 1 FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2",
            &[&table, &column],
        )?
        .is_some())
}

impl Backend for Postgres {
    fn init(&mut self) -> anyhow::Result<()> {
        let mut tx = self.client.transaction()?;
        // Nodes starting at once would otherwise race in CREATE TABLE IF NOT EXISTS, which
        // PostgreSQL does not make safe against a concurrent creation.
        tx.execute(
            "SELECT pg_advisory_xact_lock($1)",
            &[&super::migrations::LOCK],
        )?;
        // Without this, every start logs PostgreSQL's notice that each table already exists.
        tx.batch_execute("SET LOCAL client_min_messages TO warning;")?;
        // Databases of earlier versions numbered the pending moves' rows in the server; their
        // moves are carried over to rows keyed by game and sequence number.
        let numbered = has_column(&mut tx, "pending_moves", "id")?;
        if numbered {
            tx.batch_execute("ALTER TABLE pending_moves RENAME TO pending_moves_numbered;")?;
        }
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                live BOOLEAN NOT NULL,
                updated_ms BIGINT NOT NULL,
                seq BIGINT NOT NULL DEFAULT 0,
                data TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS games_recent ON games (live, updated_ms);
            CREATE TABLE IF NOT EXISTS meta (
                key TEXT PRIMARY KEY,
                value BIGINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS pending_moves (
                game TEXT NOT NULL,
                seq BIGINT NOT NULL,
                at_ms BIGINT NOT NULL,
                mover SMALLINT NOT NULL,
                move TEXT NOT NULL,
                left_ms BIGINT,
                PRIMARY KEY (game, seq)
            );
            CREATE TABLE IF NOT EXISTS damaged_games (
                id TEXT PRIMARY KEY,
                reason TEXT NOT NULL,
                at_ms BIGINT NOT NULL,
                data TEXT,
                pending TEXT
            );",
        )?;
        if numbered {
            tx.batch_execute(
                "INSERT INTO pending_moves (game, seq, at_ms, mover, move, left_ms)
                 SELECT game, seq, at_ms, mover, move, left_ms FROM pending_moves_numbered
                 ORDER BY id ON CONFLICT DO NOTHING;
                 DROP TABLE pending_moves_numbered;",
            )?;
        }
        // Rows of earlier versions get their sequence numbers from their data.
        if !has_column(&mut tx, "games", "seq")? {
            tx.batch_execute("ALTER TABLE games ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;")?;
            let rows = tx.query("SELECT id, data FROM games", &[])?;
            let set = tx.prepare("UPDATE games SET seq = $2 WHERE id = $1")?;
            for row in rows {
                let (id, data): (String, String) = (row.get(0), row.get(1));
                tx.execute(&set, &[&id, &seq_in(&data)])?;
            }
        }
        if numbered {
            // Earlier versions deleted a game's pending moves some time after it was stored
            // whole.
            tx.batch_execute(
                "DELETE FROM pending_moves p USING games g WHERE g.id = p.game AND p.seq <= g.seq;",
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn alive_ms(&mut self) -> anyhow::Result<Option<i64>> {
        Ok(self
            .client
            .query_opt("SELECT value FROM meta WHERE key = 'alive_ms'", &[])?
            .map(|r| r.get(0)))
    }

    fn checkpoint(&mut self) -> anyhow::Result<()> {
        Ok(())
    }

    fn sql(&mut self) -> &mut dyn Sql {
        &mut *self.client
    }

    fn gather(&self) -> Duration {
        GATHER
    }

    fn commit(&mut self, commit: &Commit, jobs: &mut [Box<dyn Job>]) -> anyhow::Result<Vec<Made>> {
        let Postgres { client, prepared } = self;
        let st = match prepared {
            Some(st) => st,
            None => prepared.insert(Prepared::on(client)?),
        };
        let mut tx = client.transaction()?;
        let games = changed_games(commit);
        if !games.is_empty() {
            tx.execute(&st.lock, &[&games])?;
        }
        let mut made = Vec::with_capacity(commit.changes.len());
        for f in commit.folds {
            tx.execute(
                "UPDATE games SET updated_ms = $2, data = $3, seq = $4 WHERE id = $1 AND seq < $4",
                &[&f.game, &f.updated_ms, &f.data, &(f.seq as i64)],
            )?;
            tx.execute(&st.held, &[&f.game])?;
        }
        if let Some(now) = commit.heartbeat {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', $1)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[&now],
            )?;
        }
        for change in commit.changes {
            made.push(match change {
                Change::Game(g) if !g.with.is_empty() => write_with(&mut tx, GAME, HELD, g),
                Change::Game(g) => {
                    let seq = g.seq as i64;
                    let written =
                        tx.execute(&st.game, &[&g.id, &g.live, &g.updated_ms, &seq, &g.data])? > 0;
                    if written {
                        tx.execute(&st.held, &[&g.id])?;
                    }
                    Made::of(written)
                }
                Change::Move(m) => Made::of(
                    tx.execute(
                        &st.pending,
                        &[
                            &m.game,
                            &(m.seq as i64),
                            &m.at_ms,
                            &i16::from(m.mover),
                            &m.text,
                            &m.left_ms,
                        ],
                    )? > 0,
                ),
                Change::SetAside { id, why, at_ms } => {
                    tx.execute(
                        "INSERT INTO damaged_games (id, reason, at_ms, data, pending)
                         VALUES ($1, $2, $3, (SELECT data FROM games WHERE id = $1),
                             (SELECT json_agg(json_build_object('seq', seq, 'at_ms', at_ms,
                                 'mover', mover, 'move', move, 'left_ms', left_ms)
                                 ORDER BY seq)::text
                              FROM pending_moves WHERE game = $1))
                         ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason,
                             at_ms = EXCLUDED.at_ms",
                        &[id, why, at_ms],
                    )?;
                    tx.execute("DELETE FROM pending_moves WHERE game = $1", &[id])?;
                    tx.execute("DELETE FROM games WHERE id = $1", &[id])?;
                    Made::Yes
                }
            });
        }
        // The other servers sharing the database hear of the games written once this commits.
        let written: Vec<GameChanged> = commit
            .changes
            .iter()
            .zip(&made)
            .filter(|(_, made)| **made == Made::Yes)
            .filter_map(|(change, _)| match change {
                Change::Game(g) => Some(GameChanged {
                    id: g.id.clone(),
                    seq: g.seq,
                    moved: None,
                }),
                Change::Move(m) => Some(GameChanged {
                    id: m.game.clone(),
                    seq: m.seq,
                    moved: Some(m.clone()),
                }),
                Change::SetAside { .. } => None,
            })
            .collect();
        for payload in GameChanged::payloads(&written) {
            tx.execute(&st.notify, &[&Channel::Games.name(), &payload])?;
        }
        jobs::run_all(&mut tx, jobs);
        tx.commit()?;
        Ok(made)
    }

    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>> {
        let rows = match game {
            Some(g) => self.client.query(
                &format!("{PENDING_COLUMNS} WHERE game = $1 ORDER BY seq"),
                &[&g],
            )?,
            None => self
                .client
                .query(&format!("{PENDING_COLUMNS} ORDER BY game, seq"), &[])?,
        };
        Ok(rows.iter().map(pending).collect())
    }

    fn game_data(&mut self, id: &str) -> anyhow::Result<Option<String>> {
        Ok(self
            .client
            .query_opt("SELECT data FROM games WHERE id = $1", &[&id])?
            .map(|r| r.get(0)))
    }

    fn live_data(&mut self) -> anyhow::Result<Vec<(String, String)>> {
        Ok(self
            .client
            .query("SELECT id, data FROM games WHERE live", &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn finished_data(&mut self, limit: usize) -> anyhow::Result<Vec<String>> {
        Ok(self
            .client
            .query(
                "SELECT data FROM games WHERE NOT live ORDER BY updated_ms DESC LIMIT $1",
                &[&(limit as i64)],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn is_lost(&self) -> bool {
        self.client.is_closed()
    }

    fn ping(&mut self) -> anyhow::Result<()> {
        self.client.simple_query("SELECT 1")?;
        Ok(())
    }
}
