//! Visit-count targets: self-play at full strength in which each searched position keeps
//! its search's root visits, so that the policy can imitate where the search looked rather
//! than the one-ply ranking alone. One game per task, on every core.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use punct_core::{Move, Outcome, Position, Variant};
use punct_engine::search::params::Params;
use punct_engine::{Engine, Level, Options, SearchLimits};

use crate::dataset::Sample;
use crate::selfplay::{game_seed, opening, play_all};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games to play.
    pub games: u32,
    /// Basic or standard game.
    pub variant: Variant,
    /// Random moves opening each game, so that games differ.
    pub random_plies: u32,
    /// Playouts of each move's search.
    pub nodes: u64,
    /// The search's settings (priors, refinement, …).
    pub params: Params,
    /// Every how many plies a position is kept.
    pub every: u32,
    /// A game reaching this many plies is stopped and scored a draw.
    pub max_plies: usize,
    /// Seed of the openings and the engines.
    pub seed: u64,
}

/// Plays the games on every core, each move the most visited of a search at full
/// strength, and returns the sampled positions with their root visits, game by game;
/// `on_game` hears of each finished game. Positions whose move tactics forced (no search)
/// are left out.
pub fn generate(settings: &Settings, on_game: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    play_all(settings.games, on_game, |game| play(settings, game))
}

/// Plays game number `game_number` and samples it.
fn play(settings: &Settings, game_number: u32) -> Vec<Sample> {
    let seed = game_seed(settings.seed, game_number);
    let mut game = opening(settings.variant, settings.random_plies, seed);
    let mut engines = [seed, seed ^ 1].map(|seed| {
        let mut engine = Engine::new(Options {
            level: Level::FULL,
            seed,
            threads: 1,
        });
        engine.set_params(settings.params);
        engine
    });
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::nodes(settings.nodes);
    let mut kept = Vec::new();
    while game.outcome().is_none() && game.moves().len() < settings.max_plies {
        let ply = game.moves().len() as u32;
        let engine = &mut engines[game.position().turn().index()];
        let result = engine.search(&game, &limits, &stop, &mut |_| {});
        let Some(mv) = result.best_move else {
            break;
        };
        let sampled = ply >= settings.random_plies
            && (ply - settings.random_plies).is_multiple_of(settings.every.max(1));
        if sampled && !result.root_visits.is_empty() {
            let visits = by_index(game.position(), &result.root_visits);
            kept.push((game.position().clone(), visits));
        }
        if game.play(mv).is_err() {
            break;
        }
    }
    let white_score = game.outcome().map_or(0.5, Outcome::white_score) as f32;
    kept.into_iter()
        .map(|(position, visits)| Sample {
            game: game_number,
            white_score,
            position,
            values: None,
            visits: Some(visits),
        })
        .collect()
}

/// Root visits as the dataset keeps them: (index of the move among `pos`'s legal moves,
/// visits), by index, moves never visited left out.
pub fn by_index(pos: &Position, root: &[(Move, u32)]) -> Vec<(u32, u32)> {
    let index: HashMap<Move, u32> = pos.legal_moves().into_iter().zip(0..).collect();
    let mut visits: Vec<(u32, u32)> = root
        .iter()
        .filter(|&&(_, n)| n > 0)
        .filter_map(|&(mv, n)| Some((*index.get(&mv)?, n)))
        .collect();
    visits.sort_unstable();
    visits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searched_positions_keep_their_root_visits() {
        let settings = Settings {
            games: 1,
            variant: Variant::Standard,
            random_plies: 2,
            nodes: 40,
            params: Params::default(),
            every: 6,
            max_plies: 30,
            seed: 5,
        };
        let samples = generate(&settings, &|_| {});
        assert!(!samples.is_empty());
        for s in &samples {
            let visits = s.visits.as_ref().unwrap();
            assert!(!visits.is_empty());
            assert!(visits.windows(2).all(|w| w[0].0 < w[1].0));
            assert!(
                visits
                    .iter()
                    .all(|&(i, n)| n > 0 && (i as usize) < s.position.legal_moves().len())
            );
            // A sample reads back as written.
            assert_eq!(Sample::from_line(&s.to_line(), 1).unwrap(), *s);
        }
    }
}
