//! What the creator or joiner of a game gets back (`POST /api/games`, `…/join`).

use serde::Serialize;

use super::view::{Colours, GameState};
use crate::games::Seated;

/// A seat granted: the token that holds it and the game as its holder sees it.
#[derive(Serialize)]
pub struct SeatGrant<'a> {
    /// The game's id.
    id: &'a str,
    /// The secret seat token: sent as `Authorization: Bearer …`.
    token: &'a str,
    /// The colours the token holds.
    colours: Colours,
    /// The secret that gives a friend the open seat (friend games, until it is taken).
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<&'a str>,
    /// The game's state.
    state: GameState<'a>,
}

impl<'a> SeatGrant<'a> {
    /// The answer for `seated`.
    pub fn of(seated: &'a Seated) -> SeatGrant<'a> {
        SeatGrant {
            id: &seated.id,
            token: &seated.token,
            colours: Colours(seated.audience.colours()),
            invite: seated.invite.as_deref(),
            state: GameState::of(&seated.snapshot, seated.audience, seated.snapshot.taken_ms),
        }
    }
}
