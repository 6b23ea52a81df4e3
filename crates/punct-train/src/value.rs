//! Fitting the value function: logistic regression of the side to move's score in the
//! game (1, ½ or 0) on the features of `punct_engine::learned::value`, L2-regularised, by
//! Newton's method from the hand-set weights.
//!
//! Bit-for-bit reproducible: features are computed on every core but collected in the
//! dataset's order, and every sum runs over fixed chunks added up in order, so neither the
//! number of cores nor their timing changes a weight.

use punct_core::Position;
use punct_engine::evaluation::Distances;
use punct_engine::learned::{VALUE_FEATURES, VALUE_SPREAD, hand_set_value_weights, value_features};
use punct_engine::tactics::winning_move;
use rayon::prelude::*;

use crate::dataset::Sample;
use crate::value_net::{self, Weights};

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Every how many games one is held out for the report (split by game: positions of
    /// one game are alike).
    pub holdout: u32,
    /// The L2 penalty per training position on every weight but the intercept.
    pub l2: f64,
    /// Newton steps at most; the fit stops earlier once no weight moves by 1e-6.
    pub iterations: usize,
    /// The hidden layer fitted after the linear model (none with 0 units).
    pub net: value_net::Settings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            holdout: 5,
            l2: 1e-3,
            iterations: 30,
            net: value_net::Settings {
                hidden: 0,
                ..value_net::Settings::default()
            },
        }
    }
}

/// Held-out log-loss, in nats per position, of the three predictors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LogLoss {
    /// The fitted model.
    pub learned: f64,
    /// The fitted model spread as the engine plays it ([`Report::spread`]).
    pub played: f64,
    /// The compiled-in model as the engine plays it (stretched by its own spread).
    pub compiled: f64,
    /// The hand-set evaluation, σ(0.45 · advantage).
    pub hand_set: f64,
    /// The training positions' mean score, the same for every position.
    pub constant: f64,
    /// Positions judged.
    pub positions: usize,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The fitted weights, on the logit scale.
    pub weights: Weights,
    /// How much wider the hand-set evaluation's logits spread than the fitted ones over the
    /// training positions (the ratio of their standard deviations): the engine stretches
    /// the fitted logit by this.
    pub spread: f32,
    /// Positions trained on.
    pub train: usize,
    /// Games trained on and held out.
    pub games: (usize, usize),
    /// Every held-out position.
    pub all: LogLoss,
    /// The held-out positions the search values by the evaluation: those where the side to
    /// move has no win in one (the search proves the rest).
    pub quiet: LogLoss,
    /// Newton steps taken.
    pub iterations: usize,
}

/// One position ready for fitting.
struct Row {
    features: [f64; VALUE_FEATURES],
    /// The side to move's score.
    score: f64,
    /// Whether the side to move has no win in one.
    quiet: bool,
}

impl Row {
    fn new(sample: &Sample) -> Option<Row> {
        let mut pos: Position = sample.position.clone();
        if pos.decisive_outcome().is_some() {
            return None;
        }
        let features = value_features(&pos, &Distances::quick(&pos)).map(f64::from);
        let white = f64::from(sample.white_score);
        let score = if pos.turn().index() == 0 {
            white
        } else {
            1.0 - white
        };
        let quiet = winning_move(&mut pos, None).is_none();
        Some(Row {
            features,
            score,
            quiet,
        })
    }
}

/// Positions per chunk of a sum: chunks are summed on every core, then in order.
const CHUNK: usize = 1024;

/// The logistic function.
fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The log-loss of predicting `p` for an outcome `score`, kept finite.
fn log_loss(p: f64, score: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(score * p.ln() + (1.0 - score) * (1.0 - p).ln())
}

/// The unpenalised loss, its gradient and its Hessian's lower triangle (all [`solve`] reads)
/// at `w`.
fn gradient_and_hessian(
    rows: &[Row],
    w: &[f64; VALUE_FEATURES],
) -> (
    f64,
    [f64; VALUE_FEATURES],
    [[f64; VALUE_FEATURES]; VALUE_FEATURES],
) {
    let partial: Vec<_> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut loss = 0.0;
            let mut g = [0.0; VALUE_FEATURES];
            let mut h = [[0.0; VALUE_FEATURES]; VALUE_FEATURES];
            for row in chunk {
                let x = &row.features;
                let z: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
                let p = sigmoid(z);
                loss += log_loss(p, row.score);
                let (d, c) = (p - row.score, p * (1.0 - p));
                for (i, &xi) in x.iter().enumerate() {
                    if xi == 0.0 {
                        continue;
                    }
                    g[i] += d * xi;
                    for (hij, &xj) in h[i].iter_mut().zip(x).take(i + 1) {
                        *hij += c * xi * xj;
                    }
                }
            }
            (loss, g, h)
        })
        .collect();
    let mut loss = 0.0;
    let mut g = [0.0; VALUE_FEATURES];
    let mut h = [[0.0; VALUE_FEATURES]; VALUE_FEATURES];
    for (l, pg, ph) in partial {
        loss += l;
        g.iter_mut().zip(pg).for_each(|(a, b)| *a += b);
        for (ra, rb) in h.iter_mut().zip(ph) {
            ra.iter_mut().zip(rb).for_each(|(a, b)| *a += b);
        }
    }
    (loss, g, h)
}

/// Solves `a x = b` for a symmetric positive definite `a`, read from its lower triangle
/// (Cholesky).
fn solve(
    a: &[[f64; VALUE_FEATURES]; VALUE_FEATURES],
    b: &[f64; VALUE_FEATURES],
) -> Option<[f64; VALUE_FEATURES]> {
    const N: usize = VALUE_FEATURES;
    let mut l = [[0.0; N]; N];
    for i in 0..N {
        for j in 0..=i {
            let s = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s <= 0.0 {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    let mut y = [0.0; N];
    for i in 0..N {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = [0.0; N];
    for i in (0..N).rev() {
        x[i] = (y[i] - (i + 1..N).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// The logit under `weights` as the engine computes it: f32 features and weights.
fn logit(weights: &Weights, row: &Row) -> f64 {
    f64::from(weights.logit(&row.features.map(|x| x as f32)))
}

/// The standard deviation of the logits of `rows` under `weights`.
fn deviation(rows: &[Row], weights: &Weights) -> f64 {
    let logits: Vec<f64> = rows.iter().map(|r| logit(weights, r)).collect();
    let n = logits.len().max(1) as f64;
    let mean = logits.iter().sum::<f64>() / n;
    (logits.iter().map(|z| (z - mean) * (z - mean)).sum::<f64>() / n).sqrt()
}

/// Held-out log-loss of the fitted `weights` (as fitted and stretched by `spread`), the
/// compiled-in model as played, the hand-set weights and `constant`.
fn judge(rows: &[&Row], weights: &Weights, spread: f32, constant: f64) -> LogLoss {
    let hand = Weights::linear(hand_set_value_weights());
    let compiled = Weights::compiled();
    let n = rows.len().max(1) as f64;
    let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(|r| f(r)).sum::<f64>() / n;
    LogLoss {
        learned: mean(&|r| log_loss(sigmoid(logit(weights, r)), r.score)),
        played: mean(&|r| log_loss(sigmoid(f64::from(spread) * logit(weights, r)), r.score)),
        compiled: mean(&|r| {
            log_loss(
                sigmoid(f64::from(VALUE_SPREAD) * logit(&compiled, r)),
                r.score,
            )
        }),
        hand_set: mean(&|r| log_loss(sigmoid(logit(&hand, r)), r.score)),
        constant: mean(&|r| log_loss(constant, r.score)),
        positions: rows.len(),
    }
}

/// Fits the value function to `samples` (positions with their game's result), starting
/// from the hand-set weights, then its hidden layer if `settings.net` has units;
/// `on_iteration` hears each Newton step's mean training loss, then each of the hidden
/// layer's passes'.
pub fn fit(
    samples: &[Sample],
    settings: &Settings,
    on_iteration: &mut dyn FnMut(&str, usize, f64),
) -> Result<Report, String> {
    let holdout = settings.holdout.max(2);
    let rows: Vec<(u32, Row)> = samples
        .par_iter()
        .filter_map(|s| Some((s.game, Row::new(s)?)))
        .collect();
    let (test, train): (Vec<_>, Vec<_>) = rows.into_iter().partition(|(g, _)| g % holdout == 0);
    let count_games = |rows: &[(u32, Row)]| {
        let mut games: Vec<u32> = rows.iter().map(|(g, _)| *g).collect();
        games.sort_unstable();
        games.dedup();
        games.len()
    };
    let games = (count_games(&train), count_games(&test));
    let test: Vec<Row> = test.into_iter().map(|(_, r)| r).collect();
    let train: Vec<Row> = train.into_iter().map(|(_, r)| r).collect();
    if train.is_empty() || test.is_empty() {
        return Err(format!(
            "too few positions to fit: {} to train on, {} held out (games split one in {holdout})",
            train.len(),
            test.len()
        ));
    }
    let n = train.len() as f64;
    let penalty = settings.l2 * n;
    let mut w = hand_set_value_weights().map(f64::from);
    let mut iterations = 0;
    for step in 1..=settings.iterations {
        let (loss, mut g, mut h) = gradient_and_hessian(&train, &w);
        let ridge: f64 = (1..VALUE_FEATURES).map(|i| w[i] * w[i]).sum();
        on_iteration("Newton step", step, (loss + 0.5 * penalty * ridge) / n);
        for i in 1..VALUE_FEATURES {
            g[i] += penalty * w[i];
            h[i][i] += penalty;
        }
        // A feature no training position sets has a zero row: the penalty alone holds it.
        h[0][0] += 1e-9 * n;
        let delta = solve(&h, &g).ok_or("the fit's Hessian is not positive definite")?;
        for i in 0..VALUE_FEATURES {
            w[i] -= delta[i];
        }
        iterations = step;
        if delta.iter().all(|d| d.abs() < 1e-6) {
            break;
        }
    }
    let inputs: Vec<_> = train.iter().map(|r| (&r.features, r.score)).collect();
    let net = value_net::fit(
        &inputs,
        &w,
        settings.l2,
        &settings.net,
        &mut |epoch, loss| {
            on_iteration("hidden layer, pass", epoch, loss);
        },
    );
    let weights = net.to_f32();
    let hand = Weights::linear(hand_set_value_weights());
    let spread = (deviation(&train, &hand) / deviation(&train, &weights)) as f32;
    let constant = train.iter().map(|r| r.score).sum::<f64>() / n;
    let all: Vec<&Row> = test.iter().collect();
    let quiet: Vec<&Row> = test.iter().filter(|r| r.quiet).collect();
    Ok(Report {
        all: judge(&all, &weights, spread, constant),
        quiet: judge(&quiet, &weights, spread, constant),
        weights,
        train: train.len(),
        games,
        spread,
        iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{Settings as Play, generate};
    use punct_core::Variant;
    use punct_engine::Level;
    use punct_engine::learned::Priors;

    fn tiny() -> Vec<Sample> {
        generate(
            &Play {
                games: 6,
                variant: Variant::Standard,
                random_plies: 2,
                level: Level::new(4).unwrap(),
                priors: Priors::default(),
                every: 2,
                max_plies: 400,
                seed: 5,
            },
            &|_| {},
        )
    }

    #[test]
    fn the_fit_beats_a_constant_on_its_training_data_and_is_reproducible() {
        let samples = tiny();
        let settings = Settings {
            holdout: 3,
            ..Settings::default()
        };
        let mut losses = Vec::new();
        let report = fit(&samples, &settings, &mut |_, _, l| losses.push(l)).unwrap();
        assert!(report.train > 0 && report.all.positions > 0);
        assert_eq!(report.games.0 + report.games.1, 6);
        assert!(report.quiet.positions <= report.all.positions);
        // Newton's steps never raise the penalised training loss much, and end below
        // where the hand-set weights start.
        assert!(losses.last().unwrap() <= &losses[0], "{losses:?}");
        assert!(report.weights.linear.iter().all(|w| w.is_finite()));
        assert!(report.weights.hidden.is_empty());
        assert!(report.spread.is_finite() && report.spread > 0.0);
        // The same data gives the same weights, bit for bit.
        let again = fit(&samples, &settings, &mut |_, _, _| {}).unwrap();
        assert_eq!(
            report.weights.linear.map(f32::to_bits),
            again.weights.linear.map(f32::to_bits)
        );
    }

    #[test]
    fn a_hidden_layer_is_fitted_after_the_linear_model_reproducibly() {
        let samples = tiny();
        let settings = Settings {
            holdout: 3,
            net: value_net::Settings {
                hidden: 4,
                epochs: 3,
                ..value_net::Settings::default()
            },
            ..Settings::default()
        };
        let mut passes = 0;
        let report = fit(&samples, &settings, &mut |stage, _, _| {
            passes += usize::from(stage.starts_with("hidden"));
        })
        .unwrap();
        assert_eq!(passes, 3);
        assert_eq!(report.weights.hidden.len(), 4);
        assert_eq!(report.weights.output.len(), 4);
        assert!(report.all.learned.is_finite() && report.spread > 0.0);
        let again = fit(&samples, &settings, &mut |_, _, _| {}).unwrap();
        let bits = |w: &Weights| -> Vec<u32> {
            let hidden = w.hidden.iter().flat_map(|u| u.map(f32::to_bits));
            w.linear
                .map(f32::to_bits)
                .into_iter()
                .chain(hidden)
                .chain(w.output.iter().map(|x| x.to_bits()))
                .collect()
        };
        assert_eq!(bits(&report.weights), bits(&again.weights));
    }

    #[test]
    fn newton_solves_a_system() {
        let mut a = [[0.0; VALUE_FEATURES]; VALUE_FEATURES];
        let mut b = [0.0; VALUE_FEATURES];
        for i in 0..VALUE_FEATURES {
            a[i][i] = 2.0;
            b[i] = i as f64;
            if i > 0 {
                a[i][i - 1] = 0.5;
                a[i - 1][i] = 0.5;
            }
        }
        let x = solve(&a, &b).unwrap();
        for i in 0..VALUE_FEATURES {
            let ax: f64 = (0..VALUE_FEATURES).map(|j| a[i][j] * x[j]).sum();
            assert!((ax - b[i]).abs() < 1e-9);
        }
    }

    #[test]
    fn too_little_data_is_refused_with_a_reason() {
        let err = fit(&[], &Settings::default(), &mut |_, _, _| {}).unwrap_err();
        assert!(err.contains("too few positions"), "{err}");
    }
}
