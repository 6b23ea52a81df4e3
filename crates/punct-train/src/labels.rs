//! Labels that need no search: every legal move of a position judged by the static
//! evaluation after playing it, on every core.

use punct_engine::evaluation::features::one_ply_value;
use rayon::prelude::*;

use crate::dataset::Sample;

/// Gives each sample the one-ply value of each of its legal moves (canonical order);
/// `on_done` hears how many are labelled so far.
pub fn label(samples: &mut [Sample], on_done: &(dyn Fn(usize) + Sync)) {
    let done = std::sync::atomic::AtomicUsize::new(0);
    samples.par_iter_mut().for_each(|sample| {
        let mut pos = sample.position.clone();
        let moves = pos.legal_moves();
        let values = moves
            .iter()
            .map(|&mv| one_ply_value(&mut pos, mv))
            .collect();
        sample.values = Some(values);
        on_done(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{Position, Variant};

    #[test]
    fn every_legal_move_of_the_start_gets_a_finite_value() {
        let mut samples = vec![Sample {
            game: 0,
            white_score: 1.0,
            position: Position::new(Variant::Standard),
            values: None,
            visits: None,
        }];
        label(&mut samples, &|_| {});
        let values = samples[0].values.as_ref().unwrap();
        assert_eq!(values.len(), samples[0].position.legal_moves().len());
        assert!(values.iter().all(|v| v.is_finite() && v.abs() < 100.0));
    }
}
