//! Game pairs counted by their score, and the Elo difference they show.
//!
//! The two games of an opening are not independent (an opening that favours White favours
//! whoever has White), so a pair's total is one sample: pairs are counted in five buckets
//! by the first player's points over the pair, and the mean and variance are those of the
//! pair's mean score. This is fishtest's method; the tests check it against fishtest's
//! numbers.

use super::{NELO_PER_T, Z95, elo};

/// Weight given to an empty bucket (a thousandth of a pair), as fishtest does, so that
/// the variance is never zero.
const EMPTY_BUCKET: f64 = 1e-3;

/// Pairs counted by the first player's points over the pair, in half points: `counts[0]`
/// lost both, `[1]` a loss and a draw, `[2]` a win and a loss or two draws, `[3]` a win and
/// a draw, `[4]` won both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs in each bucket.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair from the first player's scores (1, ½ or 0) in its two games.
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The first player's mean score per game, 0 to 1 (½ before any pair).
    pub fn score(&self) -> f64 {
        let pairs = self.pairs();
        if pairs == 0 {
            return 0.5;
        }
        let quarters: u32 = self.counts.iter().zip(0..).map(|(&c, i)| c * i).sum();
        f64::from(quarters) / 4.0 / f64::from(pairs)
    }

    /// The buckets as a distribution of a pair's mean score, `(value, probability)`, with
    /// empty buckets given a thousandth of a pair.
    pub(super) fn distribution(&self) -> [(f64, f64); 5] {
        let weights = self.counts.map(|c| match c {
            0 => EMPTY_BUCKET,
            c => f64::from(c),
        });
        let total: f64 = weights.iter().sum();
        std::array::from_fn(|i| (i as f64 / 4.0, weights[i] / total))
    }

    /// The regularised pair count (the sample size of [`Pentanomial::distribution`]).
    pub(super) fn weight(&self) -> f64 {
        self.counts
            .iter()
            .map(|&c| if c == 0 { EMPTY_BUCKET } else { f64::from(c) })
            .sum()
    }

    /// Mean and variance of a pair's mean score.
    fn moments(&self) -> (f64, f64) {
        moments(&self.distribution())
    }

    /// The 95 % confidence interval of the score. When every pair fell in one bucket there
    /// is no spread to measure: the rule of three bounds the rate of the other buckets by
    /// 3/n, placed at the far end.
    pub fn score_interval(&self) -> (f64, f64) {
        let pairs = self.pairs();
        if pairs == 0 {
            return (0.0, 1.0);
        }
        if let Some(bucket) = self.counts.iter().position(|&c| c == pairs) {
            let value = bucket as f64 / 4.0;
            let rare = (3.0 / f64::from(pairs)).min(1.0);
            return (value * (1.0 - rare), value + rare * (1.0 - value));
        }
        let (mu, var) = self.moments();
        let half = Z95 * (var / self.weight()).sqrt();
        ((mu - half).max(0.0), (mu + half).min(1.0))
    }

    /// The Elo difference: the estimate and the ends of its 95 % interval (infinite where
    /// the score or a bound is 0 or 1).
    pub fn elo(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.score_interval();
        let estimate = if self.counts.iter().filter(|&&c| c > 0).count() > 1 {
            elo(self.moments().0)
        } else {
            elo(self.score())
        };
        (estimate, elo(lo), elo(hi))
    }

    /// Half the width of the Elo interval, fishtest's "±".
    pub fn elo_error(&self) -> f64 {
        let (_, lo, hi) = self.elo();
        (hi - lo) / 2.0
    }

    /// The normalised Elo difference (the score's distance from ½ in standard deviations
    /// of a game, on fishtest's scale), and the half-width of its 95 % interval.
    pub fn nelo(&self) -> (f64, f64) {
        let pairs = self.pairs();
        if pairs == 0 {
            return (0.0, f64::INFINITY);
        }
        let error = Z95 * NELO_PER_T / (2.0 * f64::from(pairs)).sqrt();
        // One bucket only has no spread: a sweep is infinitely many deviations away.
        match self.counts.iter().position(|&c| c == pairs) {
            Some(2) => return (0.0, error),
            Some(bucket) => {
                return (
                    if bucket > 2 {
                        f64::INFINITY
                    } else {
                        f64::NEG_INFINITY
                    },
                    error,
                );
            }
            None => {}
        }
        let (mu, var) = self.moments();
        let sigma_per_game = (2.0 * var).sqrt();
        ((mu - 0.5) / sigma_per_game * NELO_PER_T, error)
    }
}

/// Mean and variance of a distribution given as `(value, probability)`.
pub(super) fn moments(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|(v, p)| v * p).sum();
    let var = pdf.iter().map(|(v, p)| p * (v - mu).powi(2)).sum();
    (mu, var)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn pairs_fall_in_buckets_by_their_total() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0);
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(0.5, 0.0);
        p.add(0.0, 0.0);
        p.add(1.0, 0.5);
        assert_eq!(p.counts, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
        assert!(close(p.score(), 0.5, 1e-12));
    }

    /// Values printed by fishtest's `stat_util.get_elo` for the same counts.
    #[test]
    fn elo_and_interval_match_fishtest() {
        let p = counts([1, 4, 10, 6, 3]);
        let (lo, hi) = p.score_interval();
        assert!(close(lo, 0.461_445, 1e-6) && close(hi, 0.663_555, 1e-6));
        let (e, _, _) = p.elo();
        assert!(close(e, 43.657_788, 1e-5), "{e}");
        assert!(close(p.elo_error(), 72.414_953, 1e-5));

        // An empty bucket gets a thousandth of a pair.
        let p = counts([0, 2, 5, 9, 4]);
        let (e, _, _) = p.elo();
        assert!(close(e, 136.941_280, 1e-5), "{e}");
        assert!(close(p.elo_error(), 80.647_194, 1e-5));

        let p = counts([10789, 19328, 33806, 19402, 10543]);
        let (e, _, _) = p.elo();
        assert!(close(e, -0.773_577, 1e-5) && close(p.elo_error(), 1.277_580, 1e-5));
    }

    /// fishtest's normalised Elo: (mu − ½) / sqrt(2·var) · 800 / ln 10.
    #[test]
    fn normalised_elo_matches_fishtest() {
        assert!(close(counts([1, 4, 10, 6, 3]).nelo().0, 60.788_565, 1e-5));
        assert!(close(counts([0, 2, 5, 9, 4]).nelo().0, 207.549_782, 1e-4));
        assert!(close(
            counts([39, 2226, 31451, 2412, 40]).nelo().0,
            3.450_800,
            1e-5
        ));
        // 1.96 · 347.4 / sqrt(2 · 24)
        assert!(close(counts([1, 4, 10, 6, 3]).nelo().1, 98.29, 0.01));
    }

    /// Hand-computed: pairs (LL, WW, DD, WL) have mean pair scores 0, 1, ½, ½: mean ½,
    /// variance (¼ + ¼ + 0 + 0) / 4 = ⅛, so the interval is ½ ± 1.96 · sqrt(⅛ / 4).
    #[test]
    fn a_hand_computed_interval() {
        let p = counts([1, 0, 2, 0, 1]);
        let (lo, hi) = p.score_interval();
        let half = Z95 * (0.125f64 / 4.0).sqrt();
        // The empty buckets' thousandths move it by less than 1e-3.
        assert!(close(lo, 0.5 - half, 1e-3) && close(hi, 0.5 + half, 1e-3));
        assert!(close(p.elo().0, 0.0, 1e-9));
    }

    #[test]
    fn one_bucket_only_is_bounded_by_the_rule_of_three() {
        let swept = counts([0, 0, 0, 0, 100]);
        assert_eq!(swept.score_interval(), (0.97, 1.0));
        let (e, lo, hi) = swept.elo();
        assert_eq!((e, hi), (f64::INFINITY, f64::INFINITY));
        assert!(close(lo, elo(0.97), 1e-9));
        let lost = counts([50, 0, 0, 0, 0]);
        assert_eq!(lost.score_interval(), (0.0, 0.06));
        // Every pair split: the same engine on both sides, deterministic.
        let even = counts([0, 0, 30, 0, 0]);
        let (lo, hi) = even.score_interval();
        assert!(close(lo, 0.45, 1e-12) && close(hi, 0.55, 1e-12));
        assert_eq!(even.elo().0, 0.0);
        assert_eq!(even.nelo().0, 0.0);
        assert_eq!(swept.nelo().0, f64::INFINITY);
        assert_eq!(lost.nelo().0, f64::NEG_INFINITY);
    }

    #[test]
    fn no_pairs_know_nothing() {
        let p = Pentanomial::default();
        assert_eq!(p.score(), 0.5);
        assert_eq!(p.score_interval(), (0.0, 1.0));
        assert_eq!(p.elo_error(), f64::INFINITY);
    }
}
