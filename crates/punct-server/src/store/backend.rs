//! What the store needs of a database, written once for SQLite and once for PostgreSQL:
//! one connection, owned by one thread, and a handful of statements.
//!
//! Nothing here is numbered or counted by the server itself: a pending move's row is keyed
//! by its game and sequence number, and every write to a game is conditional on the game's
//! sequence number in the database. A write made on a state older than the stored one is
//! refused (not an error of the transaction: the other writes commit), so that several
//! servers sharing one database can never overwrite each other's changes.

use std::sync::Arc;
use std::time::Duration;

use super::form::PendingMove;
use super::jobs::Job;
use super::sql::{Attached, Sql, args};

/// A game's row: its whole stored form as JSON, and the columns the lists sort on.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// Whether the game is still being played.
    pub live: bool,
    /// When it last changed, ms since the epoch.
    pub updated_ms: i64,
    /// The game's sequence number in `data`: the row is only written over one whose number
    /// is not higher.
    pub seq: u64,
    /// The stored form as JSON.
    pub data: String,
    /// What goes with the row: written in the same transaction if the row is, and never
    /// without it (a game's end and its players' rating changes).
    pub with: Vec<Arc<dyn Attached>>,
}

/// What became of one change of a commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Made {
    /// It is written.
    Yes,
    /// It was made on a state older than the stored one, and is not written.
    Stale,
    /// What went with a game's row failed, so neither is written; why.
    Failed(String),
}

impl Made {
    /// [`Made::Yes`] if `written`, else [`Made::Stale`].
    pub fn of(written: bool) -> Made {
        if written { Made::Yes } else { Made::Stale }
    }
}

/// Writes game row `g` with what goes with it, under a savepoint: `game` is the backend's
/// statement that writes a row unless it is stale, `held` the one that deletes the pending
/// moves the row holds (both with the parameters of [`GameRow`]'s fields in order, and the
/// id first).
pub fn write_with(db: &mut dyn Sql, game: &str, held: &str, g: &GameRow) -> Made {
    let written = db.savepoint(|db| {
        let row = args![
            g.id.as_str(),
            g.live,
            g.updated_ms,
            g.seq as i64,
            g.data.as_str()
        ];
        if db.execute(game, &row)? == 0 {
            return Ok(false);
        }
        db.execute(held, &args![g.id.as_str()])?;
        for a in &g.with {
            a.apply(db)?;
        }
        Ok(true)
    });
    match written {
        Ok(written) => Made::of(written),
        Err(e) => {
            tracing::error!(game = %g.id, "what goes with the game's row failed: {e:#}");
            Made::Failed(format!("{e:#}"))
        }
    }
}

/// A game whose pending moves are folded into its row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    /// The game's id.
    pub game: String,
    /// Its stored form with the moves applied, as JSON.
    pub data: String,
    /// The time of the last move folded.
    pub updated_ms: i64,
    /// The sequence number of the last move folded: the row takes it, and the pending moves
    /// up to it are deleted.
    pub seq: u64,
}

/// A change to store.
#[derive(Clone, Debug)]
pub enum Change {
    /// A game's whole stored form.
    Game(GameRow),
    /// A move that left its game running.
    Move(PendingMove),
    /// A game that cannot be restored, moved with its pending moves into `damaged_games`
    /// (with the reason), out of the way of the server and kept for its operator.
    SetAside {
        /// The game's id.
        id: String,
        /// Why it cannot be restored.
        why: String,
        /// When, ms since the epoch.
        at_ms: i64,
    },
}

/// Everything one transaction writes, in this order.
pub struct Commit<'a> {
    /// Games whose pending moves are folded into their rows.
    pub folds: &'a [Fold],
    /// The time to record as the server's last sign of life.
    pub heartbeat: Option<i64>,
    /// The changes. A whole game also deletes the pending moves it holds.
    pub changes: &'a [&'a Change],
}

/// The sequence number in a game's stored form, for rows of earlier versions that lack the
/// column; 0 (any write may replace the row) where the data cannot be read.
pub fn seq_in(data: &str) -> i64 {
    #[derive(serde::Deserialize)]
    struct Seq {
        seq: i64,
    }
    serde_json::from_str::<Seq>(data).map_or(0, |s| s.seq)
}

/// The columns of `pending_moves` that make a [`PendingMove`].
pub const PENDING_COLUMNS: &str =
    "SELECT game, seq, at_ms, mover, move, left_ms FROM pending_moves";

/// One connection to a database.
pub trait Backend: Send {
    /// Creates the tables if they are missing.
    fn init(&mut self) -> anyhow::Result<()>;
    /// The last heartbeat recorded.
    fn alive_ms(&mut self) -> anyhow::Result<Option<i64>>;
    /// Copies a write-ahead log into the database file, where the database has one to copy.
    fn checkpoint(&mut self) -> anyhow::Result<()>;
    /// The connection, for the portable statements.
    fn sql(&mut self) -> &mut dyn Sql;
    /// How long a batch gathers under load before it is committed, so that one commit
    /// serves many games: what a commit costs this database against what a write does.
    fn gather(&self) -> Duration;
    /// Writes `commit` in one transaction, then runs `jobs` in it, returning what became of
    /// each change: a game or move made on a state older than the stored one is not made
    /// (nor is a fold, silently).
    fn commit(&mut self, commit: &Commit, jobs: &mut [Box<dyn Job>]) -> anyhow::Result<Vec<Made>>;
    /// The pending moves (of game `game`, or of all games), each game's in order.
    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>>;
    /// The stored form of game `id`, without its pending moves.
    fn game_data(&mut self, id: &str) -> anyhow::Result<Option<String>>;
    /// The ids and stored forms of the games still being played, without their pending
    /// moves.
    fn live_data(&mut self) -> anyhow::Result<Vec<(String, String)>>;
    /// The stored forms of the `limit` most recently finished games, the latest first.
    fn finished_data(&mut self, limit: usize) -> anyhow::Result<Vec<String>>;
    /// Whether the connection was lost, so that it must be made again.
    fn is_lost(&self) -> bool;
    /// A trivial round trip, to tell that the database answers.
    fn ping(&mut self) -> anyhow::Result<()>;
}
