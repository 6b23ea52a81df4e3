//! A game's state as each audience sees it (API.md, "The game state"): the one place that
//! decides who sees what. Everyone sees the game; `you` names the seats the audience holds,
//! and the invitation to the open seat is shown to seat holders alone (to share the link
//! again). A state is written from a [`Snapshot`] taken once per change, for each audience
//! that follows the game.

use punct_core::{Colour, Outcome, Position};
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};
use serde_json::value::RawValue;

use crate::room::{Audience, Clock, Holder, Mode, SeatShown, Snapshot, colour_name};

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
            seats: Seats::of(&snapshot.seats),
            clock: snapshot.clock.as_ref().map(|c| ClockView::of(c, turn, now)),
            draw_offer: snapshot.draw_offer.map(colour_name),
            takeback_request: snapshot.takeback_request.map(colour_name),
            rematch_offer: snapshot.rematch_offer.map(colour_name),
            rematch: snapshot.rematch.as_deref(),
            thinking: snapshot.thinking,
            outcome: snapshot.ending.as_ref().map(|e| {
                OutcomeView::with_chain(
                    &e.outcome,
                    e.winning_chain.iter().map(ToString::to_string).collect(),
                )
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

/// A seat as everyone may see it: its name as records keep it, and who holds it (`kind`:
/// `account`, `guest`, `anonymous` with `number` 2 for the second seat on one screen,
/// `computer`, `open`), which a page words in its own language.
#[derive(Serialize)]
pub(super) struct SeatView<'a> {
    name: &'a str,
    computer: Option<u8>,
    open: bool,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    number: Option<u8>,
}

impl<'a> SeatView<'a> {
    fn of(seat: &'a SeatShown) -> SeatView<'a> {
        SeatView::held(&seat.name, seat.holder, seat.open)
    }

    /// The seat named `name`, held by `holder`, `open` if nobody holds it yet.
    pub(super) fn held(name: &'a str, holder: Holder, open: bool) -> SeatView<'a> {
        let (kind, number) = match holder {
            Holder::Account => ("account", None),
            Holder::Guest => ("guest", None),
            Holder::Anonymous { second } => ("anonymous", second.then_some(2)),
            Holder::Computer(_) => ("computer", None),
            Holder::Open => ("open", None),
        };
        let computer = match holder {
            Holder::Computer(level) => Some(level.number()),
            _ => None,
        };
        SeatView {
            name,
            computer,
            open,
            kind,
            number,
        }
    }
}

/// White's and Black's seats.
#[derive(Serialize)]
pub(super) struct Seats<'a> {
    white: SeatView<'a>,
    black: SeatView<'a>,
}

impl<'a> Seats<'a> {
    /// `seats`, White's and Black's.
    pub(super) fn of(seats: &'a [SeatShown; 2]) -> Seats<'a> {
        Seats::new(SeatView::of(&seats[0]), SeatView::of(&seats[1]))
    }

    /// `white`'s and `black`'s seats.
    pub(super) fn new(white: SeatView<'a>, black: SeatView<'a>) -> Seats<'a> {
        Seats { white, black }
    }
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
        let chain = outcome
            .winner
            .map(|w| {
                pos.winning_chain(w)
                    .into_iter()
                    .map(|c| c.to_string())
                    .collect()
            })
            .unwrap_or_default();
        OutcomeView::with_chain(outcome, chain)
    }

    /// How `outcome` is shown, the winner's chain being the cells `winning_chain`.
    fn with_chain(outcome: &Outcome, winning_chain: Vec<String>) -> OutcomeView {
        OutcomeView {
            winner: outcome.winner.map(colour_name),
            termination: outcome.termination.name(),
            result: outcome.result_token(),
            text: outcome.to_string(),
            winning_chain,
        }
    }
}

#[derive(Serialize)]
struct Centre {
    white: u32,
    black: u32,
}
