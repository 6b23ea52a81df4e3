//! Notifications (`notifications`): what an account is told of (its turn, a challenge, a
//! draw offer, a game's end), listed newest first, with the count of those unread for the
//! header.

use super::accounts::AccountId;
use super::secrets::new_id;
use crate::store::sql::{Sql, Statement, args};

/// What a notification tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// It is the account's turn.
    YourTurn,
    /// A challenge came.
    Challenge,
    /// The opponent offers a draw.
    DrawOffer,
    /// A game ended.
    GameEnd,
}

impl Kind {
    /// As stored and sent.
    pub fn name(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::Challenge => "challenge",
            Kind::DrawOffer => "draw_offer",
            Kind::GameEnd => "game_end",
        }
    }
}

/// A notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification {
    /// Its id.
    pub id: String,
    /// What it tells (see [`Kind::name`]).
    pub kind: String,
    /// The game it is about.
    pub game: Option<String>,
    /// The other account it is about.
    pub other: Option<AccountId>,
    /// When it was made.
    pub created_ms: i64,
    /// When its account read it.
    pub read_ms: Option<i64>,
}

/// The statement that tells `account` of `kind` (about `game`, from `other`): it may go
/// with a game's row.
pub fn tell(
    account: &AccountId,
    kind: Kind,
    game: Option<&str>,
    other: Option<&AccountId>,
    now_ms: i64,
) -> anyhow::Result<Statement> {
    Ok(Statement::new(
        "INSERT INTO notifications (id, account, kind, game, other, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6)",
        args![
            new_id(now_ms)?,
            account.as_str(),
            kind.name(),
            game,
            other.map(AccountId::as_str),
            now_ms
        ],
    ))
}

/// The newest `limit` notifications of `account`.
pub fn list(
    db: &mut dyn Sql,
    account: &AccountId,
    limit: i64,
) -> anyhow::Result<Vec<Notification>> {
    db.query(
        "SELECT id, kind, game, other, created_ms, read_ms FROM notifications
         WHERE account = $1 ORDER BY id DESC LIMIT $2",
        &args![account.as_str(), limit],
    )?
    .iter()
    .map(|r| {
        Ok(Notification {
            id: r.text("id")?,
            kind: r.text("kind")?,
            game: r.opt_text("game")?,
            other: r.opt_text("other")?.map(AccountId),
            created_ms: r.int("created_ms")?,
            read_ms: r.opt_int("read_ms")?,
        })
    })
    .collect()
}

/// How many notifications of `account` are unread.
pub fn unread(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<i64> {
    db.query(
        "SELECT COUNT(*) AS n FROM notifications WHERE account = $1 AND read_ms IS NULL",
        &args![account.as_str()],
    )?[0]
        .int("n")
}

/// Marks every notification of `account` read at `now_ms`.
pub fn read_all(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        "UPDATE notifications SET read_ms = $2 WHERE account = $1 AND read_ms IS NULL",
        &args![account.as_str(), now_ms],
    )
}
