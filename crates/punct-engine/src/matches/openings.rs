//! A balanced set of starting positions for matches: a few random placements each, kept
//! only when the static evaluation calls them even. Each is played twice, once with each
//! colour, so what is left of any imbalance cancels out.

use punct_core::{Game, Move, Position, Variant};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::evaluation::evaluate;

/// Placements made at random before a match game starts.
const OPENING_PLIES: usize = 2;

/// How far an opening's evaluation may be from the empty board's (as a win chance for the
/// side to move).
const TOLERANCE: f32 = 0.08;

/// `count` openings of `variant` as move lists, the same for the same seed.
pub fn openings(variant: Variant, count: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let even_value = evaluate(&Position::new(variant));
    let mut out = Vec::with_capacity(count);
    // Give up on the balance test after many tries rather than loop for ever.
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        let mut game = Game::new(variant);
        let mut moves = Vec::new();
        for _ in 0..OPENING_PLIES {
            let Some(mv) = game.position().random_move(&mut rng) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        let even = (evaluate(game.position()) - even_value).abs() <= TOLERANCE;
        if game.outcome().is_none() && (even || tries > 100 * count) {
            out.push(moves);
        }
    }
    out
}
