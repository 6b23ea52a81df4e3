//! The work done on a thread of its own, so that the session answers `isready`, `stop`,
//! `ponderhit` and `quit` meanwhile: a search (`go`) or a `perft`.
//!
//! A search told to wait for `stop` (`go infinite`) or for `ponderhit` (`go ponder`)
//! answers only when told, as UCI has it, even when it is done at once: a level below the
//! search, a win in one, a single stopper, a proof.
//!
//! The work's last line (`bestmove …`, perft's count) is said by [`Running`] after it has
//! marked the work answered, so that a command sent by a program that has read that line
//! finds the work over and is not taken for one sent while it ran: a `stop` sent after
//! `bestmove` and a new `go` stops that new search, not the one already answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use punct_core::{Game, Move, Position};

use crate::clock::Instant;
use crate::engine::{Engine, SearchInfo, SearchResult};
use crate::limits::SearchLimits;

use super::go::Go;
use super::{Out, say};

/// What the work gives back: the engine, after a search, and its last line.
pub(super) type Answer = (Option<Engine>, String);

/// How the session steers the work.
#[derive(Default)]
pub(super) struct Steer {
    /// `stop`, `quit` or the end of the input: answer now.
    stop: AtomicBool,
    /// `ponderhit`: the move pondered on was played.
    hit: AtomicBool,
    /// Set with either: ends the search or perft under way.
    interrupt: AtomicBool,
    /// Set just before the work's last line is said: it is over.
    answered: AtomicBool,
}

impl Steer {
    /// Whether the search may answer: told to stop, or (`ponder`) the move was played.
    fn may_answer(&self, ponder: bool) -> bool {
        self.stop.load(Ordering::SeqCst) || (ponder && self.hit.load(Ordering::SeqCst))
    }

    /// Waits until the search may answer; the session unparks the worker after each word.
    fn wait(&self, ponder: bool) {
        while !self.may_answer(ponder) {
            std::thread::park();
        }
    }
}

/// Work under way.
pub(super) struct Running {
    /// Its number, to tell its `Done` from a stale one.
    pub id: u64,
    steer: Arc<Steer>,
    /// `go infinite`: it answers after `stop` only.
    infinite: bool,
    /// `go ponder`: it waits for `ponderhit` or `stop`.
    ponder: bool,
    /// Gives back the engine after a search.
    handle: JoinHandle<Option<Engine>>,
}

impl Running {
    /// Sets `work` going on its own thread, which says its last line on `out` and then
    /// calls `done`.
    pub fn start<W: std::io::Write + Send + 'static>(
        id: u64,
        go: Option<Go>,
        out: Out<W>,
        work: impl FnOnce(&Steer) -> Answer + Send + 'static,
        done: impl FnOnce() + Send + 'static,
    ) -> Running {
        let steer = Arc::new(Steer::default());
        let shared = Arc::clone(&steer);
        let handle = std::thread::spawn(move || {
            let (engine, last) = work(&shared);
            shared.answered.store(true, Ordering::SeqCst);
            say(&out, &last);
            done();
            engine
        });
        Running {
            id,
            steer,
            infinite: go.is_some_and(|g| g.limits.infinite),
            ponder: go.is_some_and(|g| g.ponder),
            handle,
        }
    }

    /// Whether its last line is said, or about to be: it is over.
    pub fn answered(&self) -> bool {
        self.steer.answered.load(Ordering::SeqCst)
    }

    /// Whether only the session can end it: nothing it searches for bounds it.
    pub fn held(&self) -> bool {
        self.infinite || (self.ponder && !self.steer.hit.load(Ordering::SeqCst))
    }

    /// `ponderhit`: the move pondered on was played, and the search goes on with its
    /// limits; false when no `go ponder` is waiting for it.
    pub fn ponderhit(&self) -> bool {
        if !self.ponder || self.steer.stop.load(Ordering::SeqCst) {
            return false;
        }
        if self.steer.hit.swap(true, Ordering::SeqCst) {
            return false;
        }
        self.steer.interrupt.store(true, Ordering::SeqCst);
        self.handle.thread().unpark();
        true
    }

    /// Ends the work and waits for its answer; gives back the engine (`Err` when the
    /// work panicked).
    pub fn finish(self) -> Result<Option<Engine>, ()> {
        self.steer.stop.store(true, Ordering::SeqCst);
        self.steer.interrupt.store(true, Ordering::SeqCst);
        self.handle.thread().unpark();
        self.handle.join().map_err(|_| ())
    }
}

/// Searches `game` for `go`, reporting on `out`, and gives the `bestmove` line once it
/// may answer.
pub(super) fn think<W: std::io::Write>(
    engine: &mut Engine,
    game: &Game,
    go: Go,
    steer: &Steer,
    out: &Out<W>,
) -> String {
    let search = |engine: &mut Engine, limits: &SearchLimits, stop: &AtomicBool| {
        let started = Instant::now();
        engine.search(game, limits, stop, &mut |info| {
            say(out, &info_line(info, started.elapsed()));
        })
    };
    // Pondering thinks until told; the limits apply from `ponderhit` on.
    let first = if go.ponder {
        SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        }
    } else {
        go.limits
    };
    let mut result = search(engine, &first, &steer.interrupt);
    let cut_short = steer.interrupt.load(Ordering::SeqCst);
    if go.ponder || go.limits.infinite {
        steer.wait(go.ponder);
    }
    // The move was played while the search went on: it goes on, the tree kept, within
    // the limits. One that ended by itself has its answer already.
    if go.ponder && cut_short && !steer.stop.load(Ordering::SeqCst) {
        result = search(engine, &go.limits, &steer.stop);
        if go.limits.infinite {
            steer.wait(false);
        }
    }
    bestmove_line(&result)
}

/// `perft` on the worker: the count, or that it was stopped.
pub(super) fn count(pos: &mut Position, depth: u32, steer: &Steer) -> String {
    match perft(pos, depth, &steer.interrupt) {
        Some(count) => count.to_string(),
        None => "info string perft stopped".to_owned(),
    }
}

/// The number of move sequences of `depth` plies from `pos`, as [`punct_core::perft`]
/// counts them; `None` when `stop` is set first.
fn perft(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.decisive_outcome().is_some() {
        return Some(0);
    }
    if depth == 1 {
        return Some(pos.count_legal_moves());
    }
    let mut total = 0;
    for mv in pos.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let undo = pos.make(mv);
        let count = perft(pos, depth - 1, stop);
        pos.unmake(undo);
        total += count?;
    }
    Some(total)
}

/// `bestmove <move>`, with `ponder <move>`, the reply the search expects, when its line
/// has one; `bestmove none` when there is no move.
fn bestmove_line(result: &SearchResult) -> String {
    match (result.best_move, result.pv.get(1)) {
        (Some(mv), Some(reply)) if result.pv.first() == Some(&mv) => {
            format!("bestmove {mv} ponder {reply}")
        }
        (Some(mv), _) => format!("bestmove {mv}"),
        (None, _) => "bestmove none".to_owned(),
    }
}

/// An `info` line.
fn info_line(info: &SearchInfo, elapsed: Duration) -> String {
    let ms = elapsed.as_millis().max(1);
    let nps = u128::from(info.nodes) * 1000 / ms;
    let permille = |p: f32| (p * 1000.0).round() as i32;
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    let mut line = format!("info depth {} ", info.depth);
    if info.multipv > 1 {
        line.push_str(&format!("multipv {} ", info.multipv));
    }
    line.push_str(&format!(
        "nodes {} nps {nps} time {ms} wdl {} {} {} pv {}",
        info.nodes,
        permille(info.score.win),
        permille(info.score.draw),
        permille(info.score.loss),
        pv.join(" ")
    ));
    line
}
