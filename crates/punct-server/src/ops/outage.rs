//! A run of failures of something retried (the database while it is down, a timer that
//! cannot store a timeout), logged when it starts and when it ends rather than once per
//! attempt: a database down for ten seconds is two lines, not thousands.

use std::fmt::Display;

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
