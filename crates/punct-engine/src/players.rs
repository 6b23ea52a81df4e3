//! Players a match can pit against each other: the engine at a level, and two reference
//! players to measure it against.

use std::sync::atomic::AtomicBool;

use punct_core::{Bitboard, Game, Move};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::engine::{Engine, Options};
use crate::evaluation::distances;
use crate::level::Level;
use crate::limits::SearchLimits;
use crate::tactics::{self, Defence};

/// Something that picks moves.
pub trait Player: Send {
    /// A name for records and reports.
    fn name(&self) -> String;
    /// Prepares for a new game.
    fn new_game(&mut self);
    /// The move to play in the current position of `game`, or why there is none.
    fn choose(&mut self, game: &Game, limits: &SearchLimits) -> Result<Move, String>;
}

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

/// Takes a win in one, stops the opponent's, and otherwise plays the move that most
/// improves its connection distance minus the opponent's.
pub struct Greedy;

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Game, _: &SearchLimits) -> Result<Move, String> {
        let mut pos = game.position().clone();
        let mut moves = pos.legal_moves();
        if let Some(win) = tactics::winning_move(&mut pos, Some(&moves)) {
            return Ok(win);
        }
        if let Defence::Stoppers(stoppers) = tactics::defend(&mut pos, &moves, &|| false) {
            moves = stoppers;
        }
        let me = pos.turn();
        let mut best = None;
        for mv in moves {
            let undo = pos.make(mv);
            let value = match pos.decisive_outcome() {
                Some(o) if o.winner == Some(me) => f32::INFINITY,
                Some(o) if o.winner.is_some() => f32::NEG_INFINITY,
                Some(_) => 0.0,
                None => {
                    let empty = Bitboard::ALL & !pos.occupied();
                    let mine = distances(pos.visible(me), pos.visible(!me), empty).best();
                    let theirs = distances(pos.visible(!me), pos.visible(me), empty).best();
                    theirs as f32 - mine as f32
                }
            };
            pos.unmake(undo);
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((mv, value));
            }
        }
        best.map(|(mv, _)| mv)
            .ok_or_else(|| "no legal move".to_owned())
    }
}

/// The engine at a level.
pub struct EnginePlayer {
    engine: Engine,
}

impl EnginePlayer {
    /// The engine at `level` with a seed.
    pub fn new(level: Level, seed: u64) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(Options { level, seed }),
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        format!("punct level {}", self.engine.options().level.number())
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn choose(&mut self, game: &Game, limits: &SearchLimits) -> Result<Move, String> {
        let stop = AtomicBool::new(false);
        self.engine
            .search(game, limits, &stop, &mut |_| {})
            .best_move
            .ok_or_else(|| "no move found".to_owned())
    }
}
