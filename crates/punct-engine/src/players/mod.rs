//! Players a match can pit against each other: the engine at a level, and reference players
//! to measure it against (random, greedy one-move, three-ply alpha-beta).

mod alphabeta;
mod greedy;
mod random;

use std::sync::atomic::AtomicBool;

use punct_core::{Game, Move};

use crate::engine::{Engine, Options};
use crate::level::Level;
use crate::limits::SearchLimits;
use crate::search::params::{Params, TUNABLES};

pub use alphabeta::AlphaBeta;
pub use greedy::Greedy;
pub use random::Random;

/// Something that picks moves.
pub trait Player: Send {
    /// A name for records and reports.
    fn name(&self) -> String;
    /// Prepares for a new game.
    fn new_game(&mut self);
    /// The move to play in the current position of `game`, or why there is none.
    fn choose(&mut self, game: &Game, limits: &SearchLimits) -> Result<Move, String>;
    /// The nodes the last `choose` searched, for a player that searches and says so (a
    /// match compares how much each side thought).
    fn last_nodes(&self) -> Option<u64> {
        None
    }
}

/// The engine at a level.
pub struct EnginePlayer {
    engine: Engine,
    last_nodes: Option<u64>,
    /// Playouts per move in place of the limits it is given, when set.
    nodes: Option<u64>,
}

impl EnginePlayer {
    /// The engine at `level` with a seed.
    pub fn new(level: Level, seed: u64) -> EnginePlayer {
        EnginePlayer::with_options(Options {
            level,
            seed,
            ..Options::default()
        })
    }

    /// The engine set up by `options`.
    pub fn with_options(options: Options) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(options),
            last_nodes: None,
            nodes: None,
        }
    }

    /// Searches `nodes` playouts per move whatever limits it is given, when set.
    pub fn with_nodes(self, nodes: Option<u64>) -> EnginePlayer {
        EnginePlayer { nodes, ..self }
    }

    /// Searches with these settings instead of the defaults.
    pub fn with_params(mut self, params: Params) -> EnginePlayer {
        self.engine.set_params(params);
        self
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        let options = self.engine.options();
        let mut name = options.level.player_name();
        if options.threads > 1 {
            name.push_str(&format!(", {} threads", options.threads));
        }
        if let Some(n) = self.nodes {
            name.push_str(&format!(", {n} playouts"));
        }
        let (params, defaults) = (self.engine.params(), Params::default());
        if params.priors != defaults.priors {
            name.push_str(&format!(", {:?} priors", params.priors));
        }
        for t in TUNABLES {
            if (t.get)(&params) != (t.get)(&defaults) {
                name.push_str(&format!(", {} {}", t.name, (t.get)(&params)));
            }
        }
        name
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn choose(&mut self, game: &Game, limits: &SearchLimits) -> Result<Move, String> {
        let stop = AtomicBool::new(false);
        let own = self.nodes.map(SearchLimits::nodes);
        let limits = own.as_ref().unwrap_or(limits);
        let result = self.engine.search(game, limits, &stop, &mut |_| {});
        self.last_nodes = Some(result.nodes);
        result.best_move.ok_or_else(|| "no move found".to_owned())
    }

    fn last_nodes(&self) -> Option<u64> {
        self.last_nodes
    }
}
