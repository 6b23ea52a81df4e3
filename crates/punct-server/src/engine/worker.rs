//! An engine thread: in the idle scheduling class, it takes a game's search before any
//! analysis, and runs each search caught, so that a panicking search never takes it down.

use std::sync::atomic::{AtomicBool, Ordering};

use punct_core::Game;
use punct_engine::{Engine, Level, Options, SearchLimits, SearchResult};

use super::budget;
use super::lanes::{AnalysisJob, GameJob, Shared};

/// Nice value of the engine threads if the idle scheduling class is refused (19 is the
/// lowest priority).
const ENGINE_NICE: i32 = 19;

/// Puts the calling thread in Linux's idle scheduling class (SCHED_IDLE): it runs only on
/// CPU time that no other thread of normal priority wants, so the network side is never made
/// to wait by a search. Where that is refused, the thread's nice value is raised instead.
/// Failure only costs fairness, so it is logged and ignored.
pub fn lower_priority() {
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

/// What a worker takes next: a game's search (with its limits, set as it starts) before any
/// analysis.
enum Next {
    Game(GameJob, SearchLimits),
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
            let limits = budget::limits(
                shared.movetime,
                job.clock,
                job.game.position().turn(),
                shared.time.now_ms(),
                lanes.games.len(),
                shared.threads,
            );
            return Some(Next::Game(job, limits));
        }
        if let Some(job) = lanes.analysis.pop_front() {
            return Some(Next::Analysis(job));
        }
        lanes = shared.queued.wait(lanes).unwrap_or_else(|e| e.into_inner());
    }
}

/// A worker's loop, until the pool is closed.
pub(super) fn work(shared: &Shared) {
    while let Some(job) = next(shared) {
        match job {
            Next::Game(job, limits) => {
                shared.wait.observe(job.queued.elapsed().as_secs_f64());
                if !(job.wanted)() {
                    let _ = job.reply.send(None);
                    continue;
                }
                let stop = AtomicBool::new(false);
                let threads = shared.search_threads.load(Ordering::Relaxed);
                if let Some(result) = search(&job.game, job.level, &limits, &stop, threads) {
                    let _ = job.reply.send(Some(result));
                }
            }
            Next::Analysis(job) => {
                shared.wait.observe(job.queued.elapsed().as_secs_f64());
                if job.stop.load(Ordering::Relaxed) {
                    continue;
                }
                let limits = SearchLimits::movetime(shared.movetime);
                let threads = shared.search_threads.load(Ordering::Relaxed);
                let result = search(&job.game, Level::FULL, &limits, &job.stop, threads);
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

/// One search on `threads` threads, within `limits` or until `stop` is set. A panicking
/// search must not take the worker with it: the caller sees an error (its reply is dropped,
/// `None` here) and the thread goes on to the next job. The search's own threads inherit
/// the worker's idle scheduling class.
pub(super) fn search(
    game: &Game,
    level: Level,
    limits: &SearchLimits,
    stop: &AtomicBool,
    threads: usize,
) -> Option<SearchResult> {
    let mut engine = Engine::new(Options {
        level,
        seed: rand_seed(),
        threads,
    });
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.search(game, limits, stop, &mut |_| {})
    }));
    result
        .inspect_err(|_| tracing::error!("the engine panicked during a search"))
        .ok()
}

/// A random number (a search's seed, an analysis job's id).
pub(super) fn rand_seed() -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).ok();
    u64::from_le_bytes(b)
}
