//! Noise on the priors of a helper thread's tree: each thread of a search grows a tree of
//! its own, and without noise every tree would be the same tree, since the search draws
//! nothing at random.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::tree::Node;

/// How far a prior may be scaled, as a natural logarithm: by ½ to 2. Enough to reorder
/// moves the priors judge alike, not to promote a move they judge poor above a good one.
const SPREAD: f32 = std::f32::consts::LN_2;

/// Scales each of `children`'s priors by a factor drawn between e^-SPREAD and e^SPREAD.
pub fn shake(children: &mut [Node], rng: &mut SmallRng) {
    for child in children {
        child.prior *= (SPREAD * rng.random_range(-1.0f32..=1.0)).exp();
    }
}
