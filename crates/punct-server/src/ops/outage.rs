//! A run of failures of something retried (the database while it is down, a timer that
//! cannot store a timeout), logged when it starts and when it ends rather than once per
//! attempt: a database down for ten seconds is two lines, not thousands. [`Outage`] is one
//! thread's (a database thread's), [`SharedOutage`] that of everything that needs one thing
//! (every request that needs the database).

use std::fmt::Display;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The failures of one thing retried, counted since it last worked.
#[derive(Debug)]
pub struct Outage {
    /// What fails, for the log lines.
    what: &'static str,
    /// Failures since it last worked.
    failures: u64,
}

impl Outage {
    /// Nothing failed yet at `what`.
    pub fn new(what: &'static str) -> Outage {
        Outage { what, failures: 0 }
    }

    /// An attempt failed with `e`: logged as an error if it is the first of a run, at debug
    /// level otherwise. `game` names the game concerned, if any.
    pub fn failed(&mut self, game: Option<&str>, e: &dyn Display) {
        let what = self.what;
        if self.failures == 0 {
            match game {
                Some(game) => tracing::error!(game = %game, "{what} failed: {e}"),
                None => tracing::error!("{what} failed: {e}"),
            }
        } else {
            tracing::debug!(game = game.unwrap_or_default(), "{what} failed again: {e}");
        }
        self.failures += 1;
    }

    /// An attempt worked: if a run of failures ends, it is logged with how many there were.
    pub fn worked(&mut self, game: Option<&str>) {
        if self.failures == 0 {
            return;
        }
        let (what, failures) = (self.what, self.failures);
        match game {
            Some(game) => {
                tracing::info!(game = %game, failures, "{what} works again");
            }
            None => tracing::info!(failures, "{what} works again"),
        }
        self.failures = 0;
    }
}

/// A run of failures of one thing that many callers meet at once (the database's absence,
/// met by every request that needs it): its first failure is logged with the reason, the
/// ones after it only counted, and when it works again the run is logged once more, with
/// when it began, how long it lasted and how many requests it refused. An outage of the
/// database is two lines, however many clients try meanwhile.
#[derive(Debug)]
pub struct SharedOutage {
    /// What fails, for the log lines.
    what: &'static str,
    /// Whether a run of failures is going on: read on every success, so kept apart.
    failing: AtomicBool,
    run: Mutex<Option<Run>>,
}

/// A run of failures.
#[derive(Debug)]
struct Run {
    began: Instant,
    began_at: jiff::Timestamp,
    /// Requests refused.
    refused: u64,
    /// Attempts of the server's own work (clock timers, the computer's moves) that failed
    /// and are tried again.
    retried: u64,
}

impl SharedOutage {
    /// Nothing failed yet at `what`.
    pub fn new(what: &'static str) -> SharedOutage {
        SharedOutage {
            what,
            failing: AtomicBool::new(false),
            run: Mutex::new(None),
        }
    }

    fn run(&self) -> std::sync::MutexGuard<'_, Option<Run>> {
        self.run.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A request was refused for `e`, a failure of this thing.
    pub fn refused(&self, e: &dyn Display) {
        self.failed(e, |run| run.refused += 1);
    }

    /// The server's own work on game `game` failed with `e` and will be tried again.
    pub fn retried(&self, game: &str, e: &dyn Display) {
        tracing::debug!(game, "{} failed, to be tried again: {e}", self.what);
        self.failed(e, |run| run.retried += 1);
    }

    /// The server's own work `work`, not about one game (the lobby's sweep), failed with
    /// `e` and will be tried again.
    pub fn retried_work(&self, work: &str, e: &dyn Display) {
        tracing::debug!("{work} failed, to be tried again: {e}");
        self.failed(e, |run| run.retried += 1);
    }

    fn failed(&self, e: &dyn Display, count: impl FnOnce(&mut Run)) {
        let mut run = self.run();
        let run = run.get_or_insert_with(|| {
            tracing::error!(
                "{} failed: {e}; what needs it is refused or tried again until it works",
                self.what
            );
            self.failing.store(true, Ordering::Release);
            Run {
                began: Instant::now(),
                began_at: jiff::Timestamp::now(),
                refused: 0,
                retried: 0,
            }
        });
        count(run);
    }

    /// It worked: a run of failures, if one was going on, ends and is logged.
    pub fn worked(&self) {
        if !self.failing.load(Ordering::Acquire) {
            return;
        }
        let Some(run) = self.run().take() else {
            return;
        };
        self.failing.store(false, Ordering::Release);
        let lasted = run.began.elapsed().as_secs_f64();
        tracing::warn!(
            began = %run.began_at,
            lasted_s = lasted,
            refused = run.refused,
            retried = run.retried,
            "{} works again after {lasted:.1} s: {} requests were refused meanwhile",
            self.what,
            run.refused
        );
    }
}
