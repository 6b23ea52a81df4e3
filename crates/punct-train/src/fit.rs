//! Fitting the move policy: a softmax over all legal moves of the policy's linear logits,
//! trained by Adam on mini-batches to match the softmax of the one-ply values (the
//! cross-entropy the engine's refined priors would give), gradients summed on every core.

use punct_core::Move;
use punct_engine::learned::{FEATURES, PolicyContext, hand_set_weights};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::dataset::Sample;

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Every how many games one is held out for the report (split by game: positions of
    /// one game are alike).
    pub holdout: u32,
    /// Seed of the batch order.
    pub seed: u64,
    /// The labels' inverse temperature, per cell of one-ply value: the target is the
    /// softmax of the values times this. Over all ~5 000 moves the engine's own 0.8 is
    /// nearly flat; a sharper target teaches the top of the ranking, which picks the
    /// shortlist.
    pub sharpness: f32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 8,
            batch: 32,
            learning_rate: 0.02,
            holdout: 5,
            seed: 1,
            sharpness: 3.0,
        }
    }
}

/// How well a policy imitates the one-ply ranking on some positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quality {
    /// Mean cross-entropy against the one-ply softmax, in nats.
    pub cross_entropy: f64,
    /// For each k of [`TOP_K`], the share of positions whose one-ply best move is among the
    /// policy's k best.
    pub top_k: Vec<f64>,
}

/// The k of [`Quality::top_k`]: a pick, a short shortlist, the children kept, the
/// hand-set shortlist inside the tree.
pub const TOP_K: [usize; 5] = [1, 8, 32, 40, 128];

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The fitted weights.
    pub weights: [f32; FEATURES],
    /// Positions trained on and held out.
    pub train: usize,
    /// Positions held out.
    pub test: usize,
    /// Mean legal moves per held-out position.
    pub moves: f64,
    /// Held-out: the fitted policy.
    pub learned: Quality,
    /// Held-out: the hand-set score alone, as the engine's hand-set priors (where the fit
    /// starts).
    pub hand_set: Quality,
    /// Held-out: every move alike (cross-entropy log N).
    pub uniform: f64,
    /// Held-out: the labels' own entropy, the least cross-entropy possible.
    pub entropy: f64,
}

/// One position ready for fitting.
struct Prepared {
    ctx: PolicyContext,
    moves: Vec<Move>,
    /// The one-ply softmax.
    target: Vec<f64>,
    /// The index of the one-ply best move.
    best: usize,
}

impl Prepared {
    fn new(sample: &Sample, sharpness: f32) -> Option<Prepared> {
        let values = sample.values.as_ref()?;
        let moves = sample.position.legal_moves();
        if moves.is_empty() || moves.len() != values.len() {
            return None;
        }
        let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut target: Vec<f64> = values
            .iter()
            .map(|v| f64::from((v - top) * sharpness).exp())
            .collect();
        let sum: f64 = target.iter().sum();
        target.iter_mut().for_each(|t| *t /= sum);
        let best = values.iter().position(|&v| v == top).unwrap_or(0);
        Some(Prepared {
            ctx: PolicyContext::new(&sample.position),
            moves,
            target,
            best,
        })
    }

    /// The policy's softmax over the moves under `weights`.
    fn probabilities(&self, weights: &[f32; FEATURES]) -> Vec<f64> {
        let logits: Vec<f64> = self
            .moves
            .iter()
            .map(|&mv| f64::from(self.ctx.logit_with(weights, mv)))
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut p: Vec<f64> = logits.iter().map(|z| (z - top).exp()).collect();
        let sum: f64 = p.iter().sum();
        p.iter_mut().for_each(|x| *x /= sum);
        p
    }

    /// Cross-entropy against the target, and its gradient added to `grad`.
    fn loss_and_gradient(&self, weights: &[f32; FEATURES], grad: &mut [f64; FEATURES]) -> f64 {
        let p = self.probabilities(weights);
        let mut loss = 0.0;
        for (i, &mv) in self.moves.iter().enumerate() {
            let (t, q) = (self.target[i], p[i]);
            if t > 0.0 {
                loss -= t * q.max(1e-300).ln();
            }
            let d = q - t;
            if d.abs() > 1e-12 {
                self.ctx.features(mv, |f, v| grad[f] += d * f64::from(v));
            }
        }
        loss
    }

    /// Cross-entropy and whether the best move is in each top k.
    fn judge(&self, weights: &[f32; FEATURES]) -> (f64, Vec<bool>) {
        let p = self.probabilities(weights);
        let loss = -self
            .target
            .iter()
            .zip(&p)
            .filter(|(t, _)| **t > 0.0)
            .map(|(t, q)| t * q.max(1e-300).ln())
            .sum::<f64>();
        // The best move's rank: moves the policy puts strictly above it.
        let above = p.iter().filter(|&&q| q > p[self.best]).count();
        (loss, TOP_K.iter().map(|&k| above < k).collect())
    }
}

/// Fits the policy to the labelled `samples`, starting from the hand-set weights (so that a
/// generation is reproduced whatever weights are compiled in); `on_epoch` hears each
/// epoch's mean training loss.
pub fn fit(
    samples: &[Sample],
    settings: &Settings,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> Result<Report, String> {
    let holdout = settings.holdout.max(2);
    let prepared: Vec<(bool, Prepared)> = samples
        .par_iter()
        .filter_map(|s| Some((s.game % holdout == 0, Prepared::new(s, settings.sharpness)?)))
        .collect();
    let (test, train): (Vec<_>, Vec<_>) = prepared.into_iter().partition(|(t, _)| *t);
    let test: Vec<Prepared> = test.into_iter().map(|(_, p)| p).collect();
    let train: Vec<Prepared> = train.into_iter().map(|(_, p)| p).collect();
    if train.is_empty() || test.is_empty() {
        return Err(format!(
            "too few labelled positions to fit: {} to train on, {} held out (games split one in {holdout})",
            train.len(),
            test.len()
        ));
    }
    let start = hand_set_weights();
    let mut weights = start;
    let (mut m, mut v) = ([0.0f64; FEATURES], [0.0f64; FEATURES]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut step = 0i32;
    for epoch in 0..settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let mut epoch_loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            let (loss, grad) = batch
                .par_iter()
                .map(|&i| {
                    let mut grad = [0.0f64; FEATURES];
                    let loss = train[i].loss_and_gradient(&weights, &mut grad);
                    (loss, grad)
                })
                .reduce(
                    || (0.0, [0.0f64; FEATURES]),
                    |(la, mut ga), (lb, gb)| {
                        ga.iter_mut().zip(gb).for_each(|(a, b)| *a += b);
                        (la + lb, ga)
                    },
                );
            epoch_loss += loss;
            step += 1;
            let n = batch.len() as f64;
            for f in 0..FEATURES {
                let g = grad[f] / n;
                m[f] = beta1 * m[f] + (1.0 - beta1) * g;
                v[f] = beta2 * v[f] + (1.0 - beta2) * g * g;
                let m_hat = m[f] / (1.0 - beta1.powi(step));
                let v_hat = v[f] / (1.0 - beta2.powi(step));
                weights[f] -= (settings.learning_rate * m_hat / (v_hat.sqrt() + eps)) as f32;
            }
        }
        on_epoch(epoch + 1, epoch_loss / train.len() as f64);
    }
    let quality = |w: &[f32; FEATURES]| {
        let judged: Vec<(f64, Vec<bool>)> = test.par_iter().map(|p| p.judge(w)).collect();
        let n = judged.len() as f64;
        Quality {
            cross_entropy: judged.iter().map(|j| j.0).sum::<f64>() / n,
            top_k: (0..TOP_K.len())
                .map(|k| judged.iter().filter(|j| j.1[k]).count() as f64 / n)
                .collect(),
        }
    };
    let n = test.len() as f64;
    Ok(Report {
        weights,
        train: train.len(),
        test: test.len(),
        moves: test.iter().map(|p| p.moves.len() as f64).sum::<f64>() / n,
        learned: quality(&weights),
        hand_set: quality(&start),
        uniform: test
            .iter()
            .map(|p| (p.moves.len() as f64).ln())
            .sum::<f64>()
            / n,
        entropy: test
            .iter()
            .map(|p| {
                -p.target
                    .iter()
                    .filter(|t| **t > 0.0)
                    .map(|t| t * t.ln())
                    .sum::<f64>()
            })
            .sum::<f64>()
            / n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labels::label;
    use crate::selfplay::{Settings as Play, generate};
    use punct_core::Variant;
    use punct_engine::Level;
    use punct_engine::learned::Priors;

    #[test]
    fn fitting_lowers_the_training_loss_and_reports_held_out_quality() {
        let mut samples = generate(
            &Play {
                games: 4,
                variant: Variant::Standard,
                random_plies: 2,
                level: Level::new(4).unwrap(),
                priors: Priors::default(),
                every: 8,
                max_plies: 400,
                seed: 3,
            },
            &|_| {},
        );
        samples.truncate(24);
        label(&mut samples, &|_| {});
        let mut losses = Vec::new();
        let settings = Settings {
            epochs: 4,
            batch: 4,
            learning_rate: 0.05,
            holdout: 2,
            seed: 1,
            sharpness: 3.0,
        };
        let report = fit(&samples, &settings, &mut |_, l| losses.push(l)).unwrap();
        assert_eq!(losses.len(), 4);
        assert!(losses[3] < losses[0], "{losses:?}");
        assert!(report.test > 0 && report.train > 0);
        assert!(report.entropy <= report.learned.cross_entropy + 1e-9);
        assert_eq!(report.learned.top_k.len(), TOP_K.len());
        assert!(report.learned.top_k.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn unlabelled_data_is_refused_with_a_reason() {
        let err = fit(&[], &Settings::default(), &mut |_, _| {}).unwrap_err();
        assert!(err.contains("too few labelled positions"), "{err}");
    }
}
