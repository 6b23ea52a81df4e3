//! Strength levels for people. The lowest rungs do not search: they glance at a few
//! natural moves, look at most one move ahead and, like newcomers, sometimes overlook a win
//! in one, theirs or the opponent's ([`crate::novice`]). The rungs above search more and
//! more playouts and, at the lower of them, choose among the moves they searched with some
//! chance instead of always the best; every searching level takes a win in one and stops
//! the opponent's.

use std::fmt;

use crate::novice::Habits;

/// A strength level, from 1 (a first game) to [`Level::MAX`] (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Play {
    /// No search: a glance at a few moves, with a newcomer's lapses.
    Glance(Habits),
    /// The tree search.
    Search {
        /// Playouts per move; `None` at full strength, bounded only by time.
        visits: Option<u64>,
        /// How freely the move is drawn among those searched, by their visits: 0 always
        /// plays the most visited.
        temperature: f32,
    },
}

impl Level {
    /// The strongest level.
    pub const MAX: u8 = 9;

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

    /// How the level plays. The figures are set by matches between neighbouring levels
    /// (docs/engine.md has the ladder in Elo).
    pub fn play(self) -> Play {
        let search = |visits, temperature| Play::Search {
            visits,
            temperature,
        };
        match self.0 {
            1 => Play::Glance(Habits {
                miss_win: 0.4,
                miss_threat: 0.5,
                glance: 16,
                look_ahead: false,
                sharpness: 2.0,
            }),
            2 => Play::Glance(Habits {
                miss_win: 0.25,
                miss_threat: 0.35,
                glance: 12,
                look_ahead: true,
                sharpness: 1.5,
            }),
            3 => Play::Glance(Habits {
                miss_win: 0.1,
                miss_threat: 0.15,
                glance: 40,
                look_ahead: true,
                sharpness: 3.0,
            }),
            4 => search(Some(6), 1.0),
            5 => search(Some(24), 0.5),
            6 => search(Some(96), 0.25),
            7 => search(Some(256), 0.0),
            8 => search(Some(800), 0.0),
            _ => search(None, 0.0),
        }
    }

    /// The computer's name at this level as games and records give it: `punct level 5`.
    pub fn player_name(self) -> String {
        format!("{PLAYER_NAME}{}", self.0)
    }

    /// The level of a player named as [`Level::player_name`] writes it, with anything
    /// after a comma (`punct level 6, 2 threads`, as `punct match` names it); `None` for
    /// any other name.
    pub fn from_player_name(name: &str) -> Option<Level> {
        let rest = name.strip_prefix(PLAYER_NAME)?;
        let number = rest.split_once(',').map_or(rest, |(n, _)| n);
        number.parse().ok().and_then(Level::new)
    }

    /// A short name for people.
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "first steps",
            2 => "beginner",
            3 => "novice",
            4 => "casual",
            5 => "improver",
            6 => "club",
            7 => "strong",
            8 => "expert",
            _ => "full strength",
        }
    }
}

/// How the computer's name begins, before its level's number.
const PLAYER_NAME: &str = "punct level ";

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} ({})", self.0, self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_name_reads_back_as_its_level() {
        for level in Level::all() {
            assert_eq!(Level::from_player_name(&level.player_name()), Some(level));
        }
        let six = Level::new(6);
        assert_eq!(Level::from_player_name("punct level 6, 2 threads"), six);
        for other in [
            "Ada",
            "punct level 0",
            "punct level 10",
            "punct level",
            "xpunct level 3",
        ] {
            assert_eq!(Level::from_player_name(other), None, "{other}");
        }
    }
}
