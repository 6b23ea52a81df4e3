//! `punct engine`: a line protocol on standard input and output in the manner of UCI and
//! TEI, so that other programs (servers, match runners, GUIs) can use the engine.
//!
//! Searches and `perft` run on their own thread ([`work`]), so `isready`, `stop`,
//! `ponderhit` and `quit` are answered while they work. Any other command sent meanwhile
//! waits, as UCI has it, and runs in order once the work is done (after its `bestmove`).
//! Bad input, a line that is not UTF-8 or longer than [`LONGEST_LINE`] included, is
//! answered with an `error …` line, which repeats at most the start of what it quotes and
//! escapes control characters ([`shown`]), and never ends the session.
//!
//! ```text
//! pei                                   → id name …, id author …, option …, peiok
//! isready                               → readyok
//! setoption name <name> value <value>   (pei lists the options)
//! newgame [basic|standard]
//! position startpos [basic|standard] [moves <move> …]
//! position pos <variant> <side> <ply> <pieces> [moves <move> …]
//! go [movetime <ms>] [wtime <ms> btime <ms> [winc <ms> binc <ms>] [movestogo <n>]]
//!    [nodes <n>] [depth <d>] [infinite] [ponder]
//!                                       → info depth … nodes … nps … time … wdl … pv …
//!                                       → bestmove <move> [ponder <move>]
//!                                         (bestmove none: game over)
//! ponderhit | stop | quit
//! validmoves                            → the canonical move list on one line
//! perft <depth>                         → the count (depth 4 at most; `stop` ends it)
//! show                                  → position text, board, status <…>
//! help                                  → the commands ([`COMMANDS`])
//! ```
//!
//! After a refused `position` no position is held: `go` and the commands that read the
//! position refuse until a valid `position` (or `newgame`) comes. At the end of the input a
//! search with limits runs to its end, an infinite or pondering one is stopped, and the
//! commands waiting for them run; `quit` stops at once.

mod go;
mod help;
mod input;
mod options;
mod position;
mod shown;
mod work;

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use punct_core::{Game, Variant};

use crate::engine::{Engine, Options};
use crate::learned::DEFAULT_SHORTLIST;

pub use help::COMMANDS;
pub use input::LONGEST_LINE;

use input::Line;
use work::Running;

/// Deepest `perft` the protocol runs: with thousands of moves a ply, depth 4 is already
/// days of counting (`stop` ends it).
const MAX_PERFT: u32 = 4;

/// Where the session's lines go, shared with the worker thread.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    // A poisoned lock means the worker panicked mid-line: still answer.
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// What the session's loop waits for.
enum Event {
    /// A line of input, with its number.
    Line(usize, Line),
    /// The end of the input, or why it could not be read.
    End(io::Result<()>),
    /// The work with this number finished.
    Done(u64),
}

/// The session's state.
struct Session<W> {
    out: Out<W>,
    events: Sender<Event>,
    /// The position searched; `None` after a refused `position`, until a valid one.
    game: Option<Game>,
    engine: Option<Engine>,
    running: Option<Running>,
    /// Commands that came while the worker was busy, in order.
    waiting: VecDeque<String>,
    /// Numbers the work.
    jobs: u64,
    /// Moves judged one ply deep per node with the learned policy.
    shortlist: usize,
}

/// Runs the protocol until `quit` or the end of `input`, and gives back the output.
pub fn run<R, W>(input: R, output: W) -> io::Result<W>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (events, inbox) = channel();
    let reader = events.clone();
    // A reader thread, so that the loop hears of finished work while the input is silent.
    std::thread::spawn(move || read_lines(input, &reader));
    let mut session = Session {
        out: Arc::new(Mutex::new(output)),
        events,
        game: Some(Game::new(Variant::Standard)),
        engine: Some(Engine::new(Options::default())),
        running: None,
        waiting: VecDeque::new(),
        jobs: 0,
        shortlist: DEFAULT_SHORTLIST,
    };
    let ended = session.serve(&inbox);
    session.finish_work();
    let out = session.out;
    drop(session.engine);
    let output = match Arc::try_unwrap(out) {
        Ok(m) => m.into_inner().unwrap_or_else(|e| e.into_inner()),
        Err(_) => return Err(io::Error::other("output still shared")),
    };
    ended.map(|()| output)
}

/// Sends each line of `input` as an event, then its end.
fn read_lines<R: BufRead>(mut input: R, events: &Sender<Event>) {
    let mut bytes = Vec::new();
    for number in 1.. {
        let event = match input::next_line(&mut input, &mut bytes) {
            Ok(Some(line)) => Event::Line(number, line),
            Ok(None) => Event::End(Ok(())),
            Err(e) => Event::End(Err(e)),
        };
        let last = matches!(event, Event::End(_));
        if events.send(event).is_err() || last {
            return;
        }
    }
}

impl<W: Write + Send + 'static> Session<W> {
    fn error(&self, message: &str) {
        say(&self.out, &format!("error {}", shown::printable(message)));
    }

    /// Handles events until `quit`, or until the input has ended and all work is done.
    fn serve(&mut self, inbox: &Receiver<Event>) -> io::Result<()> {
        let mut ended = None;
        loop {
            if ended.is_some() {
                // Nobody is left to stop an infinite search or to say `ponderhit`.
                if self.running.as_ref().is_some_and(Running::held) {
                    self.finish_work();
                    if !self.run_waiting() {
                        return Ok(());
                    }
                    continue;
                }
                if self.running.is_none() {
                    return ended.unwrap_or(Ok(()));
                }
            }
            // The session holds a sender itself, so the channel never closes under it.
            let Ok(event) = inbox.recv() else {
                return Ok(());
            };
            match event {
                Event::Line(_, Line::Text(line)) => {
                    if !self.on_line(line) {
                        return Ok(());
                    }
                }
                Event::Line(number, Line::NotUtf8) => {
                    self.error(&format!("input line {number} is not UTF-8 text"));
                }
                Event::Line(number, Line::TooLong(bytes)) => self.error(&format!(
                    "input line {number} is {bytes} bytes long, more than the {LONGEST_LINE} \
                     a line may have: it was not read"
                )),
                Event::End(result) => ended = Some(result),
                Event::Done(id) => {
                    if self.running.as_ref().is_some_and(|r| r.id == id) {
                        self.finish_work();
                        if !self.run_waiting() {
                            return Ok(());
                        }
                    }
                }
            }
        }
    }

    /// A line of input: answered at once, or kept until the worker is free; false to quit.
    fn on_line(&mut self, line: String) -> bool {
        // Work that has said its last line is over, whether or not its `Done` has come: the
        // line may come from a program that read that answer, and is meant for what follows.
        if self.running.as_ref().is_some_and(Running::answered) {
            self.finish_work();
            if !self.run_waiting() {
                return false;
            }
        }
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "isready" => say(&self.out, "readyok"),
            "quit" => return false,
            "stop" => {
                self.finish_work();
                return self.run_waiting();
            }
            "ponderhit" => {
                if !self.running.as_ref().is_some_and(Running::ponderhit) {
                    self.error("`ponderhit` with no `go ponder` thinking: nothing to go on with");
                }
            }
            _ if self.running.is_some() => self.waiting.push_back(line),
            _ => return self.handle(&line),
        }
        true
    }

    /// Runs the commands that waited for the worker, until one sets it to work again;
    /// false to quit.
    fn run_waiting(&mut self) -> bool {
        while self.running.is_none() {
            let Some(line) = self.waiting.pop_front() else {
                break;
            };
            if !self.handle(&line) {
                return false;
            }
        }
        true
    }

    /// Handles one command while the worker is free; false to quit.
    fn handle(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "pei" => self.identify(),
            "isready" => say(&self.out, "readyok"),
            "setoption" => self.set_option(&rest),
            "newgame" => self.new_game(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {}
            "quit" => return false,
            "validmoves" => {
                if let Some(game) = self.held_game() {
                    let texts = game.position().legal_move_texts();
                    say(&self.out, &texts.join(" "));
                }
            }
            "perft" => self.perft(&rest),
            "show" => self.show(),
            "help" => {
                for line in COMMANDS.lines() {
                    say(&self.out, line);
                }
            }
            "uci" => self.error(
                "unknown command `uci`: punct speaks PEI, UCI for PÜNCT, whose handshake is \
                 `pei` (`help` lists the commands)",
            ),
            _ => self.error(&format!(
                "unknown command `{command}` (`help` lists the commands)"
            )),
        }
        true
    }

    fn identify(&self) {
        say(
            &self.out,
            &format!("id name punct {}", env!("CARGO_PKG_VERSION")),
        );
        say(&self.out, "id author the punct authors");
        for line in options::option_lines() {
            say(&self.out, &line);
        }
        say(&self.out, "peiok");
    }

    /// The position held, or `None` after saying that there is none.
    fn held_game(&self) -> Option<&Game> {
        if self.game.is_none() {
            self.error(
                "no position: the last `position` was refused; send a valid `position` \
                 (or `newgame`) first",
            );
        }
        self.game.as_ref()
    }

    /// Stops the worker's search or perft and waits for it (a search prints its
    /// `bestmove`).
    fn finish_work(&mut self) {
        if let Some(running) = self.running.take() {
            match running.finish() {
                Ok(Some(engine)) => self.engine = Some(engine),
                Ok(None) => {}
                Err(()) => {
                    self.error("the search failed; the engine was reset");
                    self.engine = Some(Engine::new(Options::default()));
                }
            }
        }
    }

    /// Sets the worker to `work`, which sends `Done` when it ends.
    fn start(
        &mut self,
        go: Option<go::Go>,
        work: impl FnOnce(&work::Steer) -> work::Answer + Send + 'static,
    ) {
        self.jobs += 1;
        let id = self.jobs;
        let events = self.events.clone();
        let done = move || {
            let _ = events.send(Event::Done(id));
        };
        let out = Arc::clone(&self.out);
        self.running = Some(Running::start(id, go, out, work, done));
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine
            .get_or_insert_with(|| Engine::new(Options::default()))
    }

    fn new_game(&mut self, words: &[&str]) {
        let variant = match words {
            [] => Variant::Standard,
            [v] => match v.parse::<Variant>() {
                Ok(v) => v,
                Err(e) => return self.error(&e),
            },
            _ => return self.error("expected `newgame [basic|standard]`"),
        };
        self.game = Some(Game::new(variant));
        self.engine().new_game();
    }

    fn position(&mut self, words: &[&str]) {
        match position::parse_position(words) {
            Ok(game) => self.game = Some(game),
            Err(e) => {
                self.game = None;
                self.error(&format!(
                    "{e} (position refused: none is held until a valid `position`)"
                ));
            }
        }
    }

    fn go(&mut self, words: &[&str]) {
        let go = match go::parse_go(words) {
            Ok(go) => go,
            Err(e) => return self.error(&e),
        };
        let Some(game) = self.held_game().cloned() else {
            return;
        };
        if let Some(outcome) = game.outcome() {
            say(&self.out, &format!("info string game over: {outcome}"));
            say(&self.out, "bestmove none");
            return;
        }
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(Options::default()));
        let out = Arc::clone(&self.out);
        self.start(Some(go), move |steer| {
            let answer = work::think(&mut engine, &game, go, steer, &out);
            (Some(engine), answer)
        });
    }

    fn perft(&mut self, words: &[&str]) {
        let depth = match words {
            [n] => match n.parse::<u32>() {
                Ok(depth) if depth <= MAX_PERFT => depth,
                _ => {
                    return self.error(&format!("perft depth must be 0 to {MAX_PERFT}, not `{n}`"));
                }
            },
            _ => return self.error("expected `perft <depth>`"),
        };
        let Some(game) = self.held_game() else {
            return;
        };
        let mut pos = game.position().clone();
        self.start(None, move |steer| {
            (None, work::count(&mut pos, depth, steer))
        });
    }

    fn show(&self) {
        let Some(game) = self.held_game() else {
            return;
        };
        let pos = game.position();
        say(&self.out, &pos.to_string());
        for line in punct_core::diagram::diagram(pos).lines() {
            say(&self.out, line);
        }
        match game.outcome() {
            Some(outcome) => say(&self.out, &format!("status {outcome}")),
            None => say(&self.out, &format!("status {} to move", pos.turn())),
        }
    }
}
