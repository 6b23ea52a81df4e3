//! The live games, split by job: `registry` keeps the rooms in memory (a cache of the
//! store), `apply` is the one way a change is made (lock the room, check the request's
//! `seq`, change the room, store the change, then announce it), `announce` tells
//! everyone following the game, `clocks` ends games on time, `computer` plays the engine's
//! moves, `expiry` ends games nobody plays, and `actions`/`reads` are what clients ask for.
//!
//! The requests that change games run on tasks of their own (`detached`), so a client that
//! hangs up never cuts a change short; and should a change be cut short all the same (its
//! storing failed, or a panic), the room is marked stale and read back from the database,
//! which holds the truth, before anyone changes it again. While it cannot be read back, its
//! state is still served from the last one committed.

mod actions;
mod announce;
mod apply;
mod cell;
mod chat;
mod clocks;
mod computer;
mod detached;
mod expiry;
mod failures;
mod fairness;
mod finished;
mod lease;
mod players;
mod reads;
mod registry;
mod rematch;
mod watchers;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::engine::EnginePool;
use crate::ops::metrics::Metrics;
use crate::ops::time::TimeSource;
use crate::room::{Change, Lifetimes, Room, Stored};
use crate::store::{Store, WriteError};

pub use actions::{Acted, Seated};
pub use announce::{Announced, Announcement};
pub use cell::RoomCell;
pub use chat::{ChatEvent, ChatFollow, ChatHistory, HISTORY, Reader};
pub use lease::Node;
pub use reads::{Following, Viewed};
pub use watchers::Watching;

/// Wait before asking a busy engine pool, or a database that is not answering, again.
const RETRY: Duration = Duration::from_millis(250);

/// All games.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    /// The live games by id.
    rooms: Mutex<HashMap<String, Arc<RoomCell>>>,
    /// Finished games still in use (followed by a socket, or being asked for): every request
    /// about one shares its cell, so that its changes (a rematch) are made one at a time
    /// and reach its sockets.
    finished: Mutex<finished::Finished>,
    store: Store,
    engine: EnginePool,
    metrics: Metrics,
    lifetimes: Lifetimes,
    time: TimeSource,
    /// The database's absence, logged once per outage.
    outage: failures::DatabaseOutage,
    /// This server as a node of several sharing the database (PostgreSQL); `None` with
    /// SQLite, where it owns every game.
    membership: Option<lease::Membership>,
    /// The chat and the watchers of the games followed here.
    talk: Arc<chat::Talk>,
    /// This server's name in the counts of watchers (`watchers`).
    talk_node: String,
}

impl Hub {
    /// A hub over `store`, loading every live game and restarting its clock timer and, where
    /// the computer is to move, its search. A running clock is stored again as resumed, so
    /// that a second restart does not charge the first one's downtime. A game that cannot be
    /// restored is logged and set aside, never blocking the start. Games that have waited
    /// longer than `lifetimes` allow are ended without a result, then and from then on. Every
    /// time is read from `time`.
    pub async fn start(
        store: Store,
        engine: EnginePool,
        lifetimes: Lifetimes,
        time: TimeSource,
    ) -> anyhow::Result<Hub> {
        Hub::start_node(store, engine, lifetimes, time, Node::fresh()).await
    }

    /// [`Hub::start`], as node `node` when the database is shared (PostgreSQL): the live
    /// games it finds are each run by one node, their owner (`store::lease`), and the
    /// changes every node makes reach the others' sockets (`announce`).
    pub async fn start_node(
        store: Store,
        engine: EnginePool,
        lifetimes: Lifetimes,
        time: TimeSource,
        node: Node,
    ) -> anyhow::Result<Hub> {
        let talk_node = node.id.clone();
        let membership = if store.is_shared() {
            let (id, dead_before) = (node.id.clone(), time.now_ms() - node.lease_ms());
            let (previous_alive_ms, others) = store
                .query(move |db| {
                    Ok((
                        crate::store::lease::alive_ms(db, &id)?,
                        crate::store::lease::others_alive(db, &id, dead_before)?,
                    ))
                })
                .await?;
            Some(lease::Membership {
                node,
                started_ms: time.now_ms(),
                previous_alive_ms,
                others_alive: std::sync::atomic::AtomicBool::new(others),
            })
        } else {
            None
        };
        let hub = Hub {
            inner: Arc::new(Inner {
                rooms: Mutex::new(HashMap::new()),
                finished: Mutex::default(),
                metrics: Metrics::new(engine.wait_histogram(), &Change::NAMES),
                store,
                engine,
                lifetimes,
                time,
                outage: failures::DatabaseOutage::default(),
                membership,
                talk: Arc::default(),
                talk_node,
            }),
        };
        let shared = hub.membership().is_some();
        if shared {
            // Before any game is read, so that no change another node makes meanwhile is
            // missed.
            tokio::spawn(announce::follow_notices(Arc::downgrade(&hub.inner)));
        }
        tokio::spawn(chat::follow(Arc::downgrade(&hub.inner)));
        tokio::spawn(watchers::keep(Arc::downgrade(&hub.inner)));
        let now = hub.now();
        // Clocks that ran when the server stopped are charged up to its last sign of life.
        let alive = hub.inner.store.last_alive_ms().unwrap_or(0);
        let mut resumed = Vec::new();
        for found in hub.inner.store.live_games::<Stored>().await? {
            let stored = match found {
                Ok(stored) => stored,
                Err((id, e)) => {
                    hub.set_aside(&id, &e).await;
                    continue;
                }
            };
            let id = stored.id().to_owned();
            match Room::from_stored(stored, now, alive) {
                Ok(room) => {
                    // Several nodes: a running clock is charged by the node that takes the
                    // game (`lease`), up to its last owner's end.
                    if !shared
                        && room
                            .clock
                            .as_ref()
                            .is_some_and(|c| c.running_since.is_some())
                    {
                        let store = hub.inner.store.clone();
                        let (seq, json, updated) = (room.seq, room.stored_json(), room.updated_ms);
                        // A correspondence game's deadline moves with its resumed clock.
                        let with = players::rows(&room, false, true, None).with;
                        resumed.push(async move {
                            let saved = store.save_with(&id, seq, json, true, updated, with).await;
                            (id, saved)
                        });
                    }
                    hub.insert_found(room, true);
                }
                Err(e) => hub.set_aside(&id, &e).await,
            }
        }
        for (id, saved) in futures_util::future::join_all(resumed).await {
            match saved {
                Ok(()) => {}
                // Another server sharing the database moved the game on meanwhile: it is
                // read back from the database when it is next asked for.
                Err(WriteError::Stale(e)) => {
                    tracing::warn!(game = %id, "the game changed elsewhere as the server started: {e}");
                    hub.rooms().remove(&id);
                }
                Err(WriteError::Failed(e)) => {
                    anyhow::bail!("cannot store the resumed clocks: {e}")
                }
            }
        }
        tokio::spawn(expiry::end_expired(Arc::downgrade(&hub.inner)));
        if shared {
            tokio::spawn(lease::keep(Arc::downgrade(&hub.inner)));
        }
        Ok(hub)
    }

    /// Milliseconds since the epoch by the server's time source.
    fn now(&self) -> i64 {
        self.inner.time.now_ms()
    }

    /// The server's time source.
    pub fn time(&self) -> &TimeSource {
        &self.inner.time
    }

    /// Games being played, in memory.
    pub fn live_games(&self) -> usize {
        self.rooms().len()
    }

    /// The server's metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// The database.
    pub fn database(&self) -> &Store {
        &self.inner.store
    }

    /// The engine pool, for analysis.
    pub fn engine(&self) -> &EnginePool {
        &self.inner.engine
    }
}
