//! Self-play: the engine plays itself from random openings, one game per task on every
//! core, and positions are sampled with the game's result.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use punct_core::{Game, Outcome, Variant};
use punct_engine::learned::Priors;
use punct_engine::{Engine, Level, Options, SearchLimits};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;

use crate::dataset::Sample;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games to play.
    pub games: u32,
    /// Basic or standard game.
    pub variant: Variant,
    /// Random moves opening each game, so that games differ.
    pub random_plies: u32,
    /// The engine's level (its playouts and its noise in choosing).
    pub level: Level,
    /// Which move priors the engine uses.
    pub priors: Priors,
    /// Every how many plies a position is kept.
    pub every: u32,
    /// A game reaching this many plies is stopped and scored a draw.
    pub max_plies: usize,
    /// Seed of the openings and the engines.
    pub seed: u64,
}

/// Plays the games on every core and returns the sampled positions, game by game;
/// `on_game` hears of each finished game (for progress).
pub fn generate(settings: &Settings, on_game: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    play_all(settings.games, on_game, |game| play(settings, game))
}

/// Plays `games` games on every core with `play` (given each game's number), and returns
/// their samples in the games' order; `on_game` hears of each finished game.
pub(crate) fn play_all(
    games: u32,
    on_game: &(dyn Fn(usize) + Sync),
    play: impl Fn(u32) -> Vec<Sample> + Sync,
) -> Vec<Sample> {
    let done = AtomicUsize::new(0);
    let mut games: Vec<Vec<Sample>> = (0..games)
        .into_par_iter()
        .map(|game| {
            let samples = play(game);
            on_game(done.fetch_add(1, Ordering::Relaxed) + 1);
            samples
        })
        .collect();
    games.iter_mut().flat_map(std::mem::take).collect()
}

/// The seed of game number `game` of a generation seeded `seed`.
pub(crate) fn game_seed(seed: u64, game: u32) -> u64 {
    seed.wrapping_mul(0x9e37_79b9).wrapping_add(u64::from(game))
}

/// A game opened by `plies` random moves drawn from `seed`.
pub(crate) fn opening(variant: Variant, plies: u32, seed: u64) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    // An opening that ends the game teaches nothing: draw another.
    let mut game = Game::new(variant);
    while game.moves().len() < plies as usize {
        match game.position().random_move(&mut rng) {
            Some(mv) if game.play(mv).is_ok() && game.outcome().is_none() => {}
            _ => game = Game::new(variant),
        }
    }
    game
}

/// Plays game number `game_number` and samples it.
fn play(settings: &Settings, game_number: u32) -> Vec<Sample> {
    let seed = game_seed(settings.seed, game_number);
    let mut game = opening(settings.variant, settings.random_plies, seed);
    let mut engines = [seed, seed ^ 1].map(|seed| {
        let mut engine = Engine::new(Options {
            level: settings.level,
            seed,
            ..Options::default()
        });
        engine.set_priors(settings.priors);
        engine
    });
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::default();
    let mut positions = Vec::new();
    while game.outcome().is_none() && game.moves().len() < settings.max_plies {
        let ply = game.moves().len() as u32;
        if ply >= settings.random_plies
            && (ply - settings.random_plies).is_multiple_of(settings.every.max(1))
        {
            positions.push(game.position().clone());
        }
        let engine = &mut engines[game.position().turn().index()];
        let Some(mv) = engine.search(&game, &limits, &stop, &mut |_| {}).best_move else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    let white_score = game.outcome().map_or(0.5, Outcome::white_score) as f32;
    positions
        .into_iter()
        .map(|position| Sample {
            game: game_number,
            white_score,
            position,
            values: None,
            visits: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_generation_samples_positions_of_finished_games() {
        let settings = Settings {
            games: 2,
            variant: Variant::Standard,
            random_plies: 2,
            level: Level::new(4).unwrap(),
            priors: Priors::default(),
            every: 4,
            max_plies: 400,
            seed: 7,
        };
        let samples = generate(&settings, &|_| {});
        assert!(!samples.is_empty());
        assert!(samples.iter().all(|s| s.game < 2 && s.values.is_none()));
        assert!(samples.iter().all(|s| s.position.ply() >= 2));
        // Every sample of one game carries that game's result.
        for game in 0..2 {
            let scores: Vec<f32> = samples
                .iter()
                .filter(|s| s.game == game)
                .map(|s| s.white_score)
                .collect();
            assert!(scores.windows(2).all(|w| w[0] == w[1]));
        }
    }
}
