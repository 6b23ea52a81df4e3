//! Strength levels for people. Lower levels search fewer playouts and, at the lowest,
//! choose among the moves they searched with some chance instead of always the best:
//! weaker by seeing less, never by deliberate blunders (every level takes a win in one and
//! stops the opponent's).

use std::fmt;

/// A strength level, from 1 (beginner) to [`Level::MAX`] (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The strongest level.
    pub const MAX: u8 = 6;

    /// Full strength.
    pub const FULL: Level = Level(Level::MAX);

    /// Level `n`, if `1 ≤ n ≤ MAX`.
    pub fn new(n: u8) -> Option<Level> {
        (1..=Level::MAX).contains(&n).then_some(Level(n))
    }

    /// All levels, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=Level::MAX).map(Level)
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Playouts per move; `None` at full strength, bounded only by time.
    pub fn visits(self) -> Option<u64> {
        match self.0 {
            1 => Some(6),
            2 => Some(24),
            3 => Some(96),
            4 => Some(384),
            5 => Some(1536),
            _ => None,
        }
    }

    /// How freely the move is drawn among those searched, by their visits: 0 always plays
    /// the most visited.
    pub fn temperature(self) -> f32 {
        match self.0 {
            1 => 1.0,
            2 => 0.5,
            3 => 0.25,
            _ => 0.0,
        }
    }

    /// A short name for people.
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "beginner",
            2 => "casual",
            3 => "club",
            4 => "strong",
            5 => "expert",
            _ => "full strength",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} ({})", self.0, self.name())
    }
}
