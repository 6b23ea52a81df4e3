//! The generalised sequential probability ratio test over game pairs, with its hypotheses in
//! normalised Elo, as fishtest runs it (`LLR_normalized` in its `LLRcalc.py`).
//!
//! Normalised Elo measures the score's distance from ½ in standard deviations of the
//! score, so a bound means the same number of games to decide whatever the draw rate or
//! the openings' balance. The log-likelihood ratio compares the maximum-likelihood
//! pentanomial distributions whose t-value, (mean − ½) / σ, is each hypothesis's.

use std::fmt;
use std::str::FromStr;

use super::NELO_PER_T;
use super::pentanomial::{Pentanomial, moments};

/// A GSPRT of `nelo0` (H0) against `nelo1` (H1), in normalised Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Normalised Elo under the null hypothesis.
    pub nelo0: f64,
    /// Normalised Elo under the alternative (above `nelo0`).
    pub nelo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound is reached: keep playing.
    Continue,
    /// The first player is at least `nelo1` stronger.
    AcceptH1,
    /// The first player is at most `nelo0` stronger.
    AcceptH0,
}

impl Sprt {
    /// A test between two normalised Elo values with fishtest's error rates (5 % each).
    pub fn new(nelo0: f64, nelo1: f64) -> Result<Sprt, String> {
        if !nelo0.is_finite() || !nelo1.is_finite() {
            return Err(format!(
                "SPRT bounds must be numbers, not {nelo0} and {nelo1}"
            ));
        }
        if nelo0 >= nelo1 {
            return Err(format!(
                "the SPRT's first bound must be below its second, not {nelo0} and {nelo1}"
            ));
        }
        Ok(Sprt {
            nelo0,
            nelo1,
            alpha: 0.05,
            beta: 0.05,
        })
    }

    /// The LLR's stopping bounds, lower (accept H0) and upper (accept H1).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 on `pairs`.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        // A pair's t-value is √2 times a game's.
        let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
        let pdf = pairs.distribution();
        let (Some(h0), Some(h1)) = (
            mle_with_t_value(&pdf, t(self.nelo0)),
            mle_with_t_value(&pdf, t(self.nelo1)),
        ) else {
            return 0.0;
        };
        let per_pair: f64 = (0..pdf.len())
            .map(|i| pdf[i].1 * (h1[i].ln() - h0[i].ln()))
            .sum();
        pairs.weight() * per_pair
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// Two numbers, `nelo0,nelo1` or `nelo0 nelo1`.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let words: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let [a, b] = words[..] else {
            return Err(format!(
                "expected two normalised Elo bounds such as `0,50`, not `{text}`"
            ));
        };
        let number = |w: &str| {
            w.parse::<f64>()
                .map_err(|_| format!("SPRT bound `{w}` is not a number"))
        };
        Sprt::new(number(a)?, number(b)?)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GSPRT [{}, {}] nElo", self.nelo0, self.nelo1)
    }
}

/// The distribution on the same values closest (in likelihood) to `pdf` whose t-value
/// `(mean − ½) / σ` is `t`: fishtest's `MLE_t_value`, a fixed-point iteration over the
/// secular equation. Its probabilities, in `pdf`'s order.
fn mle_with_t_value(pdf: &[(f64, f64); 5], t: f64) -> Option<[f64; 5]> {
    let mut mle = [1.0 / pdf.len() as f64; 5];
    for _ in 0..10 {
        let previous = mle;
        let current: Vec<(f64, f64)> = pdf.iter().zip(mle).map(|(&(v, _), p)| (v, p)).collect();
        let (mu, var) = moments(&current);
        let sigma = var.sqrt();
        let shifted: [(f64, f64); 5] = pdf.map(|(a, p)| {
            (
                a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0,
                p,
            )
        });
        let x = secular(&shifted)?;
        mle = std::array::from_fn(|i| pdf[i].1 / (1.0 + x * shifted[i].0));
        if previous.iter().zip(&mle).all(|(a, b)| (a - b).abs() < 1e-9) {
            break;
        }
    }
    Some(mle)
}

/// The root of `Σ pᵢ·aᵢ / (1 + x·aᵢ) = 0` between the poles, where every `1 + x·aᵢ` stays
/// positive; `None` unless the `aᵢ` take both signs. The sum falls from +∞ to −∞ there,
/// so bisection finds it.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let lowest = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let highest = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    if lowest * highest >= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 { pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum() };
    let (mut lo, mut hi) = (-1.0 / highest, -1.0 / lowest);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Values printed by fishtest's `LLRcalc.LLR_normalized` for the same counts.
    #[test]
    fn llr_matches_fishtest() {
        let cases = [
            ([39, 2226, 31451, 2412, 40], 0.764, 3.439, 2.162_941),
            ([10789, 19328, 33806, 19402, 10543], -3.0, 1.0, 0.300_870),
            ([1, 4, 10, 6, 3], 0.0, 50.0, 0.693_425),
            ([0, 2, 5, 9, 4], 0.0, 50.0, 2.141_450),
            ([3, 5, 2, 0, 0], 0.0, 50.0, -1.697_837),
            ([0, 0, 12, 0, 0], 0.0, 50.0, -0.480_802),
            ([0, 0, 0, 0, 30], 0.0, 50.0, 5.455_514),
            ([5, 0, 0, 0, 0], 0.0, 50.0, -1.112_344),
        ];
        for (c, nelo0, nelo1, expected) in cases {
            let llr = Sprt::new(nelo0, nelo1).unwrap().llr(&counts(c));
            assert!((llr - expected).abs() < 1e-5, "{c:?}: {llr} ≠ {expected}");
        }
    }

    #[test]
    fn bounds_and_verdicts() {
        let sprt = Sprt::new(0.0, 50.0).unwrap();
        let (lower, upper) = sprt.bounds();
        // ln(0.05 / 0.95) and its negative.
        assert!((lower + 2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);
        assert_eq!(sprt.verdict(3.0), Verdict::AcceptH1);
        assert_eq!(sprt.verdict(-3.0), Verdict::AcceptH0);
        assert_eq!(sprt.verdict(2.9), Verdict::Continue);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        // A clear winner is accepted, a clear loser rejected.
        assert_eq!(
            sprt.verdict(sprt.llr(&counts([0, 2, 5, 20, 10]))),
            Verdict::AcceptH1
        );
        assert_eq!(
            sprt.verdict(sprt.llr(&counts([10, 20, 5, 2, 0]))),
            Verdict::AcceptH0
        );
    }

    #[test]
    fn bounds_are_read_with_a_comma_or_a_space() {
        let expected = Sprt::new(0.0, 50.0).unwrap();
        for text in ["0,50", "0 50", "0, 50", " 0 ,50 "] {
            assert_eq!(text.parse::<Sprt>(), Ok(expected), "{text}");
        }
        assert_eq!(
            "-5,2.5".parse::<Sprt>().map(|s| (s.nelo0, s.nelo1)),
            Ok((-5.0, 2.5))
        );
        for bad in ["", "0", "0,50,100", "a,50", "50,0", "5,5", "nan,3", "0,inf"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        /// Any bounds and counts give a finite LLR, and swapping the players (the counts
        /// reversed) is the same test of the mirrored hypotheses with the opposite sign.
        #[test]
        fn llr_is_finite_and_mirrors(
            c in proptest::array::uniform5(0u32..200),
            nelo0 in -200.0f64..200.0,
            width in 1.0f64..200.0,
        ) {
            let nelo1 = nelo0 + width;
            let llr = Sprt::new(nelo0, nelo1).unwrap().llr(&counts(c));
            proptest::prop_assert!(llr.is_finite());
            let mut reversed = c;
            reversed.reverse();
            let mirrored = Sprt::new(-nelo1, -nelo0).unwrap().llr(&counts(reversed));
            proptest::prop_assert!((llr + mirrored).abs() <= 1e-6 * (1.0 + llr.abs()), "{} {}", llr, mirrored);
        }

        /// Bound texts never panic the parser.
        #[test]
        fn any_text_parses_or_is_refused(text in ".{0,20}") {
            let _ = text.parse::<Sprt>();
        }
    }
}
