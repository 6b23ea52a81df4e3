//! The learned engine's training pipeline, one generation at a time (see
//! `docs/training.md`):
//!
//! 1. [`selfplay`]: the engine plays itself from random openings; positions are sampled with
//!    the game's result ([`dataset::Sample`]).
//! 2. [`labels`]: every legal move of every sampled position is judged by the one-ply
//!    evaluation: labels that need no search.
//! 3. [`visits`]: self-play at full strength keeps each searched position's root visits,
//!    targets from search rather than from the one-ply evaluation.
//! 4. [`fit`]: the move policy of `punct_engine::learned` is fitted to a blend of the
//!    softmax of the one-ply judgements and the root visits' shares (cross-entropy, Adam),
//!    on every core; held-out cross-entropy and top-k agreement with either label are
//!    reported against the compiled-in policy and the hand-set move score.
//! 5. [`weights`]: the fitted weights are written as the Rust source the engine compiles in.
//!
//! The value function has a shorter generation: self-play positions with their games'
//! results, then [`value`]: a logistic regression of the outcome on the position's
//! features, with held-out log-loss reported against the hand-set evaluation, and
//! optionally [`value_net`]: a small hidden layer over the same features fitted after it.
//!
//! Nothing here runs in CI beyond smoke tests on a few positions.

pub mod dataset;
pub mod fit;
pub mod labels;
pub mod selfplay;
pub mod value;
pub mod value_net;
pub mod visits;
pub mod weights;
