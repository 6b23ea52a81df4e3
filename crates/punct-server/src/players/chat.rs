//! A game's chat (`chat_messages`): the players' and the watchers' apart, 140 characters a
//! message, stored as the text typed (shown as text, never as markup). Reports
//! (`reports`) keep a copy of the message reported, for the operator.
//!
//! [`write`] is the one door a message comes in by: it refuses closed and muted accounts,
//! those who turned chat off, and senders over the rate limit, counted from the stored
//! messages themselves, so that every server sharing the database counts the same.

use std::fmt;

use super::accounts::{self, AccountId};
use super::secrets::new_id;
use crate::error::refusal::Refusal as Coded;
use crate::store::sql::{Row, Sql, args};

/// The most characters of a message.
pub const MAX_CHARS: usize = 140;

/// The most messages one sender may write within [`RATE_WINDOW_MS`]: enough to talk, too
/// few to flood.
pub const RATE_COUNT: i64 = 5;

/// The window of the rate limit.
pub const RATE_WINDOW_MS: i64 = 10_000;

/// The most characters of a report's reason.
pub const MAX_REASON_CHARS: usize = 200;

/// Whose chat a message is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// The two players'.
    Players,
    /// The watchers'.
    Watchers,
}

impl Room {
    /// As stored.
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Watchers => "watchers",
        }
    }

    /// The room stored as `name`.
    pub fn named(name: &str) -> Option<Room> {
        [Room::Players, Room::Watchers]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// Whether someone may read this room: the players' chat is the players' alone; the
    /// watchers' chat is the watchers', and the players' too once the game is over (as on
    /// lichess, players never see it during the game).
    pub fn readable(self, player: bool, live: bool) -> bool {
        match self {
            Room::Players => player,
            Room::Watchers => !player || !live,
        }
    }
}

/// Why a message is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// Nothing but spaces.
    Empty,
    /// Longer than [`MAX_CHARS`].
    TooLong,
    /// With control characters.
    Control,
}

impl MessageError {
    /// The refusal's code, with the values it names.
    pub fn coded(self) -> Coded {
        match self {
            MessageError::Empty => Coded::ChatEmpty,
            MessageError::TooLong => Coded::ChatTooLong { max: MAX_CHARS },
            MessageError::Control => Coded::ChatControl,
        }
    }
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.coded().fmt(f)
    }
}

impl std::error::Error for MessageError {}

/// `text` as a message: trimmed, 1 to 140 characters, no control characters.
pub fn message(text: &str) -> Result<&str, MessageError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MessageError::Empty);
    }
    if text.chars().count() > MAX_CHARS {
        return Err(MessageError::TooLong);
    }
    if text.chars().any(char::is_control) {
        return Err(MessageError::Control);
    }
    Ok(text)
}

/// A message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Its id.
    pub id: String,
    /// Its author, if signed in.
    pub author: Option<AccountId>,
    /// The author's name ("deleted" once deleted; `None` for an anonymous player).
    pub author_name: Option<String>,
    /// The seat (`white`, `black`) of a player who wrote it, signed in or not.
    pub seat: Option<String>,
    /// Its room.
    pub room: Room,
    /// The text.
    pub body: String,
    /// When it was posted.
    pub at_ms: i64,
}

/// Who writes a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writer {
    /// Their account, if signed in.
    pub account: Option<AccountId>,
    /// The seat they hold (`white`, `black`), if they play the game.
    pub seat: Option<String>,
    /// What the rate limit counts them by: [`Writer::account_sender`], or for someone not
    /// signed in their address's key.
    pub sender: String,
}

impl Writer {
    /// The rate limit's key of an account.
    pub fn account_sender(account: &AccountId) -> String {
        format!("account:{account}")
    }
}

/// Why [`write`] refused a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The text is not a message.
    Message(MessageError),
    /// The operator muted the account.
    Muted {
        /// Until when.
        until_ms: i64,
        /// The time of the refusal.
        now_ms: i64,
    },
    /// The account is closed or deleted.
    Closed,
    /// A watcher not signed in.
    SignIn,
    /// The writer turned chat off in their settings.
    ChatOff,
    /// Over the rate limit.
    TooFast {
        /// How long until the next is let through.
        wait_ms: i64,
    },
}

impl Refusal {
    /// The refusal's code, with the values it names (its English sentence is its
    /// [`fmt::Display`]).
    pub fn coded(&self) -> Coded {
        match *self {
            Refusal::Message(e) => e.coded(),
            Refusal::Muted { until_ms, now_ms } => Coded::ChatMuted {
                minutes: (until_ms - now_ms + 59_999) / 60_000,
            },
            Refusal::Closed => Coded::ChatClosed,
            Refusal::SignIn => Coded::ChatSignIn,
            Refusal::ChatOff => Coded::ChatOff,
            Refusal::TooFast { wait_ms } => Coded::ChatTooFast {
                seconds: (wait_ms + 999) / 1000,
            },
        }
    }
}

impl From<MessageError> for Refusal {
    fn from(e: MessageError) -> Refusal {
        Refusal::Message(e)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.coded().fmt(f)
    }
}

impl std::error::Error for Refusal {}

/// Writes `text` by `writer` in `room` of game `game`, unless it is refused.
pub fn write(
    db: &mut dyn Sql,
    game: &str,
    room: Room,
    writer: &Writer,
    text: &str,
    now_ms: i64,
) -> anyhow::Result<Result<Message, Refusal>> {
    let body = match message(text) {
        Ok(body) => body,
        Err(e) => return Ok(Err(e.into())),
    };
    let mut author_name = None;
    if let Some(id) = &writer.account {
        let Some(account) = accounts::by_id(db, id)?.filter(accounts::Account::is_open) else {
            return Ok(Err(Refusal::Closed));
        };
        if let Some(until_ms) = account.muted_until_ms.filter(|&until| until > now_ms) {
            return Ok(Err(Refusal::Muted { until_ms, now_ms }));
        }
        if !account.chat {
            return Ok(Err(Refusal::ChatOff));
        }
        author_name = Some(account.shown_name().to_owned());
    }
    let recent = db.query(
        "SELECT at_ms FROM chat_messages WHERE sender = $1 AND at_ms > $2
         ORDER BY at_ms DESC LIMIT $3",
        &args![writer.sender.as_str(), now_ms - RATE_WINDOW_MS, RATE_COUNT],
    )?;
    if recent.len() as i64 >= RATE_COUNT {
        let oldest = recent
            .last()
            .map(|r| r.int("at_ms"))
            .transpose()?
            .unwrap_or(now_ms);
        return Ok(Err(Refusal::TooFast {
            wait_ms: (oldest + RATE_WINDOW_MS - now_ms).max(1),
        }));
    }
    // Ids sort by their time, then at random: two messages of one millisecond would be
    // read back in either order, so a message takes its id from a later millisecond than
    // the room's last one.
    let last: Option<String> = db
        .query_opt(
            "SELECT MAX(id) AS id FROM chat_messages WHERE game = $1 AND room = $2",
            &args![game, room.name()],
        )?
        .map(|r| r.opt_text("id"))
        .transpose()?
        .flatten();
    let after_ms = last
        .and_then(|id| i64::from_str_radix(id.get(..11)?, 16).ok())
        .map_or(now_ms, |last_ms| now_ms.max(last_ms + 1));
    let id = new_id(after_ms)?;
    db.execute(
        "INSERT INTO chat_messages (id, game, room, author, body, at_ms, seat, sender)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        &args![
            id.as_str(),
            game,
            room.name(),
            writer.account.as_ref().map(AccountId::as_str),
            body,
            now_ms,
            writer.seat.as_deref(),
            writer.sender.as_str()
        ],
    )?;
    Ok(Ok(Message {
        id,
        author: writer.account.clone(),
        author_name,
        seat: writer.seat.clone(),
        room,
        body: body.to_owned(),
        at_ms: now_ms,
    }))
}

/// Posts `text` by `author` in `room` of game `game`.
pub fn post(
    db: &mut dyn Sql,
    game: &str,
    room: Room,
    author: Option<&AccountId>,
    text: &str,
    now_ms: i64,
) -> anyhow::Result<Result<String, MessageError>> {
    let body = match message(text) {
        Ok(body) => body,
        Err(e) => return Ok(Err(e)),
    };
    let id = new_id(now_ms)?;
    db.execute(
        "INSERT INTO chat_messages (id, game, room, author, body, at_ms)
         VALUES ($1, $2, $3, $4, $5, $6)",
        &args![
            id.as_str(),
            game,
            room.name(),
            author.map(AccountId::as_str),
            body,
            now_ms
        ],
    )?;
    Ok(Ok(id))
}

fn message_row(r: &Row) -> anyhow::Result<Message> {
    let author = r.opt_text("author")?.map(AccountId);
    let author_name = match &author {
        Some(_) => Some(
            r.opt_text("username")?
                .unwrap_or_else(|| "deleted".to_owned()),
        ),
        None => None,
    };
    Ok(Message {
        id: r.text("id")?,
        author,
        author_name,
        seat: r.opt_text("seat")?,
        room: Room::named(&r.text("room")?).unwrap_or(Room::Watchers),
        body: r.text("body")?,
        at_ms: r.int("at_ms")?,
    })
}

/// Message `id` of game `game`, if there is one.
pub fn by_id(db: &mut dyn Sql, game: &str, id: &str) -> anyhow::Result<Option<Message>> {
    db.query_opt(
        "SELECT m.id, m.author, m.body, m.at_ms, m.room, m.seat, a.username
         FROM chat_messages m LEFT JOIN accounts a ON a.id = m.author
         WHERE m.id = $1 AND m.game = $2",
        &args![id, game],
    )?
    .map(|r| message_row(&r))
    .transpose()
}

/// The last `limit` messages of `room` in game `game`, oldest first.
pub fn recent(
    db: &mut dyn Sql,
    game: &str,
    room: Room,
    limit: i64,
) -> anyhow::Result<Vec<Message>> {
    let mut messages = db
        .query(
            "SELECT m.id, m.author, m.body, m.at_ms, m.room, m.seat, a.username
             FROM chat_messages m LEFT JOIN accounts a ON a.id = m.author
             WHERE m.game = $1 AND m.room = $2 ORDER BY m.id DESC LIMIT $3",
            &args![game, room.name(), limit],
        )?
        .iter()
        .map(message_row)
        .collect::<anyhow::Result<Vec<_>>>()?;
    messages.reverse();
    Ok(messages)
}

/// `reporter` reports message `id` for `reason`: a copy of it is kept for the operator.
/// The report's id, if the message exists.
pub fn report(
    db: &mut dyn Sql,
    reporter: &AccountId,
    id: &str,
    reason: &str,
    now_ms: i64,
) -> anyhow::Result<Option<String>> {
    let report = new_id(now_ms)?;
    let made = db.execute(
        "INSERT INTO reports (id, reporter, reported, message, body, reason, created_ms)
         SELECT $1, $2, author, id, body, $4, $5 FROM chat_messages WHERE id = $3",
        &args![report.as_str(), reporter.as_str(), id, reason, now_ms],
    )?;
    Ok((made == 1).then_some(report))
}

/// An open report, for the operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Its id.
    pub id: String,
    /// Who reported.
    pub reporter: AccountId,
    /// Whose message it is.
    pub reported: Option<AccountId>,
    /// The message's text as it was.
    pub body: String,
    /// Why.
    pub reason: String,
    /// When.
    pub created_ms: i64,
}

/// The open reports, oldest first.
pub fn open_reports(db: &mut dyn Sql) -> anyhow::Result<Vec<Report>> {
    db.query(
        "SELECT id, reporter, reported, body, reason, created_ms FROM reports
         WHERE closed_ms IS NULL ORDER BY created_ms, id",
        &[],
    )?
    .iter()
    .map(|r| {
        Ok(Report {
            id: r.text("id")?,
            reporter: AccountId(r.text("reporter")?),
            reported: r.opt_text("reported")?.map(AccountId),
            body: r.text("body")?,
            reason: r.text("reason")?,
            created_ms: r.int("created_ms")?,
        })
    })
    .collect()
}

/// The operator closes report `id`.
pub fn close_report(db: &mut dyn Sql, id: &str, now_ms: i64) -> anyhow::Result<bool> {
    Ok(db.execute(
        "UPDATE reports SET closed_ms = $2 WHERE id = $1 AND closed_ms IS NULL",
        &args![id, now_ms],
    )? == 1)
}
