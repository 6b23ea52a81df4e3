//! Accounts (`accounts`): the name (as typed, and its lowercase key, unique), the password's
//! Argon2id hash, and the operator's marks (muted, closed). A deleted account keeps its row
//! without its name's display form or password, so that its games still name it (shown as
//! "deleted"); its lowercase name stays taken, so that nobody can pass for its owner later.
//! A bot account is played by a program (API.md, "Bots"): made one at sign-up, or later
//! while it has no game, never once it has played as a person.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::username::{self, Username};
use crate::store::sql::{Row, Sql, args};

/// An account's id (made by the server; never shown as a name).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AccountId(pub String);

impl AccountId {
    /// The id as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An account as the pages see it (no password hash).
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its name; `None` once deleted.
    pub username: Option<Username>,
    /// When it was made.
    pub created_ms: i64,
    /// Whether its owner lets others chat with them.
    pub chat: bool,
    /// Until when the operator muted it.
    pub muted_until_ms: Option<i64>,
    /// When the operator closed it.
    pub closed_ms: Option<i64>,
    /// When its owner deleted it.
    pub deleted_ms: Option<i64>,
    /// Whether a program plays it.
    pub bot: bool,
}

impl Account {
    /// Whether it can sign in and play: neither closed nor deleted.
    pub fn is_open(&self) -> bool {
        self.closed_ms.is_none() && self.deleted_ms.is_none()
    }

    /// The name to show: "deleted" once it is.
    pub fn shown_name(&self) -> &str {
        self.username.as_ref().map_or("deleted", Username::as_str)
    }
}

/// The columns of [`Account`].
const COLUMNS: &str =
    "id, username, created_ms, chat, muted_until_ms, closed_ms, deleted_ms, bot FROM accounts";

fn account(r: &Row) -> anyhow::Result<Account> {
    Ok(Account {
        id: AccountId(r.text("id")?),
        username: r.opt_text("username")?.map(Username::stored),
        created_ms: r.int("created_ms")?,
        chat: r.bool("chat")?,
        muted_until_ms: r.opt_int("muted_until_ms")?,
        closed_ms: r.opt_int("closed_ms")?,
        deleted_ms: r.opt_int("deleted_ms")?,
        bot: r.bool("bot")?,
    })
}

/// The name is taken (ignoring case), by a live or a deleted account.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the username {0:?} is taken")]
pub struct Taken(pub String);

/// Why an account cannot become a bot account.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotBot {
    /// It has games, played as a person.
    #[error("this account has played games as a person: a bot needs an account of its own")]
    HasGames,
    /// It is closed or deleted.
    #[error("this account is closed")]
    Closed,
    /// It is one already.
    #[error("this account is a bot account already")]
    Already,
}

/// Makes account `id` a bot account, unless it has a game (played or being played), is
/// closed, or is one already.
pub fn make_bot(db: &mut dyn Sql, id: &AccountId) -> anyhow::Result<Result<(), NotBot>> {
    let Some(account) = by_id(db, id)? else {
        return Ok(Err(NotBot::Closed));
    };
    if !account.is_open() {
        return Ok(Err(NotBot::Closed));
    }
    if account.bot {
        return Ok(Err(NotBot::Already));
    }
    let games = db
        .query_opt(
            "SELECT COUNT(*) AS n FROM account_games WHERE account = $1",
            &args![id.as_str()],
        )?
        .map(|r| r.int("n"))
        .transpose()?
        .unwrap_or(0);
    if games > 0 {
        return Ok(Err(NotBot::HasGames));
    }
    db.execute(
        "UPDATE accounts SET bot = TRUE WHERE id = $1",
        &args![id.as_str()],
    )?;
    Ok(Ok(()))
}

/// Whether account `id` is a bot account.
pub fn is_bot(db: &mut dyn Sql, id: &AccountId) -> anyhow::Result<bool> {
    Ok(by_id(db, id)?.is_some_and(|a| a.bot))
}

/// Makes account `id` named `name` with password hash `hash`; refused if the name is taken.
pub fn create(
    db: &mut dyn Sql,
    id: &AccountId,
    name: &Username,
    hash: &str,
    now_ms: i64,
) -> anyhow::Result<Result<(), Taken>> {
    let made = db.execute(
        "INSERT INTO accounts (id, username, username_key, password_hash, created_ms,
             password_changed_ms)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (username_key) DO NOTHING",
        &args![id.as_str(), name.as_str(), name.key(), hash, now_ms],
    )?;
    Ok(if made == 1 {
        Ok(())
    } else {
        Err(Taken(name.as_str().to_owned()))
    })
}

/// The account named `name` (ignoring case), deleted or not.
pub fn by_name(db: &mut dyn Sql, name: &str) -> anyhow::Result<Option<Account>> {
    db.query_opt(
        &format!("SELECT {COLUMNS} WHERE username_key = $1"),
        &args![username::key(name)],
    )?
    .map(|r| account(&r))
    .transpose()
}

/// Account `id`.
pub fn by_id(db: &mut dyn Sql, id: &AccountId) -> anyhow::Result<Option<Account>> {
    db.query_opt(
        &format!("SELECT {COLUMNS} WHERE id = $1"),
        &args![id.as_str()],
    )?
    .map(|r| account(&r))
    .transpose()
}

/// What signing in as `name` is checked against: the account (if any) and its password
/// hash (none once deleted).
pub fn credentials(
    db: &mut dyn Sql,
    name: &str,
) -> anyhow::Result<Option<(Account, Option<String>)>> {
    db.query_opt(
        &format!("SELECT password_hash, {COLUMNS} WHERE username_key = $1"),
        &args![username::key(name)],
    )?
    .map(|r| Ok((account(&r)?, r.opt_text("password_hash")?)))
    .transpose()
}

/// The password hash of account `id`, if it has one.
pub fn password_hash(db: &mut dyn Sql, id: &AccountId) -> anyhow::Result<Option<String>> {
    Ok(db
        .query_opt(
            "SELECT password_hash FROM accounts WHERE id = $1",
            &args![id.as_str()],
        )?
        .map(|r| r.opt_text("password_hash"))
        .transpose()?
        .flatten())
}

/// Sets the password hash of account `id` (not of a deleted one).
pub fn set_password(
    db: &mut dyn Sql,
    id: &AccountId,
    hash: &str,
    now_ms: i64,
) -> anyhow::Result<bool> {
    Ok(db.execute(
        "UPDATE accounts SET password_hash = $2, password_changed_ms = $3
         WHERE id = $1 AND deleted_ms IS NULL",
        &args![id.as_str(), hash, now_ms],
    )? == 1)
}

/// Deletes account `id`: its name's display form, password, sessions, tokens, recovery
/// codes, ratings and their history, seeks, pool places, notifications and blocks go; its
/// open challenges are cancelled; its games (and their chat) stay, shown under "deleted".
pub fn delete(db: &mut dyn Sql, id: &AccountId, now_ms: i64) -> anyhow::Result<bool> {
    let account = args![id.as_str()];
    for sql in [
        "DELETE FROM sessions WHERE account = $1",
        "DELETE FROM api_tokens WHERE account = $1",
        "DELETE FROM recovery_codes WHERE account = $1",
        "DELETE FROM rating_history WHERE account = $1",
        "DELETE FROM ratings WHERE account = $1",
        "DELETE FROM seeks WHERE account = $1",
        "DELETE FROM pool_entries WHERE account = $1",
        "DELETE FROM notifications WHERE account = $1",
        "DELETE FROM blocks WHERE account = $1 OR blocked = $1",
        "DELETE FROM account_settings WHERE account = $1",
    ] {
        db.execute(sql, &account)?;
    }
    db.execute(
        "UPDATE challenges SET status = 'cancelled', decided_ms = $2
         WHERE (challenger = $1 OR challenged = $1) AND status = 'open'",
        &args![id.as_str(), now_ms],
    )?;
    Ok(db.execute(
        "UPDATE accounts SET username = NULL, password_hash = NULL, deleted_ms = $2
         WHERE id = $1 AND deleted_ms IS NULL",
        &args![id.as_str(), now_ms],
    )? == 1)
}

/// Lets others chat with account `id`, or not.
pub fn set_chat(db: &mut dyn Sql, id: &AccountId, chat: bool) -> anyhow::Result<bool> {
    Ok(db.execute(
        "UPDATE accounts SET chat = $2 WHERE id = $1",
        &args![id.as_str(), chat],
    )? == 1)
}

/// The operator mutes account `id` until `until_ms` (`None`: no longer muted).
pub fn mute(db: &mut dyn Sql, id: &AccountId, until_ms: Option<i64>) -> anyhow::Result<bool> {
    Ok(db.execute(
        "UPDATE accounts SET muted_until_ms = $2 WHERE id = $1",
        &args![id.as_str(), until_ms],
    )? == 1)
}

/// The operator closes account `id`: it can no longer sign in, and its sessions and tokens
/// end.
pub fn close(db: &mut dyn Sql, id: &AccountId, now_ms: i64) -> anyhow::Result<bool> {
    db.execute(
        "DELETE FROM sessions WHERE account = $1",
        &args![id.as_str()],
    )?;
    db.execute(
        "DELETE FROM api_tokens WHERE account = $1",
        &args![id.as_str()],
    )?;
    Ok(db.execute(
        "UPDATE accounts SET closed_ms = $2 WHERE id = $1 AND closed_ms IS NULL",
        &args![id.as_str(), now_ms],
    )? == 1)
}

/// Accounts whose names begin with `prefix` (ignoring case), open ones only, by name.
pub fn search(db: &mut dyn Sql, prefix: &str, limit: i64) -> anyhow::Result<Vec<Account>> {
    // The prefix is matched as text, not a pattern: `_` and `%` are escaped.
    let pattern = format!(
        "{}%",
        username::key(prefix)
            .replace('\\', "\\\\")
            .replace('_', "\\_")
            .replace('%', "\\%")
    );
    db.query(
        &format!(
            "SELECT {COLUMNS} WHERE username_key LIKE $1 ESCAPE '\\'
             AND deleted_ms IS NULL AND closed_ms IS NULL ORDER BY username_key LIMIT $2"
        ),
        &args![pattern, limit],
    )?
    .iter()
    .map(account)
    .collect()
}
