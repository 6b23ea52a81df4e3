//! The one way a game changes: under the game's lock (its room read back from the database
//! first if a change to it was cut short), the change is made on the room or refused,
//! stored, and only once it is committed announced, with what follows from it started.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use tokio::sync::MutexGuard;

use super::Hub;
use super::announce::Announced;
use super::cell::{RoomCell, Unfinished};
use crate::error::Error;
use crate::room::{Change, Room};

impl Hub {
    /// Locks the room of `cell`, first reading it back from the database if a change to it
    /// was cut short; everyone following it is then sent the state as it truly is.
    pub(super) async fn lock<'a>(
        &self,
        cell: &'a Arc<RoomCell>,
    ) -> Result<MutexGuard<'a, Room>, Error> {
        let mut room = cell.room.lock().await;
        if cell.is_stale() {
            let id = room.id.clone();
            let truth = self
                .load(&id)
                .await?
                .ok_or_else(|| Error::internal(format!("game {id} is gone from the database")))?;
            // Part of the recovery from an outage, which is logged once for all its games.
            tracing::info!(game = %id, seq = truth.seq, "game read back from the database");
            *room = truth;
            cell.stale.store(false, Ordering::Release);
            self.announce(cell, &room, Announced::ReadBack);
        }
        Ok(room)
    }

    /// The one way a game changes: `op` changes the room in place, or refuses and changes
    /// nothing; the change is stored, and only once it is committed told to everyone, with
    /// what follows from it started. If it cannot be stored (or is cut short), the room is
    /// marked stale, so that it is read back from the database before it is used again.
    pub(super) async fn apply(
        &self,
        cell: &Arc<RoomCell>,
        room: &mut Room,
        op: impl FnOnce(&mut Room) -> Result<Change, Error>,
    ) -> Result<Change, Error> {
        let unfinished = Unfinished(cell);
        let checked = Instant::now();
        let change = match op(room) {
            Ok(change) => change,
            Err(refused) => {
                unfinished.done();
                return Err(refused);
            }
        };
        // The error is logged by whoever is answered with it.
        self.store(room, change).await?;
        let metrics = &self.inner.metrics;
        let is_move = change == Change::Move;
        metrics.committed(change.index(), is_move.then(|| checked.elapsed()));
        self.announce(cell, room, Announced::Change(change));
        if is_move {
            metrics.move_broadcast(checked.elapsed());
        }
        unfinished.done();
        Ok(change)
    }

    /// Stores the change that made `room`, returning once it is committed: a move that
    /// leaves the game running as a pending move, anything else as the whole room.
    async fn store(&self, room: &Room, change: Change) -> Result<(), Error> {
        let store = &self.inner.store;
        match room.pending_move(change) {
            Some(m) => store.save_move(m).await,
            None => {
                store
                    .save(
                        &room.id,
                        room.seq,
                        room.stored_json(),
                        room.is_live(),
                        room.updated_ms,
                    )
                    .await
            }
        }
        .map_err(|e| self.write_error(e))?;
        self.database_answered();
        Ok(())
    }
}
