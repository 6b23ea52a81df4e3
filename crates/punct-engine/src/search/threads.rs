//! A search on several threads: each grows a tree of its own from the same root (root
//! parallelism), the helpers' priors shaken by noise so that their trees differ, and the
//! root's statistics are summed at the end. The trees share nothing while they grow but a
//! few counters, so one thread searches exactly as a search without helpers does.
//!
//! A proof found by any tree holds: each tree proves a node only over every legal move that
//! does not lose at once, whatever its priors.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Tree;
use super::tree::Node;

/// When a search must end.
pub struct Budget<'a> {
    /// Set from outside to stop the search.
    pub stop: &'a AtomicBool,
    /// When the search began.
    pub started: Instant,
    /// How long after `started` it must end, if at all.
    pub deadline: Option<Duration>,
    /// The playouts all threads together may make, if bounded.
    pub nodes: Option<u64>,
}

/// What the threads of one search share.
#[derive(Default)]
struct Shared {
    /// Playouts begun, so that a node budget counts the playouts of every thread.
    begun: AtomicU64,
    /// Playouts finished.
    done: AtomicU64,
    /// Set when one thread ends the search for all: its root is proven, or the calling
    /// thread has stopped.
    halt: AtomicBool,
}

impl Budget<'_> {
    fn spent(&self, shared: &Shared) -> bool {
        self.stop.load(Ordering::Relaxed)
            || shared.halt.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| self.started.elapsed() >= d)
    }
}

/// Grows every tree of `trees` (the first on the calling thread, each other on a thread of
/// its own) until `budget` is spent or a root is proven, and returns the playouts made.
/// `progress` is called on the calling thread after each of its playouts, with its tree
/// and the playouts made so far by all. A thread the system refuses to start is done
/// without: the search is then only narrower.
pub fn grow_all(trees: &mut [Tree], budget: &Budget, progress: &mut dyn FnMut(&Tree, u64)) -> u64 {
    let Some((main, helpers)) = trees.split_first_mut() else {
        return 0;
    };
    let shared = Shared::default();
    std::thread::scope(|scope| {
        for tree in helpers {
            let shared = &shared;
            let _ = std::thread::Builder::new()
                .name("punct-search".to_owned())
                .spawn_scoped(scope, move || grow(tree, budget, shared, &mut |_, _| {}));
        }
        grow(main, budget, &shared, progress);
        shared.halt.store(true, Ordering::Relaxed);
    });
    shared.done.load(Ordering::Relaxed)
}

/// Playouts on `tree` until the budget is spent or a root is proven.
fn grow(tree: &mut Tree, budget: &Budget, shared: &Shared, progress: &mut dyn FnMut(&Tree, u64)) {
    let mut scratch = tree.position.clone();
    let give_up = || budget.spent(shared);
    loop {
        if give_up() || tree.root.proven.is_some() {
            break;
        }
        // Claimed last, so that only a playout that follows counts against the budget.
        if budget
            .nodes
            .is_some_and(|n| shared.begun.fetch_add(1, Ordering::Relaxed) >= n)
        {
            break;
        }
        tree.playout_unless(&mut scratch, &give_up);
        let done = shared.done.fetch_add(1, Ordering::Relaxed) + 1;
        if tree.root.proven.is_some() {
            shared.halt.store(true, Ordering::Relaxed);
        }
        progress(tree, done);
    }
}

/// The root of all `trees` in one: for each root move, the visits and results of every tree
/// summed, the proof of any tree, and below it the line of the tree that visited it most.
/// The first tree's moves come first, in its order, then moves only helpers widened to.
pub fn merged_root(trees: &[Tree]) -> Node {
    let mut merged = Node::new(trees[0].root.mv, 1.0);
    let mut sources: Vec<&Node> = Vec::new();
    for tree in trees {
        merged.visits += tree.root.visits;
        merged.total += tree.root.total;
        merged.proven = merged.proven.or(tree.root.proven);
        for child in &tree.root.children {
            match merged.children.iter().position(|c| c.mv == child.mv) {
                Some(i) => {
                    let m = &mut merged.children[i];
                    m.visits += child.visits;
                    m.total += child.total;
                    m.proven = m.proven.or(child.proven);
                    if child.visits > sources[i].visits {
                        sources[i] = child;
                    }
                }
                None => {
                    merged.children.push(stub(child));
                    sources.push(child);
                }
            }
        }
    }
    for (m, source) in merged.children.iter_mut().zip(sources) {
        m.children = line(source);
    }
    merged
}

/// A childless copy of `node`.
fn stub(node: &Node) -> Node {
    let mut copy = Node::new(node.mv, node.prior);
    copy.visits = node.visits;
    copy.total = node.total;
    copy.proven = node.proven;
    copy
}

/// Copies of the nodes of `node`'s [principal variation](Node::pv), each the only child
/// of the one before.
fn line(node: &Node) -> Vec<Node> {
    match node.best_child() {
        Some(best) => {
            let mut copy = stub(best);
            copy.children = line(best);
            vec![copy]
        }
        None => Vec::new(),
    }
}

/// The threads this machine runs at once (its cores, as the system counts them), 1 when
/// the system does not say.
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The most threads a search may be given: twice the machine's cores. Beyond, threads only
/// take turns on the cores, each with a tree of its own to fill.
pub fn most() -> usize {
    2 * available()
}
