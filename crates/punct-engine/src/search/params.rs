//! The search's settings: which knowledge it uses and its constants, in one value that
//! the tree reads at every node, so that a match or a tuner can try other values without
//! rebuilding the engine (`setoption name <param> value <v>`, `full:<param>=<v>`).

use crate::evaluation::win_probability;
use crate::learned::Priors;

/// How the tree search grows and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Which move priors new nodes get.
    pub priors: Priors,
    /// Children kept at a node inside the tree, out of thousands of legal moves.
    pub branching: usize,
    /// With learned priors, the visits a node inside the tree takes before its children are
    /// judged one ply deep by the static evaluation (their priors and first values then come
    /// from that judgement); 0 judges the policy's best `shortlist` at expansion instead.
    pub refine_at: u32,
    /// Exploration constant of PUCT.
    pub exploration: f32,
    /// How much worse than its parent's average an unvisited child is assumed, so that good
    /// known moves are deepened before long shots are tried.
    pub fpu_reduction: f32,
    /// With learned priors not judged one ply deep, the inverse temperature of the
    /// softmax of the policy's logits that gives the priors.
    pub policy_sharpness: f32,
    /// When a node's children are judged one ply deep, the inverse temperature (per cell of
    /// the mover's advantage) of the softmax of their values that gives their priors.
    pub refined_sharpness: f32,
    /// How much worse than its one-ply estimate an unvisited child judged one ply deep is
    /// assumed.
    pub estimate_reduction: f32,
    /// Whether a leaf is checked at its first visit for threats its side to move cannot
    /// stop (else at its expansion, sharing the work of finding the stoppers).
    pub threats_at_leaves: bool,
    /// Progressive widening: a node whose children are judged one ply deep after it was
    /// expanded chooses among its best `widening * sqrt(visits)` children (at least two),
    /// judging more as its visits grow; 0 judges and opens them all at once.
    pub widening: f32,
    /// How much wider than the static evaluation gives them the search spreads its values:
    /// the factor on the mover's advantage, in cells, before it becomes a chance of winning
    /// (a first estimate or a leaf's value; priors keep their own sharpness).
    pub value_scale: f32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            priors: Priors::default(),
            branching: 40,
            refine_at: 2,
            exploration: 1.175,
            fpu_reduction: 0.02,
            policy_sharpness: 1.0,
            refined_sharpness: 0.6415,
            estimate_reduction: 0.2232,
            threats_at_leaves: false,
            widening: 9.7168,
            value_scale: 1.0,
        }
    }
}

/// One tunable setting: its name as the protocol and player specs spell it, its range, and
/// how to read and write it as a number.
pub struct Tunable {
    /// The option's name.
    pub name: &'static str,
    /// Least and greatest value accepted.
    pub range: (f64, f64),
    /// Whether the setting holds whole numbers only (announced as a `spin` option).
    pub whole: bool,
    /// The value in `params` (settings held as `f32` are given as the shortest decimal
    /// that reads back as the same `f32`, so that they print as they were set).
    pub get: fn(&Params) -> f64,
    /// Sets the value in `params` (already checked against `range`).
    pub set: fn(&mut Params, f64),
}

/// The settings that can be changed by name.
pub const TUNABLES: &[Tunable] = &[
    Tunable {
        name: "Branching",
        range: (4.0, 128.0),
        whole: true,
        get: |p| p.branching as f64,
        set: |p, v| p.branching = v.round() as usize,
    },
    Tunable {
        name: "RefineAt",
        range: (0.0, 1000.0),
        whole: true,
        get: |p| f64::from(p.refine_at),
        set: |p, v| p.refine_at = v.round() as u32,
    },
    Tunable {
        name: "Exploration",
        range: (0.05, 10.0),
        whole: false,
        get: |p| widen(p.exploration),
        set: |p, v| p.exploration = v as f32,
    },
    Tunable {
        name: "FpuReduction",
        range: (-1.0, 1.0),
        whole: false,
        get: |p| widen(p.fpu_reduction),
        set: |p, v| p.fpu_reduction = v as f32,
    },
    Tunable {
        name: "PolicySharpness",
        range: (0.01, 10.0),
        whole: false,
        get: |p| widen(p.policy_sharpness),
        set: |p, v| p.policy_sharpness = v as f32,
    },
    Tunable {
        name: "RefinedSharpness",
        range: (0.01, 10.0),
        whole: false,
        get: |p| widen(p.refined_sharpness),
        set: |p, v| p.refined_sharpness = v as f32,
    },
    Tunable {
        name: "EstimateReduction",
        range: (-1.0, 1.0),
        whole: false,
        get: |p| widen(p.estimate_reduction),
        set: |p, v| p.estimate_reduction = v as f32,
    },
    Tunable {
        name: "ThreatsAtLeaves",
        range: (0.0, 1.0),
        whole: true,
        get: |p| f64::from(u8::from(p.threats_at_leaves)),
        set: |p, v| p.threats_at_leaves = v >= 0.5,
    },
    Tunable {
        name: "Widening",
        range: (0.0, 100.0),
        whole: false,
        get: |p| widen(p.widening),
        set: |p, v| p.widening = v as f32,
    },
    Tunable {
        name: "ValueScale",
        range: (0.1, 10.0),
        whole: false,
        get: |p| widen(p.value_scale),
        set: |p, v| p.value_scale = v as f32,
    },
];

impl Params {
    /// How many children not proven lost a node judged one ply deep after `visits` visits
    /// chooses among.
    pub fn width(&self, visits: u32) -> usize {
        if self.widening <= 0.0 {
            return usize::MAX;
        }
        ((self.widening * (visits as f32).sqrt()).ceil() as usize).max(2)
    }

    /// The chance of winning of a mover whose advantage is `advantage` cells, spread by
    /// [`Params::value_scale`].
    pub fn win_probability(&self, advantage: f32) -> f32 {
        win_probability(self.value_scale * advantage)
    }

    /// Sets the tunable called `name` (any case) to `value`, or says why not.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let Some(t) = TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name)) else {
            return Err(format!("unknown search setting `{name}`"));
        };
        let (lo, hi) = t.range;
        if !(lo..=hi).contains(&value) {
            return Err(format!("{} must be {lo} to {hi}, not {value}", t.name));
        }
        (t.set)(self, value);
        Ok(())
    }
}

/// An `f32` as the `f64` of its shortest decimal form (0.15, not 0.15000000596046448).
fn widen(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}
