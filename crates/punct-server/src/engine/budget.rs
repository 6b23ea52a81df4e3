//! What a computer move's search may spend: the engine's own time manager
//! ([`punct_engine::time`]) shares out the clock, increment included, as it does for any
//! game it plays; the server only tells it how much of the clock is this search's.
//!
//! A game whose search waits in the queue pays for the wait on its clock: with `n` searches
//! sharing an engine thread, the clock runs about `n` searches per move. So the engine is
//! handed the time left and the increment divided by one plus the searches waiting behind
//! this one per engine thread: with many games at once each search thinks less, and every
//! clock lasts as it would with its game alone. The server's move time bounds every search.

use std::time::Duration;

use punct_core::Colour;
use punct_engine::{Clock, SearchLimits};

/// The computer's clock in a timed game, as it stands when its search is queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ComputerClock {
    /// When the computer's time runs out, ms since the epoch.
    pub deadline_ms: i64,
    /// Time added after each of its moves.
    pub increment_ms: i64,
}

/// The limits of the search of the side to move, `turn`, that starts at `now_ms` with
/// `clock` (`None`: untimed) and `behind` game searches waiting after it on `threads`
/// engine threads; at most `movetime`.
pub fn limits(
    movetime: Duration,
    clock: Option<ComputerClock>,
    turn: Colour,
    now_ms: i64,
    behind: usize,
    threads: usize,
) -> SearchLimits {
    let mut limits = SearchLimits::movetime(movetime);
    let Some(clock) = clock else {
        return limits;
    };
    let share = 1.0 / (1.0 + behind as f64 / threads.max(1) as f64);
    let ms = |ms: i64| Duration::from_millis(u64::try_from(ms).unwrap_or(0)).mul_f64(share);
    let (left, increment) = (ms(clock.deadline_ms - now_ms), ms(clock.increment_ms));
    let (white, black) = match turn {
        Colour::White => (left, Duration::ZERO),
        Colour::Black => (Duration::ZERO, left),
    };
    let (white_increment, black_increment) = match turn {
        Colour::White => (increment, Duration::ZERO),
        Colour::Black => (Duration::ZERO, increment),
    };
    limits.clock = Some(Clock {
        white,
        black,
        white_increment,
        black_increment,
    });
    limits
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_engine::time::deadline;

    const CAP: Duration = Duration::from_secs(2);

    /// How long the engine thinks, White to move at 0 with `left_ms` and `increment_ms`.
    fn thinks(left_ms: i64, increment_ms: i64, behind: usize, threads: usize) -> Duration {
        let clock = ComputerClock {
            deadline_ms: left_ms,
            increment_ms,
        };
        let limits = limits(CAP, Some(clock), Colour::White, 0, behind, threads);
        deadline(&limits, Colour::White).unwrap()
    }

    #[test]
    fn an_untimed_search_has_the_move_time() {
        let limits = limits(CAP, None, Colour::Black, 0, 40, 1);
        assert_eq!(limits, SearchLimits::movetime(CAP));
    }

    #[test]
    fn the_clock_is_shared_out_by_the_engine_increment_included() {
        // The server's own share (a 30th of the time left) dropped the increment: 100 ms here.
        assert!(thinks(3_000, 2_000, 0, 1) > Duration::from_millis(900));
        assert!(thinks(3_000, 2_000, 0, 1) > thinks(3_000, 0, 0, 1));
        // Never past the server's move time.
        assert!(thinks(600_000, 0, 0, 1) <= CAP);
        // The side to move's clock is the one shared out, whichever side it is.
        let clock = ComputerClock {
            deadline_ms: 3_000,
            increment_ms: 0,
        };
        let black = limits(CAP, Some(clock), Colour::Black, 0, 0, 1);
        assert_eq!(
            deadline(&black, Colour::Black),
            Some(thinks(3_000, 0, 0, 1))
        );
    }

    #[test]
    fn the_more_searches_wait_the_less_each_thinks() {
        // Below the move time, a 40th of the clock for a 40th of the wait.
        let alone = thinks(20_000, 1_000, 0, 1);
        let queued = thinks(20_000, 1_000, 39, 1);
        assert!(alone < CAP);
        assert!(queued * 30 < alone, "{queued:?} against {alone:?} alone");
        // The same queue on two threads waits half as long.
        assert!(thinks(20_000, 1_000, 39, 2) > queued);
        // A clock that has run out still gets an answer, at once.
        assert!(thinks(-500, 0, 0, 1) <= Duration::from_millis(1));
    }
}
