//! The engine's entry point.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use punct_core::{Game, Move};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::level::Level;
use crate::limits::SearchLimits;

/// How the engine is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Playing strength.
    pub level: Level,
    /// Seed for the engine's randomness (noise at low levels, tie breaks).
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            level: Level::FULL,
            seed: 0x5eed,
        }
    }
}

/// An evaluation from the point of view of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Probability of winning.
    pub win: f32,
    /// Probability of a draw.
    pub draw: f32,
    /// Probability of losing.
    pub loss: f32,
}

impl Score {
    /// Expected score, 0 to 1.
    pub fn expectation(self) -> f32 {
        self.win + 0.5 * self.draw
    }
}

/// Progress of a running search, reported along the way.
#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    /// Depth of the principal variation (or deepest iteration).
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// The current evaluation, side to move's view.
    pub score: Score,
    /// Which line this is, 1 for the best (for multi-PV).
    pub multipv: usize,
    /// The expected line of play.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over or there is no legal move.
    pub best_move: Option<Move>,
    /// Its evaluation, side to move's view.
    pub score: Score,
    /// The expected line of play, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// A PÜNCT player.
pub struct Engine {
    options: Options,
    rng: SmallRng,
}

impl Engine {
    /// A new engine.
    pub fn new(options: Options) -> Engine {
        Engine {
            options,
            rng: SmallRng::seed_from_u64(options.seed),
        }
    }

    /// The engine's options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Changes the strength level.
    pub fn set_level(&mut self, level: Level) {
        self.options.level = level;
    }

    /// Forgets everything learnt in the current game (search tree, history).
    pub fn new_game(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.options.seed);
    }

    /// Searches the current position of `game` within `limits`, until `stop` is set, calling
    /// `on_info` with progress. Never panics on a finished game: it returns no move.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let _ = (limits, stop);
        let started = Instant::now();
        let pos = game.position();
        if game.outcome().is_some() {
            return SearchResult::default();
        }
        // Placeholder strategy until the real search lands: a winning move if there is one,
        // else a random legal move.
        let mut child = pos.clone();
        let mut nodes = 0;
        let winning = pos.legal_moves().into_iter().find(|&mv| {
            nodes += 1;
            let undo = child.make(mv);
            let wins = child
                .decisive_outcome()
                .is_some_and(|o| o.winner == Some(pos.turn()));
            child.unmake(undo);
            wins
        });
        let best_move = winning.or_else(|| pos.random_move(&mut self.rng));
        let score = Score {
            win: if winning.is_some() { 1.0 } else { 0.5 },
            draw: 0.0,
            loss: if winning.is_some() { 0.0 } else { 0.5 },
        };
        let result = SearchResult {
            best_move,
            score,
            pv: best_move.into_iter().collect(),
            nodes,
            time: started.elapsed(),
        };
        on_info(&SearchInfo {
            depth: 1,
            nodes,
            time: result.time,
            score,
            multipv: 1,
            pv: result.pv.clone(),
        });
        result
    }
}
