//! The search: a tree kept between moves, grown by playouts until a limit is reached.

pub mod params;
pub mod playout;
pub mod threads;
pub mod tree;

use punct_core::{Game, Move, Position};

use params::Params;
use playout::Worker;
use tree::{Node, Playout, TREE_SHORTLIST};

use crate::evaluation::features::{MoveContext, best};

/// Nodes the tree may hold (about 60 bytes each), so memory stays bounded in long searches.
pub const CAPACITY: usize = 2_000_000;

/// Children kept at the root, where a wider look is cheap.
pub const ROOT_BRANCHING: usize = 64;

/// A search tree and the position at its root.
pub struct Tree {
    /// The root's position.
    pub position: Position,
    /// The root.
    pub root: Node,
    /// Nodes in the tree.
    pub size: usize,
    /// The search's settings.
    pub params: Params,
    moves: Vec<Move>,
}

impl Tree {
    /// A tree holding only the root `position`.
    pub fn new(position: Position) -> Tree {
        Tree {
            position,
            root: Node::new(
                Move::Shift {
                    from: first_cell(),
                    to: first_cell(),
                    rotation: 0,
                },
                1.0,
            ),
            size: 1,
            params: Params::default(),
            moves: Vec::with_capacity(8192),
        }
    }

    /// A tree holding only the root `position`, with this one's buffers and settings.
    fn restart(self, position: Position) -> Tree {
        Tree {
            moves: self.moves,
            params: self.params,
            ..Tree::new(position)
        }
    }

    /// Moves the root to the current position of `game` when it follows the root by at most
    /// two moves, keeping what was learnt there; else starts afresh.
    pub fn advance(mut self, game: &Game) -> Tree {
        let played = game.moves();
        for k in 0..=2.min(played.len()) {
            let start = played.len() - k;
            if game.position_after(start) != self.position {
                continue;
            }
            let placeholder = Node::new(self.root.mv, 1.0);
            let mut root = std::mem::replace(&mut self.root, placeholder);
            for &mv in &played[start..] {
                match root.into_child(mv) {
                    Some(child) => root = child,
                    None => return self.restart(game.position().clone()),
                }
            }
            self.root = root;
            self.root.proven = None;
            self.position = game.position().clone();
            self.size = self.root.size();
            return self;
        }
        self.restart(game.position().clone())
    }

    /// Sets the root's children to the best of `moves` (all legal moves when `None`) by
    /// refined prior, keeping the subtrees of those searched before.
    pub fn prepare(&mut self, restrict: Option<&[Move]>) -> bool {
        let mut old = std::mem::take(&mut self.root.children);
        let mut io = Playout {
            moves: &mut self.moves,
            size: &mut self.size,
            capacity: usize::MAX,
            params: self.params,
            give_up: &|| false,
        };
        if !self
            .root
            .expand_wide(&self.position, restrict, ROOT_BRANCHING, true, &mut io)
        {
            return false;
        }
        self.root.forget_left_out();
        for child in &mut self.root.children {
            if let Some(i) = old.iter().position(|c| c.mv == child.mv) {
                let prior = child.prior;
                *child = old.swap_remove(i);
                child.prior = prior;
            }
        }
        self.add_threat_makers();
        self.root.open_all();
        self.prove_root_children();
        self.root.visits = self
            .root
            .children
            .iter()
            .map(|c| c.visits)
            .sum::<u32>()
            .max(1);
        self.root.total = self
            .root
            .children
            .iter()
            .map(|c| c.visits as f32 - c.total)
            .sum();
        self.size = self.root.size();
        true
    }

    /// Adds to the root, proven won, any of the hand-set move score's best
    /// [`TREE_SHORTLIST`] not among its children that leaves the opponent lost at once. A
    /// quiet move that makes two threats at once can rank low by both the learned policy and
    /// the evaluation, while the hand-set score, which counts the cells a move lands on the
    /// mover's shortest links, ranks it high. Reads the root's moves that
    /// [`Node::expand_wide`] left in `moves`.
    fn add_threat_makers(&mut self) {
        let hand = MoveContext::new(&self.position);
        let scored = self.moves.iter().map(|&mv| (mv, hand.score(mv))).collect();
        let mut pos = self.position.clone();
        for (mv, _) in best(scored, TREE_SHORTLIST) {
            if self.root.children.iter().any(|c| c.mv == mv) {
                continue;
            }
            let undo = pos.make(mv);
            let leaf = tree::leaf_value(&mut pos, &mut self.moves, Some(0.5), true, &self.params);
            pos.unmake(undo);
            if matches!(leaf, tree::Leaf::Proven(v) if v == 1.0) {
                let mut child = Node::new(mv, 0.0);
                child.proven = Some(1.0);
                self.root.children.push(child);
                self.root.proven = Some(0.0);
            }
        }
    }

    /// Proves the root's new children that end the game or leave the opponent lost at once
    /// (a double threat, say), whatever their priors: the search might never visit a move
    /// the evaluation judged poorly, and the root is prepared once a search. A winning child
    /// proves the root.
    fn prove_root_children(&mut self) {
        let mut pos = self.position.clone();
        for child in &mut self.root.children {
            if child.visits > 0 || child.proven.is_some() {
                continue;
            }
            let undo = pos.make(child.mv);
            // The estimate given skips the evaluation: only a proof is wanted here.
            let leaf = tree::leaf_value(&mut pos, &mut self.moves, Some(0.5), true, &self.params);
            pos.unmake(undo);
            if let tree::Leaf::Proven(v) = leaf {
                child.proven = Some(v);
                if v == 1.0 {
                    self.root.proven = Some(0.0);
                }
            }
        }
    }

    /// One playout from the root.
    pub fn playout(&mut self, worker: &mut Worker) {
        self.playout_unless(worker, &|| false);
    }

    /// One playout from the root, cut short where work that may take long is met while
    /// `give_up` says the search must stop.
    pub fn playout_unless(&mut self, worker: &mut Worker, give_up: &dyn Fn() -> bool) {
        let job = playout::descend(self, worker);
        let work = playout::perform(job, worker, self.params, give_up);
        playout::backup(self, worker, work, give_up);
    }
}

fn first_cell() -> punct_core::Cell {
    punct_core::Cell::all().next().expect("the board has cells")
}
