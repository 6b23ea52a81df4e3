//! A game on a server as the play screen sees it: the server's state, a move of ours on its
//! way there, and the connection's health.
//!
//! The server is the judge and the truth. Every `state` and `event` it sends replaces the
//! game held here; a move made on the board is shown at once and kept as pending, with the
//! number of the state it was made on, until the server's state has it. When the connection
//! drops, the pending move waits; after reconnecting, the first state decides: still the
//! state the move was made on, the move is sent (again: the server carries out a repeat of
//! the same `seq` once); already played, it is confirmed; anything else, the position moved
//! on without it, and the person is told so in words. Nothing typed is dropped silently.
//!
//! Messages that do not read, or that describe a game this client cannot replay, are
//! reported and otherwise ignored: never a panic, never a lost connection.

use std::time::{Duration, Instant};

use punct_core::{Colour, Game, Move, Outcome, Position, Termination};

use super::api::{Api, quoted};
use super::link::{Link, LinkNews};
use super::wire::{Action, ClientMessage, GameState, ServerMessage};

/// How the connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Connection {
    /// Connected, and the state is the server's latest.
    Connected,
    /// Connecting (again), before the server's first state.
    Connecting,
    /// Lost; the next try comes at `retry_at`.
    Lost {
        /// Why.
        why: String,
        /// Tries failed in a row.
        attempt: u32,
        /// When the next try is made.
        retry_at: Instant,
    },
    /// The server refused the connection for good.
    Refused(String),
}

/// A line for the person about what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// News.
    Info(String),
    /// Something refused or gone wrong, and why.
    Refusal(String),
}

/// A move made here that the server's state does not have yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The move.
    pub mv: Move,
    /// The number of the state it was made on.
    pub seq: u64,
    /// How many moves that state had.
    pub ply: usize,
    /// Whether it went out on the present connection.
    sent: bool,
}

/// A game on the server.
pub struct RemoteGame {
    link: Option<Link>,
    state: GameState,
    /// The server's game, replayed from its state.
    server: Game,
    /// The game shown: the server's, with the pending move played.
    shown: Game,
    pending: Option<Pending>,
    connection: Connection,
    /// When the state arrived, from which the running clock counts down.
    received: Instant,
    /// Whether the last action sent other than a move still waits for its answer.
    acting: bool,
}

/// A colour as the API names it: `white`, `black`.
pub fn api_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// The colour a name of the API means.
pub fn colour_named(name: &str) -> Option<Colour> {
    Colour::ALL.into_iter().find(|&c| api_name(c) == name)
}

/// The game `state` describes, replayed from its start, with its ending; or why it cannot
/// be followed.
pub fn replay(state: &GameState) -> Result<Game, String> {
    let start = Position::from_text(&state.start)
        .map_err(|e| format!("its start `{}` does not read: {e}", quoted(&state.start)))?;
    let mut game = Game::from_position(start);
    for (i, text) in state.moves.iter().enumerate() {
        let mv = Move::parse(text)
            .map_err(|e| format!("its move {} `{}` does not read: {e}", i + 1, quoted(text)))?;
        game.play(mv).map_err(|e| {
            format!(
                "its move {} `{}` is not legal here: {e}",
                i + 1,
                quoted(text)
            )
        })?;
    }
    if let Some(ending) = &state.outcome
        && game.outcome().is_none()
    {
        let termination = Termination::from_name(&ending.termination).ok_or_else(|| {
            format!(
                "its ending `{}` is not one this client knows",
                quoted(&ending.termination)
            )
        })?;
        let winner = match ending.winner.as_deref() {
            None => None,
            Some(name) => Some(
                colour_named(name)
                    .ok_or_else(|| format!("its winner `{}` is not a colour", quoted(name)))?,
            ),
        };
        game.end(Outcome {
            winner,
            termination,
        });
    }
    Ok(game)
}

impl RemoteGame {
    /// Follows the game of `state` (read over HTTP) on its WebSocket.
    pub fn connect(api: &Api, state: GameState) -> Result<RemoteGame, String> {
        let link = Link::open(api.socket_url(&state.id), api.token().map(str::to_owned));
        let mut game = RemoteGame::detached(state)?;
        game.link = Some(link);
        game.connection = Connection::Connecting;
        Ok(game)
    }

    /// The game of `state` with no connection, whose messages come through [`Self::receive`].
    pub fn detached(state: GameState) -> Result<RemoteGame, String> {
        let server = replay(&state).map_err(|e| format!("the server's game {e}"))?;
        Ok(RemoteGame {
            link: None,
            shown: server.clone(),
            server,
            state,
            pending: None,
            connection: Connection::Connected,
            received: Instant::now(),
            acting: false,
        })
    }

    /// The game to show: the server's, with a move of ours on its way.
    pub fn game(&self) -> &Game {
        &self.shown
    }

    /// The server's latest state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The move on its way to the server.
    pub fn pending(&self) -> Option<Pending> {
        self.pending
    }

    /// How the connection stands.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The colours this client plays.
    pub fn colours(&self) -> Vec<Colour> {
        self.state
            .you
            .iter()
            .filter_map(|c| colour_named(c))
            .collect()
    }

    /// The name of the player of `colour`.
    pub fn name(&self, colour: Colour) -> String {
        match colour {
            Colour::White => self.state.seats.white.name.clone(),
            Colour::Black => self.state.seats.black.name.clone(),
        }
    }

    /// `colour`'s time left now, for a game with a clock.
    pub fn time_left(&self, colour: Colour) -> Option<Duration> {
        let clock = self.state.clock.as_ref()?;
        let ms = match colour {
            Colour::White => clock.white_ms,
            Colour::Black => clock.black_ms,
        };
        let mut left = Duration::from_millis(ms.max(0).unsigned_abs());
        if clock.running.as_deref() == Some(api_name(colour)) && self.game().outcome().is_none() {
            left = left.saturating_sub(self.received.elapsed());
        }
        Some(left)
    }

    /// Whether the side to move is ours, the game goes on, and no move of ours is on its way.
    pub fn our_turn(&self) -> bool {
        self.pending.is_none()
            && self.server.outcome().is_none()
            && self.colours().contains(&self.server.position().turn())
    }

    /// Why a move may not be made now, if it may not.
    pub fn why_not_move(&self) -> Option<String> {
        if self.colours().is_empty() {
            return Some("you hold no seat in this game: you are watching it".to_owned());
        }
        if let Some(p) = self.pending {
            return Some(format!(
                "wait: your move {} is on its way to the server",
                p.mv
            ));
        }
        let turn = self.server.position().turn();
        if !self.colours().contains(&turn) {
            return Some(format!("wait: it is {}'s turn ({turn})", self.name(turn)));
        }
        None
    }

    /// Makes `mv`, legal in the shown position: shown at once, sent now if connected, or
    /// once the connection is back.
    pub fn play(&mut self, mv: Move) -> Result<Note, String> {
        if let Some(why) = self.why_not_move() {
            return Err(why);
        }
        let mut shown = self.server.clone();
        shown.play(mv).map_err(|e| e.to_string())?;
        self.shown = shown;
        self.pending = Some(Pending {
            mv,
            seq: self.state.seq,
            ply: self.state.moves.len(),
            sent: false,
        });
        if self.connection == Connection::Connected {
            self.send_pending();
            Ok(Note::Info(format!("you played {mv}: sending…")))
        } else {
            Ok(Note::Info(format!(
                "you played {mv}: kept, and sent once the connection is back"
            )))
        }
    }

    /// Asks for `action` (resign, draw, takeback) on the server's present state.
    pub fn act(&mut self, action: Action) -> Result<(), String> {
        if self.connection != Connection::Connected {
            return Err(
                "not connected to the server: try again once the connection is back".into(),
            );
        }
        if self.colours().is_empty() {
            return Err("you hold no seat in this game: you are watching it".to_owned());
        }
        self.acting = true;
        self.send(&ClientMessage::Action {
            action,
            seq: self.state.seq,
        });
        Ok(())
    }

    fn send(&self, message: &ClientMessage) {
        if let (Some(link), Ok(text)) = (&self.link, serde_json::to_string(message)) {
            link.send(text);
        }
    }

    fn send_pending(&mut self) {
        if let Some(pending) = &mut self.pending {
            pending.sent = true;
            let message = ClientMessage::Action {
                action: Action::Move {
                    text: pending.mv.to_string(),
                },
                seq: pending.seq,
            };
            self.send(&message);
        }
    }

    /// Takes in what the connection brought; called regularly by the screen.
    pub fn poll(&mut self) -> Vec<Note> {
        let mut notes = Vec::new();
        while let Some(news) = self.link.as_ref().and_then(Link::poll) {
            notes.extend(self.on_link(news));
        }
        notes
    }

    fn on_link(&mut self, news: LinkNews) -> Vec<Note> {
        match news {
            LinkNews::Connected => {
                // Connected, but the state the server sends first is what counts.
                self.connection = Connection::Connecting;
                Vec::new()
            }
            LinkNews::Text(text) => self.receive(&text),
            LinkNews::Lost {
                why,
                attempt,
                retry_in,
            } => {
                let was = std::mem::replace(
                    &mut self.connection,
                    Connection::Lost {
                        why: why.clone(),
                        attempt,
                        retry_at: Instant::now() + retry_in,
                    },
                );
                if let Some(p) = &mut self.pending {
                    p.sent = false;
                }
                self.acting = false;
                match was {
                    Connection::Lost { .. } => Vec::new(),
                    _ => vec![Note::Refusal(format!(
                        "connection lost ({why}): trying again; moves are kept until it is back"
                    ))],
                }
            }
            LinkNews::Refused(why) => {
                self.connection = Connection::Refused(why.clone());
                vec![Note::Refusal(format!(
                    "the server refused the connection: {why}"
                ))]
            }
        }
    }

    /// Takes in one message from the server.
    pub fn receive(&mut self, text: &str) -> Vec<Note> {
        let message: ServerMessage = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(e) => {
                return vec![Note::Refusal(format!(
                    "the server sent a message this client does not understand ({e}): `{}`",
                    quoted(text)
                ))];
            }
        };
        match message {
            ServerMessage::State { state, .. } => {
                let reconnected = self.connection != Connection::Connected;
                let mut notes = self.take(state, None);
                if reconnected && self.connection == Connection::Connected {
                    notes.insert(0, Note::Info("connected to the server".to_owned()));
                }
                notes
            }
            ServerMessage::Event { seq, event, state } => {
                if seq > self.state.seq + 1 {
                    // Something was missed: the whole state again, as the API asks.
                    self.send(&ClientMessage::Sync {});
                }
                if seq <= self.state.seq {
                    return Vec::new();
                }
                self.take(state, Some(&event))
            }
            ServerMessage::Ok { .. } => {
                self.acting = false;
                Vec::new()
            }
            ServerMessage::Error { status, error } => {
                self.acting = false;
                match self.pending.filter(|p| p.sent) {
                    Some(p) => {
                        self.pending = None;
                        self.shown = self.server.clone();
                        vec![Note::Refusal(format!(
                            "the server refused your move {} ({status}): {}",
                            p.mv,
                            quoted(&error)
                        ))]
                    }
                    None => vec![Note::Refusal(format!(
                        "the server refused ({status}): {}",
                        quoted(&error)
                    ))],
                }
            }
            ServerMessage::Pong => Vec::new(),
        }
    }

    /// Replaces what is held with `state`, the result of `event` if it came with one.
    fn take(&mut self, state: GameState, event: Option<&str>) -> Vec<Note> {
        if state.id != self.state.id {
            return vec![Note::Refusal(format!(
                "the server sent the state of another game ({}): ignored",
                quoted(&state.id)
            ))];
        }
        let server = match replay(&state) {
            Ok(game) => game,
            Err(e) => {
                return vec![Note::Refusal(format!(
                    "the server sent a game this client cannot follow: {e}"
                ))];
            }
        };
        let mut notes = Vec::new();
        if let Some(event) = event {
            notes.extend(self.describe(event, &state, &server));
        }
        self.server = server;
        self.state = state;
        self.received = Instant::now();
        self.connection = Connection::Connected;
        notes.extend(self.settle_pending());
        self.shown = self.server.clone();
        if let Some(p) = self.pending {
            let _ = self.shown.play(p.mv);
        }
        notes
    }

    /// What becomes of the pending move now that the server's state is known.
    fn settle_pending(&mut self) -> Vec<Note> {
        let Some(p) = self.pending else {
            return Vec::new();
        };
        let played = self.state.moves.get(p.ply).map(String::as_str);
        if played == Some(p.mv.to_string().as_str()) {
            self.pending = None;
            return Vec::new();
        }
        if self.state.seq == p.seq {
            if !p.sent {
                self.send_pending();
            }
            return Vec::new();
        }
        self.pending = None;
        let why = match self.state.outcome.as_ref() {
            Some(ending) => format!("the game ended: {}", ending.text),
            None => "the game changed meanwhile".to_owned(),
        };
        vec![Note::Refusal(format!(
            "your move {} was not played: {why}. It is in the move history (: then ↑)",
            p.mv
        ))]
    }

    /// The event `event`, which made `state` (`game` replayed), in words.
    fn describe(&self, event: &str, state: &GameState, game: &Game) -> Vec<Note> {
        let ours = self.colours();
        let who = |colour: Option<&String>| -> String {
            match colour.and_then(|c| colour_named(c)) {
                Some(c) if ours.contains(&c) && ours.len() == 1 => "you".to_owned(),
                Some(c) => format!("{} ({c})", self.name(c)),
                None => "someone".to_owned(),
            }
        };
        let note = match event {
            "move" => {
                let Some(mv) = game.moves().last() else {
                    return Vec::new();
                };
                let mover = !game.position().turn();
                if ours.contains(&mover) && ours.len() == 1 {
                    return self.ending(state);
                }
                Note::Info(format!("{} played {mv}", self.name(mover)))
            }
            "joined" => Note::Info("the other seat is taken: the game is on".to_owned()),
            "draw_offer" => Note::Info(format!(
                "{} offer a draw: d accepts",
                who(state.draw_offer.as_ref())
            )),
            "draw_declined" => Note::Info("the draw offer was declined".to_owned()),
            "takeback_request" => Note::Info(format!(
                "{} ask to take a move back: u grants it",
                who(state.takeback_request.as_ref())
            )),
            "takeback_declined" => Note::Info("the takeback was declined".to_owned()),
            "takeback" => Note::Info("a move was taken back".to_owned()),
            _ => return self.ending(state),
        };
        let mut notes = vec![note];
        notes.extend(self.ending(state));
        notes
    }

    fn ending(&self, state: &GameState) -> Vec<Note> {
        match (&state.outcome, &self.state.outcome) {
            (Some(now), None) => vec![Note::Info(format!("Game over: {}", now.text))],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A friend game's state as the server writes it, `moves` played, us White.
    fn state_json(seq: u64, moves: &[&str]) -> String {
        let moves: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
        format!(
            r#"{{"id":"g1","seq":{seq},"mode":"friend","variant":"standard",
            "start":"standard w 0 -","moves":[{}],"position":"x","turn":"white",
            "centre":{{"white":0,"black":0}},
            "seats":{{"white":{{"name":"Ada","computer":null,"open":false}},
                      "black":{{"name":"Bo","computer":null,"open":false}}}},
            "clock":{{"initial_ms":259200000,"increment_ms":0,"white_ms":259000000,
                      "black_ms":259200000,"running":"white","days_per_move":3}},
            "draw_offer":null,"takeback_request":null,"rematch_offer":null,"rematch":null,
            "thinking":false,"outcome":null,"you":["white"],"created_ms":1,"updated_ms":2,
            "rated":false,"some_new_field":[1,2]}}"#,
            moves.join(",")
        )
    }

    fn state(seq: u64, moves: &[&str]) -> GameState {
        serde_json::from_str(&state_json(seq, moves)).unwrap()
    }

    fn message(kind: &str, seq: u64, moves: &[&str]) -> String {
        match kind {
            "state" => format!(
                r#"{{"type":"state","seq":{seq},"state":{}}}"#,
                state_json(seq, moves)
            ),
            event => format!(
                r#"{{"type":"event","seq":{seq},"event":"{event}","detail":null,"state":{}}}"#,
                state_json(seq, moves)
            ),
        }
    }

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    fn refusals(notes: &[Note]) -> Vec<&str> {
        notes
            .iter()
            .filter_map(|n| match n {
                Note::Refusal(t) => Some(t.as_str()),
                Note::Info(_) => None,
            })
            .collect()
    }

    #[test]
    fn the_other_sides_move_arrives_and_ours_is_confirmed() {
        let mut game = RemoteGame::detached(state(2, &[])).unwrap();
        assert!(game.our_turn());
        assert_eq!(
            game.time_left(Colour::Black),
            Some(Duration::from_secs(259_200))
        );
        game.play(mv("TE4:0")).unwrap();
        assert_eq!(game.game().moves().len(), 1, "shown at once");
        assert!(!game.our_turn() && game.why_not_move().unwrap().contains("on its way"));
        assert!(game.receive(r#"{"type":"ok","seq":3}"#).is_empty());
        assert!(game.receive(&message("move", 3, &["TE4:0"])).is_empty());
        assert_eq!(game.pending(), None);
        let notes = game.receive(&message("move", 4, &["TE4:0", "TM12:0"]));
        assert_eq!(notes, vec![Note::Info("Bo played TM12:0".into())]);
        assert!(game.our_turn());
        // An old event again changes nothing.
        assert!(game.receive(&message("move", 3, &["TE4:0"])).is_empty());
        assert_eq!(game.game().moves().len(), 2);
    }

    #[test]
    fn a_move_made_while_disconnected_is_sent_on_reconnecting_or_refused_in_words() {
        let mut game = RemoteGame::detached(state(2, &[])).unwrap();
        let lost = game.on_link(LinkNews::Lost {
            why: "connection refused".into(),
            attempt: 1,
            retry_in: Duration::from_secs(1),
        });
        assert!(refusals(&lost)[0].contains("connection lost (connection refused)"));
        let note = game.play(mv("TE4:0")).unwrap();
        assert!(matches!(note, Note::Info(t) if t.contains("kept")));
        // Reconnected at the same state: the move is still pending (and sent, with its seq).
        game.on_link(LinkNews::Connected);
        let notes = game.receive(&message("state", 2, &[]));
        assert_eq!(notes, vec![Note::Info("connected to the server".into())]);
        assert_eq!(game.pending().map(|p| (p.seq, p.sent)), Some((2, true)));
        assert_eq!(game.game().moves().len(), 1);
        // Lost again after sending: the server had played it; the new state confirms it.
        game.on_link(LinkNews::Lost {
            why: "reset".into(),
            attempt: 1,
            retry_in: Duration::ZERO,
        });
        game.receive(&message("state", 3, &["TE4:0"]));
        assert_eq!(game.pending(), None);

        // The position moved on without it (a takeback meanwhile): said so, not dropped
        // silently.
        let mut game = RemoteGame::detached(state(5, &["TE4:0", "TM12:0"])).unwrap();
        game.on_link(LinkNews::Lost {
            why: "reset".into(),
            attempt: 1,
            retry_in: Duration::ZERO,
        });
        game.play(mv("TE7:0")).unwrap();
        let notes = game.receive(&message("state", 7, &[]));
        let refused = refusals(&notes);
        assert!(
            refused[0].contains("your move TE7:0 was not played"),
            "{refused:?}"
        );
        assert_eq!(game.pending(), None);
        assert!(game.game().moves().is_empty());
    }

    #[test]
    fn a_refused_move_is_taken_off_the_board_with_the_servers_reason() {
        let mut game = RemoteGame::detached(state(2, &[])).unwrap();
        game.play(mv("TE4:0")).unwrap();
        let notes = game.receive(r#"{"type":"error","status":409,"error":"the game changed"}"#);
        assert_eq!(
            refusals(&notes),
            ["the server refused your move TE4:0 (409): the game changed"]
        );
        assert!(game.game().moves().is_empty() && game.our_turn());
    }

    #[test]
    fn bad_server_messages_are_reported_and_change_nothing() {
        let mut game = RemoteGame::detached(state(2, &["TE4:0"])).unwrap();
        let cases = [
            "not json at all".to_owned(),
            r#"{"type":"dance"}"#.to_owned(),
            r#"{"type":"state","seq":3}"#.to_owned(),
            message("state", 3, &["TE4:0", "TE4:0"]),
            message("state", 3, &["XX"]),
            message("move", 3, &["TE4:0"]).replace(r#""id":"g1""#, r#""id":"g2""#),
            message("state", 3, &[]).replace("standard w 0 -", "nonsense"),
            message("state", 3, &[]).replace(
                r#""outcome":null"#,
                r#""outcome":{"winner":"purple","termination":"resignation","text":"?"}"#,
            ),
            format!("{}\u{1b}[2J", "x".repeat(10_000)),
        ];
        for text in &cases {
            let notes = game.receive(text);
            let refused = refusals(&notes);
            assert_eq!(refused.len(), 1, "{text}: {notes:?}");
            assert!(refused[0].len() < 400, "cut: {}", refused[0]);
            assert!(!refused[0].contains('\u{1b}'), "escaped: {}", refused[0]);
            assert_eq!(game.state().seq, 2, "{text}");
            assert_eq!(game.game().moves().len(), 1);
        }
    }

    #[test]
    fn an_ending_from_the_server_ends_the_game_shown() {
        let mut game = RemoteGame::detached(state(2, &["TE4:0"])).unwrap();
        let resigned = message("resign", 3, &["TE4:0"]).replace(
            r#""outcome":null"#,
            r#""outcome":{"winner":"white","termination":"resignation","result":"1-0","text":"white wins by resignation","winning_chain":[]}"#,
        );
        let notes = game.receive(&resigned);
        assert_eq!(
            notes,
            vec![Note::Info("Game over: white wins by resignation".into())]
        );
        let outcome = game.game().outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.termination),
            (Some(Colour::White), Termination::Resignation)
        );
        assert!(!game.our_turn());
    }

    proptest! {
        /// Whatever the server sends, the client answers with notes, never a panic, and
        /// keeps a game it can show.
        #[test]
        fn any_text_from_the_server_is_survived(text in prop_oneof![
            ".*",
            r#"\{"type":"(state|event|ok|error|pong)"(,"seq":[0-9]{1,3})?(,"status":[0-9]{1,3})?(,"error":"[a-z ]{0,8}")?(,"event":"(move|resign|x)")?\}"#,
        ]) {
            let mut game = RemoteGame::detached(state(2, &["TE4:0"])).unwrap();
            let _ = game.receive(&text);
            prop_assert_eq!(game.game().moves().len(), 1);
        }
    }
}
