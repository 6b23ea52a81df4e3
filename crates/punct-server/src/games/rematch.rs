//! A rematch asked for: offered to the other person, or made (stored, then recorded in the
//! finished game, whose event tells both pages the new game's id).

use std::sync::Arc;

use punct_core::Colour;

use super::{Hub, RoomCell};
use crate::error::Error;
use crate::room::new::random_hex;
use crate::room::{Action, RematchStep, Room};

impl Hub {
    /// Carries out a rematch asked for by the holder of `colours` on the finished game in
    /// `room` (locked): an offer, or the new game made once. Returns the number of the state
    /// the request left the finished game in.
    pub(super) async fn rematch(
        &self,
        cell: &Arc<RoomCell>,
        room: &mut Room,
        colours: &[Colour],
        now: i64,
    ) -> Result<u64, Error> {
        // The database holds the truth: a copy of the game read before another request's
        // rematch was stored (when nobody held the game in between) would make a second one.
        if let Some(truth) = self.load(&room.id).await?
            && truth.seq > room.seq
        {
            *room = truth;
        }
        match room.rematch_step(colours)? {
            // Asked again, or by both sides at once: the rematch is made once.
            RematchStep::Exists => Ok(room.seq),
            RematchStep::Offer => {
                self.apply(cell, room, |r| r.act(colours, &Action::Rematch, now))
                    .await?;
                Ok(room.seq)
            }
            RematchStep::Create => {
                let new = room.rematch_room(random_hex::<8>(), self.now());
                self.save_new(&new).await?;
                let id = new.id.clone();
                // In memory before anyone hears of it: the computer starts thinking if it
                // plays White, and the clock runs.
                self.insert(new);
                self.apply(cell, room, |r| Ok(r.record_rematch(colours, id, now)))
                    .await?;
                Ok(room.seq)
            }
        }
    }
}
