//! `punct engine`: a line protocol on standard input and output in the manner of UCI and
//! TEI, so that other programs (servers, match runners, GUIs) can use the engine.
//!
//! The search runs on its own thread, so `isready` and `stop` are answered while it thinks.
//! Bad input is answered with an `error …` line and never ends the session.
//!
//! ```text
//! pei                                   → id name …, id author …, option …, peiok
//! isready                               → readyok
//! setoption name Level|Seed|MultiPV value <n>
//! newgame [basic|standard]
//! position startpos [basic|standard] [moves <move> …]
//! position pos <variant> <side> <ply> <pieces> [moves <move> …]
//! go [movetime <ms>] [wtime <ms> btime <ms> winc <ms> binc <ms>] [nodes <n>] [infinite]
//!                                       → info depth … nodes … nps … time … wdl … pv …
//!                                       → bestmove <move>  (bestmove none: game over)
//! stop | quit
//! validmoves                            → the canonical move list on one line
//! perft <depth>                         → the count (depth 3 at most)
//! show                                  → position text, board, status <…>
//! ```
//!
//! At the end of the input a search with limits runs to its end; `quit` stops it.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use punct_core::{Game, Move, Position, Variant};

use crate::engine::{Engine, Options, SearchInfo};
use crate::level::Level;
use crate::limits::{Clock, SearchLimits};

/// Deepest `perft` the protocol runs: deeper ones take minutes and block the loop.
const MAX_PERFT: u32 = 3;

/// Where the session's lines go, shared with the search thread.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    // A poisoned lock means the search thread panicked mid-line: still answer.
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// A running search.
struct Running {
    stop: Arc<AtomicBool>,
    /// Searching until told to stop.
    infinite: bool,
    handle: JoinHandle<Engine>,
}

/// The session's state.
struct Session<W> {
    out: Out<W>,
    game: Game,
    engine: Option<Engine>,
    running: Option<Running>,
}

/// Runs the protocol until `quit` or the end of `input`, and gives back the output.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<W> {
    let mut session = Session {
        out: Arc::new(Mutex::new(output)),
        game: Game::new(Variant::Standard),
        engine: Some(Engine::new(Options::default())),
        running: None,
    };
    let mut quit = false;
    for line in input.lines() {
        let line = line?;
        if !session.handle(line.trim()) {
            quit = true;
            break;
        }
    }
    // At the end of input a search with limits may finish; `quit` and `infinite` stop it.
    if !quit
        && session.running.as_ref().is_some_and(|r| !r.infinite)
        && let Some(running) = session.running.take()
        && let Ok(engine) = running.handle.join()
    {
        session.engine = Some(engine);
    }
    session.finish_search();
    let out = session.out;
    drop(session.engine);
    match Arc::try_unwrap(out) {
        Ok(m) => Ok(m.into_inner().unwrap_or_else(|e| e.into_inner())),
        Err(_) => Err(io::Error::other("output still shared")),
    }
}

impl<W: Write + Send + 'static> Session<W> {
    fn error(&self, message: &str) {
        say(&self.out, &format!("error {message}"));
    }

    /// Handles one line; false to quit.
    fn handle(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "pei" => self.identify(),
            "isready" => say(&self.out, "readyok"),
            "setoption" => {
                self.finish_search();
                self.set_option(&rest);
            }
            "newgame" => {
                self.finish_search();
                self.new_game(&rest);
            }
            "position" => self.position(&rest),
            "go" => {
                self.finish_search();
                self.go(&rest);
            }
            "stop" => self.finish_search(),
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
            "peiok".to_owned(),
        ];
        for line in lines {
            say(&self.out, &line);
        }
    }

    /// Stops a running search and waits for it (it prints its `bestmove`).
    fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            match running.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.error("the search failed; the engine was reset");
                    self.engine = Some(Engine::new(Options::default()));
                }
            }
        }
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
                    let level = self.engine().options().level;
                    self.engine = Some(Engine::new(Options { level, seed }));
                }
                Err(_) => self.error(&format!("Seed must be a number, not `{value}`")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=16).contains(&n) => self.engine().set_multipv(n),
                _ => self.error(&format!("MultiPV must be 1 to 16, not `{value}`")),
            },
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
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let game = self.game.clone();
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let result = engine.search(&game, &limits, &flag, &mut |info| {
                say(&out, &info_line(info, started.elapsed()));
            });
            match result.best_move {
                Some(mv) => say(&out, &format!("bestmove {mv}")),
                None => say(&out, "bestmove none"),
            }
            engine
        });
        self.running = Some(Running {
            stop,
            infinite: limits.infinite,
            handle,
        });
    }

    fn perft(&self, words: &[&str]) {
        match words {
            [n] => match n.parse::<u32>() {
                Ok(depth) if depth <= MAX_PERFT => {
                    let count = punct_core::perft(self.game.position(), depth);
                    say(&self.out, &count.to_string());
                }
                _ => self.error(&format!("perft depth must be 0 to {MAX_PERFT}, not `{n}`")),
            },
            _ => self.error("expected `perft <depth>`"),
        }
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
