//! The writer thread: every write goes through it, and it commits whatever has queued up in
//! a single transaction (group commit) before it answers each writer, so a change is
//! durable before the hub tells anyone of it, and many games moving at once share a commit.
//!
//! It also keeps `pending_moves` short: it folds the pending moves of games that hold up the
//! oldest rows into their rows, and deletes in runs the rows no game needs any more. After
//! a failed commit it learns from the database what is really there (a commit whose answer
//! was lost may have been made), so that it never numbers a row twice nor deletes a row a
//! game still needs.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::backend::{Backend, Change, Commit};
use super::{Location, folded};
use crate::outage::Outage;
use crate::room::PendingMove;

/// How often SQLite's write-ahead log is copied into the database file, and so how long the
/// log may grow before it starts again. Each start costs the writer a pause of about 5 ms,
/// which the moves arriving meanwhile wait out: every 4 s that is about 0.2% of the moves
/// under the load test rather than 1% every second. The log is then at most 4 s of writes.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(4);

/// How long a batch gathers under load before it is committed: at 17 000 moves a second,
/// 0.5 ms gathers about 20 writes into one commit (rather than 3), which halves the database
/// work per move and the thread wakeups.
const GATHER: Duration = Duration::from_micros(500);

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// How often the writer records that the server is alive when nothing else is written.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// Once the oldest pending move lies this many rows behind the newest, the writer folds the
/// games holding up the log (an idle game's moves would keep every later row alive).
const FOLD_BEHIND: i64 = 1 << 16;

/// Most games folded after one commit, so that folding never holds up the moves waiting.
const FOLDS_PER_COMMIT: usize = 4;

/// Rows of `pending_moves` that no game needs any more are deleted once there are this many
/// in a row: a few pages freed at once rather than a row at a time.
const TRIM_EVERY: i64 = 256;

/// A change and the writer waiting for it to be committed.
pub struct Write {
    /// What to store.
    pub change: Change,
    /// Answered once the change is committed, or with the reason it was not.
    pub done: oneshot::Sender<Result<(), String>>,
}

/// When the writer records next that the server is alive. The heartbeat rides along with the
/// first commit after it falls due, or is written alone when it falls due in a quiet moment:
/// under load, writing it in every commit (a thousand a second) added a page to each.
#[derive(Default)]
struct Heartbeat {
    /// When it was last written; `None` before the first time.
    written: Option<Instant>,
}

impl Heartbeat {
    /// How long until it falls due.
    fn due_in(&self) -> Duration {
        self.written
            .map_or(Duration::ZERO, |t| HEARTBEAT.saturating_sub(t.elapsed()))
    }

    /// Whether the next commit should carry it; if so, it counts as written.
    fn take(&mut self) -> bool {
        let due = self.due_in().is_zero();
        if due {
            self.written = Some(Instant::now());
        }
        due
    }
}

/// The writer's account of `pending_moves`: which rows each game still needs (its moves not
/// yet folded into its row), so that rows no game needs can be deleted and the games holding
/// up the oldest rows folded. Only the rows' ids are kept here: 8 bytes a move.
pub(super) struct PendingLog {
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
    /// The account of `pending_moves` holding `rows` (row id and game, in order).
    pub(super) fn of(rows: Vec<(i64, String)>) -> PendingLog {
        let first = rows.first().map_or(1, |r| r.0);
        let mut log = PendingLog {
            next_id: first,
            kept_from: first,
            games: HashMap::new(),
            by_oldest: BTreeMap::new(),
        };
        for (id, game) in rows {
            log.next_id = id;
            log.add(game);
        }
        log
    }

    /// Counts a new row of `game`'s.
    fn add(&mut self, game: String) {
        let id = self.next_id;
        self.next_id += 1;
        match self.games.get_mut(&game) {
            Some(rows) => rows.push(id),
            None => {
                self.by_oldest.insert(id, game.clone());
                self.games.insert(game, vec![id]);
            }
        }
    }

    /// Takes note of a committed change (in commit order).
    fn committed(&mut self, change: &Change) {
        match change {
            // The row holds all of the game now, or the game is gone.
            Change::Game(super::backend::GameRow { id, .. }) | Change::SetAside { id, .. } => {
                if let Some(rows) = self.games.remove(id) {
                    self.by_oldest.remove(&rows[0]);
                }
            }
            Change::Move(m) => self.add(m.game.clone()),
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

/// The folds for the next commit: the games holding up the oldest rows of `pending_moves`,
/// taken out of `log`, with their moves folded into their rows. A game whose moves do not
/// fit its row is set aside instead.
fn folds(
    db: &mut dyn Backend,
    log: &mut PendingLog,
) -> (Due, Vec<(String, String, i64)>, Vec<Change>) {
    let due = log.take_due();
    let mut folds = Vec::new();
    let mut aside = Vec::new();
    for (game, rows) in &due {
        let found = db
            .pending_moves_in(rows)
            .and_then(|moves| Ok((db.game_data(game)?, moves)));
        match found {
            Ok((Some(data), moves)) => match folded(&data, &moves) {
                Ok(fold) => folds.push((game.clone(), fold.0, fold.1)),
                Err(why) => aside.push(set_aside_unfit(game, &why)),
            },
            Ok((None, _)) => {}
            Err(e) => {
                tracing::warn!(game = %game, "cannot read pending moves to fold: {e}");
                log.put_back(due);
                return (Vec::new(), Vec::new(), Vec::new());
            }
        }
    }
    (due, folds, aside)
}

/// The change that sets game `id`, whose pending moves do not fit it, aside for `why`,
/// logged.
fn set_aside_unfit(id: &str, why: &str) -> Change {
    tracing::error!(game = %id, "the game's pending moves do not fit it; it is set aside: {why}");
    set_aside(id, why)
}

/// The change that sets game `id` aside for `why`.
pub(super) fn set_aside(id: &str, why: &str) -> Change {
    Change::SetAside {
        id: id.to_owned(),
        why: why.to_owned(),
        at_ms: crate::clock::now_ms(),
    }
}

/// The writer's loop: gathers writes into batches and commits them until every sender is
/// gone.
pub(super) fn write_loop(
    mut db: Box<dyn Backend>,
    rx: mpsc::Receiver<Write>,
    at: &Location,
    checkpointed: &AtomicBool,
    mut log: PendingLog,
    last_commit: &AtomicI64,
) {
    let mut outage = Outage::new("storing to the database");
    // A moving average of the number of writes per commit.
    let mut batch_size = 1.0_f32;
    let mut heartbeat = Heartbeat::default();
    // Whether `log` must be read again from the database before the next commit.
    let mut unsure = false;
    loop {
        // After each checkpoint of the checkpoint thread, the writer finishes the job itself
        // between two commits: with no write running it catches up with the whole log, and
        // the next commit starts the log again from its beginning. A checkpoint beside a busy
        // writer never catches up, and the log grew without end.
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
        if db.is_lost() {
            match at.connect() {
                Ok(fresh) => db = fresh,
                Err(e) => outage.failed(None, &e),
            }
        }
        if unsure {
            // A commit whose answer was lost may have been made: the database says which
            // rows are there.
            match db.pending_rows() {
                Ok(rows) => {
                    log = PendingLog::of(rows);
                    unsure = false;
                }
                Err(e) => {
                    let why = format!("database error: {e}");
                    outage.failed(None, &why);
                    for w in batch {
                        let _ = w.done.send(Err(why.clone()));
                    }
                    continue;
                }
            }
        }
        // Folding and deleting ride with the batch (or the heartbeat): one commit, not two.
        let (due, folds, aside) = folds(db.as_mut(), &mut log);
        let trim_below = log.trim_below();
        let changes: Vec<&Change> = aside
            .iter()
            .chain(batch.iter().map(|w| &w.change))
            .collect();
        let commit = Commit {
            folds: &folds,
            trim_below,
            heartbeat: heartbeat.take().then(crate::clock::now_ms),
            changes: &changes,
            first_id: log.next_id,
        };
        let result = db
            .commit(&commit)
            .map_err(|e| format!("database error: {e}"));
        match &result {
            Ok(()) => {
                outage.worked(None);
                last_commit.store(crate::clock::now_ms(), Ordering::Relaxed);
                if let Some(below) = trim_below {
                    log.kept_from = below;
                }
                for change in &changes {
                    log.committed(change);
                }
            }
            Err(e) => {
                outage.failed(None, e);
                log.put_back(due);
                unsure = true;
            }
        }
        for w in batch {
            let _ = w.done.send(result.clone());
        }
    }
}

/// Every game's pending moves, oldest first, the games in the order of their oldest.
pub(super) fn by_game(moves: Vec<PendingMove>) -> Vec<(String, Vec<PendingMove>)> {
    let mut games: Vec<(String, Vec<PendingMove>)> = Vec::new();
    let mut index = HashMap::new();
    for m in moves {
        let at = *index.entry(m.game.clone()).or_insert_with(|| {
            games.push((m.game.clone(), Vec::new()));
            games.len() - 1
        });
        games[at].1.push(m);
    }
    games
}

/// Folds every pending move into its game's row and empties `pending_moves`: done at
/// startup, before anything else is written. A game whose moves do not fit it is set aside.
pub(super) fn fold_all(db: &mut dyn Backend) -> anyhow::Result<()> {
    let mut folds = Vec::new();
    let mut aside = Vec::new();
    for (game, moves) in by_game(db.pending_moves(None)?) {
        let Some(data) = db.game_data(&game)? else {
            continue;
        };
        match folded(&data, &moves) {
            Ok((data, updated_ms)) => folds.push((game, data, updated_ms)),
            Err(why) => aside.push(set_aside_unfit(&game, &why)),
        }
    }
    // The games set aside take their pending moves with them before the rest are deleted.
    let mut commit = Commit {
        folds: &[],
        trim_below: None,
        heartbeat: None,
        changes: &aside.iter().collect::<Vec<_>>(),
        first_id: 1,
    };
    db.commit(&commit)?;
    commit.folds = &folds;
    commit.trim_below = Some(i64::MAX);
    commit.changes = &[];
    db.commit(&commit)
}

#[cfg(test)]
mod tests {
    use super::super::backend::GameRow;
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
        let mut log = PendingLog::of(Vec::new());
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
        let mut log = PendingLog::of(Vec::new());
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

    #[test]
    fn the_account_read_back_from_the_database_numbers_on_after_its_last_row() {
        let rows = vec![
            (7, "a".to_owned()),
            (9, "b".to_owned()),
            (12, "a".to_owned()),
        ];
        let mut log = PendingLog::of(rows);
        assert_eq!(log.next_id, 13);
        assert_eq!(log.games["a"], [7, 12]);
        // Rows below the oldest one kept are gone already: nothing to delete there.
        assert_eq!(log.kept_from, 7);
        log.committed(&whole("a"));
        log.committed(&whole("b"));
        assert_eq!(log.trim_below(), None);
        assert_eq!(PendingLog::of(Vec::new()).next_id, 1);
    }
}
