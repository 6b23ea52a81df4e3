//! The fan-out of a committed change: its snapshot, taken once, goes to every socket that
//! follows the game, each of which sends its audience's form of it (written once per
//! audience, `wire::server`); and what follows from the change is started. Announcing is
//! local to this server: a change made on another server sharing the database reaches this
//! one's sockets by being announced here once it is read (the seam for several servers is
//! [`RoomCell::publish`]).

use std::sync::{Arc, OnceLock};

use axum::extract::ws::Utf8Bytes;

use super::cell::{Glance, RoomCell};
use super::{Hub, computer};
use crate::room::{Audience, Change, Room, Snapshot};

/// What an announcement tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Announced {
    /// A change, which made the snapshot's state.
    Change(Change),
    /// The game as the database holds it, read back after a change was cut short: it
    /// replaces whatever the sockets were told.
    ReadBack,
}

/// A committed state of a game, as its sockets are told it.
pub struct Announcement {
    /// What it tells.
    pub what: Announced,
    /// The state, taken once.
    pub snapshot: Arc<Snapshot>,
    /// The text of the message each audience is sent, written by the first socket of that
    /// audience to send it and shared by the others.
    forms: [OnceLock<Utf8Bytes>; Audience::COUNT],
}

impl Announcement {
    /// The announcement of `snapshot`, the state `what` made.
    pub fn new(what: Announced, snapshot: Arc<Snapshot>) -> Announcement {
        Announcement {
            what,
            snapshot,
            forms: Default::default(),
        }
    }

    /// The text `audience` is sent, written by `write` if no socket of that audience has
    /// sent it yet.
    pub fn form(&self, audience: Audience, write: impl FnOnce() -> Utf8Bytes) -> Utf8Bytes {
        self.forms[audience.index()].get_or_init(write).clone()
    }
}

impl Hub {
    /// Tells everyone following the game in `cell` of its committed state `room` (after a
    /// change, or as read back), and starts what follows from it.
    pub(super) fn announce(&self, cell: &Arc<RoomCell>, room: &Room, what: Announced) {
        let snapshot = Arc::new(Snapshot::of(room, self.now()));
        cell.publish(Announcement::new(what, snapshot));
        self.follow_up(cell, room);
    }

    /// Starts what follows from the room's new state: the clock timer looks at its deadline
    /// again, a finished game leaves memory, the computer is asked for its move.
    fn follow_up(&self, cell: &Arc<RoomCell>, room: &Room) {
        *cell.glance() = Glance::of(room, &self.inner.lifetimes);
        cell.clock_changed.notify_one();
        if !room.is_live() {
            // A finished game changes little more: let it leave memory once its watchers go;
            // it is read back from the database if asked for.
            self.rooms().remove(&room.id);
            self.finished().hold(cell);
        }
        if room.computer_to_move().is_some() {
            tokio::spawn(computer::play(self.clone(), cell.clone(), room.seq));
        }
    }
}
