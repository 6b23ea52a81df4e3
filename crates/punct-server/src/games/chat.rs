//! A game's chat on this server: messages are written to the database (the truth,
//! `players::chat`), then every server sharing it is woken on [`Channel::Chat`]; each reads
//! the message back once and hands it to the sockets that follow that game's chat here,
//! which pick what their reader may see (the room, blocks). Blocks travel the same way, so
//! that a block made through any server takes effect on every socket of its maker.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::broadcast;

use super::{Hub, Inner};
use crate::error::Error;
use crate::ops::metrics::StorageOp;
use crate::players::accounts::AccountId;
use crate::players::chat::{self, Message, Refusal, Room, Writer};
use crate::players::{blocks, throttle};
use crate::room::{Audience, colour_name};
use crate::store::{Channel, Notice};

/// Events kept for a slow socket; one that falls further behind misses some (and is told
/// the history again when it asks).
const KEPT: usize = 64;

/// The most messages of a room a socket or a page is sent when it opens the chat.
pub const HISTORY: i64 = 100;

/// What the sockets following a game's chat are told.
#[derive(Clone, Debug)]
pub enum ChatEvent {
    /// A new message.
    Line(Arc<Message>),
    /// The number of the game's watchers now, on every server.
    Watchers(i64),
    /// This account's blocks changed: whoever reads for it reads them again.
    Blocks(AccountId),
}

/// What a notification on [`Channel::Chat`] says, written as one line of words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ChatNotice {
    /// Message `id` was written in game `game`.
    Line {
        /// The game.
        game: String,
        /// The message.
        id: String,
    },
    /// The count of game `game`'s watchers changed on some server.
    Watchers {
        /// The game.
        game: String,
    },
    /// Account `account` blocked or unblocked someone.
    Blocks {
        /// The account.
        account: String,
    },
}

impl ChatNotice {
    /// The notification's payload.
    pub(super) fn payload(&self) -> String {
        match self {
            ChatNotice::Line { game, id } => format!("line {game} {id}"),
            ChatNotice::Watchers { game } => format!("watchers {game}"),
            ChatNotice::Blocks { account } => format!("blocks {account}"),
        }
    }

    /// The notice a payload tells; another version's form reads as none.
    pub(super) fn parse(payload: &str) -> Option<ChatNotice> {
        let words: Vec<&str> = payload.split(' ').collect();
        match words.as_slice() {
            ["line", game, id] => Some(ChatNotice::Line {
                game: (*game).to_owned(),
                id: (*id).to_owned(),
            }),
            ["watchers", game] => Some(ChatNotice::Watchers {
                game: (*game).to_owned(),
            }),
            ["blocks", account] => Some(ChatNotice::Blocks {
                account: (*account).to_owned(),
            }),
            _ => None,
        }
    }
}

/// One game's chat as followed on this server.
pub(super) struct GameTalk {
    pub(super) events: broadcast::Sender<Arc<ChatEvent>>,
    /// The last count of watchers told, so that only changes are.
    pub(super) watchers_told: Mutex<Option<i64>>,
}

/// The chat of the games followed on this server, and their watchers (`watchers`).
#[derive(Default)]
pub(super) struct Talk {
    /// Each followed game's channel, gone once nobody follows it.
    pub(super) games: Mutex<HashMap<String, Weak<GameTalk>>>,
    /// The sockets watching each game on this server.
    pub(super) watching: Mutex<HashMap<String, i64>>,
    /// The games whose count of watchers here changed since it was last stored.
    pub(super) changed: Mutex<std::collections::HashSet<String>>,
    /// Wakes the task that stores the counts.
    pub(super) wake: tokio::sync::Notify,
}

impl Talk {
    /// The channels of the games followed here now.
    pub(super) fn followed(&self) -> Vec<(String, Arc<GameTalk>)> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.retain(|_, talk| talk.strong_count() > 0);
        games
            .iter()
            .filter_map(|(id, talk)| Some((id.clone(), talk.upgrade()?)))
            .collect()
    }

    /// The channel of game `game`, if it is followed here.
    pub(super) fn of(&self, game: &str) -> Option<Arc<GameTalk>> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.get(game).and_then(Weak::upgrade)
    }
}

/// A socket's following of a game's chat: the events, and the channel held open.
pub struct ChatFollow {
    /// The events, in order.
    pub events: broadcast::Receiver<Arc<ChatEvent>>,
    _talk: Arc<GameTalk>,
}

/// The messages of a game's chat a reader may see now.
pub struct ChatHistory {
    /// The players' chat, if readable.
    pub players: Option<Vec<Message>>,
    /// The watchers' chat, if readable.
    pub watchers: Option<Vec<Message>>,
}

/// Who reads a game's chat.
#[derive(Clone, Debug)]
pub struct Reader {
    /// Their account, if signed in.
    pub account: Option<AccountId>,
    /// Whether they play the game.
    pub player: bool,
}

impl Hub {
    /// Follows game `game`'s chat on this socket from now on.
    pub fn follow_chat(&self, game: &str) -> ChatFollow {
        let mut games = self
            .inner
            .talk
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let talk = match games.get(game).and_then(Weak::upgrade) {
            Some(talk) => talk,
            None => {
                let talk = Arc::new(GameTalk {
                    events: broadcast::channel(KEPT).0,
                    watchers_told: Mutex::new(None),
                });
                games.insert(game.to_owned(), Arc::downgrade(&talk));
                talk
            }
        };
        ChatFollow {
            events: talk.events.subscribe(),
            _talk: talk,
        }
    }

    /// Whether `account` turned chat off.
    pub async fn chat_off(&self, account: &AccountId) -> Result<bool, Error> {
        let id = account.clone();
        let on = self
            .inner
            .store
            .query(move |db| crate::players::settings::chat_on(db, &id))
            .await
            .map_err(|e| self.storage_error(StorageOp::Read, e))?;
        Ok(!on)
    }

    /// The accounts `account` blocked.
    pub async fn blocked_by(&self, account: &AccountId) -> Result<Vec<AccountId>, Error> {
        let id = account.clone();
        self.inner
            .store
            .query(move |db| blocks::blocked_by(db, &id))
            .await
            .map_err(|e| self.storage_error(StorageOp::Read, e))
    }

    /// The last messages of game `game` that `reader` may see, in a game `live` or over:
    /// the rooms they may read, less the messages of those they blocked.
    pub async fn chat_history(
        &self,
        game: &str,
        reader: &Reader,
        live: bool,
    ) -> Result<ChatHistory, Error> {
        let (id, account, player) = (game.to_owned(), reader.account.clone(), reader.player);
        self.inner
            .store
            .query(move |db| {
                let blocked = match &account {
                    Some(a) => blocks::blocked_by(db, a)?,
                    None => Vec::new(),
                };
                let mut read = |room: Room| -> anyhow::Result<Option<Vec<Message>>> {
                    if !room.readable(player, live) {
                        return Ok(None);
                    }
                    let mut messages = chat::recent(db, &id, room, HISTORY)?;
                    messages.retain(|m| m.author.as_ref().is_none_or(|a| !blocked.contains(a)));
                    Ok(Some(messages))
                };
                Ok(ChatHistory {
                    players: read(Room::Players)?,
                    watchers: read(Room::Watchers)?,
                })
            })
            .await
            .map_err(|e| self.storage_error(StorageOp::Read, e))
    }

    /// Writes `text` in game `game`'s chat for the socket or request of `audience`, signed
    /// in to `account` or not, from `address`: the players write in theirs, the watchers
    /// (signed in) in theirs. Every server's sockets following the chat are then told.
    pub async fn write_chat(
        &self,
        game: &str,
        audience: Audience,
        account: Option<&AccountId>,
        address: Option<IpAddr>,
        text: &str,
    ) -> Result<Result<Arc<Message>, Refusal>, Error> {
        let room = if audience.holds_a_seat() {
            Room::Players
        } else {
            Room::Watchers
        };
        if room == Room::Watchers && account.is_none() {
            return Ok(Err(Refusal::SignIn));
        }
        let seat = match audience {
            Audience::Seat(colour) => Some(colour_name(colour).to_owned()),
            _ => None,
        };
        // Without an account, a player counts by their address, or (where no address is
        // known) by their seat.
        let sender = match (account, address) {
            (Some(a), _) => Writer::account_sender(a),
            (None, Some(address)) => throttle::address_key(address),
            (None, None) => format!("seat:{game}:{}", seat.as_deref().unwrap_or("both")),
        };
        let writer = Writer {
            account: account.cloned(),
            seat,
            sender,
        };
        let (id, text) = (game.to_owned(), text.to_owned());
        let now = self.now();
        let written = self
            .inner
            .store
            .transact(move |db| chat::write(db, &id, room, &writer, &text, now))
            .await
            .map_err(|e| self.write_error(e))?;
        let message = match written {
            Ok(message) => Arc::new(message),
            Err(refusal) => return Ok(Err(refusal)),
        };
        let notice = ChatNotice::Line {
            game: game.to_owned(),
            id: message.id.clone(),
        };
        // Stored already: a lost notification only delays it to the next history read.
        if let Err(e) = self
            .inner
            .store
            .notify(Channel::Chat, notice.payload())
            .await
        {
            tracing::warn!(game, "cannot notify the chat's message: {e}");
        }
        Ok(Ok(message))
    }

    /// Tells every server that `account`'s blocks changed, so that its sockets read them
    /// again.
    pub async fn blocks_changed(&self, account: &AccountId) {
        let notice = ChatNotice::Blocks {
            account: account.as_str().to_owned(),
        };
        if let Err(e) = self
            .inner
            .store
            .notify(Channel::Chat, notice.payload())
            .await
        {
            tracing::warn!("cannot notify a change of blocks: {e}");
        }
    }
}

/// Follows the store's notifications of chat until the hub is gone, handing each to the
/// sockets of its game on this server.
pub(super) async fn follow(hub: Weak<Inner>) {
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
        match notice {
            Ok(Notice::Chat(payload)) => match ChatNotice::parse(&payload) {
                // Read here, one after another, so that the sockets hear the messages and
                // the counts in the order they were written.
                Some(ChatNotice::Line { game, id }) => {
                    let Some(talk) = hub.inner.talk.of(&game) else {
                        continue;
                    };
                    let found = hub
                        .inner
                        .store
                        .query(move |db| chat::by_id(db, &game, &id))
                        .await;
                    if let Ok(Some(message)) = found {
                        let _ = talk
                            .events
                            .send(Arc::new(ChatEvent::Line(Arc::new(message))));
                    }
                }
                Some(ChatNotice::Watchers { game }) => {
                    if let Some(talk) = hub.inner.talk.of(&game) {
                        hub.tell_watchers(&game, &talk).await;
                    }
                }
                Some(ChatNotice::Blocks { account }) => {
                    let event = Arc::new(ChatEvent::Blocks(AccountId(account)));
                    for (_, talk) in hub.inner.talk.followed() {
                        let _ = talk.events.send(event.clone());
                    }
                }
                None => {}
            },
            Ok(Notice::Missed) | Err(RecvError::Lagged(_)) => {
                for (game, talk) in hub.inner.talk.followed() {
                    let hub = hub.clone();
                    tokio::spawn(async move { hub.tell_watchers(&game, &talk).await });
                }
            }
            Ok(_) => {}
            Err(RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn notices_read_back_as_written() {
        for notice in [
            ChatNotice::Line {
                game: "g1".into(),
                id: "m1".into(),
            },
            ChatNotice::Watchers { game: "g2".into() },
            ChatNotice::Blocks {
                account: "a1".into(),
            },
        ] {
            assert_eq!(ChatNotice::parse(&notice.payload()), Some(notice));
        }
        assert_eq!(ChatNotice::parse("line g1"), None);
        assert_eq!(ChatNotice::parse("dance g1 m1"), None);
    }

    proptest! {
        /// Any payload reads as a notice or as none, never a panic; what reads writes back
        /// the same.
        #[test]
        fn any_payload_reads_or_is_skipped(payload in ".*") {
            if let Some(notice) = ChatNotice::parse(&payload) {
                prop_assert_eq!(notice.payload(), payload);
            }
        }
    }
}
