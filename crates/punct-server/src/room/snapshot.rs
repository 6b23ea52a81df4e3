//! A game's state at a moment as its views need it: taken from the room once per change (and
//! for each read), then written for each audience by the wire layer (`wire::view`), which
//! alone decides what each of them sees. The long parts (the moves, the position) are kept
//! as JSON already, so that writing a view for several audiences copies them.

use std::fmt;
use std::sync::Arc;

use punct_core::{Cell, Colour, Move, Outcome, Variant};
use punct_engine::Level;
use serde::{Serialize, Serializer};
use serde_json::value::{RawValue, to_raw_value};

use super::{Audience, Clock, Holder, Mode, Room, Seat};
use crate::players::accounts::AccountId;

/// What a value shows, written as a JSON string straight from its `Display`.
struct Text<'a, T: fmt::Display>(&'a T);

impl<T: fmt::Display> Serialize for Text<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// A seat as anyone may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatShown {
    /// The name shown.
    pub name: String,
    /// The computer's level, if the computer plays it.
    pub level: Option<Level>,
    /// Whether nobody holds it yet.
    pub open: bool,
    /// Who holds it.
    pub holder: Holder,
}

impl SeatShown {
    /// `seat` as anyone may see it.
    pub fn of(seat: &Seat) -> SeatShown {
        SeatShown {
            name: seat.name().to_owned(),
            level: seat.level(),
            open: seat.is_open(),
            holder: seat.holder(),
        }
    }
}

/// How a finished game ended, and the chain that won it.
#[derive(Clone, Debug)]
pub struct Ending {
    /// The outcome.
    pub outcome: Outcome,
    /// The winner's chain, if the winner connected.
    pub winning_chain: Vec<Cell>,
}

/// A game's state at a moment (API.md, "The game state"), with the seat tokens to tell
/// whose view a request has; the tokens are never shown.
#[derive(Clone)]
pub struct Snapshot {
    /// The game's id.
    pub id: String,
    /// The number of the state.
    pub seq: u64,
    /// Who plays.
    pub mode: Mode,
    /// Basic or standard.
    pub variant: Variant,
    /// The start position as text.
    pub start: Arc<str>,
    /// The moves as a JSON list of their texts.
    pub moves: Arc<RawValue>,
    /// The position now as a JSON string.
    pub position: Box<RawValue>,
    /// The side to move.
    pub turn: Colour,
    /// Pieces in the central hexagon, White's and Black's.
    pub centre: [u32; 2],
    /// White's and Black's seats.
    pub seats: [SeatShown; 2],
    /// The clock, if the game is timed.
    pub clock: Option<Clock>,
    /// The side that offered a draw.
    pub draw_offer: Option<Colour>,
    /// The side that asked for a takeback.
    pub takeback_request: Option<Colour>,
    /// The side that offered a rematch.
    pub rematch_offer: Option<Colour>,
    /// The rematch's id, once it was made.
    pub rematch: Option<String>,
    /// Whether the computer is thinking (it is to move in a live game).
    pub thinking: bool,
    /// How the game ended, once it has.
    pub ending: Option<Ending>,
    /// The invitation to the open seat (shown to seat holders only).
    pub invite: Option<String>,
    /// When the game was made, ms since the epoch.
    pub created_ms: i64,
    /// When it last changed, ms since the epoch.
    pub updated_ms: i64,
    /// The last move played.
    pub last_move: Option<Move>,
    /// When the snapshot was taken (the clock's figures are for then), ms since the epoch.
    pub taken_ms: i64,
    /// Whether the game is rated.
    pub rated: bool,
    /// White's and Black's rating changes, once a rated game has ended.
    pub rating_changes: Option<[f64; 2]>,
    /// The seat tokens, White's and Black's: never shown.
    tokens: [Option<String>; 2],
    /// The seats' accounts, White's and Black's, whose sessions stand for the tokens.
    accounts: [Option<AccountId>; 2],
}

impl Snapshot {
    /// The room's state at `now`.
    pub fn of(room: &Room, now: i64) -> Snapshot {
        let game = &room.game;
        let pos = game.position();
        let ending = game.outcome().map(|outcome| Ending {
            outcome,
            winning_chain: outcome
                .winner
                .map(|w| pos.winning_chain(w).into_iter().collect())
                .unwrap_or_default(),
        });
        Snapshot {
            id: room.id.clone(),
            seq: room.seq,
            mode: room.mode,
            variant: pos.variant(),
            start: room.start_text.clone(),
            moves: room.texts.shared(),
            position: to_raw_value(&Text(pos)).unwrap_or_else(|_| RawValue::NULL.to_owned()),
            turn: pos.turn(),
            centre: pos.centre_count(),
            seats: [SeatShown::of(&room.seats[0]), SeatShown::of(&room.seats[1])],
            clock: room.clock.clone(),
            draw_offer: room.draw_offer,
            takeback_request: room.takeback_request,
            rematch_offer: room.rematch_offer,
            rematch: room.rematch.clone(),
            thinking: room.computer_to_move().is_some(),
            ending,
            invite: room.invite.clone(),
            created_ms: room.created_ms,
            updated_ms: room.updated_ms,
            last_move: game.moves().last().copied(),
            taken_ms: now,
            rated: room.rated,
            rating_changes: room.rating_changes,
            tokens: [
                room.seats[0].token().map(str::to_owned),
                room.seats[1].token().map(str::to_owned),
            ],
            accounts: [
                room.seats[0].account().cloned(),
                room.seats[1].account().cloned(),
            ],
        }
    }

    /// Whose view the holder of `token` has of the game in this state.
    pub fn audience(&self, token: Option<&str>) -> Audience {
        self.audience_of(token, None)
    }

    /// Whose view the holder of `token`, or the signed-in `account`, has of the game in
    /// this state.
    pub fn audience_of(&self, token: Option<&str>, account: Option<&AccountId>) -> Audience {
        let holds = |c: Colour| {
            (token.is_some() && self.tokens[c.index()].as_deref() == token)
                || (account.is_some() && self.accounts[c.index()].as_ref() == account)
        };
        Audience::holding(holds(Colour::White), holds(Colour::Black))
    }

    /// Whether the game is still being played.
    pub fn is_live(&self) -> bool {
        self.ending.is_none()
    }
}
