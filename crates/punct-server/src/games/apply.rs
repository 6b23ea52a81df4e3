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
use super::players::{self, Rows};
use crate::error::Error;
use crate::players::lobby_notice::LobbyNotice;
use crate::room::{Change, Room, Seat};
use crate::store::notify::Channel;

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
        let was_live = room.is_live();
        let was_open = room.seats.iter().any(Seat::is_open);
        let change = match op(room) {
            Ok(change) => change,
            Err(refused) => {
                unfinished.done();
                return Err(refused);
            }
        };
        let began = was_open && !room.seats.iter().any(Seat::is_open);
        let rows = players::rows(room, began, was_live, Some(change));
        // The error is logged by whoever is answered with it.
        self.store(room, change, rows).await?;
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

    /// Stores the change that made `room`, with what it writes about its players,
    /// returning once it is committed: a move that leaves the game running and writes
    /// nothing else as a pending move, anything else as the whole room. A rated game's end
    /// leaves both rating changes in the room.
    async fn store(&self, room: &mut Room, change: Change, rows: Rows) -> Result<(), Error> {
        let store = &self.inner.store;
        match room.pending_move(change).filter(|_| rows.with.is_empty()) {
            Some(m) => store.save_move(m).await,
            None => self.save_room(room, rows.with).await,
        }
        .map_err(|e| self.write_error(e))?;
        self.database_answered();
        if let Some(changes) = rows.rated.and_then(|end| end.changes()) {
            room.rating_changes = Some(changes.map(|c| c.delta()));
        }
        if !rows.told.is_empty() {
            // Only wakes the players' open pages, which read their notifications back.
            let notice = LobbyNotice::Notified {
                accounts: rows.told,
            };
            let store = store.clone();
            tokio::spawn(async move {
                if let Err(e) = store.notify(Channel::Lobby, notice.payload()).await {
                    tracing::warn!("cannot wake the players' pages: {e}");
                }
            });
        }
        Ok(())
    }

    /// Stores the whole of `room` with the statements `with`.
    pub(super) async fn save_room(
        &self,
        room: &Room,
        with: Vec<Arc<dyn crate::store::sql::Attached>>,
    ) -> Result<(), crate::store::WriteError> {
        self.inner
            .store
            .save_with(
                &room.id,
                room.seq,
                room.stored_json(),
                room.is_live(),
                room.updated_ms,
                with,
            )
            .await
    }

    /// Stores a new game, with its players' rows if both seats are taken, returning once it
    /// is committed.
    pub(super) async fn save_new(&self, room: &Room) -> Result<(), Error> {
        let began = !room.seats.iter().any(Seat::is_open);
        let mut with = players::rows(room, began, true, None).with;
        with.extend(self.owned_from_the_start(&room.id, room.updated_ms));
        self.save_room(room, with)
            .await
            .map_err(|e| self.write_error(e))?;
        self.database_answered();
        Ok(())
    }
}
