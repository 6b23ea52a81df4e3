//! A rematch of a finished game: offered and accepted between people, made at once against
//! the computer and on one screen. The new game has the colours swapped and the old game's
//! mode, start, engine level and clock; each person keeps their seat token, so that both
//! pages can open the new game with the token they hold.

use punct_core::{Colour, Game};

use super::{Action, Change, Room};
use crate::error::Error;
use crate::error::refusal::Refusal;
use crate::room::clock::Clock;

/// What a request for a rematch leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RematchStep {
    /// The rematch was made already (asked again, or both sides asked at once).
    Exists,
    /// A new game is to be made now ([`Room::rematch_room`], then [`Room::record_rematch`]).
    Create,
    /// The request is an offer the opponent must accept ([`Room::act`]).
    Offer,
}

impl Room {
    /// What a rematch asked for by the holder of `colours` leads to, or why it is refused.
    pub fn rematch_step(&self, colours: &[Colour]) -> Result<RematchStep, Error> {
        let me = self.rematch_asker(colours)?;
        if self.rematch.is_some() {
            return Ok(RematchStep::Exists);
        }
        let at_once = colours.len() == 2 || self.seats[(!me).index()].level().is_some();
        if at_once || self.rematch_offer == Some(!me) {
            Ok(RematchStep::Create)
        } else if self.rematch_offer == Some(me) {
            Err(Error::refused(Refusal::RematchAlreadyOffered))
        } else {
            Ok(RematchStep::Offer)
        }
    }

    /// The side asking, if it may ask: a seat holder, once the game is over.
    fn rematch_asker(&self, colours: &[Colour]) -> Result<Colour, Error> {
        let &me = colours
            .first()
            .ok_or_else(|| Error::refused(Refusal::NotSeated))?;
        if self.is_live() {
            return Err(Error::refused(Refusal::RematchWhileLive));
        }
        Ok(me)
    }

    /// Offers a rematch for the holder of `colours` (see [`Room::rematch_step`]).
    pub(super) fn offer_rematch(&mut self, colours: &[Colour], now: i64) -> Result<Change, Error> {
        match self.rematch_step(colours)? {
            RematchStep::Offer => {
                let me = colours[0];
                self.rematch_offer = Some(me);
                self.made(me, Action::Rematch, now);
                Ok(Change::RematchOffer)
            }
            RematchStep::Exists | RematchStep::Create => Err(Error::internal(
                "a rematch to be made was handled as an offer",
            )),
        }
    }

    /// Turns down the opponent's rematch offer for the holder of `colours`.
    pub(super) fn decline_rematch(
        &mut self,
        colours: &[Colour],
        now: i64,
    ) -> Result<Change, Error> {
        let me = self.rematch_asker(colours)?;
        if colours.len() == 2 || self.rematch_offer != Some(!me) || self.rematch.is_some() {
            return Err(Error::refused(Refusal::NoRematchOffer));
        }
        self.rematch_offer = None;
        self.made(me, Action::DeclineRematch, now);
        Ok(Change::RematchDeclined)
    }

    /// The rematch, with id `id`: the same mode, start, engine level, clock (or days per
    /// move) and rating, the seats (names, tokens, accounts, the computer) swapped.
    pub fn rematch_room(&self, id: String, now: i64) -> Room {
        let [white, black] = self.seats.clone();
        let clock = self.clock.as_ref().map(|c| Clock {
            per_move_ms: c.per_move_ms,
            ..Clock::new(c.initial_ms, c.increment_ms)
        });
        let game = Game::from_position(self.game.start().clone());
        let mut room = Room::new(id, self.mode, game, [black, white], clock, now);
        room.rated = self.rated;
        room
    }

    /// Records that the rematch `id`, asked for by the holder of `colours`, was made.
    pub fn record_rematch(&mut self, colours: &[Colour], id: String, now: i64) -> Change {
        self.rematch = Some(id);
        self.rematch_offer = None;
        if let Some(&me) = colours.first() {
            self.made(me, Action::Rematch, now);
        }
        Change::Rematch
    }
}
