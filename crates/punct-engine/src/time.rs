//! How long to think: from a fixed move time, or from the clocks with their increments,
//! keeping a margin so the engine never loses on time.

use std::time::Duration;

use punct_core::Colour;

use crate::limits::SearchLimits;

/// Time kept back for answering and for the other side's latency.
const OVERHEAD: Duration = Duration::from_millis(20);

/// Moves a player is assumed still to have to make, for sharing out the clock.
const MOVES_TO_GO: u32 = 20;

/// The latest moment, after the search starts, at which it must stop; `None` for no limit
/// of time.
pub fn deadline(limits: &SearchLimits, turn: Colour) -> Option<Duration> {
    if limits.infinite {
        return None;
    }
    let from_movetime = limits
        .movetime
        .map(|t| t.saturating_sub(OVERHEAD.min(t / 10)));
    let from_clock = limits.clock.map(|c| {
        let (left, inc) = match turn {
            Colour::White => (c.white, c.white_increment),
            Colour::Black => (c.black, c.black_increment),
        };
        let usable = left.saturating_sub(OVERHEAD.min(left / 2));
        let moves = limits.moves_to_go.unwrap_or(MOVES_TO_GO).max(1);
        let share = usable / moves + inc * 3 / 4;
        // Never more than a third of what is left, whatever the increment.
        share.min(usable / 3)
    });
    match (from_movetime, from_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    #[test]
    fn movetime_keeps_a_margin() {
        let d = deadline(
            &SearchLimits::movetime(Duration::from_millis(100)),
            Colour::White,
        );
        assert_eq!(d, Some(Duration::from_millis(90)));
    }

    #[test]
    fn clock_share_is_a_small_part_of_what_is_left() {
        let limits = SearchLimits {
            clock: Some(Clock {
                white: Duration::from_secs(60),
                black: Duration::from_millis(30),
                white_increment: Duration::from_secs(1),
                black_increment: Duration::ZERO,
            }),
            ..SearchLimits::default()
        };
        let w = deadline(&limits, Colour::White).unwrap();
        assert!(
            w > Duration::from_secs(3) && w < Duration::from_secs(5),
            "{w:?}"
        );
        let b = deadline(&limits, Colour::Black).unwrap();
        assert!(b <= Duration::from_millis(10), "{b:?}");
    }

    #[test]
    fn moves_to_go_shares_the_clock_among_them() {
        let limits = |moves_to_go| SearchLimits {
            clock: Some(Clock {
                white: Duration::from_secs(60),
                black: Duration::from_secs(60),
                ..Clock::default()
            }),
            moves_to_go,
            ..SearchLimits::default()
        };
        let share = |moves_to_go| deadline(&limits(moves_to_go), Colour::White).unwrap();
        assert_eq!(share(None), share(Some(20)));
        let ten = share(Some(10));
        assert!(
            ten > Duration::from_millis(5900) && ten < Duration::from_secs(6),
            "{ten:?}"
        );
        // One move left still keeps back two thirds, as every clock does.
        assert!(share(Some(1)) < Duration::from_secs(20));
    }

    #[test]
    fn infinite_has_no_deadline() {
        let limits = SearchLimits {
            infinite: true,
            movetime: Some(Duration::from_millis(5)),
            ..SearchLimits::default()
        };
        assert_eq!(deadline(&limits, Colour::White), None);
    }
}
