//! A search on several threads sharing one tree: each thread chooses a path and records
//! its result while holding the tree, and does the costly part of its playout (judging a
//! leaf, expanding a node) without it (see [`playout`](super::playout)). Paths under way
//! count as losses for the others (virtual loss), so the threads spread over the tree
//! instead of all deepening the same line. On one thread the search is exactly the
//! search without helpers.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::Tree;
use super::playout::{self, Worker};
use crate::clock::Instant;
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

/// Grows `tree` on `threads` threads (the calling thread and `threads - 1` others) until
/// `budget` is spent or its root is proven, and returns the playouts made. `progress` is
/// called on the calling thread after each of its playouts, with the tree and the playouts
/// made so far by all. A thread the system refuses to start is done without: the search is
/// then only slower.
pub fn grow_all(
    tree: &mut Tree,
    threads: usize,
    budget: &Budget,
    progress: &mut dyn FnMut(&Tree, u64),
) -> u64 {
    let shared = Shared::default();
    let position = tree.position.clone();
    let tree = Mutex::new(tree);
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            let (tree, shared, position) = (&tree, &shared, &position);
            let _ = std::thread::Builder::new()
                .name("punct-search".to_owned())
                .spawn_scoped(scope, move || {
                    grow(tree, position, budget, shared, &mut |_, _| {})
                });
        }
        grow(&tree, &position, budget, &shared, progress);
        shared.halt.store(true, Ordering::Relaxed);
    });
    shared.done.load(Ordering::Relaxed)
}

/// One thread's playouts on the shared tree until the budget is spent or the root is
/// proven.
fn grow(
    tree: &Mutex<&mut Tree>,
    position: &punct_core::Position,
    budget: &Budget,
    shared: &Shared,
    progress: &mut dyn FnMut(&Tree, u64),
) {
    let mut worker = Worker::new(position);
    let give_up = || budget.spent(shared);
    // A thread that panicked while holding the tree left it whole (each step either
    // finishes or changes nothing the others rely on), so a poisoned lock is used anyway.
    let lock = || tree.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if give_up() {
            break;
        }
        // Claimed last, so that only a playout that follows counts against the budget.
        if budget
            .nodes
            .is_some_and(|n| shared.begun.fetch_add(1, Ordering::Relaxed) >= n)
        {
            break;
        }
        let (job, params) = {
            let mut t = lock();
            if t.root.proven.is_some() {
                shared.halt.store(true, Ordering::Relaxed);
                break;
            }
            (playout::descend(&mut t, &mut worker), t.params)
        };
        let work = playout::perform(job, &mut worker, params, &give_up);
        let done = shared.done.fetch_add(1, Ordering::Relaxed) + 1;
        let mut t = lock();
        playout::backup(&mut t, &mut worker, work, &give_up);
        if t.root.proven.is_some() {
            shared.halt.store(true, Ordering::Relaxed);
        }
        progress(&t, done);
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
