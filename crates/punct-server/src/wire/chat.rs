//! A game's chat on the wire: one message ([`ChatLine`]), the chat a reader may see
//! (`GET /api/games/{id}/chat` and the socket's `chat_history`), a message's refusal, and the
//! list of blocks.
//! The text goes as typed: the pages show it as text, never as markup.

use std::borrow::Cow;

use serde::Serialize;

use super::error::ErrorBody;
use crate::games::ChatHistory;
use crate::players::chat::{Message, Refusal};

/// One message.
#[derive(Clone, Debug, Serialize)]
pub struct ChatLine<'a> {
    /// Its id (for a report).
    id: &'a str,
    /// Its room: `players` or `watchers`.
    room: &'static str,
    /// Its author's name (`deleted` once deleted); none for a player not signed in.
    author: Option<&'a str>,
    /// The seat of a player who wrote it: `white` or `black`.
    seat: Option<&'a str>,
    /// The text.
    text: &'a str,
    /// When it was written (ms since the epoch).
    at_ms: i64,
}

impl<'a> ChatLine<'a> {
    /// The line of `message`.
    pub fn of(message: &'a Message) -> ChatLine<'a> {
        ChatLine {
            id: &message.id,
            room: message.room.name(),
            author: message.author_name.as_deref(),
            seat: message.seat.as_deref(),
            text: &message.body,
            at_ms: message.at_ms,
        }
    }

    /// The lines of `messages`.
    pub fn all(messages: &'a Option<Vec<Message>>) -> Option<Vec<ChatLine<'a>>> {
        messages
            .as_ref()
            .map(|m| m.iter().map(ChatLine::of).collect())
    }
}

/// The chat a reader may see: the rooms they may read (a room they may not is left out),
/// and how many watch the game.
#[derive(Debug, Serialize)]
pub struct ChatPage<'a> {
    /// The players' chat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<ChatLine<'a>>>,
    /// The watchers' chat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watchers: Option<Vec<ChatLine<'a>>>,
    /// How many watch the game now, on every server.
    pub watching: i64,
}

impl<'a> ChatPage<'a> {
    /// The page of `history`, with `watching` watchers.
    pub fn of(history: &'a ChatHistory, watching: i64) -> ChatPage<'a> {
        ChatPage {
            players: ChatLine::all(&history.players),
            watchers: ChatLine::all(&history.watchers),
            watching,
        }
    }
}

/// The accounts someone blocked (`GET /api/account/blocks`).
#[derive(Debug, Serialize)]
pub struct Blocked {
    /// Their names, in the order blocked.
    pub blocked: Vec<String>,
}

/// The refusal of a message as the client is told it (its code `chat_…`, API.md).
pub fn refused(refusal: &Refusal) -> ErrorBody<'static> {
    let coded = refusal.coded();
    ErrorBody::refused(
        refusal_status(refusal),
        coded.to_string(),
        Cow::Owned(coded),
    )
}

/// The HTTP status that fits a refusal of a message.
pub fn refusal_status(refusal: &Refusal) -> u16 {
    match refusal {
        Refusal::Message(_) => 400,
        Refusal::SignIn => 401,
        Refusal::Muted { .. } | Refusal::Closed | Refusal::ChatOff => 403,
        Refusal::TooFast { .. } => 429,
    }
}
