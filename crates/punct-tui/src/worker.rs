//! The engine on its own thread, so that the screen keeps answering while it thinks.
//!
//! Each search gets its own stop flag and number: cancelling sets the flag and forgets the
//! number, so a late answer to a cancelled search is recognised and dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use punct_core::Game;
use punct_engine::{Engine, Options, SearchInfo, SearchLimits, SearchResult};

/// The name of engine threads, by which the screen's panic hook knows them.
pub const THREAD_NAME: &str = "punct-engine";

/// One search to run.
struct Request {
    id: u64,
    game: Game,
    limits: SearchLimits,
    stop: Arc<AtomicBool>,
}

/// What the engine thread sends back.
enum Reply {
    Progress(u64, SearchInfo),
    Done(u64, SearchResult),
}

/// News of the current search.
#[derive(Debug)]
pub enum Update {
    /// The search is still running and reports this.
    Progress(SearchInfo),
    /// The search has finished.
    Done(SearchResult),
    /// The engine thread has died (a bug in the engine): no answer will come.
    Failed,
}

/// The search under way.
struct Pending {
    id: u64,
    stop: Arc<AtomicBool>,
    started: Instant,
}

/// A handle on the engine thread.
pub struct Worker {
    requests: Option<Sender<Request>>,
    replies: Receiver<Reply>,
    thread: Option<JoinHandle<()>>,
    next_id: u64,
    pending: Option<Pending>,
}

impl Worker {
    /// Starts an engine thread with these options.
    pub fn spawn(options: Options) -> Worker {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, replies) = mpsc::channel();
        let thread = thread::Builder::new()
            .name(THREAD_NAME.to_owned())
            .spawn(move || {
                let mut engine = Engine::new(options);
                for request in inbox {
                    // Starting a search cancels the one before, so a request cancelled while it
                    // waited (say, arrow keys held down in the review) is skipped unanswered.
                    if request.stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    let id = request.id;
                    let sink = outbox.clone();
                    let mut on_info = |info: &SearchInfo| {
                        let _ = sink.send(Reply::Progress(id, info.clone()));
                    };
                    let result =
                        engine.search(&request.game, &request.limits, &request.stop, &mut on_info);
                    if outbox.send(Reply::Done(id, result)).is_err() {
                        break;
                    }
                }
            });
        // A thread that could not start drops its channel ends, which `poll` reports.
        Worker {
            requests: Some(requests),
            replies,
            thread: thread.ok(),
            next_id: 0,
            pending: None,
        }
    }

    /// Searches the current position of `game`, cancelling any search under way.
    pub fn start(&mut self, game: &Game, limits: SearchLimits) {
        self.cancel();
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let request = Request {
            id: self.next_id,
            game: game.clone(),
            limits,
            stop: Arc::clone(&stop),
        };
        // If the thread is gone the request is lost, and `poll` says so.
        if let Some(requests) = &self.requests {
            let _ = requests.send(request);
        }
        self.pending = Some(Pending {
            id: self.next_id,
            stop,
            started: Instant::now(),
        });
    }

    /// Stops the search under way, if any; its answer will be ignored.
    pub fn cancel(&mut self) {
        if let Some(pending) = self.pending.take() {
            pending.stop.store(true, Ordering::Relaxed);
        }
    }

    /// When the search under way started.
    pub fn thinking_since(&self) -> Option<Instant> {
        self.pending.as_ref().map(|p| p.started)
    }

    /// The next piece of news about the current search, without waiting.
    pub fn poll(&mut self) -> Option<Update> {
        loop {
            let reply = match self.replies.try_recv() {
                Ok(reply) => reply,
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    return self.pending.take().map(|_| Update::Failed);
                }
            };
            let current = self.pending.as_ref().map(|p| p.id);
            match reply {
                Reply::Progress(id, info) if Some(id) == current => {
                    return Some(Update::Progress(info));
                }
                Reply::Done(id, result) if Some(id) == current => {
                    self.pending = None;
                    return Some(Update::Done(result));
                }
                _ => {}
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel();
        // Closing the request channel ends the thread's loop once its search has stopped.
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use punct_core::Variant;
    use punct_engine::Level;

    fn wait(worker: &mut Worker) -> SearchResult {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            match worker.poll() {
                Some(Update::Done(result)) => return result,
                Some(Update::Progress(_)) => {}
                Some(Update::Failed) => panic!("the engine thread died"),
                None => thread::sleep(Duration::from_millis(5)),
            }
        }
        panic!("the engine did not answer");
    }

    #[test]
    fn answers_with_a_legal_move_and_drops_cancelled_searches() {
        let options = Options {
            level: Level::new(1).unwrap(),
            seed: 1,
            ..Options::default()
        };
        let mut worker = Worker::spawn(options);
        let game = Game::new(Variant::Standard);
        let limits = SearchLimits::movetime(Duration::from_millis(30));
        worker.start(&game, limits);
        worker.cancel();
        assert!(worker.thinking_since().is_none());
        worker.start(&game, limits);
        let result = wait(&mut worker);
        let mv = result.best_move.expect("a move");
        assert!(game.position().check(mv).is_ok());
        assert!(worker.poll().is_none());
    }
}
