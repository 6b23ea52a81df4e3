//! A game's chat (`chat_messages`): the players' and the watchers' apart, 140 characters a
//! message, stored as the text typed (shown as text, never as markup). Reports
//! (`reports`) keep a copy of the message reported, for the operator.

use super::accounts::AccountId;
use super::secrets::new_id;
use crate::store::sql::{Row, Sql, args};

/// The most characters of a message.
pub const MAX_CHARS: usize = 140;

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
}

/// Why a message is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// Nothing but spaces.
    #[error("the message is empty")]
    Empty,
    /// Longer than [`MAX_CHARS`].
    #[error("the message is too long: at most 140 characters")]
    TooLong,
    /// With control characters.
    #[error("the message may not hold control characters")]
    Control,
}

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
    /// The text.
    pub body: String,
    /// When it was posted.
    pub at_ms: i64,
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
        body: r.text("body")?,
        at_ms: r.int("at_ms")?,
    })
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
            "SELECT m.id, m.author, m.body, m.at_ms, a.username
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
