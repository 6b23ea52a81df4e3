//! The fan-out of a committed change: its snapshot, taken once, goes to every socket that
//! follows the game, each of which sends its audience's form of it (written once per
//! audience, `wire::server`); and what follows from the change is started.
//!
//! A change made on another server sharing the database reaches this one's sockets too:
//! the store hands out each commit's notification ([`Notice`]), and every game in memory
//! that it names at a later state than this server holds is read back from the database
//! (the truth) and announced here: as the move it was when it is one move on, else as the
//! whole state. A move kept pending travels in the notification, and a server one state
//! behind makes it on its copy as the database folds it, without reading the game. A
//! notification missed (a lost connection, PostgreSQL restarted) makes every game in
//! memory be read again.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock, Weak};

use axum::extract::ws::Utf8Bytes;

use super::cell::{Glance, RoomCell};
use super::{Hub, Inner, computer};
use crate::error::Error;
use crate::ops::metrics::{CaughtUp, StorageOp};
use crate::room::{Audience, Change, Room, Snapshot};
use crate::store::{Form, Notice, PendingMove};

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
        if room.computer_to_move().is_some() && cell.is_owned() {
            tokio::spawn(computer::play(self.clone(), cell.clone(), room.seq));
        }
    }
}

/// Follows the store's notifications until the hub is gone, catching up the games in memory
/// that another server changed.
pub(super) async fn follow_notices(hub: Weak<Inner>) {
    let Some(mut notices) = hub.upgrade().map(|inner| inner.store.notices()) else {
        return;
    };
    loop {
        use tokio::sync::broadcast::error::RecvError;
        let notice = notices.recv().await;
        let Some(inner) = hub.upgrade() else {
            return;
        };
        let hub = Hub { inner };
        let (cells, seq, moved) = match notice {
            Ok(Notice::Game(changed)) => {
                let found = hub.rooms().get(&changed.id).cloned();
                let Some(cell) = found.or_else(|| hub.finished().get(&changed.id)) else {
                    continue;
                };
                if cell.committed(false).0.seq >= changed.seq {
                    continue;
                }
                (vec![cell], Some(changed.seq), changed.moved)
            }
            Ok(Notice::Lobby(_)) => continue,
            Ok(Notice::Job(_)) => continue,
            Ok(Notice::Chat(_)) => continue,
            Ok(Notice::Missed) | Err(RecvError::Lagged(_)) => {
                let mut cells: Vec<Arc<RoomCell>> = hub.rooms().values().cloned().collect();
                cells.extend(hub.finished().all());
                (cells, None, None)
            }
            Err(RecvError::Closed) => return,
        };
        for cell in cells {
            let (hub, moved) = (hub.clone(), moved.clone());
            tokio::spawn(async move { hub.catch_up(&cell, seq, moved).await });
        }
    }
}

impl Hub {
    /// Catches the game of `cell` up with the database before it is read, when several
    /// servers share the database: a client the balancer sends to another node than the
    /// one its last change went through never reads an older state. Returns whether the
    /// database was further on. When it does not answer, a node that heard from other
    /// nodes at its last heartbeat refuses (its copy may be behind what another committed,
    /// and a client shown it would see its acknowledged move undone); a node alone answers
    /// from its memory, which is then the truth, as with one server on SQLite.
    pub(super) async fn catch_up_before_read(&self, cell: &Arc<RoomCell>) -> Result<bool, Error> {
        let Some(member) = self.membership() else {
            return Ok(false);
        };
        let id = cell.id.clone();
        let latest = match self
            .inner
            .store
            .query(move |db| crate::store::notify::latest_seq(db, &id))
            .await
        {
            Ok(latest) => latest,
            Err(e) if member.others_alive.load(Ordering::Acquire) => {
                return Err(self.storage_error(StorageOp::Read, e));
            }
            Err(_) => return Ok(false),
        };
        if let Some(seq) = latest
            && cell.committed(false).0.seq < seq
        {
            self.catch_up(cell, Some(seq), None).await;
            return Ok(true);
        }
        Ok(false)
    }

    /// Reads the game of `cell` back from the database if it is at a later state than this
    /// server holds (`seq`, when a notification named it), and announces it. A move the
    /// notification carried (`moved`) that follows the state held is made on it instead,
    /// as reading the game back would make it: the row and its pending moves.
    async fn catch_up(&self, cell: &Arc<RoomCell>, seq: Option<u64>, moved: Option<PendingMove>) {
        // A failure is met again, and logged, by whoever uses the room next.
        let Ok(mut room) = self.lock(cell).await else {
            return;
        };
        if seq.is_some_and(|seq| room.seq >= seq) {
            return;
        }
        if let Some(next) = moved
            .filter(|m| m.seq == room.seq + 1)
            .and_then(|m| self.moved_on(&room, &m))
        {
            *room = next;
            self.inner.metrics.caught_up(CaughtUp::Notified);
            self.announce(cell, &room, Announced::Change(Change::Move));
            return;
        }
        let Ok(Some(truth)) = self.load(&cell.id).await else {
            return;
        };
        if truth.seq <= room.seq {
            return;
        }
        let one_move = truth.seq == room.seq + 1
            && truth.game.moves().len() == room.game.moves().len() + 1
            && truth.game.moves().starts_with(room.game.moves());
        *room = truth;
        self.inner.metrics.caught_up(CaughtUp::ReadBack);
        let what = if one_move {
            Announced::Change(Change::Move)
        } else {
            Announced::ReadBack
        };
        self.announce(cell, &room, what);
    }

    /// The room after `m`, made on its stored form as the database would fold it; `None`
    /// if it does not follow (the game is then read back).
    fn moved_on(&self, room: &Room, m: &PendingMove) -> Option<Room> {
        let mut stored = room.to_stored();
        stored.apply(m).ok()?;
        let now = self.now();
        Room::from_stored(stored, now, now).ok()
    }
}
