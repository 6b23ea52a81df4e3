//! `punct engine`: a line protocol on standard input and output in the manner of UCI and
//! TEI, so that other programs (servers, match runners, GUIs) can use the engine.
//!
//! Searches and `perft` run on their own thread, so `isready`, `stop` and `quit` are answered
//! while they work. Any other command sent meanwhile waits, as UCI has it, and runs in order
//! once the work is done (after its `bestmove`). Bad input, a line that is not UTF-8
//! included, is answered with an `error …` line and never ends the session.
//!
//! ```text
//! pei                                   → id name …, id author …, option …, peiok
//! isready                               → readyok
//! setoption name Level|Seed|MultiPV|Threads|PolicyShortlist value <n>
//! setoption name Policy value handset|learned
//! newgame [basic|standard]
//! position startpos [basic|standard] [moves <move> …]
//! position pos <variant> <side> <ply> <pieces> [moves <move> …]
//! go [movetime <ms>] [wtime <ms> btime <ms> winc <ms> binc <ms>] [nodes <n>] [infinite]
//!                                       → info depth … nodes … nps … time … wdl … pv …
//!                                       → bestmove <move>  (bestmove none: game over)
//! stop | quit
//! validmoves                            → the canonical move list on one line
//! perft <depth>                         → the count (depth 4 at most; `stop` ends it)
//! show                                  → position text, board, status <…>
//! ```
//!
//! At the end of the input a search with limits runs to its end, an infinite one is
//! stopped, and the commands waiting for them run; `quit` stops at once.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use punct_core::{Game, Move, Position, Variant};

use crate::engine::{Engine, Options, SearchInfo};
use crate::learned::{DEFAULT_SHORTLIST, Priors};
use crate::level::Level;
use crate::limits::{Clock, SearchLimits};
use crate::search::params::{Params, TUNABLES};
use crate::search::threads;

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
    /// A line of input, or the number of a line that was not UTF-8.
    Line(Result<String, usize>),
    /// The end of the input, or why it could not be read.
    End(io::Result<()>),
    /// The work with this number finished.
    Done(u64),
}

/// Work on the worker thread: a search or a perft.
struct Running {
    /// Its number, to tell its `Done` from a stale one.
    id: u64,
    stop: Arc<AtomicBool>,
    /// Searching until told to stop.
    infinite: bool,
    /// Gives back the engine after a search.
    handle: JoinHandle<Option<Engine>>,
}

/// The session's state.
struct Session<W> {
    out: Out<W>,
    events: Sender<Event>,
    game: Game,
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
        game: Game::new(Variant::Standard),
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
        bytes.clear();
        let event = match input.read_until(b'\n', &mut bytes) {
            Ok(0) => Event::End(Ok(())),
            Ok(_) => match std::str::from_utf8(&bytes) {
                Ok(text) => Event::Line(Ok(text.trim().to_owned())),
                Err(_) => Event::Line(Err(number)),
            },
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
        say(&self.out, &format!("error {message}"));
    }

    /// Handles events until `quit`, or until the input has ended and all work is done.
    fn serve(&mut self, inbox: &Receiver<Event>) -> io::Result<()> {
        let mut ended = None;
        loop {
            if ended.is_some() {
                // Nobody is left to stop an infinite search.
                if self.running.as_ref().is_some_and(|r| r.infinite) {
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
                Event::Line(Ok(line)) => {
                    if !self.on_line(line) {
                        return Ok(());
                    }
                }
                Event::Line(Err(number)) => {
                    self.error(&format!("input line {number} is not UTF-8 text"));
                }
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
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "isready" => say(&self.out, "readyok"),
            "quit" => return false,
            "stop" => {
                self.finish_work();
                return self.run_waiting();
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
                let texts = self.game.position().legal_move_texts();
                say(&self.out, &texts.join(" "));
            }
            "perft" => self.perft(&rest),
            "show" => self.show(),
            _ => self.error(&format!("unknown command `{command}`")),
        }
        true
    }

    fn identify(&self) {
        let lines = [
            format!("id name punct {}", env!("CARGO_PKG_VERSION")),
            "id author the punct authors".to_owned(),
            format!(
                "option name Level type spin default {} min 1 max {}",
                Level::MAX,
                Level::MAX
            ),
            "option name Seed type spin default 24301 min 0 max 4294967295".to_owned(),
            "option name MultiPV type spin default 1 min 1 max 16".to_owned(),
            "option name Policy type combo default learned var handset var learned".to_owned(),
            format!(
                "option name PolicyShortlist type spin default {DEFAULT_SHORTLIST} min 0 max 400"
            ),
            format!(
                "option name Threads type spin default 1 min 1 max {}",
                threads::most()
            ),
        ];
        for line in lines {
            say(&self.out, &line);
        }
        let defaults = Params::default();
        for t in TUNABLES {
            let (lo, hi) = t.range;
            say(
                &self.out,
                &format!(
                    "option name {} type string default {} min {lo} max {hi}",
                    t.name,
                    (t.get)(&defaults)
                ),
            );
        }
        say(&self.out, "peiok");
    }

    /// Stops the worker's search or perft and waits for it (a search prints its
    /// `bestmove`).
    fn finish_work(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            match running.handle.join() {
                Ok(Some(engine)) => self.engine = Some(engine),
                Ok(None) => {}
                Err(_) => {
                    self.error("the search failed; the engine was reset");
                    self.engine = Some(Engine::new(Options::default()));
                }
            }
        }
    }

    /// Sets the worker to `work`, which is told when to stop; it sends `Done` when it ends.
    fn start(
        &mut self,
        infinite: bool,
        work: impl FnOnce(&AtomicBool) -> Option<Engine> + Send + 'static,
    ) {
        self.jobs += 1;
        let id = self.jobs;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let events = self.events.clone();
        let handle = std::thread::spawn(move || {
            let engine = work(&flag);
            let _ = events.send(Event::Done(id));
            engine
        });
        self.running = Some(Running {
            id,
            stop,
            infinite,
            handle,
        });
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine
            .get_or_insert_with(|| Engine::new(Options::default()))
    }
    fn set_option(&mut self, words: &[&str]) {
        let (name, value) = match words {
            ["name", rest @ ..] => match rest.iter().position(|w| *w == "value") {
                Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => return self.error("expected `setoption name <name> value <value>`"),
        };
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse().ok().and_then(Level::new) {
                Some(level) => self.engine().set_level(level),
                None => self.error(&format!("Level must be 1 to {}, not `{value}`", Level::MAX)),
            },
            "seed" => match value.parse::<u64>() {
                Ok(seed) => {
                    let options = self.engine().options();
                    let priors = self.engine().priors();
                    let mut engine = Engine::new(Options { seed, ..options });
                    engine.set_priors(priors);
                    self.engine = Some(engine);
                }
                Err(_) => self.error(&format!("Seed must be a number, not `{value}`")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=16).contains(&n) => self.engine().set_multipv(n),
                _ => self.error(&format!("MultiPV must be 1 to 16, not `{value}`")),
            },
            "policy" => match value.to_ascii_lowercase().as_str() {
                "handset" => self.engine().set_priors(Priors::HandSet),
                "learned" => {
                    let shortlist = self.shortlist;
                    self.engine().set_priors(Priors::Learned { shortlist });
                }
                _ => self.error(&format!("Policy must be handset or learned, not `{value}`")),
            },
            "policyshortlist" => match value.parse::<usize>() {
                Ok(n) if n <= 400 => {
                    self.shortlist = n;
                    if let Priors::Learned { .. } = self.engine().priors() {
                        self.engine().set_priors(Priors::Learned { shortlist: n });
                    }
                }
                _ => self.error(&format!("PolicyShortlist must be 0 to 400, not `{value}`")),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=threads::most()).contains(&n) => self.engine().set_threads(n),
                _ => self.error(&format!(
                    "Threads must be 1 to {} (twice this machine's cores), not `{value}`",
                    threads::most()
                )),
            },
            _ if TUNABLES.iter().any(|t| t.name.eq_ignore_ascii_case(&name)) => {
                match value.parse::<f64>() {
                    Ok(v) if v.is_finite() => {
                        let mut params = self.engine().params();
                        match params.set(&name, v) {
                            Ok(()) => self.engine().set_params(params),
                            Err(e) => self.error(&e),
                        }
                    }
                    _ => self.error(&format!("{name} must be a number, not `{value}`")),
                }
            }
            _ => self.error(&format!("unknown option `{name}`")),
        }
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
        self.game = Game::new(variant);
        self.engine().new_game();
    }

    fn position(&mut self, words: &[&str]) {
        match parse_position(words) {
            Ok(game) => self.game = game,
            Err(e) => self.error(&e),
        }
    }

    fn go(&mut self, words: &[&str]) {
        let limits = match parse_go(words) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        if let Some(outcome) = self.game.outcome() {
            say(&self.out, &format!("info string game over: {outcome}"));
            say(&self.out, "bestmove none");
            return;
        }
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(Options::default()));
        let out = Arc::clone(&self.out);
        let game = self.game.clone();
        self.start(limits.infinite, move |stop| {
            let started = Instant::now();
            let result = engine.search(&game, &limits, stop, &mut |info| {
                say(&out, &info_line(info, started.elapsed()));
            });
            match result.best_move {
                Some(mv) => say(&out, &format!("bestmove {mv}")),
                None => say(&out, "bestmove none"),
            }
            Some(engine)
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
        let mut pos = self.game.position().clone();
        let out = Arc::clone(&self.out);
        self.start(false, move |stop| {
            match perft(&mut pos, depth, stop) {
                Some(count) => say(&out, &count.to_string()),
                None => say(&out, "info string perft stopped"),
            }
            None
        });
    }

    fn show(&self) {
        let pos = self.game.position();
        say(&self.out, &pos.to_string());
        for line in punct_core::diagram::diagram(pos).lines() {
            say(&self.out, line);
        }
        match self.game.outcome() {
            Some(outcome) => say(&self.out, &format!("status {outcome}")),
            None => say(&self.out, &format!("status {} to move", pos.turn())),
        }
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

/// A game from `position startpos …` or `position pos …` arguments.
fn parse_position(words: &[&str]) -> Result<Game, String> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => match rest.first().and_then(|v| Variant::from_name(v)) {
            Some(v) => (Position::new(v), &rest[1..]),
            None => (Position::new(Variant::Standard), rest),
        },
        ["pos", rest @ ..] => {
            let fields = rest.len().min(4);
            if fields < 4 {
                return Err("expected `position pos <variant> <side> <ply> <pieces>`".to_owned());
            }
            let text = rest[..4].join(" ");
            let pos =
                Position::from_text(&text).map_err(|e| format!("bad position `{text}`: {e}"))?;
            (pos, &rest[4..])
        }
        _ => return Err("expected `position startpos …` or `position pos …`".to_owned()),
    };
    let mut game = Game::from_position(start);
    match rest {
        [] => {}
        ["moves", moves @ ..] => {
            for text in moves {
                let mv = Move::parse(text).map_err(|e| e.to_string())?;
                game.play(mv).map_err(|e| e.to_string())?;
            }
        }
        [other, ..] => return Err(format!("expected `moves`, not `{other}`")),
    }
    Ok(game)
}

/// Limits from `go` arguments.
fn parse_go(words: &[&str]) -> Result<SearchLimits, String> {
    let mut limits = SearchLimits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        if word == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        let value = words
            .get(i + 1)
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| format!("`go {word}` needs a number after it"))?;
        let ms = Duration::from_millis(value);
        match word {
            "movetime" => limits.movetime = Some(ms),
            "nodes" => limits.nodes = Some(value),
            "wtime" => clock.white = ms,
            "btime" => clock.black = ms,
            "winc" => clock.white_increment = ms,
            "binc" => clock.black_increment = ms,
            _ => return Err(format!("unknown `go` argument `{word}`")),
        }
        has_clock |= matches!(word, "wtime" | "btime" | "winc" | "binc");
        i += 2;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    Ok(limits)
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
