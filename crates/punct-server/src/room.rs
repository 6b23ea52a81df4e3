//! A game as the server holds it: the rules' [`Game`] plus seats, clock, offers and a
//! sequence number that counts every change. Pure logic, no I/O: the hub stores a changed
//! room before anyone hears of the change.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Arc;

use punct_core::{Colour, Game, Move, Outcome, PlayError, Position, Termination};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::clock::Clock;
use crate::error::ApiError;

/// Who plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Computer,
    /// Two people on one screen: one token holds both seats.
    Local,
    /// Two people online: the second seat goes to whoever opens the link first.
    Friend,
}

/// One side of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The name shown and written in records.
    pub name: String,
    /// The engine level when the computer holds the seat.
    pub computer: Option<u8>,
    /// The secret that proves a person holds the seat; `None` while the seat is open.
    pub token: Option<String>,
}

impl Seat {
    /// A seat held by the person with `token`.
    pub fn person(name: impl Into<String>, token: impl Into<String>) -> Seat {
        Seat {
            name: name.into(),
            computer: None,
            token: Some(token.into()),
        }
    }

    /// A seat nobody holds yet: the first to join a friend game takes it.
    pub fn open(name: impl Into<String>) -> Seat {
        Seat {
            name: name.into(),
            computer: None,
            token: None,
        }
    }

    /// A seat the engine plays at `level`.
    pub fn computer(name: impl Into<String>, level: u8) -> Seat {
        Seat {
            name: name.into(),
            computer: Some(level),
            token: None,
        }
    }

    fn is_open(&self) -> bool {
        self.computer.is_none() && self.token.is_none()
    }
}

/// A change asked for by a seat holder, read from `{"action": …}` (with `"move"` for a move).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ActionFields")]
pub enum Action {
    /// Play a move given as move text.
    Move {
        /// Move text, e.g. `TE4:0`.
        text: String,
    },
    /// Give up.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Turn down the opponent's draw offer.
    DeclineDraw,
    /// Ask to take back a move, or grant the opponent's request (at once against the computer
    /// and on one screen).
    Takeback,
    /// Turn down the opponent's takeback request.
    DeclineTakeback,
}

/// An action as sent. Read through this rather than as an internally tagged enum, whose
/// variants without fields would ignore any fields they are sent.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionFields {
    action: ActionKind,
    /// `None` without the field, `Some(None)` for `"move": null`.
    #[serde(rename = "move", default, deserialize_with = "present")]
    text: Option<Option<String>>,
}

/// A field that is there, even if null: serde alone reads a null as a missing field.
fn present<'de, D: serde::Deserializer<'de>>(field: D) -> Result<Option<Option<String>>, D::Error> {
    Option::deserialize(field).map(Some)
}

/// The name of an action.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActionKind {
    Move,
    Resign,
    OfferDraw,
    DeclineDraw,
    Takeback,
    DeclineTakeback,
}

impl TryFrom<ActionFields> for Action {
    type Error = &'static str;

    fn try_from(fields: ActionFields) -> Result<Action, Self::Error> {
        let action = match fields.action {
            ActionKind::Move => {
                let text = fields
                    .text
                    .ok_or("a `move` action needs the field `move`")?
                    .ok_or("the field `move` must be move text, e.g. `TE4:0`")?;
                return Ok(Action::Move { text });
            }
            ActionKind::Resign => Action::Resign,
            ActionKind::OfferDraw => Action::OfferDraw,
            ActionKind::DeclineDraw => Action::DeclineDraw,
            ActionKind::Takeback => Action::Takeback,
            ActionKind::DeclineTakeback => Action::DeclineTakeback,
        };
        match fields.text {
            Some(_) => Err("only a `move` action has the field `move`"),
            None => Ok(action),
        }
    }
}

/// A change to a game, as its event names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The open seat was taken.
    Joined,
    /// A move was played.
    Move,
    /// A side resigned.
    Resign,
    /// A draw was agreed.
    Draw,
    /// A side offered a draw.
    DrawOffer,
    /// The draw offer was turned down.
    DrawDeclined,
    /// Moves were taken back.
    Takeback,
    /// A side asked to take back a move.
    TakebackRequest,
    /// The takeback request was turned down.
    TakebackDeclined,
    /// A flag fell.
    Timeout,
}

impl Change {
    /// The event's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Change::Joined => "joined",
            Change::Move => "move",
            Change::Resign => "resign",
            Change::Draw => "draw",
            Change::DrawOffer => "draw_offer",
            Change::DrawDeclined => "draw_declined",
            Change::Takeback => "takeback",
            Change::TakebackRequest => "takeback_request",
            Change::TakebackDeclined => "takeback_declined",
            Change::Timeout => "timeout",
        }
    }
}

/// A game in the server.
#[derive(Clone, Debug)]
pub struct Room {
    /// The game's public id (also its link).
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// The rules' view of the game.
    pub game: Game,
    /// White's and Black's seats.
    pub seats: [Seat; 2],
    /// The clock, if the game is timed.
    pub clock: Option<Clock>,
    /// The side that offered a draw, until answered or a move is made.
    pub draw_offer: Option<Colour>,
    /// The side that asked for a takeback, until answered or a move is made.
    pub takeback_request: Option<Colour>,
    /// Number of changes so far; every broadcast carries it.
    pub seq: u64,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
    /// Time of the last change, ms since the epoch.
    pub updated_ms: i64,
    /// The moves as a JSON list of their texts, kept beside the game so that states and
    /// stored forms copy it rather than write every move again at each change.
    texts: MoveTexts,
    /// The start position as text.
    start_text: Arc<str>,
}

/// Room for a state or stored form in JSON without growing the buffer (they are 1–3 KB).
pub const JSON_CAPACITY: usize = 4096;

/// The JSON text written into `out`. serde_json and the room's own writers only write UTF-8,
/// so this never changes a byte; if a bug ever broke that, the text would still be kept
/// whole (with replacement characters) rather than turned into an empty string that would
/// be stored or sent in place of a game.
pub(crate) fn json_text(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The moves of a game as the JSON list of their texts (`["TE4:0","TK5:0"]`), extended and
/// shortened move by move. Move texts hold no quotes, commas or escapes.
#[derive(Clone, Debug)]
struct MoveTexts(String);

impl MoveTexts {
    fn new(moves: &[Move]) -> MoveTexts {
        let mut texts = MoveTexts("[]".into());
        for &mv in moves {
            texts.push(mv);
        }
        texts
    }

    fn push(&mut self, mv: Move) {
        self.0.pop();
        if self.0.len() > 1 {
            self.0.push(',');
        }
        let _ = write!(self.0, "\"{mv}\"]");
    }

    fn pop(&mut self) {
        let cut = self.0.rfind(',').unwrap_or(1);
        self.0.truncate(cut);
        self.0.push(']');
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        let inner = &self.0[1..self.0.len() - 1];
        inner
            .split(',')
            .filter(|t| !t.is_empty())
            .map(|t| t.trim_matches('"'))
    }
}

/// Appends `value`, which serde writes as a JSON object, with `"moves":` and `moves` (JSON
/// text, copied as it is) put first among its fields, then the fields `more` writes (each
/// as `,"key":value`).
fn write_with_moves(
    out: &mut Vec<u8>,
    moves: &MoveTexts,
    more: impl FnOnce(&mut Vec<u8>),
    value: &impl Serialize,
) {
    out.extend_from_slice(b"{\"moves\":");
    out.extend_from_slice(moves.0.as_bytes());
    more(out);
    let at = out.len();
    // Writing into a Vec cannot fail, and the views hold nothing serde could refuse.
    let _ = serde_json::to_writer(&mut *out, value);
    // The object's own opening brace becomes the comma after the fields above (removing it
    // would move the whole object back by a byte).
    out[at] = b',';
}

/// The stored form written straight from a room, without copying it ([`Stored`] reads it).
#[derive(Serialize)]
struct StoredRef<'a> {
    id: &'a str,
    mode: Mode,
    start: &'a str,
    seats: &'a [Seat; 2],
    clock: &'a Option<Clock>,
    draw_offer: Option<&'static str>,
    takeback_request: Option<&'static str>,
    seq: u64,
    created_ms: i64,
    updated_ms: i64,
    ended: Option<(Option<&'static str>, &'static str)>,
    result: Option<String>,
}

/// A seat as everyone may see it.
#[derive(Serialize)]
struct SeatView<'a> {
    name: &'a str,
    computer: Option<u8>,
    open: bool,
}

#[derive(Serialize)]
struct Seats<'a> {
    white: SeatView<'a>,
    black: SeatView<'a>,
}

#[derive(Serialize)]
struct ClockView {
    initial_ms: i64,
    increment_ms: i64,
    white_ms: i64,
    black_ms: i64,
    running: Option<&'static str>,
}

#[derive(Serialize)]
struct OutcomeView {
    winner: Option<&'static str>,
    termination: &'static str,
    result: &'static str,
    text: String,
    winning_chain: Vec<String>,
}

#[derive(Serialize)]
struct Centre {
    white: u32,
    black: u32,
}

/// The public state of a room (API.md, "The game state").
#[derive(Serialize)]
struct Snapshot<'a> {
    id: &'a str,
    seq: u64,
    mode: Mode,
    variant: &'static str,
    start: &'a str,
    turn: &'static str,
    centre: Centre,
    seats: Seats<'a>,
    clock: Option<ClockView>,
    draw_offer: Option<&'static str>,
    takeback_request: Option<&'static str>,
    thinking: bool,
    outcome: Option<OutcomeView>,
    you: Vec<&'static str>,
    created_ms: i64,
    updated_ms: i64,
}

/// The form a room is stored in (JSON in the database).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stored {
    id: String,
    mode: Mode,
    start: String,
    moves: Vec<String>,
    seats: [Seat; 2],
    clock: Option<Clock>,
    draw_offer: Option<String>,
    takeback_request: Option<String>,
    seq: u64,
    created_ms: i64,
    updated_ms: i64,
    /// The outcome when it came from outside the board (resignation, time, agreement).
    ended: Option<(Option<String>, String)>,
    /// The outcome in words, for lists of games without replaying them.
    #[serde(default)]
    result: Option<String>,
}

/// A room's state before a move, besides the game itself (see [`Room::undo_point`]).
#[derive(Clone, Debug)]
pub struct UndoPoint {
    plies: usize,
    clock: Option<Clock>,
    draw_offer: Option<Colour>,
    takeback_request: Option<Colour>,
    seq: u64,
    updated_ms: i64,
}

/// A move as the store first keeps it: what the move changed in its game's stored form, so
/// that storing a move appends a small row rather than writing the whole game again. The
/// store folds these into the stored form later ([`Stored::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMove {
    /// The game's id.
    pub game: String,
    /// The game's sequence number after the move.
    pub seq: u64,
    /// When the move was made, ms since the epoch.
    pub at_ms: i64,
    /// The side that moved (0 White, 1 Black).
    pub mover: u8,
    /// The move text.
    pub text: String,
    /// The mover's time left after the move (with the increment), if the game is timed.
    pub left_ms: Option<i64>,
}

impl Stored {
    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// When the game last changed, ms since the epoch.
    pub fn updated_ms(&self) -> i64 {
        self.updated_ms
    }

    /// Makes `m` part of the stored form, changing it as the move changed the room: one more
    /// move, offers withdrawn, the mover's clock charged and the other side's started. A
    /// move already in the stored form (a sequence number not above its own) changes nothing;
    /// one that does not follow it is refused.
    pub fn apply(&mut self, m: &PendingMove) -> Result<(), String> {
        if m.seq <= self.seq {
            return Ok(());
        }
        if m.seq != self.seq + 1 || self.result.is_some() || m.mover > 1 {
            return Err(format!(
                "game {}: stored move {} (seq {}) does not follow its state (seq {})",
                self.id, m.text, m.seq, self.seq
            ));
        }
        match (&mut self.clock, m.left_ms) {
            (Some(clock), Some(left)) => {
                clock.remaining_ms[usize::from(m.mover)] = left;
                clock.running_since = Some(m.at_ms);
            }
            (None, None) => {}
            _ => {
                return Err(format!(
                    "game {}: stored move {} has no clock",
                    self.id, m.text
                ));
            }
        }
        self.moves.push(m.text.clone());
        self.draw_offer = None;
        self.takeback_request = None;
        self.seq = m.seq;
        self.updated_ms = m.at_ms;
        Ok(())
    }

    /// A line for the list of games.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "mode": self.mode,
            "live": self.result.is_none(),
            "white": self.seats[0].name,
            "black": self.seats[1].name,
            "moves": self.moves.len(),
            "result": self.result,
            "updated_ms": self.updated_ms,
        })
    }
}

/// Names a colour as the API writes it.
pub fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// Reads a colour as the API writes it.
pub fn parse_colour(s: &str) -> Option<Colour> {
    match s {
        "white" => Some(Colour::White),
        "black" => Some(Colour::Black),
        _ => None,
    }
}

fn outside_board(t: Termination) -> bool {
    matches!(
        t,
        Termination::Resignation | Termination::Timeout | Termination::Agreement
    )
}

impl Room {
    /// A new room; the clock starts at once unless a seat is still open.
    pub fn new(
        id: String,
        mode: Mode,
        game: Game,
        seats: [Seat; 2],
        clock: Option<Clock>,
        now: i64,
    ) -> Room {
        let texts = MoveTexts::new(game.moves());
        let start_text = game.start().to_string().into();
        let mut room = Room {
            id,
            mode,
            game,
            seats,
            clock,
            draw_offer: None,
            takeback_request: None,
            seq: 1,
            created_ms: now,
            updated_ms: now,
            texts,
            start_text,
        };
        room.start_clock_if_ready(now);
        room
    }

    fn start_clock_if_ready(&mut self, now: i64) {
        let ready = !self.seats.iter().any(Seat::is_open) && self.game.outcome().is_none();
        if let Some(clock) = self.clock.as_mut().filter(|_| ready) {
            clock.start(now);
        }
    }

    fn ended(&self) -> Option<(Option<&'static str>, &'static str)> {
        self.game
            .outcome()
            .filter(|o| outside_board(o.termination))
            .map(|o| (o.winner.map(colour_name), o.termination.name()))
    }

    /// The stored form.
    pub fn to_stored(&self) -> Stored {
        Stored {
            id: self.id.clone(),
            mode: self.mode,
            start: self.start_text.to_string(),
            moves: self.texts.iter().map(str::to_owned).collect(),
            seats: self.seats.clone(),
            clock: self.clock.clone(),
            draw_offer: self.draw_offer.map(|c| colour_name(c).to_owned()),
            takeback_request: self.takeback_request.map(|c| colour_name(c).to_owned()),
            seq: self.seq,
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            ended: self
                .ended()
                .map(|(w, t)| (w.map(str::to_owned), t.to_owned())),
            result: self.game.outcome().map(|o| o.to_string()),
        }
    }

    /// The stored form as JSON, written without copying the room.
    pub fn stored_json(&self) -> String {
        let stored = StoredRef {
            id: &self.id,
            mode: self.mode,
            start: &self.start_text,
            seats: &self.seats,
            clock: &self.clock,
            draw_offer: self.draw_offer.map(colour_name),
            takeback_request: self.takeback_request.map(colour_name),
            seq: self.seq,
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            ended: self.ended(),
            result: self.game.outcome().map(|o| o.to_string()),
        };
        let mut out = Vec::with_capacity(JSON_CAPACITY);
        write_with_moves(&mut out, &self.texts, |_| {}, &stored);
        json_text(out)
    }

    /// What the last change, a move that left the game running, changed: stored instead of
    /// the whole room. `None` if the last change was anything else.
    pub fn pending_move(&self, change: Change) -> Option<PendingMove> {
        let mv = self
            .game
            .moves()
            .last()
            .filter(|_| change == Change::Move && self.is_live())?;
        let mover = !self.turn();
        Some(PendingMove {
            game: self.id.clone(),
            seq: self.seq,
            at_ms: self.updated_ms,
            mover: mover.index() as u8,
            text: mv.to_string(),
            left_ms: self.clock.as_ref().map(|c| c.remaining_ms[mover.index()]),
        })
    }

    /// Rebuilds a room from its stored form, replaying the moves with the rules. A running
    /// clock charges the side to move for its thinking up to `alive_ms` (when the server was
    /// last known to be running) and restarts at `now`: downtime costs no one.
    pub fn from_stored(s: Stored, now: i64, alive_ms: i64) -> Result<Room, String> {
        let start = Position::from_text(&s.start).map_err(|e| e.to_string())?;
        let mut game = Game::from_position(start);
        for text in &s.moves {
            let mv = Move::parse(text).map_err(|e| e.to_string())?;
            game.play(mv).map_err(|e| e.to_string())?;
        }
        if let Some((winner, termination)) = &s.ended {
            let termination = Termination::from_name(termination)
                .ok_or_else(|| format!("unknown termination `{termination}`"))?;
            let winner = winner.as_deref().and_then(parse_colour);
            game.end(Outcome {
                winner,
                termination,
            });
        }
        let mut clock = s.clock;
        let turn = game.position().turn();
        if let Some(c) = clock.as_mut() {
            c.resume(turn, alive_ms, now);
        }
        let texts = MoveTexts::new(game.moves());
        Ok(Room {
            texts,
            start_text: s.start.into(),
            id: s.id,
            mode: s.mode,
            game,
            seats: s.seats,
            clock,
            draw_offer: s.draw_offer.as_deref().and_then(parse_colour),
            takeback_request: s.takeback_request.as_deref().and_then(parse_colour),
            seq: s.seq,
            created_ms: s.created_ms,
            updated_ms: s.updated_ms,
        })
    }

    /// Whether the game is still being played.
    pub fn is_live(&self) -> bool {
        self.game.outcome().is_none()
    }

    /// The side to move.
    pub fn turn(&self) -> Colour {
        self.game.position().turn()
    }

    /// The colours `token` holds (both on one screen, none for a stranger).
    pub fn holder(&self, token: Option<&str>) -> Vec<Colour> {
        let Some(token) = token else {
            return Vec::new();
        };
        Colour::ALL
            .into_iter()
            .filter(|c| self.seats[c.index()].token.as_deref() == Some(token))
            .collect()
    }

    /// The engine level if the computer is to move in a live game.
    pub fn computer_to_move(&self) -> Option<u8> {
        self.is_live()
            .then(|| self.seats[self.turn().index()].computer)
            .flatten()
    }

    /// Gives the open seat to a newcomer with `token`.
    pub fn join(&mut self, token: String, name: &str, now: i64) -> Result<Colour, ApiError> {
        let colour = Colour::ALL
            .into_iter()
            .find(|c| self.seats[c.index()].is_open())
            .ok_or_else(|| ApiError::conflict("both seats are taken; you can watch"))?;
        let seat = &mut self.seats[colour.index()];
        seat.token = Some(token);
        if let Some(name) = crate::new_game::clean_name(name) {
            seat.name = name;
        }
        self.start_clock_if_ready(now);
        self.touch(now);
        Ok(colour)
    }

    fn touch(&mut self, now: i64) {
        self.seq += 1;
        self.updated_ms = now;
    }

    fn finish(&mut self, outcome: Outcome, now: i64) {
        self.game.end(outcome);
        self.after_end(now);
    }

    fn after_end(&mut self, now: i64) {
        let turn = self.turn();
        if let Some(c) = self.clock.as_mut() {
            c.stop(turn, now);
        }
        self.draw_offer = None;
        self.takeback_request = None;
    }

    /// Whether the side to move has run out of time in a live game at `now`.
    pub fn flag_fell(&self, now: i64) -> bool {
        let turn = self.turn();
        self.is_live() && self.clock.as_ref().is_some_and(|c| c.flagged(turn, now))
    }

    /// Ends the game on time if the side to move has run out. Returns whether it did.
    pub fn check_flag(&mut self, now: i64) -> bool {
        let turn = self.turn();
        let flagged = self.flag_fell(now);
        if flagged {
            self.finish(
                Outcome {
                    winner: Some(!turn),
                    termination: Termination::Timeout,
                },
                now,
            );
            self.touch(now);
        }
        flagged
    }

    /// What a move changes besides the game, taken before it so that [`Room::roll_back`] can
    /// undo it.
    pub fn undo_point(&self) -> UndoPoint {
        UndoPoint {
            plies: self.game.moves().len(),
            clock: self.clock.clone(),
            draw_offer: self.draw_offer,
            takeback_request: self.takeback_request,
            seq: self.seq,
            updated_ms: self.updated_ms,
        }
    }

    /// Undoes the move made since `point` was taken (if one was), leaving the room as it was
    /// then.
    pub fn roll_back(&mut self, point: UndoPoint) {
        if self.game.moves().len() == point.plies + 1 {
            self.game.undo();
            self.texts.pop();
        }
        self.clock = point.clock;
        self.draw_offer = point.draw_offer;
        self.takeback_request = point.takeback_request;
        self.seq = point.seq;
        self.updated_ms = point.updated_ms;
    }

    /// Carries out `action` for the holder of `colours`, returning the change it made. On an
    /// error nothing has changed.
    pub fn act(
        &mut self,
        colours: &[Colour],
        action: &Action,
        now: i64,
    ) -> Result<Change, ApiError> {
        if colours.is_empty() {
            return Err(ApiError::forbidden(
                "this token holds no seat in this game (watchers cannot act)",
            ));
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::conflict(format!("the game is over: {outcome}")));
        }
        let turn = self.turn();
        let me = if colours.contains(&turn) {
            turn
        } else {
            colours[0]
        };
        let local = colours.len() == 2;
        let opponent_is_computer = self.seats[(!me).index()].computer.is_some();
        let change = match action {
            Action::Move { text } => {
                if !colours.contains(&turn) {
                    return Err(ApiError::conflict(format!(
                        "it is not your turn: {} is to move",
                        colour_name(turn)
                    )));
                }
                if self.seats.iter().any(Seat::is_open) {
                    return Err(ApiError::conflict(
                        "the game has not started: waiting for an opponent to join",
                    ));
                }
                let mv =
                    Move::parse(text.trim()).map_err(|e| ApiError::bad_request(e.to_string()))?;
                let mv = self.game.play(mv).map_err(|e| match e {
                    PlayError::Illegal(_, why) => {
                        ApiError::illegal(format!("illegal move {text}: {why}"))
                    }
                    PlayError::GameOver(_) => ApiError::illegal(e.to_string()),
                })?;
                self.texts.push(mv);
                self.draw_offer = None;
                self.takeback_request = None;
                if let Some(c) = self.clock.as_mut() {
                    c.moved(turn, now);
                }
                if self.game.outcome().is_some() {
                    self.after_end(now);
                }
                Change::Move
            }
            Action::Resign => {
                self.finish(
                    Outcome {
                        winner: Some(!me),
                        termination: Termination::Resignation,
                    },
                    now,
                );
                Change::Resign
            }
            Action::OfferDraw => {
                if local || self.draw_offer == Some(!me) {
                    self.finish(
                        Outcome {
                            winner: None,
                            termination: Termination::Agreement,
                        },
                        now,
                    );
                    Change::Draw
                } else if opponent_is_computer {
                    return Err(ApiError::conflict(
                        "the computer declines draw offers; play on or resign",
                    ));
                } else if self.draw_offer == Some(me) {
                    return Err(ApiError::conflict("you have already offered a draw"));
                } else {
                    self.draw_offer = Some(me);
                    Change::DrawOffer
                }
            }
            Action::DeclineDraw => {
                if self.draw_offer != Some(!me) || local {
                    return Err(ApiError::conflict("there is no draw offer to decline"));
                }
                self.draw_offer = None;
                Change::DrawDeclined
            }
            Action::Takeback => {
                if local || opponent_is_computer || self.takeback_request == Some(!me) {
                    let requester = if local {
                        !turn
                    } else if opponent_is_computer {
                        me
                    } else {
                        !me
                    };
                    self.take_back(requester, local, now)?;
                    Change::Takeback
                } else if self.takeback_request == Some(me) {
                    return Err(ApiError::conflict("you have already asked for a takeback"));
                } else if !self.has_moved(me) {
                    return Err(ApiError::conflict("you have no move to take back"));
                } else {
                    self.takeback_request = Some(me);
                    Change::TakebackRequest
                }
            }
            Action::DeclineTakeback => {
                if self.takeback_request != Some(!me) || local {
                    return Err(ApiError::conflict(
                        "there is no takeback request to decline",
                    ));
                }
                self.takeback_request = None;
                Change::TakebackDeclined
            }
        };
        self.touch(now);
        Ok(change)
    }

    /// Whether `colour` has a move of its own in this game to take back.
    fn has_moved(&self, colour: Colour) -> bool {
        let n = self.game.moves().len();
        let start_turn = self.game.start().turn();
        (0..n).any(|i| if i % 2 == 0 { start_turn } else { !start_turn } == colour)
    }

    /// Takes back moves until `requester` is to move again, having undone at least one of
    /// theirs (on one screen: just the last move). The side that was thinking is charged
    /// for it first, as for a move: otherwise taking back again and again (at once against
    /// the computer) would stop a player's clock for as long as they liked.
    fn take_back(&mut self, requester: Colour, local: bool, now: i64) -> Result<(), ApiError> {
        if self.game.moves().is_empty() || (!local && !self.has_moved(requester)) {
            return Err(ApiError::conflict("there is no move to take back"));
        }
        let thinking = self.turn();
        if let Some(c) = self.clock.as_mut() {
            c.stop(thinking, now);
        }
        self.game.undo();
        self.texts.pop();
        if !local && self.turn() != requester {
            self.game.undo();
            self.texts.pop();
        }
        self.draw_offer = None;
        self.takeback_request = None;
        if let Some(c) = self.clock.as_mut() {
            c.start(now);
        }
        Ok(())
    }

    /// The public state of the room (never the tokens). `you` lists the colours the caller
    /// holds.
    pub fn snapshot(&self, now: i64, you: &[Colour]) -> Value {
        // Read back from the text, which alone carries the moves (a path of subscriptions and
        // syncs, not of moves).
        serde_json::from_str(&self.snapshot_json(now, you)).unwrap_or(Value::Null)
    }

    /// [`Room::snapshot`] as JSON text, written straight from the room.
    pub fn snapshot_json(&self, now: i64, you: &[Colour]) -> String {
        let mut out = Vec::with_capacity(JSON_CAPACITY);
        self.write_snapshot(&mut out, now, you);
        json_text(out)
    }

    /// Appends [`Room::snapshot`] as JSON text to `out`.
    pub fn write_snapshot(&self, out: &mut Vec<u8>, now: i64, you: &[Colour]) {
        // The position's text is written as it is: it holds nothing JSON would escape, and
        // going through serde meant a string to allocate and to scan for escapes (the longest
        // one in every event).
        let position = |out: &mut Vec<u8>| {
            out.extend_from_slice(b",\"position\":\"");
            let _ = write!(out, "{}", self.game.position());
            out.push(b'"');
        };
        write_with_moves(out, &self.texts, position, &self.view(now, you));
    }

    fn view(&self, now: i64, you: &[Colour]) -> Snapshot<'_> {
        let pos = self.game.position();
        let turn = pos.turn();
        let outcome = self.game.outcome().map(|o| OutcomeView {
            winner: o.winner.map(colour_name),
            termination: o.termination.name(),
            result: o.result_token(),
            text: o.to_string(),
            winning_chain: o
                .winner
                .map(|w| {
                    pos.winning_chain(w)
                        .into_iter()
                        .map(|c| c.to_string())
                        .collect()
                })
                .unwrap_or_default(),
        });
        let seat = |c: Colour| {
            let s = &self.seats[c.index()];
            SeatView {
                name: &s.name,
                computer: s.computer,
                open: s.is_open(),
            }
        };
        let clock = self.clock.as_ref().map(|c| ClockView {
            initial_ms: c.initial_ms,
            increment_ms: c.increment_ms,
            white_ms: c.left(Colour::White, turn, now).max(0),
            black_ms: c.left(Colour::Black, turn, now).max(0),
            running: c.running_since.map(|_| colour_name(turn)),
        });
        let [white, black] = pos.centre_count();
        Snapshot {
            id: &self.id,
            seq: self.seq,
            mode: self.mode,
            variant: pos.variant().name(),
            start: &self.start_text,
            turn: colour_name(turn),
            centre: Centre { white, black },
            seats: Seats {
                white: seat(Colour::White),
                black: seat(Colour::Black),
            },
            clock,
            draw_offer: self.draw_offer.map(colour_name),
            takeback_request: self.takeback_request.map(colour_name),
            thinking: self.computer_to_move().is_some(),
            outcome,
            you: you.iter().map(|&c| colour_name(c)).collect(),
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Variant;

    fn friend_room() -> Room {
        Room::new(
            "g".into(),
            Mode::Friend,
            Game::new(Variant::Standard),
            [Seat::person("w", "tw"), Seat::person("b", "tb")],
            Some(Clock::new(60_000, 1_000)),
            0,
        )
    }

    fn mv(text: &str) -> Action {
        Action::Move { text: text.into() }
    }

    #[test]
    fn json_text_keeps_every_byte_it_can() {
        let state = friend_room().snapshot_json(0, &[]);
        assert_eq!(json_text(state.clone().into_bytes()), state);
        // A broken byte (which no writer makes) costs one character, never the whole text.
        let mut broken = state.clone().into_bytes();
        broken[1] = 0xff;
        let kept = json_text(broken);
        assert_eq!(kept.chars().count(), state.chars().count());
        assert!(kept.ends_with(&state[2..]));
    }

    #[test]
    fn refusals_change_nothing() {
        let mut room = friend_room();
        let before = room.to_stored();
        let w = room.holder(Some("tw"));
        let b = room.holder(Some("tb"));
        assert_eq!(room.act(&[], &mv("TE4:0"), 1).unwrap_err().status, 403);
        assert_eq!(room.act(&b, &mv("TE4:0"), 1).unwrap_err().status, 409);
        assert_eq!(room.act(&w, &mv("TA1:0"), 1).unwrap_err().status, 400);
        assert_eq!(room.act(&w, &mv("TI9:0"), 1).unwrap_err().status, 422);
        assert_eq!(
            room.act(&w, &Action::DeclineDraw, 1).unwrap_err().status,
            409
        );
        assert_eq!(
            serde_json::to_string(&room.to_stored()).unwrap(),
            serde_json::to_string(&before).unwrap()
        );
    }

    #[test]
    fn takeback_and_draw_need_the_opponent() {
        let mut room = friend_room();
        let (w, b) = (room.holder(Some("tw")), room.holder(Some("tb")));
        room.act(&w, &mv("TE4:0"), 10).unwrap();
        assert_eq!(
            room.act(&w, &Action::Takeback, 20).unwrap(),
            Change::TakebackRequest
        );
        assert_eq!(
            room.act(&b, &Action::Takeback, 30).unwrap(),
            Change::Takeback
        );
        assert!(room.game.moves().is_empty());
        room.act(&w, &Action::OfferDraw, 40).unwrap();
        room.act(&b, &Action::OfferDraw, 50).unwrap();
        let o = room.game.outcome().unwrap();
        assert_eq!((o.winner, o.termination), (None, Termination::Agreement));
    }

    #[test]
    fn stored_form_round_trips() {
        let mut room = friend_room();
        let w = room.holder(Some("tw"));
        room.act(&w, &mv("TE4:0"), 10).unwrap();
        let b = room.holder(Some("tb"));
        room.act(&b, &Action::Resign, 20).unwrap();
        let back = Room::from_stored(room.to_stored(), 99, 99).unwrap();
        assert_eq!(back.game.moves(), room.game.moves());
        assert_eq!(back.game.outcome(), room.game.outcome());
        assert_eq!(back.seq, room.seq);
    }

    #[test]
    fn the_stored_json_is_the_stored_form() {
        let mut room = friend_room();
        let w = room.holder(Some("tw"));
        room.act(&w, &mv("CE4:4"), 10).unwrap();
        room.act(&room.holder(Some("tb")), &Action::OfferDraw, 20)
            .unwrap();
        let read: Stored = serde_json::from_str(&room.stored_json()).unwrap();
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            serde_json::to_value(room.to_stored()).unwrap()
        );
        assert_eq!(read.moves, ["CE4:1"]);
        let back = Room::from_stored(read, 30, 30).unwrap();
        assert_eq!(back.snapshot(30, &[]), room.snapshot(30, &[]));
    }

    /// Random legal moves, some of them ending the game, with time passing between them.
    fn play_randomly(room: &mut Room, moves: usize, seed: u64) -> Vec<Option<PendingMove>> {
        let mut rng = seed;
        let mut pending = Vec::new();
        for _ in 0..moves {
            if !room.is_live() {
                break;
            }
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pos = room.game.position();
            let chosen = pos
                .nth_legal_move((rng >> 33) % pos.count_legal_moves())
                .unwrap();
            let turn = room.turn();
            let now = room.updated_ms + 100 + (rng % 900) as i64;
            let change = room.act(&[turn], &mv(&chosen.to_string()), now).unwrap();
            pending.push(room.pending_move(change));
        }
        pending
    }

    #[test]
    fn the_state_carries_the_position_text_and_the_moves_whole() {
        for seed in 0..4_u64 {
            let mut room = friend_room();
            while room.is_live() {
                let ply = room.game.moves().len() as u64;
                play_randomly(&mut room, 1, seed * 1000 + ply);
                // The position's text is written into the JSON as it is: any character that
                // JSON escapes would break the text or change the value read back.
                let state: Value =
                    serde_json::from_str(&room.snapshot_json(room.updated_ms, &[])).unwrap();
                assert_eq!(state["position"], room.game.position().to_string());
                let moves: Vec<String> = room.game.moves().iter().map(|m| m.to_string()).collect();
                assert_eq!(state["moves"], json!(moves));
                assert_eq!(state["seq"], room.seq);
            }
        }
    }

    #[test]
    fn a_pending_move_changes_the_stored_form_as_the_move_changed_the_room() {
        for seed in 0..8 {
            let mut room = friend_room();
            let w = room.holder(Some("tw"));
            room.act(&w, &Action::OfferDraw, 500).unwrap();
            let mut stored = room.to_stored();
            let mut rng = seed;
            while room.is_live() {
                let before = room.to_stored();
                let pending = play_randomly(&mut room, 1, rng).pop().unwrap();
                rng = rng.wrapping_add(0x9e37_79b9);
                match pending {
                    Some(p) => {
                        stored.apply(&p).unwrap();
                        assert_eq!(
                            serde_json::to_value(&stored).unwrap(),
                            serde_json::to_value(room.to_stored()).unwrap()
                        );
                        // Applied again, or to a later state, it changes nothing.
                        stored.apply(&p).unwrap();
                        let mut skipped = before.clone();
                        skipped.seq += 2;
                        assert!(skipped.apply(&p).is_ok());
                    }
                    // The game ended: the whole room is stored instead.
                    None => assert!(!room.is_live()),
                }
            }
            // Nothing is added to a finished game.
            let mut done = room.to_stored();
            let late = PendingMove {
                game: "g".into(),
                seq: done.seq + 1,
                at_ms: 0,
                mover: 0,
                text: "TE4:0".into(),
                left_ms: Some(1),
            };
            assert!(done.apply(&late).is_err());
        }
    }

    #[test]
    fn a_pending_move_must_follow_the_stored_form() {
        let mut room = friend_room();
        let mut stored = room.to_stored();
        let pending = play_randomly(&mut room, 2, 7);
        let second = pending[1].clone().unwrap();
        assert!(
            stored
                .apply(&second)
                .unwrap_err()
                .contains("does not follow")
        );
        let mut untimed = Room::new(
            "u".into(),
            Mode::Friend,
            Game::new(Variant::Standard),
            [Seat::person("w", "tw"), Seat::person("b", "tb")],
            None,
            0,
        )
        .to_stored();
        let first = pending[0].clone().unwrap();
        assert!(untimed.apply(&first).unwrap_err().contains("no clock"));
        // Only a move that leaves the game running is kept as a pending move.
        let b = room.holder(Some("tb"));
        let change = room.act(&b, &Action::OfferDraw, 10_000).unwrap();
        assert_eq!(change, Change::DrawOffer);
        assert_eq!(room.pending_move(change), None);
    }

    #[test]
    fn a_move_rolled_back_leaves_the_room_as_it_was() {
        for seed in 0..4 {
            // A whole random game, then each of its positions again: the next move is played
            // and rolled back before it is played for good (the last one ends the game).
            let mut whole = friend_room();
            play_randomly(&mut whole, usize::MAX, seed);
            let mut room = friend_room();
            let b = room.holder(Some("tb"));
            room.act(&b, &Action::OfferDraw, 100).unwrap();
            for (ply, played) in whole.game.moves().iter().enumerate() {
                let before = serde_json::to_value(room.to_stored()).unwrap();
                let snapshot = room.snapshot(room.updated_ms, &[]);
                let point = room.undo_point();
                let (turn, now) = (room.turn(), room.updated_ms + 500);
                let action = mv(&played.to_string());
                room.act(&[turn], &action, now).unwrap();
                room.roll_back(point);
                assert_eq!(
                    serde_json::to_value(room.to_stored()).unwrap(),
                    before,
                    "ply {ply}"
                );
                assert_eq!(room.snapshot(room.updated_ms, &[]), snapshot, "ply {ply}");
                room.act(&[turn], &action, now).unwrap();
            }
            assert!(!room.is_live());
        }
    }

    #[test]
    fn move_texts_are_a_json_list() {
        let mut texts = MoveTexts::new(&[]);
        assert_eq!(texts.0, "[]");
        for text in ["TE4:0", "E4-F5:2"] {
            texts.push(Move::parse(text).unwrap());
        }
        assert_eq!(texts.0, r#"["TE4:0","E4-F5:2"]"#);
        assert_eq!(texts.iter().collect::<Vec<_>>(), ["TE4:0", "E4-F5:2"]);
        texts.pop();
        assert_eq!(texts.0, r#"["TE4:0"]"#);
        texts.pop();
        assert_eq!(texts.0, "[]");
        assert_eq!(texts.iter().count(), 0);
    }

    #[test]
    fn move_texts_follow_takebacks() {
        let mut room = friend_room();
        let (w, b) = (room.holder(Some("tw")), room.holder(Some("tb")));
        room.act(&w, &mv("TE4:0"), 10).unwrap();
        room.act(&b, &mv("TK5:0"), 20).unwrap();
        room.act(&b, &Action::Takeback, 30).unwrap();
        room.act(&w, &Action::Takeback, 40).unwrap();
        room.act(&b, &mv("TC3:0"), 50).unwrap();
        assert_eq!(room.snapshot(60, &[])["moves"], json!(["TE4:0", "TC3:0"]));
    }

    #[test]
    fn a_restart_charges_thinking_time_but_not_downtime() {
        let mut room = friend_room();
        let w = room.holder(Some("tw"));
        room.act(&w, &mv("TE4:0"), 10_000).unwrap();
        // Black thinks from 10 s; the server was last alive at 14 s and restarts at 100 s.
        let back = Room::from_stored(room.to_stored(), 100_000, 14_000).unwrap();
        let c = back.clock.as_ref().unwrap();
        assert_eq!(c.left(Colour::Black, Colour::Black, 100_000), 56_000);
        assert_eq!(c.left(Colour::Black, Colour::Black, 101_000), 55_000);
        assert_eq!(c.left(Colour::White, Colour::Black, 101_000), 51_000);
        // Out of time before the crash: the flag falls at once.
        let mut late = Room::from_stored(room.to_stored(), 200_000, 75_000).unwrap();
        assert!(late.check_flag(200_000));
    }

    #[test]
    fn a_takeback_charges_the_side_that_was_thinking() {
        let mut room = friend_room();
        let (w, b) = (room.holder(Some("tw")), room.holder(Some("tb")));
        room.act(&w, &mv("TE4:0"), 10_000).unwrap();
        room.act(&w, &Action::Takeback, 20_000).unwrap();
        // Black thinks from 10 s to 40 s, then grants the takeback: those 30 s are spent.
        room.act(&b, &Action::Takeback, 40_000).unwrap();
        let c = room.clock.as_ref().unwrap();
        assert_eq!(c.left(Colour::Black, Colour::White, 40_000), 30_000);
        // White, to move again, runs from the takeback on.
        assert_eq!(c.left(Colour::White, Colour::White, 45_000), 46_000);
    }

    #[test]
    fn takebacks_against_the_computer_do_not_stop_the_clock() {
        let mut room = Room::new(
            "c".into(),
            Mode::Computer,
            Game::new(Variant::Standard),
            [Seat::person("w", "tw"), Seat::computer("punct", 1)],
            Some(Clock::new(60_000, 0)),
            0,
        );
        let w = room.holder(Some("tw"));
        room.act(&w, &mv("TE4:0"), 1_000).unwrap();
        room.act(&[Colour::Black], &mv("TK5:0"), 2_000).unwrap();
        // White thinks 20 s and takes back both moves: White is charged its first second and
        // these 20 s, so taking back again and again does not stop White's clock.
        room.act(&w, &Action::Takeback, 22_000).unwrap();
        assert!(room.game.moves().is_empty());
        let c = room.clock.as_ref().unwrap();
        assert_eq!(c.left(Colour::White, Colour::White, 22_000), 39_000);
    }

    #[test]
    fn running_out_of_time_loses() {
        let mut room = friend_room();
        assert!(!room.check_flag(59_999));
        assert!(room.check_flag(60_000));
        assert_eq!(room.game.outcome().unwrap().winner, Some(Colour::Black));
    }
}
