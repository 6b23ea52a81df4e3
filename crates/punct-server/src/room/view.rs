//! The game's state as JSON (API.md, "The game state"), written straight from the room:
//! the moves' texts are kept as JSON beside the game, so a state copies them rather than
//! writing every move again at each change.

use std::fmt::Write as _;
use std::io::Write as _;

use punct_core::{Colour, Move, Outcome, Position};
use punct_engine::Level;
use serde::Serialize;
use serde_json::Value;

use super::{Mode, Room, colour_name};

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
pub(super) struct MoveTexts(pub(super) String);

impl MoveTexts {
    pub(super) fn new(moves: &[Move]) -> MoveTexts {
        let mut texts = MoveTexts("[]".into());
        for &mv in moves {
            texts.push(mv);
        }
        texts
    }

    pub(super) fn push(&mut self, mv: Move) {
        self.0.pop();
        if self.0.len() > 1 {
            self.0.push(',');
        }
        let _ = write!(self.0, "\"{mv}\"]");
    }

    pub(super) fn pop(&mut self) {
        let cut = self.0.rfind(',').unwrap_or(1);
        self.0.truncate(cut);
        self.0.push(']');
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
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
pub(super) fn write_with_moves(
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
pub(crate) struct OutcomeView {
    winner: Option<&'static str>,
    termination: &'static str,
    result: &'static str,
    text: String,
    winning_chain: Vec<String>,
}

impl OutcomeView {
    /// How `outcome` is shown, with the winner's chain in `pos`, the final position.
    pub(crate) fn of(outcome: &Outcome, pos: &Position) -> OutcomeView {
        OutcomeView {
            winner: outcome.winner.map(colour_name),
            termination: outcome.termination.name(),
            result: outcome.result_token(),
            text: outcome.to_string(),
            winning_chain: outcome
                .winner
                .map(|w| {
                    pos.winning_chain(w)
                        .into_iter()
                        .map(|c| c.to_string())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
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
    rematch_offer: Option<&'static str>,
    rematch: Option<&'a str>,
    thinking: bool,
    outcome: Option<OutcomeView>,
    you: Vec<&'static str>,
    /// The invitation to the open seat, for seat holders only (to share the link again).
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<&'a str>,
    created_ms: i64,
    updated_ms: i64,
}

impl Room {
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
        let outcome = self.game.outcome().map(|o| OutcomeView::of(&o, pos));
        let seat = |c: Colour| {
            let s = &self.seats[c.index()];
            SeatView {
                name: s.name(),
                computer: s.level().map(Level::number),
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
            rematch_offer: self.rematch_offer.map(colour_name),
            rematch: self.rematch.as_deref(),
            thinking: self.computer_to_move().is_some(),
            outcome,
            you: you.iter().map(|&c| colour_name(c)).collect(),
            invite: self.invite.as_deref().filter(|_| !you.is_empty()),
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
        }
    }
}
