//! Match statistics: score with a confidence interval, Elo difference with an error bar,
//! and the sequential probability ratio test for stopping early.

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// Elo difference for an expected score.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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

    /// The first player's mean score, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The 95% confidence interval of the score. When every game ended alike the games show
    /// no spread to measure, so the rule of three bounds the rate of the other results.
    pub fn score_interval(&self) -> (f64, f64) {
        let games = self.games();
        if games == 0 {
            return (0.0, 1.0);
        }
        let n = f64::from(games);
        let rare = (3.0 / n).min(1.0);
        if self.wins == games {
            return (1.0 - rare, 1.0);
        }
        if self.losses == games {
            return (0.0, rare);
        }
        if self.draws == games {
            return (0.5 - rare / 2.0, 0.5 + rare / 2.0);
        }
        let half = Z95 * (self.variance() / n).sqrt();
        let s = self.score();
        ((s - half).max(0.0), (s + half).min(1.0))
    }

    /// Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let (lo, hi) = self.score_interval();
        (elo(self.score()), (elo(hi) - elo(lo)) / 2.0)
    }

    /// Log-likelihood ratio of H1 (Elo `elo1`) against H0 (Elo `elo0`), by the normal
    /// approximation to the score distribution.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() < 2 {
            return 0.0;
        }
        // Games that all ended alike have no spread; half a game of each result keeps a
        // clean sweep from looking uninformative.
        let var = match self.variance() {
            v if v > 0.0 => v,
            _ => {
                let [w, d, l] = [self.wins, self.draws, self.losses].map(|k| f64::from(k) + 0.5);
                let s = (w + 0.5 * d) / (w + d + l);
                (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / (w + d + l)
            }
        };
        let (s0, s1) = (expected(elo0), expected(elo1));
        let n = self.games() as f64;
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds, and of accepting H0 when H1 holds.
    pub error: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// The alternative holds: the first player is at least `elo1` better.
    AcceptH1,
    /// The null hypothesis holds.
    AcceptH0,
}

impl Sprt {
    /// The test's verdict on `tally`.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = tally.llr(self.elo0, self.elo1);
        let upper = ((1.0 - self.error) / self.error).ln();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= -upper {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_match_is_zero_elo() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!((t.score() - 0.5).abs() < 1e-9);
        assert!(t.elo().0.abs() < 1e-6);
        let (lo, hi) = t.score_interval();
        assert!(lo < 0.5 && hi > 0.5);
    }

    #[test]
    fn a_clean_sweep_is_bounded_by_the_rule_of_three() {
        let t = Tally {
            wins: 200,
            draws: 0,
            losses: 0,
        };
        let (lo, hi) = t.score_interval();
        assert!((lo - 0.985).abs() < 1e-9 && hi == 1.0);
        let lost = Tally {
            wins: 0,
            draws: 0,
            losses: 100,
        };
        assert_eq!(lost.score_interval(), (0.0, 0.03));
        let drawn = Tally {
            wins: 0,
            draws: 50,
            losses: 0,
        };
        let (lo, hi) = drawn.score_interval();
        assert!((lo - 0.47).abs() < 1e-9 && (hi - 0.53).abs() < 1e-9);
    }

    #[test]
    fn elo_and_expected_are_inverse() {
        for e in [-300.0, -50.0, 0.0, 120.0] {
            assert!((elo(expected(e)) - e).abs() < 1e-6);
        }
    }

    #[test]
    fn sprt_accepts_a_clear_winner() {
        let t = Tally {
            wins: 90,
            draws: 0,
            losses: 10,
        };
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            error: 0.05,
        };
        assert_eq!(sprt.verdict(&t), Verdict::AcceptH1);
    }

    #[test]
    fn sprt_decides_on_a_clean_sweep() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            error: 0.05,
        };
        let swept = |wins| Tally {
            wins,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sprt.verdict(&swept(1)), Verdict::Continue);
        assert_eq!(sprt.verdict(&swept(30)), Verdict::AcceptH1);
        let lost = Tally {
            wins: 0,
            draws: 0,
            losses: 30,
        };
        assert_eq!(sprt.verdict(&lost), Verdict::AcceptH0);
    }
}
