//! The value function's hidden layer: after the linear fit, rectified hidden units over the
//! same features are fitted together with the linear weights by Adam on the log-loss of the
//! games' results.
//!
//! The units see the features standardised (each less its training mean, over its
//! deviation), which lets one step size suit features counted in tens and one-hot ones
//! alike; the weights are written back on the features' own scale, the mean folded into the
//! bias (the weight of the constant first feature), so the engine reads raw features. The
//! output weights start at 0, so training starts from the linear fit's logit. One core,
//! minibatches drawn by a seeded generator: the weights are the same bit for bit on every
//! machine.

use punct_engine::learned::{
    VALUE_FEATURES, VALUE_HIDDEN_WEIGHTS, VALUE_OUTPUT, VALUE_WEIGHTS, hidden_logit, value_logit,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// The feature that is always 1: the linear model's intercept and each unit's bias.
const BIAS: usize = 0;

/// How the hidden layer is fitted.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// The L2 penalty on the hidden and output weights.
    pub decay: f64,
    /// Seed of the first weights and of the batches.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hidden: 16,
            epochs: 30,
            batch: 256,
            learning_rate: 2e-3,
            decay: 1e-4,
            seed: 1,
        }
    }
}

/// A fitted value function: the linear weights and the hidden units, on the features' own
/// scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// One weight per feature.
    pub linear: [f64; VALUE_FEATURES],
    /// Each unit's weights, one per feature (its bias the first's).
    pub hidden: Vec<[f64; VALUE_FEATURES]>,
    /// Each unit's weight in the logit.
    pub output: Vec<f64>,
}

impl Net {
    /// A net with no hidden unit: the linear model `linear`.
    pub fn linear(linear: [f64; VALUE_FEATURES]) -> Net {
        Net {
            linear,
            hidden: Vec::new(),
            output: Vec::new(),
        }
    }

    /// The logit of winning for features `x`.
    pub fn logit(&self, x: &[f64; VALUE_FEATURES]) -> f64 {
        let linear: f64 = dot(&self.linear, x);
        let hidden: f64 = self
            .hidden
            .iter()
            .zip(&self.output)
            .map(|(unit, out)| out * dot(unit, x).max(0.0))
            .sum();
        linear + hidden
    }

    /// The weights as the engine holds them.
    pub fn to_f32(&self) -> Weights {
        Weights {
            linear: self.linear.map(|w| w as f32),
            hidden: self.hidden.iter().map(|u| u.map(|w| w as f32)).collect(),
            output: self.output.iter().map(|&w| w as f32).collect(),
        }
    }
}

/// A value function's weights as the engine holds and computes them (`f32`).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// One weight per feature.
    pub linear: [f32; VALUE_FEATURES],
    /// Each hidden unit's weights, one per feature.
    pub hidden: Vec<[f32; VALUE_FEATURES]>,
    /// Each hidden unit's weight in the logit.
    pub output: Vec<f32>,
}

impl Weights {
    /// A linear model.
    pub fn linear(linear: [f32; VALUE_FEATURES]) -> Weights {
        Weights {
            linear,
            hidden: Vec::new(),
            output: Vec::new(),
        }
    }

    /// The weights compiled into the engine.
    pub fn compiled() -> Weights {
        Weights {
            linear: VALUE_WEIGHTS,
            hidden: VALUE_HIDDEN_WEIGHTS.to_vec(),
            output: VALUE_OUTPUT.to_vec(),
        }
    }

    /// The logit of winning for features `x`, computed as the engine does.
    pub fn logit(&self, x: &[f32; VALUE_FEATURES]) -> f32 {
        value_logit(&self.linear, x) + hidden_logit(&self.hidden, &self.output, x)
    }
}

fn dot(a: &[f64; VALUE_FEATURES], b: &[f64; VALUE_FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Adam's moments for a block of weights.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step of `w` along the gradient `g`, the `t`-th.
    fn step(&mut self, w: &mut [f64], g: &[f64], rate: f64, t: i32) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for (((w, &g), m), v) in w.iter_mut().zip(g).zip(&mut self.m).zip(&mut self.v) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// Fits `settings.hidden` units, and the linear weights with them from `linear`, to the
/// `rows` (features and the side to move's score); `l2` is the linear fit's penalty per
/// position on every linear weight but the intercept. `on_epoch` hears each pass's mean
/// training log-loss.
pub fn fit(
    rows: &[(&[f64; VALUE_FEATURES], f64)],
    linear: &[f64; VALUE_FEATURES],
    l2: f64,
    settings: &Settings,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> Net {
    const F: usize = VALUE_FEATURES;
    let h = settings.hidden;
    if h == 0 || rows.is_empty() {
        return Net::linear(*linear);
    }
    let n = rows.len() as f64;
    let mut mean = [0.0; F];
    let mut sd = [0.0; F];
    for (x, _) in rows {
        mean.iter_mut().zip(x.iter()).for_each(|(m, v)| *m += v / n);
    }
    for (x, _) in rows {
        for k in 0..F {
            sd[k] += (x[k] - mean[k]).powi(2) / n;
        }
    }
    let sd = sd.map(|v| if v > 1e-12 { v.sqrt() } else { 1.0 });
    let standard = |x: &[f64; F]| {
        let mut s = [0.0; F];
        for k in 0..F {
            s[k] = (x[k] - mean[k]) / sd[k];
        }
        s[BIAS] = 1.0;
        s
    };
    let inputs: Vec<[f64; F]> = rows.iter().map(|(x, _)| standard(x)).collect();

    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let scale = (6.0 / F as f64).sqrt();
    let mut w = *linear;
    let mut a: Vec<f64> = (0..h * F)
        .map(|_| scale * (2.0 * rand::RngExt::random::<f64>(&mut rng) - 1.0))
        .collect();
    let mut o = vec![0.0; h];
    let (mut adam_w, mut adam_a, mut adam_o) = (Adam::new(F), Adam::new(h * F), Adam::new(h));
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut t = 0;
    let mut u = vec![0.0; h];
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        let mut loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            let (mut gw, mut ga, mut go) = ([0.0; F], vec![0.0; h * F], vec![0.0; h]);
            for &i in batch {
                let (x, y) = rows[i];
                let s = &inputs[i];
                let mut z = dot(&w, x);
                for j in 0..h {
                    let row: &[f64; F] = a[j * F..(j + 1) * F].try_into().expect("a unit");
                    u[j] = dot(row, s);
                    z += o[j] * u[j].max(0.0);
                }
                let p = 1.0 / (1.0 + (-z).exp());
                let pc = p.clamp(1e-12, 1.0 - 1e-12);
                loss -= y * pc.ln() + (1.0 - y) * (1.0 - pc).ln();
                let d = p - y;
                gw.iter_mut().zip(x.iter()).for_each(|(g, v)| *g += d * v);
                for j in 0..h {
                    if u[j] <= 0.0 {
                        continue;
                    }
                    go[j] += d * u[j];
                    let dj = d * o[j];
                    for (g, v) in ga[j * F..(j + 1) * F].iter_mut().zip(s) {
                        *g += dj * v;
                    }
                }
            }
            let m = batch.len() as f64;
            t += 1;
            for k in 0..F {
                gw[k] /= m;
                if k != BIAS {
                    gw[k] += l2 * w[k];
                }
            }
            ga.iter_mut()
                .zip(&a)
                .for_each(|(g, v)| *g = *g / m + settings.decay * v);
            go.iter_mut()
                .zip(&o)
                .for_each(|(g, v)| *g = *g / m + settings.decay * v);
            adam_w.step(&mut w, &gw, settings.learning_rate, t);
            adam_a.step(&mut a, &ga, settings.learning_rate, t);
            adam_o.step(&mut o, &go, settings.learning_rate, t);
        }
        on_epoch(epoch, loss / n);
    }
    // Back to the features' own scale: a·s = Σ a_k (x_k − mean_k) / sd_k.
    let hidden = (0..h)
        .map(|j| {
            let mut unit = [0.0; F];
            let mut bias = a[j * F + BIAS];
            for k in 0..F {
                if k == BIAS {
                    continue;
                }
                unit[k] = a[j * F + k] / sd[k];
                bias -= a[j * F + k] * mean[k] / sd[k];
            }
            unit[BIAS] = bias;
            unit
        })
        .collect();
    Net {
        linear: w,
        hidden,
        output: o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows whose outcome depends on two features together, which no linear model says:
    /// the first wins exactly when both are positive.
    fn xor_rows() -> Vec<([f64; VALUE_FEATURES], f64)> {
        let mut rows = Vec::new();
        for i in 0..400 {
            let mut x = [0.0; VALUE_FEATURES];
            x[BIAS] = 1.0;
            x[1] = f64::from(i % 7) - 3.0;
            x[2] = f64::from(i % 11) - 5.0;
            let y = f64::from(x[1] > 0.0 && x[2] > 0.0);
            rows.push((x, y));
        }
        rows
    }

    fn loss(net: &Net, rows: &[([f64; VALUE_FEATURES], f64)]) -> f64 {
        rows.iter()
            .map(|(x, y)| {
                let p = (1.0 / (1.0 + (-net.logit(x)).exp())).clamp(1e-12, 1.0 - 1e-12);
                -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
            })
            .sum::<f64>()
            / rows.len() as f64
    }

    #[test]
    fn hidden_units_learn_what_the_linear_model_cannot_and_reproducibly() {
        let rows = xor_rows();
        let refs: Vec<_> = rows.iter().map(|(x, y)| (x, *y)).collect();
        let settings = Settings {
            hidden: 8,
            epochs: 200,
            batch: 32,
            learning_rate: 1e-2,
            ..Settings::default()
        };
        let start = [0.0; VALUE_FEATURES];
        let none = Settings {
            hidden: 0,
            ..settings.clone()
        };
        assert_eq!(
            fit(&refs, &start, 0.0, &none, &mut |_, _| {}),
            Net::linear(start)
        );
        let net = fit(&refs, &start, 0.0, &settings, &mut |_, _| {});
        assert_eq!(net.hidden.len(), 8);
        // The best linear model of this table is far from certain; the units, written back
        // on the features' own scale, nearly are.
        assert!(loss(&net, &rows) < 0.1, "{}", loss(&net, &rows));
        // As the engine computes it, in f32, the logit is the same to a few digits.
        let played = net.to_f32();
        for (x, _) in &rows {
            let z = f64::from(played.logit(&x.map(|v| v as f32)));
            assert!((z - net.logit(x)).abs() < 1e-3 * (1.0 + z.abs()));
        }
        // The same data and seed give the same weights, bit for bit.
        let again = fit(&refs, &start, 0.0, &settings, &mut |_, _| {});
        assert_eq!(net, again);
    }
}
