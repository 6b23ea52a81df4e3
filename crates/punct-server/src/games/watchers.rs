//! How many watch a game, on every server: each server counts the sockets watching each
//! game on it and keeps its counts in the database (`game_watchers`, one row per server and
//! game), with a heartbeat; the count shown is the sum of the rows heard from within
//! [`STALE_MS`]. A change is stored within [`SETTLE`] (several opened or closed at once make
//! one write) and wakes every server on [`Channel::Chat`], each of which reads the sum and
//! tells the sockets following the game's chat there, if it changed.
//!
//! Why rows with a heartbeat rather than counts sent in notifications alone: the database
//! stays the truth, so a server that starts, or a socket that opens, reads the count at once
//! without waiting for the others to speak; and a server that dies stops counting by itself
//! once its heartbeat is old, with nobody to clean up after it.

use std::sync::{Arc, Weak};
use std::time::Duration;

use super::chat::{ChatEvent, ChatNotice, GameTalk};
use super::{Hub, Inner};
use crate::error::Error;
use crate::store::Channel;
use crate::store::sql::{Sql, args};

/// How long a server's counts stay good without a heartbeat.
pub const STALE_MS: i64 = 30_000;

/// How often a server's counts are marked alive (and every count followed here read again,
/// so that a dead server's watchers leave the count).
pub const HEARTBEAT: Duration = Duration::from_secs(10);

/// How long changes are gathered before they are stored.
const SETTLE: Duration = Duration::from_millis(100);

/// One socket watching a game, counted while it is held.
pub struct Watching {
    hub: Hub,
    game: String,
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.hub.count_watcher(&self.game, -1);
    }
}

/// The sum of game `game`'s counts heard from since `since_ms`.
fn total(db: &mut dyn Sql, game: &str, since_ms: i64) -> anyhow::Result<i64> {
    Ok(db
        .query_opt(
            "SELECT CAST(COALESCE(SUM(sockets), 0) AS BIGINT) AS n FROM game_watchers
             WHERE game = $1 AND seen_ms > $2",
            &args![game, since_ms],
        )?
        .map(|r| r.int("n"))
        .transpose()?
        .unwrap_or(0))
}

impl Hub {
    /// Counts one more socket watching game `game` until the result is dropped.
    pub fn watch(&self, game: &str) -> Watching {
        self.count_watcher(game, 1);
        Watching {
            hub: self.clone(),
            game: game.to_owned(),
        }
    }

    fn count_watcher(&self, game: &str, by: i64) {
        let talk = &self.inner.talk;
        {
            let mut watching = talk.watching.lock().unwrap_or_else(|e| e.into_inner());
            let n = watching.entry(game.to_owned()).or_insert(0);
            *n += by;
            if *n <= 0 {
                watching.remove(game);
            }
        }
        talk.changed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game.to_owned());
        talk.wake.notify_one();
    }

    /// How many watch game `game` now, on every server.
    pub async fn watchers(&self, game: &str) -> Result<i64, Error> {
        let (id, since) = (game.to_owned(), self.now() - STALE_MS);
        self.inner
            .store
            .query(move |db| total(db, &id, since))
            .await
            .map_err(|e| Error::storage(e.to_string()))
    }

    /// Reads game `game`'s count and tells the sockets following its chat here, if it
    /// changed since they were last told.
    pub(super) async fn tell_watchers(&self, game: &str, talk: &Arc<GameTalk>) {
        let Ok(n) = self.watchers(game).await else {
            return;
        };
        let mut told = talk.watchers_told.lock().unwrap_or_else(|e| e.into_inner());
        if *told != Some(n) {
            *told = Some(n);
            let _ = talk.events.send(Arc::new(ChatEvent::Watchers(n)));
        }
    }

    /// Stores this server's counts of the games in `games` and wakes every server.
    async fn store_counts(&self, games: Vec<String>) {
        let counts: Vec<(String, i64)> = {
            let watching = self
                .inner
                .talk
                .watching
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            games
                .into_iter()
                .map(|g| {
                    let n = watching.get(&g).copied().unwrap_or(0);
                    (g, n)
                })
                .collect()
        };
        let (node, now) = (self.inner.talk_node.clone(), self.now());
        let written = counts.clone();
        let stored = self
            .inner
            .store
            .transact(move |db| {
                for (game, n) in &written {
                    if *n > 0 {
                        db.execute(
                            "INSERT INTO game_watchers (node, game, sockets, seen_ms)
                             VALUES ($1, $2, $3, $4)
                             ON CONFLICT (node, game) DO UPDATE SET sockets = $3, seen_ms = $4",
                            &args![node.as_str(), game.as_str(), *n, now],
                        )?;
                    } else {
                        db.execute(
                            "DELETE FROM game_watchers WHERE node = $1 AND game = $2",
                            &args![node.as_str(), game.as_str()],
                        )?;
                    }
                }
                Ok(())
            })
            .await;
        if let Err(e) = stored {
            // Told with the database's outage, once however often it fails in one; the
            // next change or heartbeat stores the counts again.
            self.database_work_failed("storing the counts of watchers", &e);
            return;
        }
        for (game, _) in counts {
            let notice = ChatNotice::Watchers { game };
            let _ = self
                .inner
                .store
                .notify(Channel::Chat, notice.payload())
                .await;
        }
    }

    /// Marks this server's counts alive, and reads every count followed here again.
    async fn heartbeat(&self) {
        let (node, now) = (self.inner.talk_node.clone(), self.now());
        let _ = self
            .inner
            .store
            .transact(move |db| {
                db.execute(
                    "UPDATE game_watchers SET seen_ms = $2 WHERE node = $1",
                    &args![node.as_str(), now],
                )?;
                Ok(())
            })
            .await;
        for (game, talk) in self.inner.talk.followed() {
            self.tell_watchers(&game, &talk).await;
        }
    }
}

/// Stores this server's counts of watchers as they change, and beats its heartbeat, until
/// the hub is gone. Its rows of an earlier run (under the same name) are removed first:
/// every socket then was closed.
pub(super) async fn keep(hub: Weak<Inner>) {
    let Some(inner) = hub.upgrade() else {
        return;
    };
    let node = inner.talk_node.clone();
    let shared = inner.store.is_shared();
    let _ = inner
        .store
        .transact(move |db| {
            if shared {
                db.execute("DELETE FROM game_watchers WHERE node = $1", &args![node])?;
            } else {
                // One server holds an SQLite file: every row is of an earlier run.
                db.execute("DELETE FROM game_watchers", &[])?;
            }
            Ok(())
        })
        .await;
    // Held while waiting rather than the hub, which may go meanwhile.
    let talk = inner.talk.clone();
    drop(inner);
    let mut beats = tokio::time::interval(HEARTBEAT);
    beats.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let woken = tokio::select! {
            _ = talk.wake.notified() => true,
            _ = beats.tick() => false,
        };
        let Some(inner) = hub.upgrade() else {
            return;
        };
        let hub = Hub { inner };
        if woken {
            tokio::time::sleep(SETTLE).await;
            let games: Vec<String> = hub
                .inner
                .talk
                .changed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .drain()
                .collect();
            if !games.is_empty() {
                hub.store_counts(games).await;
            }
        } else {
            hub.heartbeat().await;
        }
    }
}
