//! What the store needs of a database, written once for SQLite and once for PostgreSQL:
//! one connection, owned by one thread, and a handful of statements.

use crate::room::PendingMove;

/// A game's row: its whole stored form as JSON, and the columns the lists sort on.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// Whether the game is still being played.
    pub live: bool,
    /// When it last changed, ms since the epoch.
    pub updated_ms: i64,
    /// The stored form as JSON.
    pub data: String,
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
    /// Games whose pending moves were folded into their rows: the new data and time.
    pub folds: &'a [(String, String, i64)],
    /// Rows of `pending_moves` numbered below this are deleted.
    pub trim_below: Option<i64>,
    /// The time to record as the server's last sign of life.
    pub heartbeat: Option<i64>,
    /// The changes; the pending moves among them become rows numbered from `first_id` on.
    pub changes: &'a [&'a Change],
    /// The number of the first pending move's row.
    pub first_id: i64,
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
    /// Writes `commit` in one transaction.
    fn commit(&mut self, commit: &Commit) -> anyhow::Result<()>;
    /// The pending moves (of game `game`, or of all games), oldest first.
    fn pending_moves(&mut self, game: Option<&str>) -> anyhow::Result<Vec<PendingMove>>;
    /// The pending moves in rows `ids`, in order.
    fn pending_moves_in(&mut self, ids: &[i64]) -> anyhow::Result<Vec<PendingMove>>;
    /// Every pending move's row number and game, in order.
    fn pending_rows(&mut self) -> anyhow::Result<Vec<(i64, String)>>;
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
