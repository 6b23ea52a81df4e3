//! The writer thread: every write goes through it, and it commits whatever has queued up in
//! a single transaction (group commit) before it answers each writer, so a change is
//! durable before the hub tells anyone of it, and many games moving at once share a commit.
//!
//! It also keeps each game's pending moves few: once a game has [`FOLD_AT`] of them, they are
//! folded into its row. It keeps no other account of the database: rows are keyed by game
//! and sequence number and every write is conditional on the stored state, so that a commit
//! whose answer was lost, or another server writing to the same database, can never make it
//! number a row twice or delete a row a game still needs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use tokio::sync::oneshot;

use super::backend::{Backend, Change, Commit, Fold, Made};
use super::form::PendingMove;
use super::jobs::Job;
use super::{Form, Location, WriteError, folded};
use crate::ops::outage::Outage;
use crate::ops::time::TimeSource;

/// How often SQLite's write-ahead log is copied into the database file, and so how long the
/// log may grow before it starts again. Each start costs the writer a pause of about 5 ms,
/// which the moves arriving meanwhile wait out: every 4 s that is about 0.2% of the moves
/// under the load test rather than 1% every second. The log is then at most 4 s of writes.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(4);

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// How often the writer records that the server is alive when nothing else is written.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// A game's pending moves are folded into its row once it has this many: reading a game
/// back then never replays more than this many moves, and a fold (reading the row and
/// writing it whole) costs the writer about one move in this many.
pub const FOLD_AT: u32 = 64;

/// Most games folded after one commit, so that folding never holds up the moves waiting.
const FOLDS_PER_COMMIT: usize = 4;

/// A change and the writer waiting for it to be committed.
pub struct Write {
    /// What to store.
    pub change: Change,
    /// Answered once the change is committed, or with the reason it was not.
    pub done: oneshot::Sender<Result<(), WriteError>>,
}

/// What the writer is given to do.
pub(crate) enum Queued {
    /// A change to a game.
    Change(Write),
    /// Other work for its transaction (the players' tables).
    Job(Box<dyn Job>),
}

/// When the writer records next that the server is alive. The heartbeat rides along with the
/// first commit after it falls due, or is written alone when it falls due in a quiet moment:
/// under load, writing it in every commit (a thousand a second) added a page to each.
/// Counted in the server's time, so that a commit after its time moved on (the tests'
/// controlled clock) carries the heartbeat at once.
#[derive(Default)]
struct Heartbeat {
    /// When it was last written, in the server's time; `None` before the first time.
    written_ms: Option<i64>,
}

impl Heartbeat {
    /// How long until it falls due at `now_ms`.
    fn due_in(&self, now_ms: i64) -> Duration {
        self.written_ms.map_or(Duration::ZERO, |t| {
            HEARTBEAT.saturating_sub(Duration::from_millis((now_ms - t).max(0) as u64))
        })
    }

    /// Whether the next commit, at `now_ms`, should carry it; if so, it counts as written.
    fn take(&mut self, now_ms: i64) -> bool {
        let due = self.due_in(now_ms).is_zero();
        if due {
            self.written_ms = Some(now_ms);
        }
        due
    }
}

/// How many pending moves each game has that this writer stored, to fold them in runs.
/// A guess, not an account: a failed commit or another server's moves leave it wrong, and
/// the fold reads what is really there.
#[derive(Default)]
pub(super) struct PendingCount {
    games: HashMap<String, u32>,
}

impl PendingCount {
    /// Takes note of a committed change.
    fn committed(&mut self, change: &Change) {
        match change {
            // The row holds all of the game now, or the game is gone.
            Change::Game(super::backend::GameRow { id, .. }) | Change::SetAside { id, .. } => {
                self.games.remove(id);
            }
            Change::Move(m) => *self.games.entry(m.game.clone()).or_default() += 1,
        }
    }

    /// Takes out the games that have [`FOLD_AT`] pending moves or more (at most
    /// [`FOLDS_PER_COMMIT`]), to be folded.
    fn take_due(&mut self) -> Vec<String> {
        let due: Vec<String> = self
            .games
            .iter()
            .filter(|&(_, &n)| n >= FOLD_AT)
            .map(|(game, _)| game.clone())
            .take(FOLDS_PER_COMMIT)
            .collect();
        for game in &due {
            self.games.remove(game);
        }
        due
    }
}

/// The folds for the next commit: the games of `due` with their pending moves folded into
/// their rows. A game whose moves do not fit its row is set aside instead; one whose moves
/// cannot be read now is left for later.
fn folds<F: Form>(db: &mut dyn Backend, due: &[String], now_ms: i64) -> (Vec<Fold>, Vec<Change>) {
    let mut folds = Vec::new();
    let mut aside = Vec::new();
    for game in due {
        let found = db
            .pending_moves(Some(game))
            .and_then(|moves| Ok((db.game_data(game)?, moves)));
        match found {
            Ok((Some(data), moves)) if !moves.is_empty() => match folded::<F>(&data, &moves) {
                Ok(fold) => folds.push(Fold {
                    game: game.clone(),
                    data: fold.data,
                    updated_ms: fold.updated_ms,
                    seq: fold.seq,
                }),
                Err(why) => aside.push(set_aside_unfit(game, &why, now_ms)),
            },
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(game = %game, "cannot read pending moves to fold: {e}");
                return (Vec::new(), Vec::new());
            }
        }
    }
    (folds, aside)
}

/// The change that sets game `id`, whose pending moves do not fit it, aside for `why` at
/// `at_ms`, logged.
fn set_aside_unfit(id: &str, why: &str, at_ms: i64) -> Change {
    tracing::error!(game = %id, "the game's pending moves do not fit it; it is set aside: {why}");
    set_aside(id, why, at_ms)
}

/// The change that sets game `id` aside for `why` at `at_ms`.
pub(super) fn set_aside(id: &str, why: &str, at_ms: i64) -> Change {
    Change::SetAside {
        id: id.to_owned(),
        why: why.to_owned(),
        at_ms,
    }
}

/// The writer's loop: gathers writes into batches and commits them until every sender is
/// gone.
pub(super) fn write_loop<F: Form>(
    mut db: Box<dyn Backend>,
    rx: mpsc::Receiver<Queued>,
    at: &Location,
    checkpointed: &AtomicBool,
    last_commit: &AtomicI64,
    time: &TimeSource,
) {
    let mut outage = Outage::new("storing to the database");
    // A moving average of the number of writes per commit.
    let mut batch_size = 1.0_f32;
    let mut heartbeat = Heartbeat::default();
    let mut pending = PendingCount::default();
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
        let batch = match rx.recv_timeout(heartbeat.due_in(time.now_ms())) {
            Ok(first) => {
                // Under load (recent batches held more than one write on average), the batch
                // gathers for a moment before it is committed, so that writes join it without
                // waking this thread and one commit serves many games. At a quiet time a
                // write is committed at once.
                if batch_size > 1.5 {
                    std::thread::sleep(db.gather());
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
        let mut writes = Vec::with_capacity(batch.len());
        let mut jobs = Vec::new();
        for queued in batch {
            match queued {
                Queued::Change(w) => writes.push(w),
                Queued::Job(j) => jobs.push(j),
            }
        }
        let batch = writes;
        // Folding rides with the batch (or the heartbeat): one commit, not two.
        let (folds, aside) = folds::<F>(db.as_mut(), &pending.take_due(), time.now_ms());
        let changes: Vec<&Change> = aside
            .iter()
            .chain(batch.iter().map(|w| &w.change))
            .collect();
        let commit = Commit {
            folds: &folds,
            heartbeat: {
                let now = time.now_ms();
                heartbeat.take(now).then_some(now)
            },
            changes: &changes,
        };
        let result = db.commit(&commit, &mut jobs);
        let made = match result {
            Ok(mut made) => {
                outage.worked(None);
                last_commit.store(time.now_ms(), Ordering::Relaxed);
                for (change, made) in changes.iter().zip(&made) {
                    if *made == Made::Yes {
                        pending.committed(change);
                    }
                }
                for job in jobs {
                    job.finish(Ok(()));
                }
                Ok(made.split_off(aside.len()))
            }
            Err(e) => {
                let why = format!("database error: {e}");
                outage.failed(None, &why);
                for job in jobs {
                    job.finish(Err(WriteError::Failed(why.clone())));
                }
                Err(why)
            }
        };
        match made {
            Ok(made) => {
                for (w, made) in batch.into_iter().zip(made) {
                    let answer = match made {
                        Made::Yes => Ok(()),
                        Made::Stale => Err(WriteError::Stale(stale(&w.change))),
                        Made::Failed(why) => Err(WriteError::Failed(why)),
                    };
                    let _ = w.done.send(answer);
                }
            }
            Err(why) => {
                for w in batch {
                    let _ = w.done.send(Err(WriteError::Failed(why.clone())));
                }
            }
        }
    }
}

/// Why `change` was not made: the database holds a later state of its game (another server
/// changed it), or none it follows.
fn stale(change: &Change) -> String {
    match change {
        Change::Game(g) => format!(
            "game {} has moved on in the database from its state {} here",
            g.id, g.seq
        ),
        Change::Move(m) => format!(
            "move {} (seq {}) of game {} does not follow the game's state in the database",
            m.text, m.seq, m.game
        ),
        Change::SetAside { id, .. } => format!("game {id} could not be set aside"),
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

/// Folds every pending move into its game's row: done at startup, before anything else is
/// written. A game whose moves do not fit it is set aside, and so are moves whose game is
/// gone.
pub(super) fn fold_all<F: Form>(db: &mut dyn Backend, time: &TimeSource) -> anyhow::Result<()> {
    let mut folds = Vec::new();
    let mut aside = Vec::new();
    for (game, moves) in by_game(db.pending_moves(None)?) {
        let Some(data) = db.game_data(&game)? else {
            aside.push(set_aside_unfit(
                &game,
                "pending moves of a game that is not stored",
                time.now_ms(),
            ));
            continue;
        };
        match folded::<F>(&data, &moves) {
            Ok(fold) => folds.push(Fold {
                game,
                data: fold.data,
                updated_ms: fold.updated_ms,
                seq: fold.seq,
            }),
            Err(why) => aside.push(set_aside_unfit(&game, &why, time.now_ms())),
        }
    }
    db.commit(
        &Commit {
            folds: &folds,
            heartbeat: None,
            changes: &aside.iter().collect::<Vec<_>>(),
        },
        &mut [],
    )?;
    Ok(())
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
            seq: 0,
            data: String::new(),
            with: Vec::new(),
        })
    }

    #[test]
    fn a_game_is_folded_once_it_has_enough_pending_moves() {
        let mut count = PendingCount::default();
        for seq in 1..FOLD_AT as u64 {
            count.committed(&pending("a", seq));
            count.committed(&pending("b", seq));
        }
        assert!(count.take_due().is_empty());
        count.committed(&pending("a", FOLD_AT as u64));
        assert_eq!(count.take_due(), ["a"]);
        // Taken out: not due again until it has gathered as many more.
        assert!(count.take_due().is_empty());
        // A game stored whole has none pending any more.
        count.committed(&whole("b"));
        count.committed(&pending("b", FOLD_AT as u64));
        assert!(count.take_due().is_empty());
    }

    #[test]
    fn at_most_a_few_games_are_folded_at_once() {
        let mut count = PendingCount::default();
        for game in 0..2 * FOLDS_PER_COMMIT {
            for seq in 1..=FOLD_AT as u64 {
                count.committed(&pending(&game.to_string(), seq));
            }
        }
        assert_eq!(count.take_due().len(), FOLDS_PER_COMMIT);
        assert_eq!(count.take_due().len(), FOLDS_PER_COMMIT);
        assert!(count.take_due().is_empty());
    }
}
