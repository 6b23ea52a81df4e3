//! What a search may spend.

use std::time::Duration;

/// The clocks of a timed game, as the protocol's `go wtime … btime … winc … binc …` gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub white: Duration,
    /// Black's remaining time.
    pub black: Duration,
    /// White's increment per move.
    pub white_increment: Duration,
    /// Black's increment per move.
    pub black_increment: Duration,
}

/// Bounds on one search; the search stops at the first bound reached, or when told to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Think exactly this long (at most).
    pub movetime: Option<Duration>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Budget time from the clocks.
    pub clock: Option<Clock>,
    /// The moves to make before the clock gets more time (UCI's `movestogo`); without it
    /// the clock is shared out as if about 20 moves were left.
    pub moves_to_go: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
}

impl SearchLimits {
    /// A fixed time per move.
    pub fn movetime(d: Duration) -> SearchLimits {
        SearchLimits {
            movetime: Some(d),
            ..SearchLimits::default()
        }
    }

    /// A fixed node budget.
    pub fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(n),
            ..SearchLimits::default()
        }
    }
}
