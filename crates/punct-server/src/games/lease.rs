//! One owner per live game when several servers share one PostgreSQL (`store::lease`): the
//! owner runs the game's clock timer and asks for its computer moves; every server accepts
//! actions for every game, applied under the `seq` condition. Each server writes its
//! heartbeat a few times per lease, takes over the games of nodes whose heartbeat is older
//! than the lease (giving the side to move the time the takeover took), and lets go of
//! games another node took from it while it was cut off. With one server (SQLite) it owns
//! every game and none of this runs.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::announce::Announced;
use super::cell::RoomCell;
use super::{Hub, Inner, RETRY, computer, players};
use crate::ops::outage::Outage;
use crate::room::{Room, Stored};
use crate::store::lease::{self, Owned};
use crate::store::sql::Attached;

/// Games taken over in one look, so that one look never holds the writer long.
const TAKE_AT_ONCE: i64 = 200;

/// Heartbeats between two checks that the games this node believes it owns are still its.
const CHECK_OWNED_EVERY: u32 = 5;

/// Heartbeats between two prunings of the owners of finished games and of long dead nodes.
const PRUNE_EVERY: u32 = 120;

/// A dead node's row is forgotten this long after its last heartbeat (once it owns nothing).
const FORGET_NODE_MS: i64 = 24 * 3600 * 1000;

/// This server as one node of several on one database.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its name, unique among the nodes: a node started again under the same name takes
    /// its games back at once, with the time it was away given back.
    pub id: String,
    /// How long a node's heartbeat stays good: a node silent for longer is dead, and its
    /// games are taken over.
    pub lease: Duration,
}

impl Node {
    /// A node of a name of its own (random) and the default lease.
    pub fn fresh() -> Node {
        Node {
            id: format!("node-{}", crate::room::new::random_hex::<4>()),
            lease: Node::LEASE,
        }
    }

    /// The default lease: a dead node's games are taken over within about this long and a
    /// heartbeat's period more.
    pub const LEASE: Duration = Duration::from_secs(4);

    pub(super) fn lease_ms(&self) -> i64 {
        self.lease.as_millis() as i64
    }

    /// How often the heartbeat is written: four times per lease, at most once a second.
    fn beat(&self) -> Duration {
        (self.lease / 4).clamp(Duration::from_millis(50), Duration::from_secs(1))
    }
}

/// What the node knows of its own run.
pub(super) struct Membership {
    /// The node.
    pub(super) node: Node,
    /// When this run started.
    pub(super) started_ms: i64,
    /// The last heartbeat of this node's previous run, if it ran before under its name:
    /// the games it still owns are charged up to it, and no further.
    pub(super) previous_alive_ms: Option<i64>,
    /// Whether another node was alive at the last heartbeat: while the database is away,
    /// a node alone may answer from its memory, one of several may not.
    pub(super) others_alive: std::sync::atomic::AtomicBool,
}

impl Hub {
    /// What makes a new game this node's from its first write (so that no other node's
    /// look for games without an owner takes it first), when the database is shared.
    pub(super) fn owned_from_the_start(&self, game: &str, now: i64) -> Vec<Arc<dyn Attached>> {
        self.membership()
            .map(|m| Arc::new(lease::first_owner(game, &m.node.id, now)) as Arc<dyn Attached>)
            .into_iter()
            .collect()
    }

    /// This node's membership, when the database is shared.
    pub(super) fn membership(&self) -> Option<&Membership> {
        self.inner.membership.as_ref()
    }

    /// Asks the database whether this node may own the game of `cell` (nobody else live
    /// does), and if so takes it. `starting`: the game was found as this node started, so
    /// that a game it owned in its previous run is charged up to that run's end.
    pub(super) async fn claim(self, cell: Arc<RoomCell>, starting: bool) {
        let Some(member) = self.membership() else {
            return;
        };
        let (node, lease) = (member.node.id.clone(), member.node.lease_ms());
        let previous = member.previous_alive_ms.filter(|_| starting);
        let mut outage = Outage::new("claiming a game");
        loop {
            let (game, node, now) = (cell.id.clone(), node.clone(), self.now());
            let claimed = self
                .inner
                .store
                .transact(move |db| lease::claim(db, &game, &node, now, now - lease))
                .await;
            match claimed {
                Ok(Some(Owned::Already)) => {
                    outage.worked(Some(&cell.id));
                    let owned =
                        previous.map_or(Owned::Already, |alive_ms| Owned::From { alive_ms });
                    return self.take(cell, owned).await;
                }
                Ok(Some(owned)) => {
                    outage.worked(Some(&cell.id));
                    return self.take(cell, owned).await;
                }
                // Another live node runs it; should it die, it is taken over then.
                Ok(None) => return outage.worked(Some(&cell.id)),
                Err(e) => {
                    outage.failed(Some(&cell.id), &e);
                    tokio::time::sleep(RETRY).await;
                    if !self.rooms().contains_key(&cell.id) {
                        return;
                    }
                }
            }
        }
    }

    /// Makes this node the owner of the game of `cell`, which it has claimed: a game taken
    /// over from a dead node (or from this node's previous run) has its running clock
    /// charged up to the old owner's last heartbeat and stored so; then its clock timer and
    /// the computer's search start here.
    pub(super) async fn take(&self, cell: Arc<RoomCell>, owned: Owned) {
        if cell.owned.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Owned::From { alive_ms } = owned {
            self.give_back(&cell, alive_ms).await;
        }
        let (timed, computer) = match self.lock(&cell).await {
            Ok(room) => (
                room.clock.is_some() && room.is_live(),
                room.computer_to_move().map(|_| room.seq),
            ),
            // The timer reads it back, which starts the computer's search if it is due.
            Err(_) => (true, None),
        };
        self.start_owned(&cell, timed, computer);
    }

    /// Starts the owner's work on the game of `cell`: its clock timer, if `timed`, and the
    /// computer's search in state `computer`, if it is to move.
    pub(super) fn start_owned(&self, cell: &Arc<RoomCell>, timed: bool, computer: Option<u64>) {
        if timed {
            tokio::spawn(self.clone().watch_clock(cell.clone()));
        }
        if let Some(seq) = computer {
            tokio::spawn(computer::play(self.clone(), cell.clone(), seq));
        }
    }

    /// Gives back the time a takeover took: the game is read from the database, its clock
    /// charged up to `alive_ms` (the old owner's last heartbeat) and no further, and stored
    /// again at the same state, unless it moved on meanwhile (then its clock is right as it
    /// is).
    async fn give_back(&self, cell: &Arc<RoomCell>, alive_ms: i64) {
        let Ok(mut room) = self.lock(cell).await else {
            return;
        };
        let Ok(Some(stored)) = self.inner.store.load::<Stored>(&cell.id).await else {
            return;
        };
        let now = self.now();
        let Ok(resumed) = Room::from_stored(stored, now, alive_ms) else {
            return;
        };
        if resumed
            .clock
            .as_ref()
            .is_none_or(|c| c.running_since.is_none())
        {
            return;
        }
        let (id, seq, json, updated) = (
            resumed.id.clone(),
            resumed.seq,
            resumed.stored_json(),
            resumed.updated_ms,
        );
        // A correspondence game's deadline moves with its resumed clock.
        let with = players::rows(&resumed, false, true, None).with;
        let stored = self
            .inner
            .store
            .transact(move |db| {
                let made = lease::resume(db, &id, seq, &json, updated)?;
                if made {
                    for row in &with {
                        row.apply(db)?;
                    }
                }
                Ok(made)
            })
            .await;
        match stored {
            Ok(true) => {
                tracing::info!(game = %cell.id, given_back_ms = now - alive_ms, "game taken over");
                *room = resumed;
                self.announce(cell, &room, Announced::ReadBack);
            }
            // It moved on meanwhile, or the database is away: read back before it is used.
            _ => cell.stale.store(true, Ordering::Release),
        }
    }

    /// Lets go of the game of `cell`, which another node took over: its clock timer stops.
    fn disown(&self, cell: &Arc<RoomCell>) {
        if cell.owned.swap(false, Ordering::AcqRel) {
            tracing::warn!(game = %cell.id, "another node took the game over");
            cell.clock_changed.notify_one();
        }
    }

    /// Takes a game found to have no live owner.
    async fn adopt(&self, game: String, owned: Owned) {
        let found = self.rooms().get(&game).cloned();
        let cell = match found {
            Some(cell) => cell,
            None => match self.load(&game).await {
                Ok(Some(room)) if room.is_live() => self.put(room).0,
                _ => return,
            },
        };
        self.take(cell, owned).await;
    }
}

/// Keeps this node's heartbeat and its games until the hub is gone: writes the heartbeat,
/// takes over the games of dead nodes, and now and then checks that the games it believes
/// its own are (it may have been cut off past its lease) and prunes the owners' table.
pub(super) async fn keep(hub: Weak<Inner>) {
    let Some((node, started_ms, mut time_moved)) = hub.upgrade().and_then(|inner| {
        let m = inner.membership.as_ref()?;
        Some((m.node.clone(), m.started_ms, inner.time.changed()))
    }) else {
        return;
    };
    let mut every = tokio::time::interval(node.beat());
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut outage = Outage::new("the node's heartbeat");
    let mut beats = 0u32;
    loop {
        tokio::select! {
            _ = every.tick() => {}
            () = time_moved.next() => {}
        }
        let Some(inner) = hub.upgrade() else {
            return;
        };
        let hub = Hub { inner };
        let (id, now) = (node.id.clone(), hub.now());
        let dead_before = now - node.lease_ms();
        let looked = hub
            .inner
            .store
            .transact(move |db| {
                lease::heartbeat(db, &id, started_ms, now)?;
                let others = lease::others_alive(db, &id, dead_before)?;
                Ok((
                    lease::take_over(db, &id, now, dead_before, TAKE_AT_ONCE)?,
                    others,
                ))
            })
            .await;
        let taken = match looked {
            Ok((taken, others)) => {
                outage.worked(None);
                if let Some(member) = hub.membership() {
                    member.others_alive.store(others, Ordering::Release);
                }
                taken
            }
            Err(e) => {
                outage.failed(None, &e);
                continue;
            }
        };
        for (game, owned) in taken {
            let hub = hub.clone();
            tokio::spawn(async move { hub.adopt(game, owned).await });
        }
        beats = beats.wrapping_add(1);
        if beats.is_multiple_of(CHECK_OWNED_EVERY) {
            let id = node.id.clone();
            if let Ok(mine) = hub
                .inner
                .store
                .query(move |db| lease::owned_by(db, &id))
                .await
            {
                let mine: HashSet<String> = mine.into_iter().collect();
                let lost: Vec<Arc<RoomCell>> = hub
                    .rooms()
                    .values()
                    .filter(|c| c.is_owned() && !mine.contains(&c.id))
                    .cloned()
                    .collect();
                for cell in lost {
                    hub.disown(&cell);
                    // Claimed as the list was read, perhaps: asked again, it is kept if so.
                    tokio::spawn(hub.clone().claim(cell, false));
                }
            }
        }
        if beats.is_multiple_of(PRUNE_EVERY) {
            let gone_before = now - FORGET_NODE_MS;
            let pruned = hub
                .inner
                .store
                .transact(move |db| lease::prune(db, gone_before))
                .await;
            if let Err(e) = pruned {
                tracing::warn!("cannot prune the owners of finished games: {e}");
            }
        }
    }
}
