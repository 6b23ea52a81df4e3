//! Finished games still in use: a finished game leaves memory once nobody holds it, but
//! while a socket follows it or a request works on it, every request about it gets the same
//! cell. So its rare changes (a rematch offered, accepted, declined) are made one at a time
//! under its lock and broadcast to the sockets that follow it.

use std::collections::HashMap;
use std::sync::{Arc, MutexGuard, Weak};

use super::Hub;
use super::cell::{Glance, RoomCell};
use crate::room::Room;

/// The finished games' cells by id, held weakly: the map never keeps a game in memory.
#[derive(Default)]
pub(super) struct Finished {
    cells: HashMap<String, Weak<RoomCell>>,
    /// The map's size after it was last swept of games nobody holds.
    swept: usize,
}

impl Finished {
    /// The cell of finished game `id`, if anyone still holds it.
    pub(super) fn get(&self, id: &str) -> Option<Arc<RoomCell>> {
        self.cells.get(id).and_then(Weak::upgrade)
    }

    /// Every finished game's cell still held.
    pub(super) fn all(&self) -> Vec<Arc<RoomCell>> {
        self.cells.values().filter_map(Weak::upgrade).collect()
    }

    /// The cell of finished game `room`, read at `now`: the one in use if there is one
    /// (another request read the game meanwhile), otherwise a new one, remembered while it
    /// is held.
    pub(super) fn keep(&mut self, room: Room, now: i64) -> Arc<RoomCell> {
        if let Some(cell) = self.get(&room.id) {
            return cell;
        }
        let cell = RoomCell::new(room, Glance::default(), now);
        self.hold(&cell);
        cell
    }

    /// Remembers `cell`, of a game that just finished or was read back, while it is held.
    pub(super) fn hold(&mut self, cell: &Arc<RoomCell>) {
        self.cells.insert(cell.id.clone(), Arc::downgrade(cell));
        // Swept whenever the map has doubled since the last sweep: the games nobody holds
        // any more cost a little memory for a while and never a scan per request.
        if self.cells.len() > 2 * self.swept.max(32) {
            self.cells.retain(|_, cell| cell.strong_count() > 0);
            self.swept = self.cells.len();
        }
    }
}

impl Hub {
    pub(super) fn finished(&self) -> MutexGuard<'_, Finished> {
        self.inner
            .finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{Mode, Seat};
    use punct_core::{Game, Variant};

    fn finished_room(id: &str) -> Room {
        let mut game = Game::new(Variant::Standard);
        game.end(punct_core::Outcome {
            winner: None,
            termination: punct_core::Termination::Agreement,
        });
        let seats = [Seat::person("A", "a"), Seat::person("B", "b")];
        Room::new(id.into(), Mode::Local, game, seats, None, 0)
    }

    #[test]
    fn a_held_game_is_shared_and_one_nobody_holds_is_forgotten() {
        let mut finished = Finished::default();
        let first = finished.keep(finished_room("aa"), 0);
        let again = finished.keep(finished_room("aa"), 0);
        assert!(Arc::ptr_eq(&first, &again), "a held game has one cell");
        drop((first, again));
        assert!(
            finished.get("aa").is_none(),
            "the map does not keep a game alive"
        );
        for i in 0..200 {
            drop(finished.keep(finished_room(&format!("{i:x}")), 0));
        }
        assert!(
            finished.cells.len() <= 65,
            "swept: {} entries",
            finished.cells.len()
        );
    }
}
