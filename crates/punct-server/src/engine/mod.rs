//! The engine's worker threads, fed from two lanes so that the CPU-bound search never runs
//! on the async runtime and people asking for analysis never keep the computer from moving.
//!
//! The games lane is always served first, and never refuses: each game has at most one
//! search waiting. A game's search is given its limits when it starts ([`budget`]): the
//! engine's own time manager shares out the clock, of which the search is handed the part
//! that is its own with the searches waiting behind it, so that waiting in the queue is paid
//! for by thinking less rather than by losing on time; a search whose game has changed
//! while it waited is dropped unstarted. The analysis lane is bounded, as
//! is each client's share of it, and an analysis whose client hangs up is taken out of the
//! lane or, if it is running, stopped.
//!
//! The workers run in the idle scheduling class (SCHED_IDLE on Linux), below the network
//! side, so that a busy engine takes only the CPU time nobody else wants: on a machine with
//! few cores, other games' moves are not slowed down by the computer thinking.
//!
//! With `--engine workers` (PostgreSQL only) the node searches nothing itself: its searches
//! are jobs in the database's queue ([`remote`], `store::engine_queue`), in the same two
//! lanes, done by `punct worker` processes on any machine ([`standalone`]) with the same
//! limits and clock policy.

mod budget;
pub mod job;
mod lanes;
mod remote;
pub mod standalone;
mod worker;

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use prometheus::Histogram;
use punct_core::Game;
use punct_engine::{Level, SearchResult};
use tokio::sync::oneshot;

pub use budget::ComputerClock;
use lanes::{AnalysisJob, Closer, GameJob, Lanes, Shared};

use crate::error::Error;
use crate::ops::time::TimeSource;
use crate::store::Store;
use crate::store::engine_queue::{self, Depth};

/// Handle to the workers.
#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<Shared>,
    _closer: Arc<Closer>,
    /// Analyses that may wait at once.
    analysis_queue: usize,
    /// Analyses one client may have waiting or running at once.
    per_client: usize,
    /// The database's job queue, when `punct worker` processes search instead of this
    /// node's threads.
    remote: Option<Arc<remote::Remote>>,
}

/// Where the searches run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineMode {
    /// On this node's own engine threads (the default, and always with SQLite).
    #[default]
    Local,
    /// In `punct worker` processes, through the job queue in PostgreSQL.
    Workers,
}

impl std::str::FromStr for EngineMode {
    type Err = String;

    fn from_str(s: &str) -> Result<EngineMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "local" => Ok(EngineMode::Local),
            "workers" => Ok(EngineMode::Workers),
            other => Err(format!(
                "unknown engine `{other}`: expected `local` (this server's own threads) or \
                 `workers` (`punct worker` processes on the PostgreSQL)"
            )),
        }
    }
}

impl EnginePool {
    /// Starts `threads` workers; each search thinks for at most `movetime`. At most
    /// `analysis_queue` analyses wait at once, at most `per_client` from one client. The
    /// games' clocks are read against `time`.
    pub fn new(
        threads: usize,
        analysis_queue: usize,
        per_client: usize,
        movetime: Duration,
        time: TimeSource,
    ) -> EnginePool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            lanes: Mutex::new(Lanes::default()),
            queued: Condvar::new(),
            threads,
            movetime,
            search_threads: AtomicUsize::new(1),
            stopped: AtomicU64::new(0),
            wait: crate::ops::metrics::engine_wait(),
            time,
        });
        for i in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("punct-engine-{i}"))
                .spawn(move || {
                    worker::lower_priority();
                    worker::work(&shared)
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start an engine thread: {e}");
            }
        }
        EnginePool {
            _closer: Arc::new(Closer(shared.clone())),
            shared,
            analysis_queue,
            per_client,
            remote: None,
        }
    }

    /// A pool that runs no engine thread: every search is a job in the queue of `store`
    /// (PostgreSQL), done by `punct worker` processes, each thinking at most `movetime`.
    /// At most `analysis_queue` analyses of this node wait at once, at most `per_client`
    /// from one client, as with threads of its own.
    pub fn workers(
        store: Store,
        analysis_queue: usize,
        per_client: usize,
        movetime: Duration,
        time: TimeSource,
    ) -> anyhow::Result<EnginePool> {
        if !store.is_shared() {
            anyhow::bail!(
                "--engine workers needs a PostgreSQL database (--db postgres://…): with \
                 SQLite the server is the only one and searches itself"
            );
        }
        let shared = Arc::new(Shared {
            lanes: Mutex::new(Lanes::default()),
            queued: Condvar::new(),
            threads: 1,
            movetime,
            search_threads: AtomicUsize::new(1),
            stopped: AtomicU64::new(0),
            wait: crate::ops::metrics::engine_wait(),
            time: time.clone(),
        });
        Ok(EnginePool {
            _closer: Arc::new(Closer(shared.clone())),
            shared,
            analysis_queue,
            per_client,
            remote: Some(Arc::new(remote::Remote {
                store,
                movetime,
                time,
            })),
        })
    }

    /// Where this pool's searches run.
    pub fn mode(&self) -> EngineMode {
        match self.remote {
            Some(_) => EngineMode::Workers,
            None => EngineMode::Local,
        }
    }

    /// The jobs not yet done in each lane of the database's queue (games', then
    /// analyses'), when the searches run in workers; `None` when they run here.
    pub async fn queue_depths(&self) -> Option<anyhow::Result<[Depth; 2]>> {
        let remote = self.remote.as_ref()?;
        Some(remote.store.query(engine_queue::depths).await)
    }

    /// Has each search from now on use `n` threads (at least 1): the search threads of a
    /// worker take the cores the other workers would use, so more than one pays only where
    /// few games are played at once.
    pub fn set_search_threads(&self, n: usize) {
        self.shared
            .search_threads
            .store(n.max(1), Ordering::Relaxed);
    }

    /// Searches `game` for the computer at `level`, in the games lane, ahead of any
    /// analysis; `key` names the game and the number of the state it is searched in.
    /// `clock` is the computer's clock in a timed game: the search's limits are set from it
    /// when the search starts ([`budget`]). Just before it starts, `wanted` is asked whether
    /// the game still waits for it: if not, the search is dropped and the answer is `None`
    /// (with workers it is asked while the job waits, and the job taken back).
    pub async fn search(
        &self,
        key: (&str, u64),
        game: Game,
        level: Level,
        clock: Option<ComputerClock>,
        wanted: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Result<Option<SearchResult>, Error> {
        if let Some(remote) = &self.remote {
            return remote.search(key, &game, level, clock, &wanted).await;
        }
        let (reply, answer) = oneshot::channel();
        let job = GameJob {
            game,
            level,
            clock,
            wanted: Box::new(wanted),
            reply,
            queued: Instant::now(),
        };
        self.shared.lanes().games.push_back(job);
        self.shared.queued.notify_one();
        answer
            .await
            .map_err(|_| Error::internal("the engine failed during the search"))
    }

    /// Analyses `game`'s current position at full strength for `client`, in the analysis
    /// lane. Refused (busy) when the lane is full or `client` has its share of it waiting
    /// or running. If the returned future is dropped (its client hung up), the analysis is
    /// taken out of the lane, or stopped if it is running.
    pub async fn analyse(&self, game: Game, client: IpAddr) -> Result<SearchResult, Error> {
        let (reply, answer) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        {
            let mut lanes = self.shared.lanes();
            let mine = lanes.clients.get(&client).copied().unwrap_or(0);
            if mine >= self.per_client {
                return Err(Error::busy(format!(
                    "too many analyses at once: {mine} of yours are waiting or running \
                     (at most {}); wait for them to finish",
                    self.per_client
                )));
            }
            let waiting = match self.remote {
                // Waiting or running: the workers' queue is not this node's to count.
                Some(_) => lanes.clients.values().sum(),
                None => lanes.analysis.len(),
            };
            if waiting >= self.analysis_queue {
                return Err(Error::busy(
                    "the engine is busy with other analyses; try again shortly",
                ));
            }
            *lanes.clients.entry(client).or_default() += 1;
            if self.remote.is_none() {
                lanes.analysis.push_back(AnalysisJob {
                    game: game.clone(),
                    stop: stop.clone(),
                    reply,
                    queued: Instant::now(),
                });
            }
        }
        let _pending = Pending {
            shared: &self.shared,
            stop,
            client,
        };
        if let Some(remote) = &self.remote {
            return remote.analyse(&game).await;
        }
        self.shared.queued.notify_one();
        answer
            .await
            .map_err(|_| Error::internal("the engine failed during the analysis"))
    }

    /// Searches waiting for an engine thread, in both lanes.
    pub fn queued(&self) -> usize {
        let lanes = self.shared.lanes();
        lanes.games.len() + lanes.analysis.len()
    }

    /// The histogram of the time searches wait for an engine thread.
    pub fn wait_histogram(&self) -> &Histogram {
        &self.shared.wait
    }

    /// How many analyses were stopped while running because their client went away.
    pub fn analyses_stopped(&self) -> u64 {
        self.shared.stopped.load(Ordering::Relaxed)
    }
}

/// An analysis asked for and not yet answered. When it goes (answered, or its client hung
/// up) its client's count goes down, and an unanswered analysis is taken out of the lane
/// or stopped.
struct Pending<'a> {
    shared: &'a Shared,
    stop: Arc<AtomicBool>,
    client: IpAddr,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut lanes = self.shared.lanes();
        lanes
            .analysis
            .retain(|job| !Arc::ptr_eq(&job.stop, &self.stop));
        if let Some(n) = lanes.clients.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                lanes.clients.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use punct_core::Variant;

    use super::*;
    use crate::error::ErrorKind;

    const SECOND: Duration = Duration::from_secs(1);

    fn client(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    fn start() -> Game {
        Game::new(Variant::Standard)
    }

    /// Waits until the pool's lanes satisfy `done`.
    async fn until(pool: &EnginePool, done: impl Fn(&Lanes) -> bool) {
        while !done(&pool.shared.lanes()) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test]
    async fn a_game_is_searched_before_the_analyses_waiting_and_an_unwanted_search_is_dropped() {
        let pool = EnginePool::new(1, 8, 8, Duration::from_millis(500), TimeSource::system());
        let first = tokio::spawn({
            let pool = pool.clone();
            async move { pool.analyse(start(), client(1)).await }
        });
        // Running: counted for its client, out of the lane.
        until(&pool, |l| {
            l.clients.contains_key(&client(1)) && l.analysis.is_empty()
        })
        .await;
        let (done, mut order) = tokio::sync::mpsc::unbounded_channel();
        let queued = tokio::spawn({
            let (pool, done) = (pool.clone(), done.clone());
            async move {
                pool.analyse(start(), client(2)).await.unwrap();
                done.send("analysis").unwrap();
            }
        });
        until(&pool, |l| l.analysis.len() == 1).await;
        let found = pool
            .search(("g", 1), start(), Level::new(6).unwrap(), None, || true)
            .await
            .unwrap();
        done.send("game").unwrap();
        assert!(found.unwrap().best_move.is_some());
        queued.await.unwrap();
        assert!(first.await.unwrap().is_ok());
        assert_eq!(order.recv().await, Some("game"));
        assert_eq!(order.recv().await, Some("analysis"));
        let dropped = pool
            .search(("g", 2), start(), Level::new(6).unwrap(), None, || false)
            .await
            .unwrap();
        assert!(dropped.is_none(), "a search no longer wanted is not made");
    }

    #[tokio::test]
    async fn each_client_has_a_share_of_the_analysis_lane_and_an_abandoned_analysis_stops() {
        let pool = EnginePool::new(1, 8, 2, 600 * SECOND, TimeSource::system());
        let spawn = |n: u8| {
            let pool = pool.clone();
            tokio::spawn(async move { pool.analyse(start(), client(n)).await })
        };
        let mine = [spawn(1), spawn(1)];
        until(&pool, |l| l.clients.get(&client(1)) == Some(&2)).await;
        let refused = pool.analyse(start(), client(1)).await.unwrap_err();
        assert_eq!(refused.kind, ErrorKind::Busy);
        assert!(refused.reason.contains("too many analyses"), "{refused}");
        let other = spawn(2);
        until(&pool, |l| l.clients.get(&client(2)) == Some(&1)).await;
        // The clients hang up: the queued analyses leave the lane, the running one stops,
        // and the thread is free for a game at once (not after ten minutes).
        for job in mine.iter().chain([&other]) {
            job.abort();
        }
        until(&pool, |l| l.clients.is_empty() && l.analysis.is_empty()).await;
        let clock = ComputerClock {
            deadline_ms: TimeSource::system().now_ms() + 3_000,
            increment_ms: 0,
        };
        let found = tokio::time::timeout(
            30 * SECOND,
            pool.search(
                ("g", 1),
                start(),
                Level::new(6).unwrap(),
                Some(clock),
                || true,
            ),
        )
        .await
        .expect("the engine thread is free again");
        assert!(found.unwrap().is_some());
        assert_eq!(pool.analyses_stopped(), 1);
    }
}
