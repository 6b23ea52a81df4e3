//! The engine's entry point: tactics first, then the tree search within the limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use punct_core::{Game, Move, Position};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::clock::Instant;
use crate::draw;
use crate::evaluation;
use crate::learned::Priors;
use crate::level::{Level, Play};
use crate::limits::SearchLimits;
use crate::novice;
use crate::search::Tree;
use crate::search::params::Params;
use crate::search::threads::{self, Budget};
use crate::search::tree::Node;
use crate::tactics::{self, Defence};
use crate::time;

/// How the engine is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Playing strength.
    pub level: Level,
    /// Seed for the engine's randomness (noise at low levels, tie breaks).
    pub seed: u64,
    /// Threads searching together (0 is taken as 1). With one, play depends only on the
    /// position, the level, the seed and the playouts allowed.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            level: Level::FULL,
            seed: 0x5eed,
            threads: 1,
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

    /// An estimate with expectation `e` and no draws. Only a proof is certain: an estimate
    /// stays 1 % away from 0 and 1, so that "win 100 %" is never shown for a position that
    /// is not proven won.
    fn estimate(e: f32) -> Score {
        let e = e.clamp(ESTIMATE_BOUND, 1.0 - ESTIMATE_BOUND);
        Score {
            win: e,
            draw: 0.0,
            loss: 1.0 - e,
        }
    }

    /// A proven result: 1 a win, 0 a loss, ½ a draw.
    fn proven(result: f32) -> Score {
        if result == 0.5 {
            Score {
                win: 0.0,
                draw: 1.0,
                loss: 0.0,
            }
        } else {
            Score {
                win: result,
                draw: 0.0,
                loss: 1.0 - result,
            }
        }
    }

    /// The score of the move into `node`, for the player who makes it.
    fn of(node: &Node) -> Score {
        match node.proven {
            Some(v) => Score::proven(v),
            None => Score::estimate(node.mean()),
        }
    }
}

/// How close to certainty an estimate may come: 1 %, the finest step a percentage shows.
const ESTIMATE_BOUND: f32 = 0.01;

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
    /// Each root move the search kept, with its visits (those of the tree kept from earlier
    /// searches included); empty when tactics chose the move without a search. The learned
    /// policy is trained to imitate these (`punct train visits`).
    pub root_visits: Vec<(Move, u32)>,
}

/// Thinking time when the limits bound nothing.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// How often progress is reported during a search.
const INFO_INTERVAL: Duration = Duration::from_millis(500);

/// A PÜNCT player.
pub struct Engine {
    options: Options,
    rng: SmallRng,
    /// The search tree kept between moves.
    tree: Option<Tree>,
    /// Lines reported per `info` round (1 normally).
    multipv: usize,
    /// The search's settings.
    params: Params,
}

impl Engine {
    /// A new engine.
    pub fn new(options: Options) -> Engine {
        Engine {
            options,
            rng: SmallRng::seed_from_u64(options.seed),
            tree: None,
            multipv: 1,
            params: Params::default(),
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

    /// The move priors the search uses.
    pub fn priors(&self) -> Priors {
        self.params.priors
    }

    /// Chooses the move priors of later searches (the trees kept so far are forgotten).
    pub fn set_priors(&mut self, priors: Priors) {
        self.set_params(Params {
            priors,
            ..self.params
        });
    }

    /// The search's settings.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Changes the search's settings for later searches (the trees kept so far, grown under
    /// the old ones, are forgotten).
    pub fn set_params(&mut self, params: Params) {
        if params != self.params {
            self.params = params;
            self.tree = None;
        }
    }

    /// Searches with `n` threads from the next search on (at least 1).
    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.max(1);
    }

    /// Reports the `n` best root moves in each round of progress (at least 1).
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Forgets everything learnt in the current game (search tree, history).
    pub fn new_game(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.options.seed);
        self.tree = None;
    }

    /// Searches the current position of `game` within `limits`, until `stop` is set, calling
    /// `on_info` with progress. Never panics on a finished game: it returns no move. Limits
    /// that bound nothing (the default, not `infinite`) mean one second.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let started = Instant::now();
        if game.outcome().is_some() {
            return SearchResult::default();
        }
        let mut pos = game.position().clone();
        let (visits, temperature) = match self.options.level.play() {
            Play::Glance(habits) => {
                return match novice::choose(&mut pos, &habits, &mut self.rng) {
                    Some(mv) => {
                        // What it makes of its move: the static evaluation after it.
                        pos.make(mv);
                        let score = Score::estimate(1.0 - evaluation::evaluate(&pos));
                        self.forced(mv, score, started, on_info)
                    }
                    None => SearchResult::default(),
                };
            }
            Play::Search {
                visits,
                temperature,
            } => (visits, temperature),
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return SearchResult::default();
        }
        if let Some(win) = tactics::winning_move(&mut pos, Some(&moves)) {
            return self.forced(win, Score::proven(1.0), started, on_info);
        }
        // A search given no bound at all would never end: think as long as a default move.
        let limits = if *limits == SearchLimits::default() {
            &SearchLimits::movetime(DEFAULT_MOVETIME)
        } else {
            limits
        };
        let deadline = time::deadline(limits, pos.turn());
        // Finding every stopper may take long on a short clock; half the time at most.
        let give_up =
            || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| started.elapsed() >= d / 2);
        let restrict = match tactics::defend(&mut pos, &moves, &give_up) {
            Defence::Stoppers(stoppers) if stoppers.len() == 1 => {
                let score = Score::estimate(0.5);
                return self.forced(stoppers[0], score, started, on_info);
            }
            Defence::Stoppers(stoppers) => Some(stoppers),
            Defence::None | Defence::Lost | Defence::Unfinished => None,
        };

        let mut tree = self.tree_for(game);
        if !tree.prepare(restrict.as_deref()) {
            return SearchResult::default();
        }
        let budget = Budget {
            stop,
            started,
            deadline,
            nodes: [limits.nodes, visits].into_iter().flatten().min(),
        };
        let mut last_info = started;
        let threads = self.options.threads.max(1);
        let nodes = threads::grow_all(&mut tree, threads, &budget, &mut |tree, nodes| {
            if last_info.elapsed() >= INFO_INTERVAL {
                last_info = Instant::now();
                self.report(&tree.root, None, nodes, started, on_info);
            }
        });
        let root = &tree.root;
        // The move played heads the last line reported, even when noise picked another
        // than the search's best, and the result's line is that same line.
        let choice = self
            .choose(root, temperature)
            .or_else(|| root.ranked().into_iter().next());
        let lines = self.report(root, choice, nodes, started, on_info);
        let result = match lines.into_iter().next() {
            Some(first) => SearchResult {
                best_move: first.pv.first().copied(),
                score: first.score,
                pv: first.pv,
                nodes,
                time: started.elapsed(),
                root_visits: root.children.iter().map(|c| (c.mv, c.visits)).collect(),
            },
            None => SearchResult::default(),
        };
        self.tree = Some(tree);
        result
    }

    /// The tree for a search of `game`: the one kept from the last search moved on to its
    /// position, or a new one.
    fn tree_for(&mut self, game: &Game) -> Tree {
        let mut tree = match self.tree.take() {
            Some(tree) => tree.advance(game),
            None => Tree::new(game.position().clone()),
        };
        tree.params = self.params;
        tree
    }

    /// The answer when tactics decide the move without a search.
    fn forced(
        &mut self,
        mv: Move,
        score: Score,
        started: Instant,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tree = None;
        let result = SearchResult {
            best_move: Some(mv),
            score,
            pv: vec![mv],
            nodes: 1,
            time: started.elapsed(),
            root_visits: Vec::new(),
        };
        on_info(&SearchInfo {
            depth: 1,
            nodes: 1,
            time: result.time,
            score,
            multipv: 1,
            pv: result.pv.clone(),
        });
        result
    }

    /// The root move to play: the most visited, or at low levels one drawn with chances
    /// growing with its visits (noise, never a move the search did not look at).
    fn choose<'a>(&mut self, root: &'a Node, temperature: f32) -> Option<&'a Node> {
        let best = root.best_child()?;
        if temperature == 0.0 || best.proven == Some(1.0) {
            return Some(best);
        }
        let weights: Vec<f32> = root
            .children
            .iter()
            .map(|c| {
                if c.visits == 0 || c.proven == Some(0.0) {
                    0.0
                } else {
                    (c.visits as f32 / best.visits as f32).powf(1.0 / temperature)
                }
            })
            .collect();
        Some(draw::weighted(&weights, &mut self.rng).map_or(best, |i| &root.children[i]))
    }

    /// Reports the best lines and returns them: `first`'s line first when given, then the
    /// other root moves in the order the move is chosen; unvisited children rank last, by
    /// prior, so even a search stopped at once reports.
    fn report(
        &self,
        root: &Node,
        first: Option<&Node>,
        nodes: u64,
        started: Instant,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<SearchInfo> {
        let ranked = root.ranked();
        let lines = first
            .into_iter()
            .chain(
                ranked
                    .into_iter()
                    .filter(|c| first.is_none_or(|f| f.mv != c.mv)),
            )
            .take(self.multipv)
            .enumerate();
        let mut reported = Vec::new();
        for (i, child) in lines {
            let mut pv = vec![child.mv];
            pv.extend(child.pv());
            let info = SearchInfo {
                depth: pv.len() as u32,
                nodes,
                time: started.elapsed(),
                score: Score::of(child),
                multipv: i + 1,
                pv,
            };
            on_info(&info);
            reported.push(info);
        }
        reported
    }
}

/// The static evaluation of `pos` for the side to move, as a score.
pub fn static_score(pos: &Position) -> Score {
    Score::estimate(crate::evaluation::evaluate(pos))
}
