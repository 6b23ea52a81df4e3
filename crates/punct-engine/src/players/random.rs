//! The weakest reference player: a uniformly random legal move.

use punct_core::{Game, Move};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::Player;
use crate::limits::SearchLimits;

/// Plays a uniformly random legal move.
pub struct Random {
    seed: u64,
    rng: SmallRng,
}

impl Random {
    /// A random player with a seed.
    pub fn new(seed: u64) -> Random {
        Random {
            seed,
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for Random {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn new_game(&mut self) {
        self.seed = self.seed.wrapping_add(1);
        self.rng = SmallRng::seed_from_u64(self.seed);
    }

    fn choose(&mut self, game: &Game, _: &SearchLimits) -> Result<Move, String> {
        game.position()
            .random_move(&mut self.rng)
            .ok_or_else(|| "no legal move".to_owned())
    }
}
