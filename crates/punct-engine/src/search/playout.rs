//! One playout in three steps, so that several threads can grow one tree: choosing the path
//! ([`descend`]) and recording the result ([`backup`]) are quick and done while holding the
//! tree; judging the leaf or expanding a node ([`perform`]), the costly part, is done on a
//! copy of the position without it. On one thread the three run back to back and the
//! search is exactly the one-threaded search.
//!
//! A path being played is marked on its nodes (`in_flight`), which selection counts as
//! losses until the result comes back, so that other threads look elsewhere.

use punct_core::{Move, Position};

use super::params::Params;
use super::tree::{Leaf, Node, Playout, leaf_value};
use super::{CAPACITY, Tree};

/// What one thread keeps between playouts: its positions and buffers.
pub struct Worker {
    /// The position at the end of the chosen path.
    scratch: Position,
    /// The moves of the chosen path from the root.
    path: Vec<Move>,
    /// Buffer for move generation outside the tree.
    moves: Vec<Move>,
}

impl Worker {
    /// A worker for searches from `position` (any position: each playout starts from the
    /// tree's root).
    pub fn new(position: &Position) -> Worker {
        Worker {
            scratch: position.clone(),
            path: Vec::with_capacity(64),
            moves: Vec::with_capacity(8192),
        }
    }
}

/// What the chosen path ends at, and what must be done there.
pub enum Job {
    /// A proven node, or a leaf the full tree cannot expand: its value is known.
    Known(f32),
    /// A node never visited: judge it, with its parent's estimate when there is one.
    Leaf(Option<f32>),
    /// A leaf visited before: expand it. The node as it was when chosen (its visits and
    /// results, no children), so that the expansion chooses its first child as the tree
    /// would.
    Expand(Node),
}

/// What the costly step found.
pub enum Work {
    /// The value of the end of the path, nothing to add to the tree.
    Known(f32),
    /// The first visit's judgement of a leaf.
    Leaf(Leaf),
    /// The end of the path was proven by its expansion: no legal move, or nothing stops
    /// the opponent.
    Proven(f32),
    /// The node's children, with the one chosen first and its judgement.
    Expanded {
        /// The node with its children (visits and results as they were when chosen).
        node: Node,
        /// The child chosen first.
        chosen: usize,
        /// Its judgement.
        leaf: Leaf,
    },
}

/// Chooses a path from the root of `tree` by PUCT, marking it as under way, judging on the
/// way the children of nodes that have earned it; leaves `worker` at the end of the path.
pub fn descend(tree: &mut Tree, worker: &mut Worker) -> Job {
    worker.scratch.clone_from(&tree.position);
    worker.path.clear();
    let params = tree.params;
    let full = tree.size >= CAPACITY;
    let mut node = &mut tree.root;
    loop {
        if let Some(v) = node.proven {
            return Job::Known(v);
        }
        if node.visits == 0 {
            return Job::Leaf(node.estimate);
        }
        if node.children.is_empty() {
            return if full {
                Job::Known(node.mean())
            } else {
                let mut copy = Node::new(node.mv, node.prior);
                copy.visits = node.visits;
                copy.total = node.total;
                copy.estimate = node.estimate;
                Job::Expand(copy)
            };
        }
        if node.wants_refining(&params) {
            node.refine(&mut worker.scratch, &params);
        }
        let i = node.select(&params);
        let child = &mut node.children[i];
        child.in_flight += 1;
        worker.scratch.make(child.mv);
        worker.path.push(child.mv);
        node = child;
    }
}

/// Does the costly part of `job` on the worker's position: judges a leaf, or expands a
/// node, judges its children when it has earned it, and judges the child chosen first.
/// `give_up` ends long work when the search must stop.
pub fn perform(job: Job, worker: &mut Worker, params: Params, give_up: &dyn Fn() -> bool) -> Work {
    let pos = &mut worker.scratch;
    match job {
        Job::Known(v) => Work::Known(v),
        Job::Leaf(estimate) => Work::Leaf(leaf_value(
            pos,
            &mut worker.moves,
            estimate,
            params.threats_at_leaves,
            &params,
        )),
        Job::Expand(mut node) => {
            let mut added = 0;
            let mut io = Playout {
                moves: &mut worker.moves,
                size: &mut added,
                capacity: usize::MAX,
                params,
                give_up,
            };
            if let Some(v) = node.expand(pos, &mut io) {
                return Work::Proven(v);
            }
            if node.wants_refining(&params) {
                node.refine(pos, &params);
            }
            let chosen = node.select(&params);
            let child = &node.children[chosen];
            let undo = pos.make(child.mv);
            let leaf = leaf_value(
                pos,
                &mut worker.moves,
                child.estimate,
                params.threats_at_leaves,
                &params,
            );
            pos.unmake(undo);
            Work::Expanded { node, chosen, leaf }
        }
    }
}

/// Records `work` along the worker's path in `tree`: the result climbs to the root, proofs
/// are brought up to date, and the path is no longer marked as under way. `give_up` ends
/// long work (widening) when the search must stop.
pub fn backup(tree: &mut Tree, worker: &mut Worker, work: Work, give_up: &dyn Fn() -> bool) {
    worker.scratch.clone_from(&tree.position);
    let mut io = Playout {
        moves: &mut tree.moves,
        size: &mut tree.size,
        capacity: CAPACITY,
        params: tree.params,
        give_up,
    };
    let mut work = Some(work);
    climb(
        &mut tree.root,
        &mut worker.scratch,
        &worker.path,
        &mut work,
        &mut io,
    );
}

/// The result for the player who made `node.mv`, recorded in `node` and below it along
/// `path`.
fn climb(
    node: &mut Node,
    pos: &mut Position,
    path: &[Move],
    work: &mut Option<Work>,
    io: &mut Playout,
) -> f32 {
    let result = match path.split_first() {
        None => match work.take() {
            Some(work) => apply(node, pos, work, io),
            None => node.mean(),
        },
        Some((&mv, rest)) => match node.children.iter().position(|c| c.mv == mv) {
            Some(i) => {
                let child = &mut node.children[i];
                child.in_flight = child.in_flight.saturating_sub(1);
                let undo = pos.make(mv);
                let r = climb(child, pos, rest, work, io);
                pos.unmake(undo);
                if child.proven.is_some() {
                    node.settle(i, pos, io);
                }
                1.0 - r
            }
            // Children are never removed during a search, so this is not reached; should it
            // be, the playout counts as a visit that learnt nothing.
            None => node.mean(),
        },
    };
    node.visits += 1;
    node.total += result;
    result
}

/// Records `work` in `node`, the end of the path, whose position is `pos`; returns the
/// result for the player who made `node.mv`.
fn apply(node: &mut Node, pos: &mut Position, work: Work, io: &mut Playout) -> f32 {
    match work {
        Work::Known(v) => v,
        Work::Leaf(leaf) => {
            if let Leaf::Proven(v) = leaf {
                node.proven = Some(v);
            }
            leaf.value()
        }
        Work::Proven(v) => {
            node.proven = Some(v);
            v
        }
        Work::Expanded {
            node: expanded,
            chosen,
            leaf,
        } => {
            if node.proven.is_some() || !node.children.is_empty() {
                // Another thread expanded it meanwhile: this playout learnt nothing new.
                return node.mean();
            }
            *io.size += expanded.child_count();
            node.children = expanded.children;
            node.pending = expanded.pending;
            node.complete = expanded.complete;
            node.refined = expanded.refined;
            node.judged = expanded.judged;
            let child = &mut node.children[chosen];
            child.visits = 1;
            child.total = leaf.value();
            if let Leaf::Proven(v) = leaf {
                child.proven = Some(v);
                node.settle(chosen, pos, io);
            }
            1.0 - leaf.value()
        }
    }
}
