//! `punct worker`: an engine process on any machine, doing the jobs of the queue in
//! PostgreSQL (`store::engine_queue`) for the nodes started with `--engine workers`.
//!
//! Each of its threads holds a connection and takes one job at a time, a game's move before
//! any analysis. It searches with the node's limits and the same clock policy as a node's
//! own threads ([`super::budget`]: the clock shared out by the engine, less for each game
//! move waiting behind it), renewing its lease on the job a few times per lease while it
//! thinks; a job it no longer holds (cancelled, or taken again after its lease ran out) is
//! stopped. The result and the job's notification are written in one transaction, which
//! wakes the node waiting for it. The threads wait for work on the queue's notifications,
//! and look at the queue once a second all the same (a lost notification, a lease run out).
//!
//! A job that does not read, or whose search panics, is ended with an error naming it; one
//! taken [`MAX_ATTEMPTS`] times (each of its workers died on it) is ended so too, rather
//! than kill every worker in turn. The database's absence is logged once per outage and
//! waited out.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use postgres::{Client, NoTls};
use punct_engine::SearchLimits;
use tokio::sync::broadcast::error::RecvError;

use super::budget;
use super::job::{JobResult, JobSpec};
use super::worker::{lower_priority, search};
use crate::ops::outage::Outage;
use crate::ops::time::TimeSource;
use crate::store::engine_queue::{self, GAME_LANE, Renewed, Taken};
use crate::store::notify::{self, Channel, Listener};
use crate::store::redact;

/// Times a job is taken before it is ended as one that kills its workers.
pub const MAX_ATTEMPTS: i64 = 3;

/// How often an idle thread looks at the queue when no notification comes.
const IDLE_LOOK: Duration = Duration::from_secs(1);

/// How long jobs ended are kept for a node that has not read them yet (one that died
/// meanwhile, or the next owner of the game).
const KEEP_ENDED_MS: i64 = 10 * 60 * 1000;

/// How often the first thread prunes the jobs ended long ago.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// Wait before trying the database again.
const RETRY: Duration = Duration::from_millis(250);

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The PostgreSQL the nodes share (`postgres://…`).
    pub db: String,
    /// Jobs searched at once, each on a thread and a connection of its own.
    pub threads: usize,
    /// Threads each search uses.
    pub search_threads: usize,
    /// How long a job taken stays this worker's without a renewal: a worker silent for
    /// longer is taken to be dead, and its job is taken again by another.
    pub lease: Duration,
    /// The worker's name in the queue (`engine_jobs.worker`).
    pub name: String,
    /// For tests: the clock file of the nodes' controlled time (`Config::clock_file`).
    pub clock_file: Option<std::path::PathBuf>,
}

impl WorkerConfig {
    /// The default lease: a dead worker's job is taken again within about this long.
    pub const LEASE: Duration = Duration::from_secs(10);

    /// A worker on `db` with one thread, the default lease and a name of the machine's host
    /// name and the process's id.
    pub fn new(db: &str) -> WorkerConfig {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map_or_else(|_| "punct".to_owned(), |h| h.trim().to_owned());
        WorkerConfig {
            db: db.to_owned(),
            threads: 1,
            search_threads: 1,
            lease: WorkerConfig::LEASE,
            name: format!("{host}:{}", std::process::id()),
            clock_file: None,
        }
    }

    fn lease_ms(&self) -> i64 {
        self.lease.as_millis() as i64
    }
}

/// Something to wait on for work: bumped whenever the queue's channel hears anything.
#[derive(Default)]
struct Wake {
    heard: Mutex<u64>,
    bell: Condvar,
}

impl Wake {
    fn ring(&self) {
        *self.heard.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.bell.notify_all();
    }

    /// Waits until something is heard after `seen`, or `IDLE_LOOK` has passed; returns
    /// what has been heard by then.
    fn wait(&self, seen: u64) -> u64 {
        let heard = self.heard.lock().unwrap_or_else(|e| e.into_inner());
        let (heard, _) = self
            .bell
            .wait_timeout_while(heard, IDLE_LOOK, |h| *h == seen)
            .unwrap_or_else(|e| e.into_inner());
        *heard
    }

    fn heard(&self) -> u64 {
        *self.heard.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs the worker until the process ends; returns only if it cannot start (the database
/// cannot be reached or its tables made).
pub fn run(config: WorkerConfig) -> anyhow::Result<()> {
    if !(config.db.starts_with("postgres://") || config.db.starts_with("postgresql://")) {
        anyhow::bail!(
            "a worker takes its jobs from the nodes' PostgreSQL: --db must be a postgres:// \
             URL, not {}",
            config.db
        );
    }
    let time = match &config.clock_file {
        Some(path) => TimeSource::with_clock_file(path)?,
        None => TimeSource::system(),
    };
    let mut first = connect(&config.db)?;
    // The queue's table, should the worker start before any node has made it.
    crate::store::migrations::run(&mut first, time.now_ms())?;
    let listener = Listener::start(&config.db)?;
    let wake = Arc::new(Wake::default());
    let mut heard = listener.subscribe();
    std::thread::Builder::new()
        .name("punct-worker-wake".into())
        .spawn({
            let wake = wake.clone();
            move || {
                // Held here, so that it listens as long as the worker runs.
                let _listener = listener;
                loop {
                    match heard.blocking_recv() {
                        Ok(_) | Err(RecvError::Lagged(_)) => wake.ring(),
                        Err(RecvError::Closed) => return,
                    }
                }
            }
        })?;
    tracing::info!(
        database = redact(&config.db),
        worker = config.name,
        threads = config.threads,
        "taking engine jobs"
    );
    let config = Arc::new(config);
    let mut threads = Vec::new();
    let mut first = Some(first);
    for i in 0..config.threads.max(1) {
        let (config, wake, time) = (config.clone(), wake.clone(), time.clone());
        let db = first.take();
        threads.push(
            std::thread::Builder::new()
                .name(format!("punct-worker-{i}"))
                .spawn(move || {
                    lower_priority();
                    work(&config, &wake, &time, db, i == 0)
                })?,
        );
    }
    for thread in threads {
        let _ = thread.join();
    }
    anyhow::bail!("every worker thread stopped")
}

fn connect(url: &str) -> anyhow::Result<Client> {
    Client::connect(url, NoTls)
        .map_err(|e| anyhow::anyhow!("cannot connect to PostgreSQL at {}: {e}", redact(url)))
}

/// A thread's loop: take a job, do it, again; wait when there is none.
fn work(config: &WorkerConfig, wake: &Wake, time: &TimeSource, db: Option<Client>, prunes: bool) {
    let mut db = db;
    let mut outage = Outage::new("taking engine jobs");
    let mut pruned = std::time::Instant::now();
    loop {
        let Some(client) = db.as_mut() else {
            match connect(&config.db) {
                Ok(c) => db = Some(c),
                Err(e) => {
                    outage.failed(None, &e);
                    std::thread::sleep(RETRY);
                }
            }
            continue;
        };
        let seen = wake.heard();
        match engine_queue::take(client, &config.name, time.now_ms(), config.lease_ms()) {
            Ok(Some(job)) => {
                outage.worked(None);
                if let Err(e) = job_done(client, config, time, &job) {
                    tracing::error!(
                        job = job.id,
                        "the engine job's end could not be written: {e:#}"
                    );
                }
            }
            Ok(None) => {
                outage.worked(None);
                if prunes && pruned.elapsed() >= PRUNE_EVERY {
                    pruned = std::time::Instant::now();
                    match engine_queue::prune(client, time.now_ms() - KEEP_ENDED_MS) {
                        Ok(n) if n > 0 => tracing::debug!(pruned = n, "old engine jobs forgotten"),
                        Ok(_) => {}
                        Err(e) => tracing::warn!("old engine jobs could not be forgotten: {e:#}"),
                    }
                }
                wake.wait(seen);
            }
            Err(e) => {
                outage.failed(None, &format!("{e:#}"));
                if client.is_closed() {
                    db = None;
                }
                std::thread::sleep(RETRY);
            }
        }
    }
}

/// Does job `job` and writes its end: its result, or the error that stopped it. Nothing is
/// written for a job this worker lost meanwhile.
fn job_done(
    db: &mut Client,
    config: &WorkerConfig,
    time: &TimeSource,
    job: &Taken,
) -> anyhow::Result<()> {
    let ended = if job.attempts > MAX_ATTEMPTS {
        Err(format!(
            "engine job {} was taken {} times: each worker that took it stopped before it \
             finished",
            job.id,
            job.attempts - 1
        ))
    } else {
        match searched(db, config, time, job) {
            Some(ended) => ended,
            None => return Ok(()),
        }
    };
    let now = time.now_ms();
    let mut tx = db.transaction()?;
    let written = match &ended {
        Ok(result) => engine_queue::finish(&mut tx, &job.id, result, now)?,
        Err(why) => {
            tracing::error!(job = job.id, "engine job failed: {why}");
            engine_queue::fail(&mut tx, &job.id, why, now)?
        }
    };
    if written {
        notify::notify_in(&mut tx, Channel::Jobs, &job.id)?;
    } else {
        tracing::info!(
            job = job.id,
            "engine job ended elsewhere first: this result is dropped"
        );
    }
    tx.commit()?;
    Ok(())
}

/// The search of `job`, renewing its lease meanwhile: its result as JSON, or why it failed;
/// `None` if the job was lost or cancelled while it ran.
fn searched(
    db: &mut Client,
    config: &WorkerConfig,
    time: &TimeSource,
    job: &Taken,
) -> Option<Result<String, String>> {
    let search_job = match JobSpec::read(&job.id, &job.job) {
        Ok(s) => s,
        Err(why) => return Some(Err(why)),
    };
    let limits = if job.lane == GAME_LANE {
        budget::limits(
            search_job.movetime,
            search_job.clock,
            search_job.game.position().turn(),
            time.now_ms(),
            usize::try_from(job.behind).unwrap_or(0),
            config.threads.max(1),
        )
    } else {
        SearchLimits::movetime(search_job.movetime)
    };
    let stop = AtomicBool::new(false);
    let (done, result) = std::sync::mpsc::channel();
    let mut kept = true;
    let found = std::thread::scope(|s| {
        s.spawn(|| {
            let found = search(
                &search_job.game,
                search_job.level,
                &limits,
                &stop,
                config.search_threads,
            );
            let _ = done.send(found);
        });
        let every = (config.lease / 3).max(Duration::from_millis(20));
        loop {
            match result.recv_timeout(every) {
                Ok(found) => return found,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            let renewed =
                engine_queue::renew(db, &job.id, &config.name, time.now_ms(), config.lease_ms());
            match renewed {
                Ok(Renewed::Kept) => {}
                Ok(Renewed::Cancelled | Renewed::Lost) => {
                    kept = false;
                    stop.store(true, Ordering::Relaxed);
                }
                // The database is out of reach: search on; if the lease runs out meanwhile
                // another worker takes the job, and the first result written is kept.
                Err(e) => tracing::debug!(job = job.id, "renewing the lease failed: {e:#}"),
            }
        }
    });
    if !kept {
        tracing::info!(job = job.id, "engine job no longer this worker's: stopped");
        return None;
    }
    Some(match found {
        Some(found) => Ok(JobResult::of(&found).to_json()),
        None => Err(format!("the engine panicked during engine job {}", job.id)),
    })
}
