//! Chess clocks kept by the server: remaining time per side, the running side's start.
//! A correspondence game's days per move are a clock too, one whose mover's time is reset
//! to the whole allowance by each move (as on lichess) rather than charged: so the same
//! timer decides its time-outs, and a restart charges nobody for the server's downtime.
//!
//! Times are wall-clock milliseconds since the Unix epoch (from the server's time source,
//! [`crate::ops::time`]) so that a stored clock means the same thing after a restart.

use punct_core::Colour;
use serde::{Deserialize, Serialize};

/// A game's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Starting time per side.
    pub initial_ms: i64,
    /// Time added after each of a side's moves.
    pub increment_ms: i64,
    /// Time left per side (white, black) when its current turn began.
    pub remaining_ms: [i64; 2],
    /// When the side to move started thinking; `None` while the clock is stopped.
    pub running_since: Option<i64>,
    /// For a correspondence game, the time each move gives (its days per move): each move
    /// resets its mover's time to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move_ms: Option<i64>,
}

/// A day, in ms.
pub const DAY_MS: i64 = 86_400_000;

impl Clock {
    /// A stopped clock with `initial_ms` each.
    pub fn new(initial_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms; 2],
            running_since: None,
            per_move_ms: None,
        }
    }

    /// A stopped correspondence clock of `days` per move.
    pub fn per_move(days: u32) -> Clock {
        let ms = i64::from(days) * DAY_MS;
        Clock {
            per_move_ms: Some(ms),
            ..Clock::new(ms, 0)
        }
    }

    /// The days per move of a correspondence clock.
    pub fn days_per_move(&self) -> Option<u32> {
        self.per_move_ms
            .and_then(|ms| u32::try_from(ms / DAY_MS).ok())
    }

    /// Time left for `colour` at `now`, given that `turn` is to move.
    pub fn left(&self, colour: Colour, turn: Colour, now: i64) -> i64 {
        let base = self.remaining_ms[colour.index()];
        match self.running_since {
            Some(since) if colour == turn => base - (now - since).max(0),
            _ => base,
        }
    }

    /// When `turn` runs out of time, if the clock is running.
    pub fn deadline(&self, turn: Colour) -> Option<i64> {
        self.running_since
            .map(|since| since + self.remaining_ms[turn.index()])
    }

    /// Whether `turn` has run out of time at `now`.
    pub fn flagged(&self, turn: Colour, now: i64) -> bool {
        self.running_since.is_some() && self.left(turn, turn, now) <= 0
    }

    /// `mover` has just moved at `now`: charge the time, add the increment, start the other
    /// side's clock.
    pub fn moved(&mut self, mover: Colour, now: i64) {
        let left = self.left(mover, mover, now);
        self.remaining_ms[mover.index()] = match self.per_move_ms {
            Some(allowance) => allowance,
            None => left.max(0) + self.increment_ms,
        };
        self.running_since = Some(now);
    }

    /// Starts the side to move's clock at `now` without charging anyone: used when the game
    /// starts and, for a running clock, after a restart, so that server downtime (and the
    /// thinking time since the last stored change) costs no one.
    pub fn start(&mut self, now: i64) {
        self.running_since = Some(now);
    }

    /// After a restart: charges `turn` for its thinking from the start of its turn until
    /// `alive_ms` (the last moment the server is known to have been running), then restarts
    /// the clock at `now`, so that the downtime in between costs no one. A stopped clock
    /// stays stopped.
    pub fn resume(&mut self, turn: Colour, alive_ms: i64, now: i64) {
        if let Some(since) = self.running_since {
            let used = (alive_ms - since).max(0);
            self.remaining_ms[turn.index()] -= used;
            self.running_since = Some(now);
        }
    }

    /// Stops the clock at `now`, charging the side to move.
    pub fn stop(&mut self, turn: Colour, now: i64) {
        if self.running_since.is_some() {
            self.remaining_ms[turn.index()] = self.left(turn, turn, now).max(0);
            self.running_since = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_the_mover_and_adds_the_increment() {
        let mut c = Clock::new(60_000, 5_000);
        c.start(1_000);
        assert_eq!(c.left(Colour::White, Colour::White, 11_000), 50_000);
        assert_eq!(c.left(Colour::Black, Colour::White, 11_000), 60_000);
        c.moved(Colour::White, 11_000);
        assert_eq!(c.remaining_ms, [55_000, 60_000]);
        assert_eq!(c.deadline(Colour::Black), Some(71_000));
        assert!(!c.flagged(Colour::Black, 70_999));
        assert!(c.flagged(Colour::Black, 71_000));
    }

    #[test]
    fn a_correspondence_move_resets_its_mover_s_time() {
        let mut c = Clock::per_move(3);
        assert_eq!(c.days_per_move(), Some(3));
        c.start(0);
        c.moved(Colour::White, 2 * DAY_MS);
        assert_eq!(c.remaining_ms, [3 * DAY_MS, 3 * DAY_MS]);
        assert_eq!(c.deadline(Colour::Black), Some(5 * DAY_MS));
        c.moved(Colour::Black, 5 * DAY_MS - 1);
        assert_eq!(c.deadline(Colour::White), Some(8 * DAY_MS - 1));
        assert!(c.flagged(Colour::White, 8 * DAY_MS - 1));
        let stored = serde_json::to_string(&Clock::new(1, 0)).unwrap();
        assert!(!stored.contains("per_move"), "{stored}");
    }

    #[test]
    fn stopping_freezes_the_time_left() {
        let mut c = Clock::new(10_000, 0);
        c.start(0);
        c.stop(Colour::Black, 4_000);
        assert_eq!(c.left(Colour::Black, Colour::Black, 99_000), 6_000);
        assert_eq!(c.deadline(Colour::Black), None);
    }
}
