//! What a run did and what it found, and its summary.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How many problems are described in full in the summary.
const DESCRIBED: usize = 20;

/// The counts of a run.
#[derive(Debug, Default)]
pub struct Stats {
    /// Games played, by mode and clock (`computer timed` …).
    pub games: BTreeMap<String, usize>,
    /// Acknowledged actions, by kind.
    pub acked: BTreeMap<&'static str, usize>,
    /// Actions refused with a final answer (a flag fell first, the game was over …).
    pub refused: usize,
    /// Attempts sent over HTTP (each retry counts) and over a WebSocket.
    pub http_attempts: usize,
    /// Attempts sent over a WebSocket.
    pub ws_attempts: usize,
    /// HTTP clients hanging up with a FIN and with a RST, and at which moment.
    pub hangups_fin: usize,
    /// Hang-ups with a RST.
    pub hangups_rst: usize,
    /// Hang-ups part way through a request.
    pub hangups_partial: usize,
    /// Hang-ups right after the whole request.
    pub hangups_after_send: usize,
    /// Hang-ups a while after the whole request.
    pub hangups_after_delay: usize,
    /// WebSockets (acting or watching) dropped without a close handshake.
    pub ws_drops: usize,
    /// Watchers connected.
    pub watchers: usize,
    /// Answers 500 or 503 (retried).
    pub server_errors: usize,
    /// Attempts that got no answer (server down, connection cut).
    pub no_answer: usize,
    /// The longest an action waited for its final answer (through retries, restarts and
    /// database outages).
    pub slowest_answer: std::time::Duration,
    /// Replies of the computer seen.
    pub computer_moves: usize,
    /// kill -9 of the server, and starts after them.
    pub kills: usize,
    /// Starts of the server after a kill.
    pub restarts: usize,
    /// PostgreSQL stopped (`-m fast`) and started again.
    pub pg_restarts: usize,
    /// kill -9 of an engine worker (each started again after a pause).
    pub worker_kills: usize,
    /// The longest a client waited for the computer's reply: the search, and where the
    /// game's node or the worker searching it was killed, the takeover.
    pub slowest_computer: std::time::Duration,
    /// Games checked at the end.
    pub checked: usize,
    /// How the games checked at the end stood: their termination, or `live`.
    pub endings: BTreeMap<String, usize>,
    /// Games unreadable or in a state no sequence of changes explains, an action never
    /// answered, or the computer never replying.
    pub half_done: usize,
    /// Acknowledged changes missing.
    pub lost: usize,
    /// Changes applied more than once.
    pub twice: usize,
    /// A retried action refused although it had been applied (the first outcome not given).
    pub wrong_answers: usize,
    /// A watcher's event whose seq was not one more than the last it saw.
    pub broadcast_gaps: usize,
    /// The first problems, described.
    pub problems: Vec<String>,
    /// The games with a problem (lost, applied twice, inconsistent), whose rows a run on
    /// PostgreSQL prints from the database at its end.
    pub suspects: BTreeSet<String>,
}

impl Stats {
    /// Notes a problem.
    pub fn problem(&mut self, what: String) {
        eprintln!("chaos: {what}");
        if self.problems.len() < DESCRIBED {
            self.problems.push(what);
        }
    }

    /// Whether nothing went wrong.
    pub fn clean(&self) -> bool {
        self.half_done == 0
            && self.lost == 0
            && self.twice == 0
            && self.wrong_answers == 0
            && self.broadcast_gaps == 0
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games: usize = self.games.values().sum();
        let acked: usize = self.acked.values().sum();
        writeln!(f, "games: {games} ({:?})", self.games)?;
        writeln!(
            f,
            "actions acknowledged: {acked} ({:?}); refused: {}; computer replies: {}",
            self.acked, self.refused, self.computer_moves
        )?;
        writeln!(
            f,
            "attempts: {} HTTP, {} WebSocket; 5xx answers: {}; no answer: {}; \
             slowest final answer: {:.1} s",
            self.http_attempts,
            self.ws_attempts,
            self.server_errors,
            self.no_answer,
            self.slowest_answer.as_secs_f64()
        )?;
        writeln!(
            f,
            "hang-ups: {} FIN, {} RST (partial request {}, after sending {}, after a delay {}); \
             WebSockets dropped: {} ({} watchers)",
            self.hangups_fin,
            self.hangups_rst,
            self.hangups_partial,
            self.hangups_after_send,
            self.hangups_after_delay,
            self.ws_drops,
            self.watchers
        )?;
        writeln!(
            f,
            "kill -9: {}, restarts: {}, PostgreSQL restarts: {}, workers killed: {}; \
             longest wait for the computer (takeovers included): {:.1} s",
            self.kills,
            self.restarts,
            self.pg_restarts,
            self.worker_kills,
            self.slowest_computer.as_secs_f64()
        )?;
        writeln!(
            f,
            "checked {} games: {} half-done, {} lost, {} applied twice; \
             {} wrong answers to retries, {} broadcast gaps",
            self.checked,
            self.half_done,
            self.lost,
            self.twice,
            self.wrong_answers,
            self.broadcast_gaps
        )?;
        writeln!(f, "how they stood: {:?}", self.endings)?;
        for p in &self.problems {
            writeln!(f, "  problem: {p}")?;
        }
        Ok(())
    }
}
