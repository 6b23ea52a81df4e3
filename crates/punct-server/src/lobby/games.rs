//! The one door from the lobby to a game: two accounts, the terms they agreed on, and a
//! friend game made by the first and joined by the second, both with their accounts, so
//! that each plays it with their session (or API token) standing for the seat token.

use punct_core::Colour;

use super::{Lobby, storage};
use crate::error::Error;
use crate::players::accounts::{self, AccountId};
use crate::players::lobby_notice::LobbyNotice;
use crate::players::seeks::Terms;
use crate::players::speed::TimeControl;
use crate::room::new::{ClockSpec, Creator, NewGame};
use crate::room::{Audience, Mode};
use crate::wire::lobby::Started;

/// The name of `colour` as answered.
pub(super) fn seat_name(colour: Colour) -> &'static str {
    crate::players::games::colour_name(colour)
}

impl Lobby {
    /// The open account `id` as a game's player.
    async fn player(&self, id: &AccountId) -> Result<Creator, Error> {
        let key = id.clone();
        let found = self
            .hub()
            .database()
            .query(move |db| accounts::by_id(db, &key))
            .await
            .map_err(storage)?;
        let account = found
            .filter(accounts::Account::is_open)
            .ok_or_else(|| Error::conflict("that player's account is closed"))?;
        Ok(Creator {
            account: id.clone(),
            name: account.shown_name().to_owned(),
        })
    }

    /// Makes the game of `terms` between `first` (the seeker or challenger, whose colour
    /// choice `terms` holds) and `second`; tells both. Returns the game and `first`'s
    /// colour.
    pub(super) async fn start_game(
        &self,
        terms: Terms,
        first: &AccountId,
        second: &AccountId,
    ) -> Result<(String, Colour), Error> {
        let (one, two) = (self.player(first).await?, self.player(second).await?);
        let (clock, days) = match terms.time {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
            } => (
                Some(ClockSpec {
                    minutes: initial_ms as f64 / 60_000.0,
                    increment: increment_ms as f64 / 1000.0,
                }),
                None,
            ),
            TimeControl::Correspondence { days } => (None, Some(days)),
        };
        let request = NewGame {
            mode: Mode::Friend,
            variant: None,
            colour: Some(terms.colour.name().to_owned()),
            level: None,
            clock,
            start: None,
            name: None,
            days,
            rated: terms.rated,
        };
        let hub = self.hub();
        let made = hub.create(request, Some(one)).await?;
        let colour = match made.audience {
            Audience::Seat(c) => c,
            _ => return Err(Error::internal("a lobby game's creator holds one seat")),
        };
        hub.join(
            &made.id,
            &two.name,
            Some(second.clone()),
            made.invite.as_deref(),
            None,
        )
        .await?;
        let (white, black) = match colour {
            Colour::White => (first.clone(), second.clone()),
            Colour::Black => (second.clone(), first.clone()),
        };
        self.tell(LobbyNotice::GameStarted {
            game: made.id.clone(),
            white,
            black,
        })
        .await;
        Ok((made.id, colour))
    }

    /// [`Lobby::start_game`], answered to `second`.
    pub(super) async fn started_for_second(
        &self,
        terms: Terms,
        first: &AccountId,
        second: &AccountId,
    ) -> Result<Started, Error> {
        let (game, colour) = self.start_game(terms, first, second).await?;
        Ok(Started {
            game,
            seat: seat_name(!colour),
        })
    }
}
