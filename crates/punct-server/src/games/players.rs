//! What a change of a game writes about its signed-in players, in the transaction that
//! stores the game's row (`Store::save_with`): their `account_games` rows as the game begins,
//! whose turn it is (and a correspondence game's deadline) after each change, the end with
//! the result, both rating changes for a rated game, and the notifications it brings (your
//! turn in a correspondence game, a draw offer, the game's end). All of it or none is
//! written, with the row.

use std::sync::Arc;

use punct_core::Colour;

use crate::players::glicko2::Score;
use crate::players::notifications::{self, Kind};
use crate::players::ratings::RatedEnd;
use crate::players::speed::Speed;
use crate::players::{accounts::AccountId, games};
use crate::room::{Change, Room};
use crate::store::sql::{Attached, Statement};

/// What a change writes about the players beside the game's row.
#[derive(Default)]
pub(super) struct Rows {
    /// The statements that go with the row.
    pub with: Vec<Arc<dyn Attached>>,
    /// The rated end among them, whose rating changes are known once the row is committed.
    pub rated: Option<Arc<RatedEnd>>,
    /// The accounts told of something among them, whose open pages are woken once the row
    /// is committed.
    pub told: Vec<AccountId>,
}

/// What the change to `room` writes about its players. `began` says the game has just got
/// both its players; `was_live` whether it was being played before the change; `change` is
/// the change, if one was made at a player's request or by the clock (not a restart).
pub(super) fn rows(room: &Room, began: bool, was_live: bool, change: Option<Change>) -> Rows {
    let accounts = [room.seats[0].account(), room.seats[1].account()];
    if accounts.iter().all(Option::is_none) {
        return Rows::default();
    }
    let mut with: Vec<Statement> = Vec::new();
    let mut rated = None;
    let now = room.updated_ms;
    // A game without a clock is listed with the long games; it is never rated.
    let speed = room.speed().unwrap_or(Speed::Classical);
    if began {
        for colour in Colour::ALL {
            if let Some(account) = accounts[colour.index()] {
                with.push(games::joined(&games::Seat {
                    game: room.id.clone(),
                    colour,
                    account: account.clone(),
                    opponent: accounts[(!colour).index()].cloned(),
                    speed,
                    rated: room.is_rated(),
                    started_ms: room.created_ms,
                }));
            }
        }
    }
    let tell = |whom: Option<&AccountId>, kind: Kind, other: Option<&AccountId>| {
        whom.filter(|w| Some(*w) != other)
            .and_then(|w| notifications::tell(w, kind, Some(&room.id), other, now).ok())
    };
    let mut told = Vec::new();
    if room.is_live() {
        let turn = room.turn();
        let correspondence = room.clock.as_ref().filter(|c| c.per_move_ms.is_some());
        with.push(games::turn(
            &room.id,
            turn,
            correspondence.and_then(|c| c.deadline(turn)),
        ));
        match change {
            Some(Change::Move) if correspondence.is_some() => told.push(tell(
                accounts[turn.index()],
                Kind::YourTurn,
                accounts[(!turn).index()],
            )),
            Some(Change::DrawOffer) => {
                if let Some(by) = room.draw_offer {
                    told.push(tell(
                        accounts[(!by).index()],
                        Kind::DrawOffer,
                        accounts[by.index()],
                    ));
                }
            }
            _ => {}
        }
    } else if was_live && let Some(outcome) = room.game.outcome() {
        let white_score = match (outcome.winner, outcome.termination) {
            (_, t) if t.is_void() => None,
            (Some(Colour::White), _) => Some(Score::Win),
            (Some(Colour::Black), _) => Some(Score::Loss),
            (None, _) => Some(Score::Draw),
        };
        with.push(games::ended(&room.id, white_score, now));
        if let (Some(score), true, [Some(white), Some(black)]) =
            (white_score, room.is_rated(), accounts)
        {
            let end = Arc::new(RatedEnd::new(
                &room.id,
                speed,
                white.clone(),
                black.clone(),
                score,
                now,
            ));
            rated = Some(end);
        }
        for colour in Colour::ALL {
            told.push(tell(
                accounts[colour.index()],
                Kind::GameEnd,
                accounts[(!colour).index()],
            ));
        }
    }
    let told: Vec<Statement> = told.into_iter().flatten().collect();
    let told_accounts = if told.is_empty() {
        Vec::new()
    } else {
        accounts.iter().flatten().map(|a| (*a).clone()).collect()
    };
    with.extend(told);
    let mut attached: Vec<Arc<dyn Attached>> = with
        .into_iter()
        .map(|s| Arc::new(s) as Arc<dyn Attached>)
        .collect();
    if let Some(end) = &rated {
        attached.push(end.clone());
    }
    Rows {
        with: attached,
        rated,
        told: told_accounts,
    }
}
