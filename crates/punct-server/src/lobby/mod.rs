//! The lobby, where players meet: seeks ([`seeking`]), quick-pairing pools ([`pools`]) and
//! challenges ([`challenging`]), each turned into a game between two accounts by one door
//! ([`Lobby::start_game`], in [`games`]); the feed that hands every server's lobby changes to
//! this server's lobby sockets ([`feed`]); and the sweep that any server runs (seeks and
//! pool entries that ran out, pairing, correspondence games overdue: [`sweep`]); each
//! account's events for a program that plays it ([`events`]); and the copy of the live seeks
//! that the sockets are sent ([`listing`]).
//!
//! Nothing here is kept only in memory: seeks, entries, challenges, the sockets' presence
//! and notifications are rows, and a change is told to every server by
//! [`crate::store::Store::notify`] on [`Channel::Lobby`], which only wakes them.

mod challenging;
mod events;
mod feed;
mod games;
mod listing;
mod pools;
mod seeking;
mod sweep;

use std::sync::Arc;

use tokio::sync::broadcast;

use crate::error::Error;
use crate::games::Hub;
use crate::players::accounts::AccountId;
use crate::players::lobby_notice::LobbyNotice;
use crate::store::notify::Channel;
use crate::wire::lobby::SeekView;

pub use feed::Heard;

/// Heard changes kept for a slow socket; one further behind is sent the whole list again.
const KEPT: usize = 1024;

/// The lobby of this server; clones share it.
#[derive(Clone)]
pub struct Lobby {
    inner: Arc<Inner>,
}

struct Inner {
    hub: Hub,
    heard: broadcast::Sender<Heard>,
    /// The live seeks as the sockets are sent them.
    listing: listing::Listing,
}

impl Lobby {
    /// The lobby over `hub`'s games and database, its feed and sweep started.
    pub fn start(hub: Hub) -> Lobby {
        let lobby = Lobby {
            inner: Arc::new(Inner {
                hub,
                heard: broadcast::channel(KEPT).0,
                listing: listing::Listing::default(),
            }),
        };
        tokio::spawn(feed::follow(
            Arc::downgrade(&lobby.inner),
            lobby.hub().database().notices(),
        ));
        tokio::spawn(sweep::run(Arc::downgrade(&lobby.inner)));
        lobby
    }

    /// The games.
    pub fn hub(&self) -> &Hub {
        &self.inner.hub
    }

    fn now(&self) -> i64 {
        self.hub().time().now_ms()
    }

    /// What this server hears of the lobby from now on.
    pub fn listen(&self) -> broadcast::Receiver<Heard> {
        self.inner.heard.subscribe()
    }

    /// The live seeks, oldest first, for a socket that follows [`Lobby::listen`]: read
    /// once for all the sockets that ask together, and told anew by the feed once it
    /// hears of a change (`listing`). A request without a socket reads [`Lobby::seeks`].
    pub async fn seeks_heard(&self) -> Result<Arc<Vec<SeekView>>, Error> {
        self.inner.listing.get(self.seeks()).await
    }

    /// The live seeks, oldest first, as the database has them now.
    pub async fn seeks(&self) -> Result<Vec<SeekView>, Error> {
        let now = self.now();
        let listed = self
            .hub()
            .database()
            .query(move |db| crate::players::seeks::listed(db, None, now))
            .await
            .map_err(storage)?;
        Ok(listed.iter().map(|l| SeekView::of(l, now)).collect())
    }

    /// Refuses a bot account what the lobby keeps for people (seeks and quick pairing, as
    /// on lichess): a bot plays by challenges. `what` is what it tried, for the refusal.
    async fn people_only(&self, account: &AccountId, what: &str) -> Result<(), Error> {
        let who = account.clone();
        let bot = self
            .hub()
            .database()
            .query(move |db| crate::players::accounts::is_bot(db, &who))
            .await
            .map_err(storage)?;
        if bot {
            return Err(Error::forbidden(format!(
                "a bot account cannot {what}: bots play by challenges (API.md, \"Bots\")"
            )));
        }
        Ok(())
    }

    /// Tells every server of `notice`. A notice lost costs a page its liveliness, never
    /// the truth: it is logged, not returned. A change of seeks forgets this server's copy
    /// of them first, so that a socket opened here at once sees its own server's change
    /// before the feed hears of it.
    async fn tell(&self, notice: LobbyNotice) {
        if matches!(
            notice,
            LobbyNotice::SeekAdded { .. } | LobbyNotice::SeekRemoved { .. }
        ) {
            self.inner.listing.forget().await;
        }
        if let Err(e) = self
            .hub()
            .database()
            .notify(Channel::Lobby, notice.payload())
            .await
        {
            tracing::warn!("cannot tell the lobby of a change: {e}");
        }
    }
}

/// A failure of the database, as the client is told.
fn storage(e: impl std::fmt::Display) -> Error {
    Error::storage(format!("the database failed: {e}"))
}
