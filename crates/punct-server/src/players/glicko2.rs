//! Glicko-2, exactly as Mark Glickman's "Example of the Glicko-2 system" states it: the
//! volatility found by the Illinois algorithm, τ = 0.5.
//!
//! As on lichess, each game is its own rating period, and a player's rating deviation grows
//! back while they do not play: by the number of rating periods that passed since their
//! last rated game ([`PERIOD_MS`], fractions counted), as step 6 of the paper grows it for
//! one period, and never past [`MAX_RD`].

/// The rating scale's factor between Glicko and Glicko-2 (the paper's 173.7178).
const SCALE: f64 = 173.7178;

/// The system constant τ, which bounds how fast the volatility changes.
pub const TAU: f64 = 0.5;

/// The largest rating deviation: a new player's, and the most that inactivity grows one to.
pub const MAX_RD: f64 = 350.0;

/// A rating is provisional (shown `1500?`, left off the leaderboards) while its deviation is
/// above this.
pub const PROVISIONAL_RD: f64 = 110.0;

/// How long one rating period lasts for the growth of an inactive player's deviation:
/// lichess's 0.21436 periods a day, about 4.67 days a period. A player rated with RD 50
/// is at about 105 after a year without a rated game, and provisional again (above 110)
/// after about fourteen months.
pub const PERIOD_MS: f64 = 86_400_000.0 / 0.21436;

/// The convergence tolerance ε of the volatility's iteration (the paper's 0.000001).
const EPSILON: f64 = 0.000_001;

/// The most iterations the volatility's search takes: it converges in a handful, and the
/// bound keeps bad input from ever making it loop.
const MAX_ITERATIONS: usize = 100;

/// A player's rating in one speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, on the Glicko scale (1500 for a new player).
    pub rating: f64,
    /// The rating deviation (350 for a new player).
    pub rd: f64,
    /// The volatility σ (0.06 for a new player).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The player won.
    Win,
    /// Neither won.
    Draw,
    /// The player lost.
    Loss,
}

impl Score {
    /// The score as the paper counts it: 1, ½ or 0.
    pub fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The opponent's result.
    pub fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// g(φ) of the paper.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) of the paper: the expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// A new player's rating: 1500, RD 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        rd: MAX_RD,
        volatility: 0.06,
    };

    /// Whether the rating is provisional: its deviation is above [`PROVISIONAL_RD`].
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    fn mu(&self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    fn phi(&self) -> f64 {
        self.rd / SCALE
    }

    /// The rating after `elapsed_ms` without a rated game: the deviation grown as step 6 of
    /// the paper grows it, once per rating period that passed ([`PERIOD_MS`], fractions
    /// counted), to at most [`MAX_RD`]. No time (or a negative one) changes nothing.
    pub fn after_inactivity(&self, elapsed_ms: i64) -> Rating {
        let periods = (elapsed_ms.max(0) as f64) / PERIOD_MS;
        let phi = self.phi();
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt();
        Rating {
            rd: (grown * SCALE).min(MAX_RD),
            ..*self
        }
    }

    /// The rating after one rating period with these games (each the opponent's rating at
    /// the time and this player's score), steps 2 to 8 of the paper. Without games only the
    /// deviation grows, by one period.
    pub fn after_period(&self, games: &[(Rating, Score)]) -> Rating {
        let (mu, phi, sigma) = (self.mu(), self.phi(), self.volatility);
        if games.is_empty() {
            return self.after_inactivity(PERIOD_MS as i64);
        }
        // Step 3: the estimated variance v; step 4: the estimated improvement Δ.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in games {
            let (mu_j, phi_j) = (opponent.mu(), opponent.phi());
            let e = expected(mu, mu_j, phi_j);
            let g_j = g(phi_j);
            inverse_v += g_j * g_j * e * (1.0 - e);
            sum += g_j * (score.value() - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = new_volatility(phi, sigma, v, delta);
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * sum;
        // Step 8: back to the Glicko scale.
        Rating {
            rating: SCALE * new_mu + 1500.0,
            rd: (SCALE * new_phi).min(MAX_RD),
            volatility: sigma,
        }
    }

    /// Whether every number is finite and in its range: a deviation and a volatility above
    /// zero, the deviation at most [`MAX_RD`].
    pub fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.rd.is_finite()
            && self.volatility.is_finite()
            && self.rd > 0.0
            && self.rd <= MAX_RD
            && self.volatility > 0.0
    }
}

/// Step 5 of the paper: the new volatility σ′, by the Illinois algorithm.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < MAX_ITERATIONS as f64 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..MAX_ITERATIONS {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// Both players' ratings after one game between them, each game its own rating period:
/// `white` and `black` are their ratings as of the game (grown for inactivity already, see
/// [`Rating::after_inactivity`]), `white_score` White's result.
pub fn rate_game(white: Rating, black: Rating, white_score: Score) -> (Rating, Rating) {
    (
        white.after_period(&[(black, white_score)]),
        black.after_period(&[(white, white_score.opposite())]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rating(rating: f64, rd: f64) -> Rating {
        Rating {
            rating,
            rd,
            volatility: 0.06,
        }
    }

    /// The paper's worked example, to its printed precision. The paper rounds μ′ and φ′ to
    /// four decimals (−0.2069, 0.8722) before it scales them back, which makes its
    /// 1464.06 and 151.52; unrounded they are 1464.0507 and 151.5165, within 0.01.
    #[test]
    fn the_papers_example() {
        let player = rating(1500.0, 200.0);
        let games = [
            (rating(1400.0, 30.0), Score::Win),
            (rating(1550.0, 100.0), Score::Loss),
            (rating(1700.0, 300.0), Score::Loss),
        ];
        let after = player.after_period(&games);
        let four = |x: f64| (x * 10_000.0).round() / 10_000.0;
        let (mu, phi) = (after.mu(), after.phi());
        assert_eq!((four(mu), four(phi)), (-0.2069, 0.8722), "{after:?}");
        let two = |x: f64| (x * 100.0).round() / 100.0;
        assert_eq!(two(SCALE * four(mu) + 1500.0), 1464.06);
        assert_eq!(two(SCALE * four(phi)), 151.52);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        // σ′ = 0.0599960, which the paper prints to its fifth decimal as 0.05999.
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_period_without_games_grows_only_the_deviation() {
        let player = rating(1500.0, 200.0);
        let after = player.after_period(&[]);
        assert_eq!(after.rating, 1500.0);
        assert_eq!(after.volatility, 0.06);
        let expected = ((200.0 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((after.rd - expected).abs() < 1e-9);
    }

    #[test]
    fn inactivity_grows_the_deviation_to_at_most_350() {
        let player = rating(1800.0, 50.0);
        assert_eq!(player.after_inactivity(0), player);
        assert_eq!(player.after_inactivity(-5), player);
        let day = 86_400_000;
        let month = player.after_inactivity(30 * day);
        assert!(month.rd > 50.0 && month.rd < 60.0, "{month:?}");
        let years = player.after_inactivity(2 * 365 * day);
        assert!(years.provisional(), "{years:?}");
        assert!(!player.after_inactivity(365 * day).provisional());
        assert_eq!(player.after_inactivity(100 * 365 * day).rd, MAX_RD);
        assert_eq!(month.rating, 1800.0);
    }

    #[test]
    fn new_players_are_provisional() {
        assert!(Rating::NEW.provisional());
        assert!(rating(1500.0, 110.01).provisional());
        assert!(!rating(1500.0, 110.0).provisional());
    }

    #[test]
    fn two_new_players_move_by_the_same_amount() {
        let (w, b) = rate_game(Rating::NEW, Rating::NEW, Score::Win);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.rd < MAX_RD && b.rd < MAX_RD);
        let (w, b) = rate_game(Rating::NEW, Rating::NEW, Score::Draw);
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    fn any_rating() -> impl Strategy<Value = Rating> {
        (500.0..3000.0f64, 30.0..=MAX_RD, 0.03..0.1f64).prop_map(|(rating, rd, volatility)| {
            Rating {
                rating,
                rd,
                volatility,
            }
        })
    }

    fn any_score() -> impl Strategy<Value = Score> {
        prop_oneof![Just(Score::Win), Just(Score::Draw), Just(Score::Loss)]
    }

    proptest! {
        /// A win never lowers a rating, a loss never raises it, and every rating after a
        /// game is valid with a deviation that did not grow past its one period's growth.
        #[test]
        fn a_game_moves_ratings_the_right_way(
            white in any_rating(), black in any_rating(), score in any_score()
        ) {
            let (w, b) = rate_game(white, black, score);
            prop_assert!(w.is_valid() && b.is_valid(), "{w:?} {b:?}");
            match score {
                Score::Win => prop_assert!(w.rating >= white.rating && b.rating <= black.rating),
                Score::Loss => prop_assert!(w.rating <= white.rating && b.rating >= black.rating),
                Score::Draw => {}
            }
            // φ′ is below φ* = √(φ² + σ′²), one period's growth under the new volatility.
            let grown = |before: Rating, after: Rating| {
                Rating { volatility: after.volatility, ..before }.after_period(&[]).rd
            };
            prop_assert!(w.rd <= grown(white, w) + 1e-9);
            prop_assert!(b.rd <= grown(black, b) + 1e-9);
        }

        /// Inactivity never moves the rating or the volatility and never lowers the deviation.
        #[test]
        fn inactivity_only_grows_the_deviation(r in any_rating(), ms in 0i64..i64::MAX / 2) {
            let after = r.after_inactivity(ms);
            prop_assert!(after.is_valid());
            prop_assert!(after.rd >= r.rd && after.rd <= MAX_RD);
            prop_assert_eq!(after.rating, r.rating);
            prop_assert_eq!(after.volatility, r.volatility);
        }
    }
}
