//! Drawing one item among several with given chances: how the lower levels choose.

use rand::RngExt;
use rand::rngs::SmallRng;

/// The index drawn with chances proportional to `weights`; `None` when no weight is
/// positive, or rounding leaves the draw past the last one.
pub(crate) fn weighted(weights: &[f32], rng: &mut SmallRng) -> Option<usize> {
    let total: f32 = weights.iter().sum();
    let mut x = rng.random_range(0.0..total.max(f32::MIN_POSITIVE));
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return Some(i);
        }
        x -= w;
    }
    None
}
