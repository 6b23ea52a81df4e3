//! Knowledge fitted to data rather than set by hand: a move policy trained to imitate the
//! one-ply evaluation over every legal move and the root visits of searches (see
//! `crates/punct-train` and `docs/training.md`). The weights are compiled in, so every
//! build carries them.

pub mod policy;

pub use policy::{FEATURES, PolicyContext, WEIGHTS, initial_weights, learned_priors};

/// Which move priors the search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Priors {
    /// The hand-set move score, its best judged by the one-ply evaluation.
    #[default]
    HandSet,
    /// The learned policy, its best `shortlist` judged by the one-ply evaluation inside the
    /// tree (none when 0: the policy's softmax is the prior); the root judges as many as
    /// with hand-set priors.
    Learned {
        /// Moves judged one ply deep at a node inside the tree.
        shortlist: usize,
    },
}
