//! The jobs waiting for an engine thread, in their two lanes, and what the workers and the
//! pool's handles share.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use prometheus::Histogram;
use punct_core::Game;
use punct_engine::{Level, SearchResult};
use tokio::sync::oneshot;

use super::budget::ComputerClock;
use crate::ops::time::TimeSource;

/// A game's search, waiting in the games lane.
pub(super) struct GameJob {
    pub(super) game: Game,
    pub(super) level: Level,
    /// The computer's clock (untimed: `None`).
    pub(super) clock: Option<ComputerClock>,
    /// Whether the game still waits for this search; asked when it starts.
    pub(super) wanted: Box<dyn Fn() -> bool + Send>,
    /// The result, or `None` when the search was dropped unstarted.
    pub(super) reply: oneshot::Sender<Option<SearchResult>>,
    /// When it was queued, for the metric of the wait.
    pub(super) queued: Instant,
}

/// An analysis, waiting in the analysis lane.
pub(super) struct AnalysisJob {
    pub(super) game: Game,
    /// Set when its client has gone: the job is skipped, or the running search stops.
    pub(super) stop: Arc<AtomicBool>,
    pub(super) reply: oneshot::Sender<SearchResult>,
    /// When it was queued, for the metric of the wait.
    pub(super) queued: Instant,
}

/// The lanes of jobs waiting for an engine thread.
#[derive(Default)]
pub(super) struct Lanes {
    pub(super) games: VecDeque<GameJob>,
    pub(super) analysis: VecDeque<AnalysisJob>,
    /// Analyses waiting or running, per client.
    pub(super) clients: HashMap<IpAddr, usize>,
    /// Set when the pool is dropped: the workers end.
    pub(super) closed: bool,
}

/// What the workers and the handles share.
pub(super) struct Shared {
    pub(super) lanes: Mutex<Lanes>,
    /// Signalled when a job is queued (or the pool closes).
    pub(super) queued: Condvar,
    pub(super) threads: usize,
    pub(super) movetime: Duration,
    /// Threads each search uses (1 unless [set](super::EnginePool::set_search_threads)).
    pub(super) search_threads: AtomicUsize,
    /// Analyses stopped because their client went away while they ran.
    pub(super) stopped: AtomicU64,
    /// Time from queueing to the search's start (the pool's metric).
    pub(super) wait: Histogram,
    /// The server's time source, which the clocks' deadlines are read against.
    pub(super) time: TimeSource,
}

impl Shared {
    /// The lanes. A panic elsewhere while they were held leaves them consistent (every
    /// change to them is a single push, pop or count), so they stay usable.
    pub(super) fn lanes(&self) -> MutexGuard<'_, Lanes> {
        self.lanes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Closes the lanes when the last handle to the pool goes, so that its threads end.
pub(super) struct Closer(pub(super) Arc<Shared>);

impl Drop for Closer {
    fn drop(&mut self) {
        self.0.lanes().closed = true;
        self.0.queued.notify_all();
    }
}
