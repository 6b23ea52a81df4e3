//! One game of a bot: followed on its WebSocket (reconnecting through drops and server
//! restarts, a move on its way kept and sent again, as the terminal client does), each of
//! its turns searched by its own engine with the clock the server gives.
//!
//! An engine that fails (a program that crashed, answered garbage or an illegal move) is
//! started again once; failing again, the game is resigned, saying why, rather than left to
//! run out of time.

use std::sync::mpsc::Sender;
use std::time::Duration;

use punct_core::Colour;
use punct_engine::players::Player;
use punct_engine::{Clock, SearchLimits};
use punct_match::PlayerSpec;
use punct_tui::online::link::backoff;
use punct_tui::online::{Api, ApiError, Connection, Note, RemoteGame};

use super::News;

/// How often the game's connection is looked at.
const POLL: Duration = Duration::from_millis(20);

/// Engine failures in a row after which the game is resigned.
const FAILURES: u32 = 2;

/// Time kept back from the clock for the move's way to the server.
const MARGIN: Duration = Duration::from_millis(300);

/// What a game thread is given.
pub struct Seat {
    /// The server.
    pub api: Api,
    /// The game.
    pub id: String,
    /// Who plays.
    pub engine: PlayerSpec,
    /// The seed of its engine.
    pub seed: u64,
    /// The longest search of a move.
    pub movetime: Duration,
}

/// Plays game `seat.id` to its end, telling `news` of it; the end's words, or why the game
/// could not be played.
pub fn play(seat: Seat, news: &Sender<News>) -> Result<String, String> {
    let log = |line: String| {
        let _ = news.send(News::Log(format!("game {}: {line}", seat.id)));
    };
    let state = state_with_retries(&seat.api, &seat.id, &log)?;
    let mut game = RemoteGame::connect(&seat.api, state)?;
    let mut engine = match start(&seat) {
        Ok(engine) => engine,
        Err(why) => return resign(&seat, &why),
    };
    let mut failures = 0;
    loop {
        for note in game.poll() {
            match note {
                Note::Info(line) | Note::Refusal(line) => log(line),
            }
        }
        if let Connection::Refused(why) = game.connection() {
            return Err(format!("the server refused the game's connection: {why}"));
        }
        if let Some(outcome) = &game.state().outcome {
            return Ok(outcome.text.clone());
        }
        if game.our_turn() && *game.connection() == Connection::Connected {
            let limits = limits(&game, seat.movetime);
            match engine.choose(game.game(), &limits) {
                Ok(mv) => {
                    // The state may have moved on while the engine thought (the opponent
                    // resigned, a flag fell): the move is then not made, and said why.
                    match game.play(mv) {
                        Ok(_) => log(format!("plays {mv}")),
                        Err(why) => log(format!("{mv} not played: {why}")),
                    }
                    failures = 0;
                }
                Err(why) => {
                    failures += 1;
                    log(format!("the engine failed ({why})"));
                    if failures >= FAILURES {
                        return resign(&seat, &format!("the engine failed twice in a row ({why})"));
                    }
                    engine = match start(&seat) {
                        Ok(engine) => engine,
                        Err(why) => return resign(&seat, &why),
                    };
                }
            }
        }
        std::thread::sleep(POLL);
    }
}

/// Resigns the game, the engine being gone for `why`: rather than let its clock run out.
fn resign(seat: &Seat, why: &str) -> Result<String, String> {
    let said = format!("resigned: {why}");
    match seat.api.resign(&seat.id) {
        Ok(()) => Err(said),
        Err(e) => Err(format!("{said}, and resigning failed: {e}")),
    }
}

/// The engine for a new game.
fn start(seat: &Seat) -> Result<Box<dyn Player>, String> {
    let mut engine = seat
        .engine
        .create(seat.seed)
        .map_err(|e| format!("cannot start the engine `{}`: {e}", seat.engine))?;
    engine.new_game();
    Ok(engine)
}

/// The game's state, asked again while the server cannot be reached (a restart).
fn state_with_retries(
    api: &Api,
    id: &str,
    log: &dyn Fn(String),
) -> Result<punct_tui::online::wire::GameState, String> {
    let mut attempt = 0;
    loop {
        match api.state(id) {
            Ok(state) => return Ok(state),
            Err(ApiError::Unreachable(why)) => {
                attempt += 1;
                let wait = backoff(attempt);
                log(format!(
                    "cannot read the game ({why}): trying again in {:.1} s",
                    wait.as_secs_f64()
                ));
                std::thread::sleep(wait);
            }
            Err(e) => return Err(format!("cannot read the game: {e}")),
        }
    }
}

/// The search's bounds for the move now: the clocks less a margin for the way to the
/// server, and never more than `movetime`.
fn limits(game: &RemoteGame, movetime: Duration) -> SearchLimits {
    let clock = game.state().clock.as_ref();
    let timed = clock.filter(|c| c.days_per_move.is_none());
    let mut limits = SearchLimits::movetime(movetime);
    if let Some(c) = timed {
        let left = |colour| {
            game.time_left(colour)
                .unwrap_or_default()
                .saturating_sub(MARGIN)
                .max(Duration::from_millis(10))
        };
        let increment = Duration::from_millis(c.increment_ms.max(0).unsigned_abs());
        limits.clock = Some(Clock {
            white: left(Colour::White),
            black: left(Colour::Black),
            white_increment: increment,
            black_increment: increment,
        });
    }
    limits
}
