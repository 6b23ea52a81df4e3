//! The lobby's feed: what every server (this one too) tells on [`Channel::Lobby`], read once
//! per server and handed to all of its lobby sockets. A new seek is read from the database
//! here, once, rather than by each socket; and the sockets' copy of the list is forgotten
//! before a change of seeks is handed on (`listing`).
//!
//! [`Channel::Lobby`]: crate::store::notify::Channel::Lobby

use std::sync::{Arc, Weak};

use tokio::sync::broadcast::{self, error::RecvError};

use super::Inner;
use crate::players::accounts::AccountId;
use crate::players::lobby_notice::LobbyNotice;
use crate::players::seeks;
use crate::store::notify::Notice;
use crate::wire::lobby::SeekView;

/// What a lobby socket hears.
#[derive(Clone, Debug)]
pub enum Heard {
    /// A seek went up.
    SeekAdded(Arc<SeekView>),
    /// Seeks went.
    SeekRemoved(Arc<Vec<String>>),
    /// The lobby made game `game`, White's and Black's accounts playing.
    GameStarted {
        /// The game.
        game: String,
        /// White's account.
        white: AccountId,
        /// Black's account.
        black: AccountId,
    },
    /// These accounts' notifications, turns or challenges changed.
    Notified(Arc<Vec<AccountId>>),
    /// Changes may have been missed: read the lobby again.
    Missed,
}

/// Hands out what `notices` tell of the lobby until the lobby is gone.
pub(super) async fn follow(lobby: Weak<Inner>, mut notices: broadcast::Receiver<Notice>) {
    loop {
        let heard = match notices.recv().await {
            Ok(Notice::Lobby(payload)) => match LobbyNotice::parse(&payload) {
                Some(notice) => notice,
                None => continue,
            },
            Ok(Notice::Game(_) | Notice::Job(_) | Notice::Chat(_)) => continue,
            Ok(Notice::Missed) | Err(RecvError::Lagged(_)) => {
                let Some(inner) = lobby.upgrade() else {
                    return;
                };
                inner.listing.forget().await;
                let _ = inner.heard.send(Heard::Missed);
                continue;
            }
            Err(RecvError::Closed) => return,
        };
        let Some(inner) = lobby.upgrade() else {
            return;
        };
        let heard = match heard {
            LobbyNotice::SeekAdded { id } => {
                let now = inner.hub.time().now_ms();
                let read = inner
                    .hub
                    .database()
                    .query(move |db| seeks::listed(db, Some(&id), now))
                    .await;
                match read {
                    // Accepted or gone meanwhile: its removal follows.
                    Ok(found) => match found.first() {
                        Some(listed) => Heard::SeekAdded(Arc::new(SeekView::of(listed, now))),
                        None => continue,
                    },
                    Err(e) => {
                        tracing::warn!("cannot read a new seek: {e}");
                        Heard::Missed
                    }
                }
            }
            LobbyNotice::SeekRemoved { ids } => Heard::SeekRemoved(Arc::new(ids)),
            LobbyNotice::GameStarted { game, white, black } => {
                Heard::GameStarted { game, white, black }
            }
            LobbyNotice::Notified { accounts } => Heard::Notified(Arc::new(accounts)),
        };
        if matches!(
            heard,
            Heard::SeekAdded(_) | Heard::SeekRemoved(_) | Heard::Missed
        ) {
            inner.listing.forget().await;
        }
        let _ = inner.heard.send(heard);
    }
}
