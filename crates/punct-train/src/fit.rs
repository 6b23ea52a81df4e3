//! Fitting the move policy: a softmax over all legal moves of the policy's linear logits,
//! trained by Adam on mini-batches to match a target distribution over those moves, with
//! gradients summed on every core. The target blends two labels: the softmax of the
//! one-ply values (the ranking the engine's refined priors would give), and the share of
//! a search's root visits (moves it did not visit get none).

use punct_core::{Move, Position};
use punct_engine::evaluation::features::{MoveContext, PRIOR_SHARPNESS};
use punct_engine::learned::{FEATURES, PolicyContext, WEIGHTS, initial_weights};
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
    /// The one-ply labels' inverse temperature, per cell of one-ply value: their target is
    /// the softmax of the values times this. Over all ~5 000 moves the engine's own 0.8 is
    /// nearly flat; a sharper target teaches the top of the ranking, which picks the
    /// shortlist.
    pub sharpness: f32,
    /// The visit target's share of the blend, 0 to 1: 0 fits the one-ply labels alone, 1
    /// the visits alone. Positions lacking a label the blend needs are not trained on.
    pub visits: f32,
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
            visits: 0.0,
        }
    }
}

/// How well a policy imitates one kind of label on some positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quality {
    /// Mean cross-entropy against the label's distribution, in nats.
    pub cross_entropy: f64,
    /// For each k of [`TOP_K`], the share of positions whose best move by the label (the
    /// one-ply best, or the most visited) is among the policy's k best.
    pub top_k: Vec<f64>,
}

/// The k of [`Quality::top_k`]: a pick, a short shortlist, the children kept, the
/// hand-set shortlist inside the tree.
pub const TOP_K: [usize; 5] = [1, 8, 32, 40, 128];

/// How the policies compare on the held-out positions that have one kind of label.
#[derive(Clone, Debug)]
pub struct Scores {
    /// Held-out positions with this label.
    pub positions: usize,
    /// The fitted policy.
    pub learned: Quality,
    /// The policy compiled into this build (the generation before the fit).
    pub compiled: Quality,
    /// The hand-set move score, as sharp as the engine's hand-set priors.
    pub hand_set: Quality,
    /// Every move alike (cross-entropy log N).
    pub uniform: f64,
    /// The labels' own entropy, the least cross-entropy possible.
    pub entropy: f64,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The fitted weights.
    pub weights: [f32; FEATURES],
    /// Positions trained on.
    pub train: usize,
    /// Positions held out.
    pub test: usize,
    /// Mean legal moves per held-out position.
    pub moves: f64,
    /// Held out, against the one-ply labels (when some have them).
    pub one_ply: Option<Scores>,
    /// Held out, against the visits (when some have them).
    pub visits: Option<Scores>,
}

/// One label of a position: a distribution over its legal moves and its best move.
struct Label {
    target: Vec<f32>,
    best: usize,
}

impl Label {
    /// The softmax of the one-ply values with inverse temperature `sharpness`.
    fn one_ply(values: &[f32], sharpness: f32) -> Label {
        let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f64> = values
            .iter()
            .map(|v| f64::from((v - top) * sharpness).exp())
            .collect();
        let sum: f64 = weights.iter().sum();
        Label {
            target: weights.iter().map(|w| (w / sum) as f32).collect(),
            best: values.iter().position(|&v| v == top).unwrap_or(0),
        }
    }

    /// The share of the root visits, by canonical index, over `moves` moves.
    fn visits(visits: &[(u32, u32)], moves: usize) -> Option<Label> {
        let total: u64 = visits.iter().map(|&(_, n)| u64::from(n)).sum();
        if total == 0 {
            return None;
        }
        let mut target = vec![0.0f32; moves];
        for &(i, n) in visits {
            target[i as usize] = (f64::from(n) / total as f64) as f32;
        }
        // The first of the most visited: the move the search plays.
        let best = visits
            .iter()
            .max_by_key(|&&(i, n)| (n, std::cmp::Reverse(i)))?
            .0;
        Some(Label {
            target,
            best: best as usize,
        })
    }

    /// Cross-entropy of `p` against the label, and whether its best move is in each top k.
    fn judge(&self, p: &[f64]) -> (f64, Vec<bool>) {
        let loss = -self
            .target
            .iter()
            .zip(p)
            .filter(|(t, _)| **t > 0.0)
            .map(|(&t, q)| f64::from(t) * q.max(1e-300).ln())
            .sum::<f64>();
        // The best move's rank: moves the policy puts strictly above it.
        let above = p.iter().filter(|&&q| q > p[self.best]).count();
        (loss, TOP_K.iter().map(|&k| above < k).collect())
    }

    fn entropy(&self) -> f64 {
        -self
            .target
            .iter()
            .filter(|t| **t > 0.0)
            .map(|&t| f64::from(t) * f64::from(t).ln())
            .sum::<f64>()
    }
}

/// One position ready for fitting.
struct Prepared {
    position: Position,
    ctx: PolicyContext,
    moves: Vec<Move>,
    one_ply: Option<Label>,
    visits: Option<Label>,
}

impl Prepared {
    fn new(sample: &Sample, sharpness: f32) -> Option<Prepared> {
        let moves = sample.position.legal_moves();
        let one_ply = sample
            .values
            .as_ref()
            .filter(|v| v.len() == moves.len())
            .map(|v| Label::one_ply(v, sharpness));
        let visits = sample
            .visits
            .as_ref()
            .and_then(|v| Label::visits(v, moves.len()));
        if moves.is_empty() || (one_ply.is_none() && visits.is_none()) {
            return None;
        }
        Some(Prepared {
            position: sample.position.clone(),
            ctx: PolicyContext::new(&sample.position),
            moves,
            one_ply,
            visits,
        })
    }

    /// Whether the blend with visit share `visits` can be trained on here.
    fn trainable(&self, visits: f32) -> bool {
        (visits >= 1.0 || self.one_ply.is_some()) && (visits <= 0.0 || self.visits.is_some())
    }

    /// The blended target of move `i`.
    fn target(&self, i: usize, visits: f32) -> f64 {
        let of = |l: &Option<Label>| l.as_ref().map_or(0.0, |l| f64::from(l.target[i]));
        let w = f64::from(visits.clamp(0.0, 1.0));
        w * of(&self.visits) + (1.0 - w) * of(&self.one_ply)
    }

    /// The policy's softmax over the moves, given each move's logit.
    fn softmax(&self, logit: impl Fn(Move) -> f32) -> Vec<f64> {
        let logits: Vec<f64> = self.moves.iter().map(|&mv| f64::from(logit(mv))).collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut p: Vec<f64> = logits.iter().map(|z| (z - top).exp()).collect();
        let sum: f64 = p.iter().sum();
        p.iter_mut().for_each(|x| *x /= sum);
        p
    }

    /// Cross-entropy against the blended target, and its gradient added to `grad`.
    fn loss_and_gradient(
        &self,
        weights: &[f32; FEATURES],
        visits: f32,
        grad: &mut [f64; FEATURES],
    ) -> f64 {
        let p = self.softmax(|mv| self.ctx.logit_with(weights, mv));
        let mut loss = 0.0;
        for (i, &mv) in self.moves.iter().enumerate() {
            let (t, q) = (self.target(i, visits), p[i]);
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
}

/// Fits the policy to the labelled `samples`, starting from fixed weights (so that a
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
    let train: Vec<Prepared> = train
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| p.trainable(settings.visits))
        .collect();
    if train.is_empty() || test.is_empty() {
        return Err(format!(
            "too few labelled positions to fit: {} to train on, {} held out (games split one in {holdout})",
            train.len(),
            test.len()
        ));
    }
    let mut weights = initial_weights();
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
                    let loss = train[i].loss_and_gradient(&weights, settings.visits, &mut grad);
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
    let n = test.len() as f64;
    Ok(Report {
        weights,
        train: train.len(),
        test: test.len(),
        moves: test.iter().map(|p| p.moves.len() as f64).sum::<f64>() / n,
        one_ply: scores(&test, &weights, |p| p.one_ply.as_ref()),
        visits: scores(&test, &weights, |p| p.visits.as_ref()),
    })
}

/// The policies judged against one kind of label on the `test` positions that have it.
fn scores(
    test: &[Prepared],
    weights: &[f32; FEATURES],
    label: impl Fn(&Prepared) -> Option<&Label> + Sync,
) -> Option<Scores> {
    let labelled: Vec<(&Prepared, &Label)> =
        test.iter().filter_map(|p| Some((p, label(p)?))).collect();
    if labelled.is_empty() {
        return None;
    }
    let quality = |softmax: &(dyn Fn(&Prepared) -> Vec<f64> + Sync)| {
        let judged: Vec<(f64, Vec<bool>)> = labelled
            .par_iter()
            .map(|(p, l)| l.judge(&softmax(p)))
            .collect();
        let n = judged.len() as f64;
        Quality {
            cross_entropy: judged.iter().map(|j| j.0).sum::<f64>() / n,
            top_k: (0..TOP_K.len())
                .map(|k| judged.iter().filter(|j| j.1[k]).count() as f64 / n)
                .collect(),
        }
    };
    let n = labelled.len() as f64;
    Some(Scores {
        positions: labelled.len(),
        learned: quality(&|p| p.softmax(|mv| p.ctx.logit_with(weights, mv))),
        compiled: quality(&|p| p.softmax(|mv| p.ctx.logit_with(&WEIGHTS, mv))),
        hand_set: quality(&|p| {
            let hand = MoveContext::new(&p.position);
            p.softmax(|mv| PRIOR_SHARPNESS * hand.score(mv))
        }),
        uniform: labelled
            .iter()
            .map(|(p, _)| (p.moves.len() as f64).ln())
            .sum::<f64>()
            / n,
        entropy: labelled.iter().map(|(_, l)| l.entropy()).sum::<f64>() / n,
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

    fn labelled() -> Vec<Sample> {
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
        samples
    }

    fn settings(visits: f32) -> Settings {
        Settings {
            epochs: 4,
            batch: 4,
            learning_rate: 0.05,
            holdout: 2,
            seed: 1,
            sharpness: 3.0,
            visits,
        }
    }

    #[test]
    fn fitting_lowers_the_training_loss_and_reports_held_out_quality() {
        let samples = labelled();
        let mut losses = Vec::new();
        let report = fit(&samples, &settings(0.0), &mut |_, l| losses.push(l)).unwrap();
        assert_eq!(losses.len(), 4);
        assert!(losses[3] < losses[0], "{losses:?}");
        assert!(report.test > 0 && report.train > 0);
        let scores = report.one_ply.unwrap();
        assert!(report.visits.is_none());
        assert!(scores.entropy <= scores.learned.cross_entropy + 1e-9);
        assert_eq!(scores.learned.top_k.len(), TOP_K.len());
        assert!(scores.learned.top_k.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn visit_targets_are_fitted_and_judged() {
        let mut samples = labelled();
        // Visits that follow the one-ply ranking: its three best moves, 6, 3 and 1 visits.
        for s in &mut samples {
            let values = s.values.as_ref().unwrap();
            let mut order: Vec<u32> = (0..values.len() as u32).collect();
            order.sort_by(|&a, &b| values[b as usize].total_cmp(&values[a as usize]));
            let mut visits: Vec<(u32, u32)> = order.into_iter().zip([6, 3, 1]).collect();
            visits.sort_unstable();
            s.visits = Some(visits);
        }
        let mut losses = Vec::new();
        let report = fit(&samples, &settings(0.5), &mut |_, l| losses.push(l)).unwrap();
        assert!(losses[3] < losses[0], "{losses:?}");
        let (one_ply, visits) = (report.one_ply.unwrap(), report.visits.unwrap());
        assert_eq!(one_ply.positions, visits.positions);
        assert!(visits.entropy <= visits.learned.cross_entropy + 1e-9);
        assert!(visits.learned.cross_entropy < visits.uniform);
        // Samples without visits cannot be trained on visits alone.
        samples.iter_mut().for_each(|s| s.visits = None);
        let err = fit(&samples, &settings(1.0), &mut |_, _| {}).unwrap_err();
        assert!(err.contains("too few labelled positions"), "{err}");
    }

    #[test]
    fn unlabelled_data_is_refused_with_a_reason() {
        let err = fit(&[], &Settings::default(), &mut |_, _| {}).unwrap_err();
        assert!(err.contains("too few labelled positions"), "{err}");
    }
}
