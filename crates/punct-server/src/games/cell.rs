//! One game in memory and what surrounds it: its room behind a lock, the channel its
//! changes are announced on, the wake-up of its clock timer, whether it may differ from the
//! database, what can be seen of it without locking it, and its last committed state.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{Notify, broadcast};

use super::announce::Announcement;
use crate::room::{Lifetimes, Room, Snapshot, Summary};

/// Announcements kept for a slow socket before it must start again from a fresh state. Each
/// holds a full state, so this bounds a game's memory as much as its watchers' patience.
const ANNOUNCEMENTS_KEPT: usize = 16;

/// One game and the channels around it.
pub struct RoomCell {
    /// The game's id.
    pub(super) id: String,
    /// The game; held while a change is checked, stored and announced, so changes to one
    /// game are made one at a time and announced in sequence order. Reach it through
    /// `Hub::lock`, which reads a stale room back first.
    pub(super) room: tokio::sync::Mutex<Room>,
    /// Every change, announced once it is committed (and the state read back from the
    /// database, when the room was stale).
    pub(super) announcements: broadcast::Sender<Arc<Announcement>>,
    /// Wakes the game's clock timer when the deadline may have moved.
    pub(super) clock_changed: Notify,
    /// Set when a change was cut short: the room in memory may differ from the database.
    pub(super) stale: AtomicBool,
    /// Whether this server owns the game: runs its clock timer and asks for its computer
    /// moves (always, with one server; by its lease when several share the database).
    pub(super) owned: AtomicBool,
    /// What the list of games and the search for games to end need, written at each
    /// change so that neither has to lock the room.
    glance: Mutex<Glance>,
    /// The last state committed, written as each change is announced: served while a stale
    /// room cannot be read back (the database is away).
    committed: Mutex<Arc<Snapshot>>,
}

/// A live game as seen without locking it.
#[derive(Default)]
pub(super) struct Glance {
    /// Its line in the list of games, if it is listed.
    pub(super) listed: Option<Arc<Summary>>,
    /// When it ends by itself unless it changes first (see [`Room::expiry`]).
    pub(super) expires_ms: Option<i64>,
}

impl Glance {
    pub(super) fn of(room: &Room, lifetimes: &Lifetimes) -> Glance {
        Glance {
            listed: (room.is_live() && room.is_public()).then(|| Arc::new(room.summary())),
            expires_ms: room.expiry(lifetimes).map(|(at, _)| at),
        }
    }
}

impl RoomCell {
    /// The cell of `room`, whose state at `now` is the one committed.
    pub(super) fn new(room: Room, glance: Glance, now: i64) -> Arc<RoomCell> {
        let committed = Arc::new(Snapshot::of(&room, now));
        Arc::new(RoomCell {
            id: room.id.clone(),
            room: tokio::sync::Mutex::new(room),
            announcements: broadcast::channel(ANNOUNCEMENTS_KEPT).0,
            clock_changed: Notify::new(),
            stale: AtomicBool::new(false),
            owned: AtomicBool::new(false),
            glance: Mutex::new(glance),
            committed: Mutex::new(committed),
        })
    }

    /// The glance. Every change to it is a single assignment, so a panic elsewhere while it
    /// was held leaves it usable.
    pub(super) fn glance(&self) -> MutexGuard<'_, Glance> {
        self.glance.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last committed state, and (when `follow`) every announcement after it, taken
    /// together: none is missed between them and none comes twice.
    pub(super) fn committed(
        &self,
        follow: bool,
    ) -> (
        Arc<Snapshot>,
        Option<broadcast::Receiver<Arc<Announcement>>>,
    ) {
        let committed = self.committed.lock().unwrap_or_else(|e| e.into_inner());
        let following = follow.then(|| self.announcements.subscribe());
        (committed.clone(), following)
    }

    /// Announces `announcement`, the state now committed, to the game's sockets.
    pub(super) fn publish(&self, announcement: Announcement) {
        let announcement = Arc::new(announcement);
        let mut committed = self.committed.lock().unwrap_or_else(|e| e.into_inner());
        *committed = announcement.snapshot.clone();
        // Nobody listening is no failure.
        let _ = self.announcements.send(announcement);
    }

    /// Whether this server owns the game (see [`RoomCell::owned`]).
    pub(super) fn is_owned(&self) -> bool {
        self.owned.load(Ordering::Acquire)
    }

    /// Whether a change was cut short, so that the room is to be read back.
    pub(super) fn is_stale(&self) -> bool {
        self.stale.load(Ordering::Acquire)
    }
}

/// Marks its room stale when dropped before [`Unfinished::done`]: a change whose storing
/// failed or that was cut short leaves the room to be read back from the database.
pub(super) struct Unfinished<'a>(pub(super) &'a RoomCell);

impl Unfinished<'_> {
    /// The change is done whole (or was refused, changing nothing).
    pub(super) fn done(self) {
        std::mem::forget(self);
    }
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        self.0.stale.store(true, Ordering::Release);
    }
}
