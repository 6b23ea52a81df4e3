//! How long a game may wait: a side that never makes its first move, an invitation nobody
//! takes up and a game nobody plays on end it without a result (API.md, "Games that end
//! by themselves"). Timed games that are under way end by their clocks instead.

use std::time::Duration;

use punct_core::{Outcome, Termination};

use super::{Change, Room, Seat};
use crate::error::Error;

/// How long games may wait before they end without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lifetimes {
    /// A game whose side to move (a person) has not made its first move this long after
    /// its turn began is aborted.
    pub abort_after: Duration,
    /// A friend game whose open seat is not taken this long after it was made is aborted.
    pub invitation: Duration,
    /// An untimed game with no change for this long is abandoned.
    pub abandon_after: Duration,
    /// How often the server looks for games to end.
    pub check_every: Duration,
}

impl Default for Lifetimes {
    fn default() -> Lifetimes {
        Lifetimes {
            abort_after: Duration::from_secs(3 * 60),
            invitation: Duration::from_secs(24 * 60 * 60),
            abandon_after: Duration::from_secs(7 * 24 * 60 * 60),
            check_every: Duration::from_secs(5),
        }
    }
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Room {
    /// When the game ends by itself, and how, if nothing changes before: `None` for a
    /// finished game, and for a timed game under way, which its clock ends.
    pub fn expiry(&self, lifetimes: &Lifetimes) -> Option<(i64, Termination)> {
        if !self.is_live() {
            return None;
        }
        let turn = self.turn();
        let (since, after, termination) = if self.seats.iter().any(Seat::is_open) {
            (self.created_ms, lifetimes.invitation, Termination::Aborted)
        } else if self.seats[turn.index()].level().is_none() && !self.has_moved(turn) {
            (self.updated_ms, lifetimes.abort_after, Termination::Aborted)
        } else if self.clock.is_none() {
            (
                self.updated_ms,
                lifetimes.abandon_after,
                Termination::Abandoned,
            )
        } else {
            return None;
        };
        Some((since.saturating_add(ms(after)), termination))
    }

    /// Ends the game without a result if its time to wait has run out at `now`; otherwise
    /// refuses, changing nothing.
    pub fn expire(&mut self, now: i64, lifetimes: &Lifetimes) -> Result<Change, Error> {
        let termination = match self.expiry(lifetimes) {
            Some((at, termination)) if at <= now => termination,
            _ => return Err(Error::conflict("the game is not due to end")),
        };
        self.finish(
            Outcome {
                winner: None,
                termination,
            },
            now,
        );
        self.touch(now);
        Ok(match termination {
            Termination::Abandoned => Change::Abandoned,
            _ => Change::Aborted,
        })
    }
}
