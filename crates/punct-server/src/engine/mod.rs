//! The engine's worker threads, fed from two lanes so that the CPU-bound search never runs
//! on the async runtime and people asking for analysis never keep the computer from moving.
//!
//! The games lane is always served first, and never refuses: each game has at most one
//! search waiting. A game's search is given its budget when it starts, from the time its
//! clock has left then and from how many game searches wait behind it, so that waiting in
//! the queue is paid for by thinking less rather than by losing on time; a search whose
//! game has changed while it waited is dropped unstarted. The analysis lane is bounded, as
//! is each client's share of it, and an analysis whose client hangs up is taken out of the
//! lane or, if it is running, stopped.
//!
//! The workers run in the idle scheduling class (SCHED_IDLE on Linux), below the network
//! side, so that a busy engine takes only the CPU time nobody else wants: on a machine with
//! few cores, other games' moves are not slowed down by the computer thinking.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use prometheus::Histogram;
use punct_core::{Game, Move};
use punct_engine::{Engine, Level, Options, SearchLimits, SearchResult};
use tokio::sync::oneshot;

use crate::error::Error;
use crate::ops::time::TimeSource;

/// A computer move's share of its clock's time left, with no other search waiting: a game
/// of 30 moves more at this pace would use it all.
const SHARE: f64 = 30.0;

/// The least a search is given: one that starts with almost no time left plays at once
/// what a short look finds (the engine always answers with a legal move).
const LEAST: Duration = Duration::from_millis(2);

/// A game's search, waiting in the games lane.
struct GameJob {
    game: Game,
    level: Level,
    /// When the computer's clock runs out, ms since the epoch (untimed: `None`).
    deadline_ms: Option<i64>,
    /// Whether the game still waits for this search; asked when it starts.
    wanted: Box<dyn Fn() -> bool + Send>,
    /// The result, or `None` when the search was dropped unstarted.
    reply: oneshot::Sender<Option<SearchResult>>,
    /// When it was queued, for the metric of the wait.
    queued: Instant,
}

/// An analysis, waiting in the analysis lane.
struct AnalysisJob {
    game: Game,
    /// Set when its client has gone: the job is skipped, or the running search stops.
    stop: Arc<AtomicBool>,
    reply: oneshot::Sender<SearchResult>,
    /// When it was queued, for the metric of the wait.
    queued: Instant,
}

/// The lanes of jobs waiting for an engine thread.
#[derive(Default)]
struct Lanes {
    games: VecDeque<GameJob>,
    analysis: VecDeque<AnalysisJob>,
    /// Analyses waiting or running, per client.
    clients: HashMap<IpAddr, usize>,
    /// Set when the pool is dropped: the workers end.
    closed: bool,
}

/// What the workers and the handles share.
struct Shared {
    lanes: Mutex<Lanes>,
    /// Signalled when a job is queued (or the pool closes).
    queued: Condvar,
    threads: usize,
    movetime: Duration,
    /// Threads each search uses (1 unless [set](EnginePool::set_search_threads)).
    search_threads: AtomicUsize,
    /// Analyses stopped because their client went away while they ran.
    stopped: AtomicU64,
    /// Time from queueing to the search's start (the pool's metric).
    wait: Histogram,
    /// The server's time source, which the clocks' deadlines are read against.
    time: TimeSource,
}

impl Shared {
    /// The lanes. A panic elsewhere while they were held leaves them consistent (every
    /// change to them is a single push, pop or count), so they stay usable.
    fn lanes(&self) -> MutexGuard<'_, Lanes> {
        self.lanes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Closes the lanes when the last handle to the pool goes, so that its threads end.
struct Closer(Arc<Shared>);

impl Drop for Closer {
    fn drop(&mut self) {
        self.0.lanes().closed = true;
        self.0.queued.notify_all();
    }
}

/// Handle to the workers.
#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<Shared>,
    _closer: Arc<Closer>,
    /// Analyses that may wait at once.
    analysis_queue: usize,
    /// Analyses one client may have waiting or running at once.
    per_client: usize,
}

/// Nice value of the engine threads if the idle scheduling class is refused (19 is the
/// lowest priority).
const ENGINE_NICE: i32 = 19;

/// Puts the calling thread in Linux's idle scheduling class (SCHED_IDLE): it runs only on
/// CPU time that no other thread of normal priority wants, so the network side is never made
/// to wait by a search. Where that is refused, the thread's nice value is raised instead.
/// Failure only costs fairness, so it is logged and ignored.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: sched_setscheduler reads `param` only; 0 names the calling thread.
        let idle = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } == 0;
        if !idle {
            // SAFETY: gettid and setpriority only read their integer arguments.
            let rc = unsafe {
                let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
                libc::setpriority(libc::PRIO_PROCESS as _, tid, ENGINE_NICE)
            };
            if rc != 0 {
                tracing::warn!("cannot lower the engine thread's priority");
            }
        }
    }
}

/// What the engine found, as the API reports it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Analysis {
    /// The best move's text, if the position has one.
    pub best_move: Option<String>,
    /// Win, draw and loss chances for the side to move.
    pub win: f32,
    /// Draw chance.
    pub draw: f32,
    /// Loss chance.
    pub loss: f32,
    /// The expected line, moves as text.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
}

impl Analysis {
    fn from_result(r: &SearchResult) -> Analysis {
        Analysis {
            best_move: r.best_move.map(|m| m.to_string()),
            win: r.score.win,
            draw: r.score.draw,
            loss: r.score.loss,
            pv: r.pv.iter().map(Move::to_string).collect(),
            nodes: r.nodes,
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
                    lower_priority();
                    work(&shared)
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
        }
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
    /// analysis. `deadline_ms` is when the computer's clock runs out (ms since the epoch),
    /// for a timed game: the search's budget is set from it when the search starts. Just
    /// before it starts, `wanted` is asked whether the game still waits for it: if not, the
    /// search is dropped and the answer is `None`.
    pub async fn search(
        &self,
        game: Game,
        level: u8,
        deadline_ms: Option<i64>,
        wanted: impl Fn() -> bool + Send + 'static,
    ) -> Result<Option<SearchResult>, Error> {
        let (reply, answer) = oneshot::channel();
        let job = GameJob {
            game,
            level: Level::new(level).unwrap_or(Level::FULL),
            deadline_ms,
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
    pub async fn analyse(&self, game: Game, client: IpAddr) -> Result<Analysis, Error> {
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
            if lanes.analysis.len() >= self.analysis_queue {
                return Err(Error::busy(
                    "the engine is busy with other analyses; try again shortly",
                ));
            }
            *lanes.clients.entry(client).or_default() += 1;
            lanes.analysis.push_back(AnalysisJob {
                game,
                stop: stop.clone(),
                reply,
                queued: Instant::now(),
            });
        }
        let _pending = Pending {
            shared: &self.shared,
            stop,
            client,
        };
        self.shared.queued.notify_one();
        let r = answer
            .await
            .map_err(|_| Error::internal("the engine failed during the analysis"))?;
        Ok(Analysis::from_result(&r))
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

/// The budget of a computer move's search that starts with `left_ms` on its clock
/// (`None`: untimed) and `behind` game searches waiting after it on `threads` threads:
/// `SHARE`th of the time left, made smaller the more searches wait, since each of them
/// keeps this game's next search waiting too, at most `movetime` and at least [`LEAST`].
/// With n games waiting on one thread, every game's clock then runs about n searches per
/// move, each of about its n·`SHARE`th of the time: as with one game alone.
fn budget(movetime: Duration, left_ms: Option<i64>, behind: usize, threads: usize) -> Duration {
    let Some(left) = left_ms else {
        return movetime;
    };
    let share = SHARE * (1.0 + behind as f64 / threads.max(1) as f64);
    let ms = left.max(0) as f64 / share;
    movetime
        .min(Duration::from_secs_f64(ms / 1000.0))
        .max(LEAST)
}

/// What a worker takes next: a game's search before any analysis.
enum Next {
    Game(GameJob, Duration),
    Analysis(AnalysisJob),
}

/// The next job, waiting for one; `None` once the pool is closed.
fn next(shared: &Shared) -> Option<Next> {
    let mut lanes = shared.lanes();
    loop {
        if lanes.closed {
            return None;
        }
        if let Some(job) = lanes.games.pop_front() {
            let behind = lanes.games.len();
            let left = job.deadline_ms.map(|d| d - shared.time.now_ms());
            return Some(Next::Game(
                job,
                budget(shared.movetime, left, behind, shared.threads),
            ));
        }
        if let Some(job) = lanes.analysis.pop_front() {
            return Some(Next::Analysis(job));
        }
        lanes = shared.queued.wait(lanes).unwrap_or_else(|e| e.into_inner());
    }
}

fn work(shared: &Shared) {
    while let Some(job) = next(shared) {
        match job {
            Next::Game(job, movetime) => {
                shared.wait.observe(job.queued.elapsed().as_secs_f64());
                if !(job.wanted)() {
                    let _ = job.reply.send(None);
                    continue;
                }
                let stop = AtomicBool::new(false);
                if let Some(result) = run(&job.game, job.level, movetime, &stop, shared) {
                    let _ = job.reply.send(Some(result));
                }
            }
            Next::Analysis(job) => {
                shared.wait.observe(job.queued.elapsed().as_secs_f64());
                if job.stop.load(Ordering::Relaxed) {
                    continue;
                }
                let result = run(&job.game, Level::FULL, shared.movetime, &job.stop, shared);
                if job.stop.load(Ordering::Relaxed) && job.reply.is_closed() {
                    shared.stopped.fetch_add(1, Ordering::Relaxed);
                }
                if let Some(result) = result {
                    let _ = job.reply.send(result);
                }
            }
        }
    }
}

/// One search, until `movetime` has passed or `stop` is set. A panicking search must not
/// take the worker with it: the caller sees an error (its reply is dropped, `None` here)
/// and the thread goes on to the next job. The search's own threads inherit the worker's
/// idle scheduling class.
fn run(
    game: &Game,
    level: Level,
    movetime: Duration,
    stop: &AtomicBool,
    shared: &Shared,
) -> Option<SearchResult> {
    let mut engine = Engine::new(Options {
        level,
        seed: rand_seed(),
        threads: shared.search_threads.load(Ordering::Relaxed),
    });
    let limits = SearchLimits::movetime(movetime);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.search(game, &limits, stop, &mut |_| {})
    }));
    result
        .inspect_err(|_| tracing::error!("the engine panicked during a search"))
        .ok()
}

fn rand_seed() -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).ok();
    u64::from_le_bytes(b)
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

    #[test]
    fn the_budget_shrinks_with_the_time_left_and_the_searches_waiting() {
        let cap = 2 * SECOND;
        assert_eq!(budget(cap, None, 40, 1), cap);
        assert_eq!(budget(cap, Some(600_000), 0, 1), cap);
        assert_eq!(budget(cap, Some(3_000), 0, 1), Duration::from_millis(100));
        // 39 searches waiting on one thread: each gets a 40th of that.
        assert_eq!(
            budget(cap, Some(3_000), 39, 1),
            Duration::from_micros(2_500)
        );
        // The same queue on two threads waits half as long.
        assert!(budget(cap, Some(3_000), 39, 2) > budget(cap, Some(3_000), 39, 1));
        assert_eq!(budget(cap, Some(10), 39, 1), LEAST);
        assert_eq!(budget(cap, Some(-500), 0, 1), LEAST);
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
        let found = pool.search(start(), 6, None, || true).await.unwrap();
        done.send("game").unwrap();
        assert!(found.unwrap().best_move.is_some());
        queued.await.unwrap();
        assert!(first.await.unwrap().is_ok());
        assert_eq!(order.recv().await, Some("game"));
        assert_eq!(order.recv().await, Some("analysis"));
        let dropped = pool.search(start(), 6, None, || false).await.unwrap();
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
        let deadline = TimeSource::system().now_ms() + 3_000;
        let found = tokio::time::timeout(
            30 * SECOND,
            pool.search(start(), 6, Some(deadline), || true),
        )
        .await
        .expect("the engine thread is free again");
        assert!(found.unwrap().is_some());
        assert_eq!(pool.analyses_stopped(), 1);
    }
}
