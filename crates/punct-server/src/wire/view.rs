//! A game's state as each audience sees it (API.md, "The game state"): the one place that
//! decides who sees what. Everyone sees the game; `you` names the seats the audience holds,
//! and the invitation to the open seat is shown to seat holders alone (to share the link
//! again). A state is written from a [`Snapshot`] taken once per change, for each audience
//! that follows the game.

use punct_core::{Colour, Outcome, Position};
use punct_engine::Level;
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};
use serde_json::value::RawValue;

use crate::room::{Audience, Clock, Mode, SeatShown, Snapshot, colour_name};

/// The state of a game as one audience sees it.
#[derive(Serialize)]
pub struct GameState<'a> {
    id: &'a str,
    seq: u64,
    mode: Mode,
    variant: &'static str,
    start: &'a str,
    moves: &'a RawValue,
    position: &'a RawValue,
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
    you: Colours,
    /// The invitation to the open seat, for seat holders only.
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<&'a str>,
    created_ms: i64,
    updated_ms: i64,
    /// Whether the game is rated.
    rated: bool,
    /// The players' rating changes, once a rated game has ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_change: Option<RatingChange>,
}

/// White's and Black's rating changes (+12.3 / −12.3).
#[derive(Serialize)]
struct RatingChange {
    white: f64,
    black: f64,
}

impl<'a> GameState<'a> {
    /// `snapshot` as `audience` sees it, its clock's figures at `now`.
    pub fn of(snapshot: &'a Snapshot, audience: Audience, now: i64) -> GameState<'a> {
        let turn = snapshot.turn;
        GameState {
            id: &snapshot.id,
            seq: snapshot.seq,
            mode: snapshot.mode,
            variant: snapshot.variant.name(),
            start: &snapshot.start,
            moves: &snapshot.moves,
            position: &snapshot.position,
            turn: colour_name(turn),
            centre: Centre {
                white: snapshot.centre[0],
                black: snapshot.centre[1],
            },
            seats: Seats {
                white: SeatView::of(&snapshot.seats[0]),
                black: SeatView::of(&snapshot.seats[1]),
            },
            clock: snapshot.clock.as_ref().map(|c| ClockView::of(c, turn, now)),
            draw_offer: snapshot.draw_offer.map(colour_name),
            takeback_request: snapshot.takeback_request.map(colour_name),
            rematch_offer: snapshot.rematch_offer.map(colour_name),
            rematch: snapshot.rematch.as_deref(),
            thinking: snapshot.thinking,
            outcome: snapshot.ending.as_ref().map(|e| OutcomeView {
                winner: e.outcome.winner.map(colour_name),
                termination: e.outcome.termination.name(),
                result: e.outcome.result_token(),
                text: e.outcome.to_string(),
                winning_chain: e.winning_chain.iter().map(ToString::to_string).collect(),
            }),
            you: Colours(audience.colours()),
            invite: snapshot
                .invite
                .as_deref()
                .filter(|_| audience.holds_a_seat()),
            created_ms: snapshot.created_ms,
            updated_ms: snapshot.updated_ms,
            rated: snapshot.rated,
            rating_change: snapshot
                .rating_changes
                .map(|[white, black]| RatingChange { white, black }),
        }
    }
}

/// Colours as the API names them, in a list.
#[derive(Clone, Copy, Debug)]
pub struct Colours(pub &'static [Colour]);

impl Serialize for Colours {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for &colour in self.0 {
            seq.serialize_element(colour_name(colour))?;
        }
        seq.end()
    }
}

/// A seat as everyone may see it.
#[derive(Serialize)]
struct SeatView<'a> {
    name: &'a str,
    computer: Option<u8>,
    open: bool,
}

impl SeatView<'_> {
    fn of(seat: &SeatShown) -> SeatView<'_> {
        SeatView {
            name: &seat.name,
            computer: seat.level.map(Level::number),
            open: seat.open,
        }
    }
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
    /// A correspondence game's days per move (each move resets its mover's time to them).
    #[serde(skip_serializing_if = "Option::is_none")]
    days_per_move: Option<u32>,
}

impl ClockView {
    /// `clock`'s figures at `now`, with `turn` to move.
    fn of(clock: &Clock, turn: Colour, now: i64) -> ClockView {
        ClockView {
            initial_ms: clock.initial_ms,
            increment_ms: clock.increment_ms,
            white_ms: clock.left(Colour::White, turn, now).max(0),
            black_ms: clock.left(Colour::Black, turn, now).max(0),
            running: clock.running_since.map(|_| colour_name(turn)),
            days_per_move: clock.days_per_move(),
        }
    }
}

/// How a game ended, as the state, a replay and a move checked alone show it.
#[derive(Serialize)]
pub struct OutcomeView {
    winner: Option<&'static str>,
    termination: &'static str,
    result: &'static str,
    text: String,
    winning_chain: Vec<String>,
}

impl OutcomeView {
    /// How `outcome` is shown, with the winner's chain in `pos`, the final position.
    pub fn of(outcome: &Outcome, pos: &Position) -> OutcomeView {
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
