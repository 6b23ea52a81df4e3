//! What clients read of a game: its state as they see it (also while the database is away,
//! from the last state committed), a subscription to its changes, its replay, record and
//! pictures, and the list of games.

use std::sync::Arc;

use punct_core::Game;
use tokio::sync::broadcast;

use super::Hub;
use super::announce::Announcement;
use super::cell::RoomCell;
use crate::error::{Error, ErrorKind};
use crate::ops::metrics::StorageOp;
use crate::pictures::Shared;
use crate::players::accounts::AccountId;
use crate::room::{Audience, Snapshot, Stored, Summary};

/// How many live games, and how many finished ones, the list of games shows.
const LISTED: usize = 50;

/// A game's state as one caller sees it.
pub struct Viewed {
    /// The state.
    pub snapshot: Arc<Snapshot>,
    /// Whose view: the seats the caller's token holds.
    pub audience: Audience,
    /// The moment the clock's figures are for.
    pub now: i64,
}

/// What a subscriber to a game gets ([`Hub::subscribe`]).
pub struct Following {
    /// The game's state now, as the subscriber sees it.
    pub state: Viewed,
    /// Every later announcement, with no gap after the state.
    pub announcements: broadcast::Receiver<Arc<Announcement>>,
    /// The game's cell: held while the game is followed, it keeps a finished game's
    /// channel open, so that a rematch offer still reaches the other side.
    pub cell: Arc<RoomCell>,
}

impl Hub {
    /// The state of game `id` as the holder of `token` (or the signed-in `account`) sees it.
    pub async fn state(
        &self,
        id: &str,
        token: Option<&str>,
        account: Option<&AccountId>,
    ) -> Result<Viewed, Error> {
        self.counted(Some(id), async {
            let cell = self.room(id).await?;
            let (state, _) = self.view(&cell, token, account, false).await?;
            Ok(state)
        })
        .await
    }

    /// Subscribes to game `id`: its current state as the holder of `token` sees it, and
    /// every later announcement, with no gap between the state and the announcements.
    pub async fn subscribe(
        &self,
        id: &str,
        token: Option<&str>,
        account: Option<&AccountId>,
    ) -> Result<Following, Error> {
        self.counted(Some(id), async {
            let cell = self.room(id).await?;
            let (state, announcements) = self.view(&cell, token, account, true).await?;
            Ok(Following {
                state,
                announcements: announcements
                    .ok_or_else(|| Error::internal("a subscription without its channel"))?,
                cell,
            })
        })
        .await
    }

    /// The state of `cell` as the holder of `token` sees it, and (when `follow`) the
    /// announcements after it: taken under the game's lock, or, while a stale room cannot
    /// be read back because the database is away, from the last state committed.
    async fn view(
        &self,
        cell: &Arc<RoomCell>,
        token: Option<&str>,
        account: Option<&AccountId>,
        follow: bool,
    ) -> Result<(Viewed, Option<broadcast::Receiver<Arc<Announcement>>>), Error> {
        self.catch_up_before_read(cell).await?;
        let now = self.now();
        match self.lock(cell).await {
            Ok(room) => {
                let state = Viewed {
                    snapshot: Arc::new(Snapshot::of(&room, now)),
                    audience: room.audience_of(token, account),
                    now,
                };
                Ok((state, follow.then(|| cell.announcements.subscribe())))
            }
            Err(e) if e.kind == ErrorKind::Storage => {
                let (snapshot, announcements) = cell.committed(follow);
                let audience = snapshot.audience_of(token, account);
                let state = Viewed {
                    snapshot,
                    audience,
                    now,
                };
                Ok((state, announcements))
            }
            Err(e) => Err(e),
        }
    }

    /// The game `id` itself, for its replay and pictures.
    pub async fn game(&self, id: &str) -> Result<Game, Error> {
        self.counted(Some(id), async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            Ok(room.game.clone())
        })
        .await
    }

    /// Game `id` as its pictures and link preview show it.
    pub async fn shared(&self, id: &str) -> Result<Shared, Error> {
        self.counted(Some(id), async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            Ok(Shared {
                game: room.game.clone(),
                names: [
                    room.seats[0].name().to_owned(),
                    room.seats[1].name().to_owned(),
                ],
                live: room.is_live(),
            })
        })
        .await
    }

    /// The record of game `id`.
    pub async fn record(&self, id: &str) -> Result<String, Error> {
        self.counted(Some(id), async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            Ok(room.record())
        })
        .await
    }

    /// The 50 most recently changed live games (all of which are in memory), then the 50
    /// most recently finished (read from the database, so that listing old games does not
    /// bring them back into memory), each newest first. Friend games whose open seat waits
    /// for the invited friend are not listed. The live games' lines are those written at
    /// their last change: listing locks no game and writes no line.
    pub async fn list(&self) -> Result<Vec<Summary>, Error> {
        self.counted(None, async {
            let mut live: Vec<Arc<Summary>> = {
                let rooms = self.rooms();
                rooms
                    .values()
                    .filter_map(|cell| cell.glance().listed.clone())
                    .collect()
            };
            let newest_first = |s: &Arc<Summary>| std::cmp::Reverse(s.updated_ms);
            if live.len() > LISTED {
                live.select_nth_unstable_by_key(LISTED, newest_first);
                live.truncate(LISTED);
            }
            live.sort_by_key(newest_first);
            let finished = self
                .inner
                .store
                .finished::<Stored>(LISTED)
                .await
                .map_err(|e| self.storage_error(StorageOp::Read, e))?;
            self.database_answered();
            Ok(live
                .iter()
                .map(|s| Summary::clone(s))
                .chain(finished.iter().map(Stored::summary))
                .collect())
        })
        .await
    }
}
