//! Match statistics. Games are played in pairs, each opening once with each colour, so the
//! unit of evidence is the pair, not the game: [`Pentanomial`] counts pairs by their score and
//! gives the Elo difference with its 95 % interval, and [`Sprt`] is the generalised sequential
//! probability ratio test in normalised Elo that fishtest runs on the same counts.

mod gsprt;
mod pentanomial;

pub use gsprt::{Sprt, Verdict};
pub use pentanomial::Pentanomial;

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Normalised Elo per unit of t-value (`800 / ln 10`), fishtest's scale.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The Elo difference for an expected score; ±∞ at 1 and 0.
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score for an Elo difference.
pub fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of the first player, game by game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// Adds one game with the first player's score 1, ½ or 0.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_expected_are_inverse() {
        for e in [-300.0, -50.0, 0.0, 120.0] {
            assert!((elo(expected(e)) - e).abs() < 1e-9);
        }
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn a_tally_sorts_scores_into_results() {
        let mut t = Tally::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            t.add(s);
        }
        assert_eq!(
            t,
            Tally {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(t.games(), 4);
    }
}
