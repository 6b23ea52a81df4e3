//! The learned engine's training pipeline, one generation at a time (see
//! `docs/training.md`):
//!
//! 1. [`selfplay`]: the engine plays itself from random openings; positions are sampled with
//!    the game's result ([`dataset::Sample`]).
//! 2. [`labels`]: every legal move of every sampled position is judged by the one-ply
//!    evaluation: labels that need no search.
//! 3. [`fit`]: the move policy of `punct_engine::learned` is fitted to a softmax of those
//!    judgements (cross-entropy, Adam), on every core; held-out cross-entropy and top-k
//!    agreement are reported against the hand-set move score.
//! 4. [`weights`]: the fitted weights are written as the Rust source the engine compiles in.
//!
//! The value function has a shorter generation: self-play positions with their games'
//! results, then [`value`]: a logistic regression of the outcome on the position's
//! features, with held-out log-loss reported against the hand-set evaluation.
//!
//! Nothing here runs in CI beyond smoke tests on a few positions.

pub mod dataset;
pub mod fit;
pub mod labels;
pub mod selfplay;
pub mod value;
pub mod weights;
