//! Knowledge fitted to data rather than set by hand: a move policy trained to imitate the
//! one-ply evaluation over every legal move and the root visits of searches, and the static
//! evaluation itself, fitted to self-play outcomes (see `crates/punct-train` and
//! `docs/training.md`). The weights are compiled in, so every build carries them.

pub mod policy;
pub mod value;

pub use policy::{FEATURES, PolicyContext, WEIGHTS, initial_weights, learned_priors};
pub use value::{
    VALUE_FEATURE_NAMES, VALUE_FEATURES, VALUE_HIDDEN, VALUE_HIDDEN_WEIGHTS, VALUE_OUTPUT,
    VALUE_SPREAD, VALUE_WEIGHTS, hand_set_value_weights, hidden_logit, learned_advantage,
    value_features, value_logit,
};

/// The learned policy's default shortlist inside the tree.
pub const DEFAULT_SHORTLIST: usize = 32;

/// Which move priors the search uses (the learned policy by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priors {
    /// The hand-set move score, its best judged by the one-ply evaluation.
    HandSet,
    /// The learned policy, its best `shortlist` judged by the one-ply evaluation inside the
    /// tree (none when 0: the policy's softmax is the prior); the root judges as many as
    /// with hand-set priors.
    Learned {
        /// Moves judged one ply deep at a node inside the tree.
        shortlist: usize,
    },
}

impl Default for Priors {
    fn default() -> Priors {
        Priors::Learned {
            shortlist: DEFAULT_SHORTLIST,
        }
    }
}
