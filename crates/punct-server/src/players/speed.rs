//! A game's speed, the rating it counts for: blitz, rapid or classical by its estimated
//! duration (the initial time plus 40 increments, as on lichess), or correspondence (days
//! per move).
//!
//! Bullet (under 3 minutes estimated on lichess) is counted as blitz: PÜNCT's players are
//! few, and one more rating and pool would split them further.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The rating a game counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Under 8 minutes estimated.
    Blitz,
    /// Under 25 minutes estimated.
    Rapid,
    /// 25 minutes or more estimated.
    Classical,
    /// Days per move.
    Correspondence,
}

/// The days per move a correspondence game may have.
pub const DAYS_PER_MOVE: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// Estimated durations (initial + 40 × increment) below this are blitz.
const BLITZ_BELOW_MS: i64 = 8 * 60_000;

/// Estimated durations below this (and not blitz) are rapid.
const RAPID_BELOW_MS: i64 = 25 * 60_000;

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeControl {
    /// A clock: the initial time and the increment per move.
    Clock {
        /// Each side's initial time, ms.
        initial_ms: i64,
        /// Time added after each move, ms.
        increment_ms: i64,
    },
    /// Days per move, the time reset by each move.
    Correspondence {
        /// One of [`DAYS_PER_MOVE`].
        days: u32,
    },
}

/// Why a time control is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// The clock is out of range.
    #[error("the initial time must be 1 second to 600 minutes and the increment 0 to 600 seconds")]
    ClockRange,
    /// Days per move other than the offered ones.
    #[error("days per move must be one of 1, 2, 3, 5, 7, 14 (not {0})")]
    Days(u32),
}

impl TimeControl {
    /// A clock of `initial_ms` and `increment_ms`, if both are in range (as for any game).
    pub fn clock(initial_ms: i64, increment_ms: i64) -> Result<TimeControl, TimeControlError> {
        if (1_000..=600 * 60_000).contains(&initial_ms) && (0..=600_000).contains(&increment_ms) {
            Ok(TimeControl::Clock {
                initial_ms,
                increment_ms,
            })
        } else {
            Err(TimeControlError::ClockRange)
        }
    }

    /// `days` per move, if it is one of [`DAYS_PER_MOVE`].
    pub fn correspondence(days: u32) -> Result<TimeControl, TimeControlError> {
        if DAYS_PER_MOVE.contains(&days) {
            Ok(TimeControl::Correspondence { days })
        } else {
            Err(TimeControlError::Days(days))
        }
    }

    /// The speed a game with this time control is rated in.
    pub fn speed(&self) -> Speed {
        match *self {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
            } => {
                let estimated = initial_ms.saturating_add(increment_ms.saturating_mul(40));
                if estimated < BLITZ_BELOW_MS {
                    Speed::Blitz
                } else if estimated < RAPID_BELOW_MS {
                    Speed::Rapid
                } else {
                    Speed::Classical
                }
            }
            TimeControl::Correspondence { .. } => Speed::Correspondence,
        }
    }
}

impl Speed {
    /// Every speed, in the order pages list them.
    pub const ALL: [Speed; 4] = [
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed's name as stored and sent: `blitz`, `rapid`, `classical`, `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A speed's name that is none of them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown speed {0:?}: blitz, rapid, classical or correspondence")]
pub struct UnknownSpeed(pub String);

impl FromStr for Speed {
    type Err = UnknownSpeed;

    fn from_str(s: &str) -> Result<Speed, UnknownSpeed> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name() == s)
            .ok_or_else(|| UnknownSpeed(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speed(minutes: i64, increment_s: i64) -> Speed {
        TimeControl::clock(minutes * 60_000, increment_s * 1000)
            .unwrap()
            .speed()
    }

    #[test]
    fn speeds_follow_the_estimated_duration() {
        // Bullet and blitz: under 8 minutes.
        assert_eq!(speed(1, 0), Speed::Blitz);
        assert_eq!(speed(3, 2), Speed::Blitz);
        assert_eq!(speed(5, 3), Speed::Blitz); // 5 min + 40 × 3 s = 7 min
        assert_eq!(speed(7, 1), Speed::Blitz);
        assert_eq!(speed(7, 2), Speed::Rapid);
        // Rapid: under 25 minutes.
        assert_eq!(speed(10, 5), Speed::Rapid);
        assert_eq!(speed(15, 10), Speed::Rapid); // 21:40
        assert_eq!(speed(15, 15), Speed::Classical);
        assert_eq!(speed(24, 0), Speed::Rapid);
        assert_eq!(speed(25, 0), Speed::Classical);
        assert_eq!(speed(90, 30), Speed::Classical);
        assert_eq!(
            TimeControl::correspondence(3).unwrap().speed(),
            Speed::Correspondence
        );
    }

    #[test]
    fn the_bounds_are_exclusive() {
        let at = |ms| TimeControl::clock(ms, 0).unwrap().speed();
        assert_eq!(at(BLITZ_BELOW_MS - 1), Speed::Blitz);
        assert_eq!(at(BLITZ_BELOW_MS), Speed::Rapid);
        assert_eq!(at(RAPID_BELOW_MS - 1), Speed::Rapid);
        assert_eq!(at(RAPID_BELOW_MS), Speed::Classical);
    }

    #[test]
    fn bad_time_controls_are_refused_by_name() {
        assert_eq!(
            TimeControl::correspondence(4),
            Err(TimeControlError::Days(4))
        );
        assert_eq!(TimeControl::clock(0, 0), Err(TimeControlError::ClockRange));
        assert_eq!(
            TimeControl::clock(60_000, -1),
            Err(TimeControlError::ClockRange)
        );
        assert!(
            TimeControl::correspondence(4)
                .unwrap_err()
                .to_string()
                .contains("not 4")
        );
    }

    #[test]
    fn names_read_back() {
        for s in Speed::ALL {
            assert_eq!(s.name().parse::<Speed>(), Ok(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        assert!("bullet".parse::<Speed>().is_err());
    }
}
