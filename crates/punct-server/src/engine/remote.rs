//! Searching through the job queue (`store::engine_queue`), for a node whose engine runs in
//! `punct worker` processes (`--engine workers`): a search is queued as a job, in its lane,
//! and its result waited for, woken by the job's notification on [`Channel::Jobs`] and
//! read from the database, which is the truth (a lost notification costs a second's poll).
//!
//! While the database is out of reach the job is queued and looked for again until it
//! answers, so a PostgreSQL restart delays a computer move rather than losing it; a search
//! its game no longer wants (a takeback, a resignation, another node's move) is given up.
//! The result is kept in the queue until the workers prune it, so a second node waiting
//! for the same move (the game's new owner after a takeover) finds it there too.

use std::time::Duration;

use punct_core::Game;
use punct_engine::{Level, SearchResult};
use tokio::sync::broadcast::error::RecvError;

use super::budget::ComputerClock;
use super::job::{JobResult, JobSpec};
use crate::error::Error;
use crate::ops::outage::Outage;
use crate::ops::time::TimeSource;
use crate::store::Store;
use crate::store::engine_queue::{self, ANALYSIS_LANE, Ended, GAME_LANE};
use crate::store::notify::{self, Channel, Notice};

/// How long a waiting search goes without looking at the database when no notification
/// comes: what a lost one costs at most.
const POLL: Duration = Duration::from_secs(1);

/// Wait before trying a database that did not answer again.
const RETRY: Duration = Duration::from_millis(250);

/// The node's side of the queue.
pub(super) struct Remote {
    pub(super) store: Store,
    pub(super) movetime: Duration,
    pub(super) time: TimeSource,
}

impl Remote {
    /// The computer's move in game `game_id` at state `seq`: queued once for the game's
    /// state, however many nodes ask. `None` once `wanted` says the game has moved on.
    pub(super) async fn search(
        &self,
        (game_id, seq): (&str, u64),
        game: &Game,
        level: Level,
        clock: Option<ComputerClock>,
        wanted: &(dyn Fn() -> bool + Send + Sync),
    ) -> Result<Option<SearchResult>, Error> {
        let id = engine_queue::game_job_id(game_id, seq);
        let spec = JobSpec::of(game, level, clock, self.movetime).to_json();
        self.run(&id, GAME_LANE, game_id, seq, spec, wanted).await
    }

    /// An analysis of `game`'s position at full strength, in the analysis lane. Dropped
    /// unanswered (its client hung up), the job is taken back.
    pub(super) async fn analyse(&self, game: &Game) -> Result<SearchResult, Error> {
        let id = format!("analysis-{:016x}", super::worker::rand_seed());
        let spec = JobSpec::of(game, Level::FULL, None, self.movetime).to_json();
        let mut unanswered = TakenBack {
            store: &self.store,
            id: Some(id.clone()),
        };
        let found = self.run(&id, ANALYSIS_LANE, "", 0, spec, &|| true).await?;
        unanswered.id = None;
        found.ok_or_else(|| Error::internal("the engine's analysis was given up"))
    }

    async fn run(
        &self,
        id: &str,
        lane: i64,
        game: &str,
        seq: u64,
        spec: String,
        wanted: &(dyn Fn() -> bool + Send + Sync),
    ) -> Result<Option<SearchResult>, Error> {
        // Subscribed before the job is queued, so that its end is never missed.
        let mut notices = self.store.notices();
        let mut outage = Outage::new("queueing an engine job");
        loop {
            let (key, game_id, spec, now) = (
                id.to_owned(),
                game.to_owned(),
                spec.clone(),
                self.time.now_ms(),
            );
            let queued = self
                .store
                .transact(move |db| {
                    engine_queue::enqueue(db, &key, lane, &game_id, seq, &spec, now)?;
                    notify::notify_in(db, Channel::Jobs, &key)
                })
                .await;
            match queued {
                Ok(()) => break outage.worked(Some(id)),
                Err(e) => outage.failed(Some(id), &e),
            }
            if !wanted() {
                return Ok(None);
            }
            tokio::time::sleep(RETRY).await;
        }
        let mut outage = Outage::new("reading an engine job's result");
        loop {
            let key = id.to_owned();
            match self
                .store
                .query(move |db| engine_queue::ended(db, &key))
                .await
            {
                Ok(Some(Ended::Result(json))) => {
                    outage.worked(Some(id));
                    return JobResult::read(id, &json)
                        .map(Some)
                        .map_err(Error::internal);
                }
                Ok(Some(Ended::Error(why))) => {
                    outage.worked(Some(id));
                    return Err(Error::internal(format!("engine job {id} failed: {why}")));
                }
                Ok(None) => outage.worked(Some(id)),
                Err(e) => outage.failed(Some(id), &format!("{e:#}")),
            }
            if !wanted() {
                let key = id.to_owned();
                let _ = self
                    .store
                    .transact(move |db| engine_queue::cancel(db, &key))
                    .await;
                return Ok(None);
            }
            let _ = tokio::time::timeout(POLL, heard(&mut notices, id)).await;
        }
    }
}

/// Waits until job `id`'s notification comes, or notifications may have been missed.
async fn heard(notices: &mut tokio::sync::broadcast::Receiver<Notice>, id: &str) {
    loop {
        match notices.recv().await {
            Ok(Notice::Job(job)) if job == id => return,
            Ok(Notice::Missed) | Err(RecvError::Lagged(_)) => return,
            Ok(_) => {}
            // The store is going: the caller's poll reads on until it does.
            Err(RecvError::Closed) => return std::future::pending().await,
        }
    }
}

/// An analysis job queued and not yet answered: taken back from the queue if its search is
/// dropped (its client hung up), so that no worker spends time on it, or, if one is on it,
/// stopped at its next renewal.
struct TakenBack<'a> {
    store: &'a Store,
    id: Option<String>,
}

impl Drop for TakenBack<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            let store = self.store.clone();
            tokio::spawn(async move {
                if let Err(e) = store
                    .transact(move |db| engine_queue::cancel(db, &id))
                    .await
                {
                    tracing::warn!("an abandoned analysis could not be taken back: {e}");
                }
            });
        }
    }
}
