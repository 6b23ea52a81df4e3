//! Every message the server sends on a game's WebSocket (API.md, "WebSocket"), lila-ws's
//! `ClientIn`: one enum, each variant written by serde. A change's event is written once
//! for each audience that follows the game, and every socket of that audience sends the same
//! text.

use std::fmt;

use axum::extract::ws::Utf8Bytes;
use punct_core::Move;
use serde::{Serialize, Serializer};

use super::chat::{ChatLine, ChatPage};
use super::error::ErrorBody;
use super::view::GameState;
use crate::games::{Announced, Announcement};
use crate::room::{Audience, Change, Snapshot, colour_name};

/// Room for a message with a state without growing the buffer: a state is 1–3 KB.
const STATE_CAPACITY: usize = 4096;

/// A message from the server to a client of a game's WebSocket.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// The whole state: on connecting, after a `hello`, on `sync`, when the client fell
    /// too far behind, and when the game was read back from the database. The client
    /// replaces everything it holds with it.
    State {
        /// The state's number.
        seq: u64,
        /// The state.
        state: GameState<'a>,
    },
    /// A change, in order: `seq` is one more than the last.
    Event {
        /// The number of the state the change made.
        seq: u64,
        /// The change's name (`move`, `joined`, …).
        event: &'static str,
        /// What the change was, where its name does not say it all.
        detail: Detail<'a>,
        /// The state it made.
        state: GameState<'a>,
    },
    /// An action sent on the socket was carried out (or had been): it made state `seq`.
    Ok {
        /// The number of the state the action made.
        seq: u64,
    },
    /// A refused action or message.
    Error(ErrorBody<'a>),
    /// The answer to a ping.
    Pong,
    /// The chat the socket may see, sent when it opens the chat (`chat_open`): it replaces
    /// what the client holds.
    ChatHistory(ChatPage<'a>),
    /// A new message in a room the socket may see.
    Chat {
        /// The message.
        message: ChatLine<'a>,
    },
    /// How many watch the game now, on every server (to sockets that opened the chat).
    Watching {
        /// The number of sockets watching.
        count: i64,
    },
    /// A message sent on the socket was written.
    ChatSent {
        /// Its id.
        id: &'a str,
    },
    /// A message sent on the socket was refused (apart from `error`, which answers the
    /// socket's actions).
    ChatRefused(ErrorBody<'a>),
}

/// What an event adds to its name.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Detail<'a> {
    /// The move played.
    Move {
        /// Its text.
        #[serde(rename = "move")]
        played: Option<MoveText>,
    },
    /// The colour of the seat taken.
    Joined {
        /// The colour.
        colour: &'static str,
    },
    /// The rematch made.
    Rematch {
        /// The new game's id.
        game: Option<&'a str>,
    },
    /// Nothing more (`null`).
    None,
}

/// A move, written as its text.
pub struct MoveText(Move);

impl Serialize for MoveText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'a> ServerMessage<'a> {
    /// The `state` message of `snapshot` as `audience` sees it at `now`.
    pub fn state(snapshot: &'a Snapshot, audience: Audience, now: i64) -> ServerMessage<'a> {
        ServerMessage::State {
            seq: snapshot.seq,
            state: GameState::of(snapshot, audience, now),
        }
    }

    /// The message of `announcement` as `audience` sees it.
    pub fn announced(announcement: &'a Announcement, audience: Audience) -> ServerMessage<'a> {
        let snapshot = &announcement.snapshot;
        let state = GameState::of(snapshot, audience, snapshot.taken_ms);
        let change = match announcement.what {
            Announced::Change(change) => change,
            Announced::ReadBack => {
                return ServerMessage::State {
                    seq: snapshot.seq,
                    state,
                };
            }
        };
        let detail = match change {
            Change::Move => Detail::Move {
                played: snapshot.last_move.map(MoveText),
            },
            Change::Joined(colour) => Detail::Joined {
                colour: colour_name(colour),
            },
            Change::Rematch => Detail::Rematch {
                game: snapshot.rematch.as_deref(),
            },
            _ => Detail::None,
        };
        ServerMessage::Event {
            seq: snapshot.seq,
            event: change.name(),
            detail,
            state,
        }
    }

    /// The message as JSON text.
    pub fn text(&self) -> Utf8Bytes {
        let capacity = match self {
            ServerMessage::State { .. }
            | ServerMessage::Event { .. }
            | ServerMessage::ChatHistory(_) => STATE_CAPACITY,
            ServerMessage::Ok { .. }
            | ServerMessage::Error(_)
            | ServerMessage::Pong
            | ServerMessage::Chat { .. }
            | ServerMessage::Watching { .. }
            | ServerMessage::ChatSent { .. }
            | ServerMessage::ChatRefused(_) => 128,
        };
        let mut out = Vec::with_capacity(capacity);
        // Writing into a Vec cannot fail, and no message holds what serde could refuse (a
        // map with keys that are not strings).
        let _ = serde_json::to_writer(&mut out, self);
        // serde_json writes only UTF-8.
        String::from_utf8(out).unwrap_or_default().into()
    }
}

/// The text of `announcement` as `audience` sees it: written by the first socket of that
/// audience to send it, then shared by all of them.
pub fn announced_text(announcement: &Announcement, audience: Audience) -> Utf8Bytes {
    announcement.form(audience, || {
        ServerMessage::announced(announcement, audience).text()
    })
}

impl fmt::Debug for ServerMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
