//! The engine's worker threads, fed through a bounded queue so that the CPU-bound search
//! never runs on the async runtime and a flood of requests is refused rather than queued
//! without end.
//!
//! The workers run in the idle scheduling class (SCHED_IDLE on Linux), below the network
//! side, so that a busy engine takes only the CPU time nobody else wants: on a machine with
//! few cores, other games' moves are not slowed down by the computer thinking. Analysis requests may fill only
//! half the queue, so that people asking for analysis never keep the computer from moving.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use prometheus::Histogram;
use punct_core::{Game, Move};
use punct_engine::{Engine, Level, Options, SearchLimits, SearchResult};
use tokio::sync::oneshot;

use crate::error::Error;

/// A search to run.
struct Job {
    game: Game,
    level: Level,
    limits: SearchLimits,
    reply: oneshot::Sender<Result<SearchResult, String>>,
    /// When it was queued, for the metric of the wait.
    queued: Instant,
}

/// Handle to the workers.
#[derive(Clone)]
pub struct EnginePool {
    jobs: mpsc::SyncSender<Job>,
    movetime: Duration,
    /// Jobs queued and not yet started.
    waiting: Arc<AtomicUsize>,
    /// The queue's size.
    queue: usize,
    /// Time from queueing to the search's start (the pool's metric).
    wait: Histogram,
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
    /// Starts `threads` workers behind a queue of `queue` waiting jobs; each search thinks
    /// for at most `movetime`.
    pub fn new(threads: usize, queue: usize, movetime: Duration) -> EnginePool {
        let (tx, rx) = mpsc::sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        let waiting = Arc::new(AtomicUsize::new(0));
        let wait = crate::metrics::engine_wait();
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let waiting = waiting.clone();
            let wait = wait.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("punct-engine-{i}"))
                .spawn(move || {
                    lower_priority();
                    work(&rx, &waiting, &wait)
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start an engine thread: {e}");
            }
        }
        EnginePool {
            jobs: tx,
            movetime,
            waiting,
            queue,
            wait,
        }
    }

    /// Searches waiting for an engine thread.
    pub fn queued(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// The histogram of the time searches wait for an engine thread.
    pub fn wait_histogram(&self) -> &Histogram {
        &self.wait
    }

    /// Searches `game` at `level` (thinking less when `time_left_ms` is short). Refused with
    /// 503 when the queue is full.
    pub async fn search(
        &self,
        game: Game,
        level: u8,
        time_left_ms: Option<i64>,
    ) -> Result<SearchResult, Error> {
        let level = Level::new(level).unwrap_or(Level::FULL);
        let mut movetime = self.movetime;
        if let Some(left) = time_left_ms {
            let share = Duration::from_millis((left.max(0) / 30) as u64);
            movetime = movetime.min(share.max(Duration::from_millis(20)));
        }
        let (reply, answer) = oneshot::channel();
        let job = Job {
            game,
            level,
            limits: SearchLimits::movetime(movetime),
            reply,
            queued: Instant::now(),
        };
        self.waiting.fetch_add(1, Ordering::SeqCst);
        self.jobs.try_send(job).map_err(|e| {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            match e {
                mpsc::TrySendError::Full(_) => {
                    Error::busy("the engine is busy with other games; try again shortly")
                }
                mpsc::TrySendError::Disconnected(_) => Error::internal("the engine has stopped"),
            }
        })?;
        answer
            .await
            .map_err(|_| Error::internal("the engine has stopped"))?
            .map_err(Error::internal)
    }

    /// Analyses `game`'s current position at full strength. Refused with 503 once half the
    /// queue is waiting, so that analysis never holds up the computer's moves in games.
    pub async fn analyse(&self, game: Game) -> Result<Analysis, Error> {
        if self.waiting.load(Ordering::SeqCst) >= (self.queue / 2).max(1) {
            return Err(Error::busy(
                "the engine is busy with games; try the analysis again shortly",
            ));
        }
        let r = self.search(game, Level::MAX, None).await?;
        Ok(Analysis::from_result(&r))
    }
}

fn work(jobs: &Mutex<mpsc::Receiver<Job>>, waiting: &AtomicUsize, wait: &Histogram) {
    loop {
        let job = {
            let rx = jobs.lock().unwrap_or_else(|e| e.into_inner());
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        waiting.fetch_sub(1, Ordering::SeqCst);
        wait.observe(job.queued.elapsed().as_secs_f64());
        let mut engine = Engine::new(Options {
            level: job.level,
            seed: rand_seed(),
        });
        let stop = AtomicBool::new(false);
        // A panicking search must not take the worker with it: the caller is told why (and
        // logs it with its game) and the thread goes on to the next job.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine.search(&job.game, &job.limits, &stop, &mut |_| {})
        }))
        .map_err(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("no message");
            format!("the engine failed during the search: {what}")
        });
        // The caller may have gone (a client that hung up on its analysis).
        let _ = job.reply.send(result);
    }
}

fn rand_seed() -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).ok();
    u64::from_le_bytes(b)
}
