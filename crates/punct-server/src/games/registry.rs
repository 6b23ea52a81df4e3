//! The rooms in memory, a cache of the store: the live games (each with its clock timer and,
//! where the computer is to move, its search), and the finished games still in use. A game
//! not in memory is read from the database when it is asked for.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard};

use super::Hub;
use super::cell::{Glance, RoomCell};
use crate::error::Error;
use crate::error::refusal::Refusal;
use crate::ops::metrics::StorageOp;
use crate::room::{Room, Stored};

impl Hub {
    /// The live games by id. A panic elsewhere while it was held leaves the map as it was
    /// (every change to it is a single insertion or removal), so it stays usable.
    pub(super) fn rooms(&self) -> MutexGuard<'_, HashMap<String, Arc<RoomCell>>> {
        self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts a live room in the map and starts its background tasks (this server's, or once
    /// it has claimed the game when several share the database), unless another request
    /// put the same game there meanwhile: returns the cell the map holds.
    pub(super) fn insert(&self, room: Room) -> Arc<RoomCell> {
        self.insert_found(room, false)
    }

    /// [`Hub::insert`], for a game found as the server starts (`starting`), which a node
    /// started again under its name takes back with the time it was away given back.
    pub(super) fn insert_found(&self, room: Room, starting: bool) -> Arc<RoomCell> {
        let timed = room.clock.is_some() && room.is_live();
        let computer = room.computer_to_move().map(|_| room.seq);
        let (cell, fresh) = self.put(room);
        if !fresh {
            return cell;
        }
        if self.membership().is_some() {
            tokio::spawn(self.clone().claim(cell.clone(), starting));
        } else {
            cell.owned.store(true, Ordering::Release);
            self.start_owned(&cell, timed, computer);
        }
        cell
    }

    /// Puts a live room in the map, starting nothing, unless another request put the same
    /// game there meanwhile: the cell the map holds, and whether it is the new one.
    pub(super) fn put(&self, room: Room) -> (Arc<RoomCell>, bool) {
        let glance = Glance::of(&room, &self.inner.lifetimes);
        match self.rooms().entry(room.id.clone()) {
            Entry::Occupied(held) => (held.get().clone(), false),
            Entry::Vacant(free) => (
                free.insert(RoomCell::new(room, glance, self.now())).clone(),
                true,
            ),
        }
    }

    /// The game `id`, loaded from the database if it is not in memory.
    pub async fn room(&self, id: &str) -> Result<Arc<RoomCell>, Error> {
        let found = self.rooms().get(id).cloned();
        if let Some(cell) = found.or_else(|| self.finished().get(id)) {
            return Ok(cell);
        }
        let valid = !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_hexdigit());
        let room = if valid { self.load(id).await? } else { None };
        let room = room.ok_or_else(|| {
            Error::refused(Refusal::NoGame {
                id: crate::error::refusal::cut(id).into_owned(),
            })
        })?;
        if !room.is_live() {
            // Finished games change little (a rematch): kept only while in use.
            let now = self.now();
            return Ok(self.finished().keep(room, now));
        }
        Ok(self.insert(room))
    }

    /// Game `id` as the database holds it.
    pub(super) async fn load(&self, id: &str) -> Result<Option<Room>, Error> {
        let loaded = self.inner.store.load::<Stored>(id).await;
        let loaded = loaded.map_err(|e| self.storage_error(StorageOp::Read, e))?;
        self.database_answered();
        let Some(stored) = loaded else {
            return Ok(None);
        };
        let now = self.now();
        let mut room = Room::from_stored(stored, now, now)
            .map_err(|e| Error::internal(format!("game {id} cannot be restored: {e}")))?;
        if room.rated && !room.is_live() {
            // The rating changes live with the players' rows, written with the game's end.
            let game = id.to_owned();
            room.rating_changes = self
                .inner
                .store
                .query(move |db| crate::players::games::rating_changes(db, &game))
                .await
                .map_err(|e| self.storage_error(StorageOp::Read, e))?;
        }
        Ok(Some(room))
    }

    /// Moves a game that cannot be restored out of the way, so that it never blocks the
    /// server, and says so.
    pub(super) async fn set_aside(&self, id: &str, why: &str) {
        tracing::error!(game = %id, "game cannot be restored and is set aside: {why}");
        if let Err(e) = self.inner.store.set_aside(id, why).await {
            tracing::error!(game = %id, "cannot set the game aside: {e}");
        }
    }
}
