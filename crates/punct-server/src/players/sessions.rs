//! Sessions (`sessions`): a signed-in browser, found by the SHA-256 hash of its cookie. Each
//! has a CSRF token of its own (also kept hashed; the page sends it back with every change
//! it asks for). A session ends after [`IDLE_MS`] unused, when its owner signs out (this
//! one, or all the others: a password change does that), or when the account goes.

use super::accounts::AccountId;
use super::secrets::{Secret, SecretHash};
use crate::store::sql::{Row, Sql, args};

/// How long a session lasts unused: 30 days from its last use.
pub const IDLE_MS: i64 = 30 * 86_400_000;

/// A session's last use is written again once it is this old, not at every request: a day.
pub const TOUCH_AFTER_MS: i64 = 86_400_000;

/// A session found by its cookie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Its hash: what it is stored and deleted by.
    pub hash: SecretHash,
    /// Whose it is.
    pub account: AccountId,
    /// When it began.
    pub created_ms: i64,
    /// When it was last used (to within [`TOUCH_AFTER_MS`]).
    pub seen_ms: i64,
    /// When it ends if unused.
    pub expires_ms: i64,
    csrf: SecretHash,
}

impl Session {
    /// Whether `presented` is this session's CSRF token.
    pub fn csrf_matches(&self, presented: &str) -> bool {
        SecretHash::of_session(presented) == self.csrf
    }

    /// Whether its last use should be written again at `now_ms` ([`touch`]).
    pub fn needs_touch(&self, now_ms: i64) -> bool {
        now_ms - self.seen_ms >= TOUCH_AFTER_MS
    }
}

/// A new session's secrets, to give to the browser once.
#[derive(Debug)]
pub struct NewSession {
    /// The cookie's value.
    pub cookie: Secret,
    /// The CSRF token.
    pub csrf: Secret,
}

/// Begins a session of `account`.
pub fn create(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<NewSession> {
    let new = NewSession {
        cookie: Secret::session()?,
        csrf: Secret::session()?,
    };
    db.execute(
        "INSERT INTO sessions (hash, account, created_ms, seen_ms, expires_ms, csrf_hash)
         VALUES ($1, $2, $3, $3, $4, $5)",
        &args![
            new.cookie.hash().as_str(),
            account.as_str(),
            now_ms,
            now_ms + IDLE_MS,
            new.csrf.hash().as_str()
        ],
    )?;
    Ok(new)
}

fn session(r: &Row) -> anyhow::Result<Session> {
    Ok(Session {
        hash: SecretHash::stored(r.text("hash")?),
        account: AccountId(r.text("account")?),
        created_ms: r.int("created_ms")?,
        seen_ms: r.int("seen_ms")?,
        expires_ms: r.int("expires_ms")?,
        csrf: SecretHash::stored(r.text("csrf_hash")?),
    })
}

/// The live session whose cookie is `presented`, if its account is open.
pub fn lookup(db: &mut dyn Sql, presented: &str, now_ms: i64) -> anyhow::Result<Option<Session>> {
    db.query_opt(
        "SELECT s.hash, s.account, s.created_ms, s.seen_ms, s.expires_ms, s.csrf_hash
         FROM sessions s JOIN accounts a ON a.id = s.account
         WHERE s.hash = $1 AND s.expires_ms > $2
           AND a.closed_ms IS NULL AND a.deleted_ms IS NULL",
        &args![SecretHash::of_session(presented).as_str(), now_ms],
    )?
    .map(|r| session(&r))
    .transpose()
}

/// Whether session `hash` is still live at `now_ms`: not ended, its account open.
pub fn is_live(db: &mut dyn Sql, hash: &SecretHash, now_ms: i64) -> anyhow::Result<bool> {
    Ok(db
        .query_opt(
            "SELECT s.hash FROM sessions s JOIN accounts a ON a.id = s.account
             WHERE s.hash = $1 AND s.expires_ms > $2
               AND a.closed_ms IS NULL AND a.deleted_ms IS NULL",
            &args![hash.as_str(), now_ms],
        )?
        .is_some())
}

/// Records that session `hash` was used at `now_ms`, which pushes its end on.
pub fn touch(db: &mut dyn Sql, hash: &SecretHash, now_ms: i64) -> anyhow::Result<()> {
    db.execute(
        "UPDATE sessions SET seen_ms = $2, expires_ms = $3 WHERE hash = $1",
        &args![hash.as_str(), now_ms, now_ms + IDLE_MS],
    )?;
    Ok(())
}

/// Gives session `hash` a new CSRF token (when the browser lost the old one), returned to
/// give to it.
pub fn renew_csrf(db: &mut dyn Sql, hash: &SecretHash) -> anyhow::Result<Secret> {
    let csrf = Secret::session()?;
    db.execute(
        "UPDATE sessions SET csrf_hash = $2 WHERE hash = $1",
        &args![hash.as_str(), csrf.hash().as_str()],
    )?;
    Ok(csrf)
}

/// Ends the session whose cookie is `presented` (signing out).
pub fn delete(db: &mut dyn Sql, presented: &str) -> anyhow::Result<bool> {
    Ok(db.execute(
        "DELETE FROM sessions WHERE hash = $1",
        &args![SecretHash::of_session(presented).as_str()],
    )? == 1)
}

/// Ends every session of `account` but `keep` (all of them with `None`), returning how many.
pub fn delete_others(
    db: &mut dyn Sql,
    account: &AccountId,
    keep: Option<&SecretHash>,
) -> anyhow::Result<u64> {
    db.execute(
        "DELETE FROM sessions WHERE account = $1 AND hash <> $2",
        &args![account.as_str(), keep.map_or("", SecretHash::as_str)],
    )
}

/// The live sessions of `account`, newest first (for the account page).
pub fn of_account(
    db: &mut dyn Sql,
    account: &AccountId,
    now_ms: i64,
) -> anyhow::Result<Vec<Session>> {
    db.query(
        "SELECT hash, account, created_ms, seen_ms, expires_ms, csrf_hash FROM sessions
         WHERE account = $1 AND expires_ms > $2 ORDER BY created_ms DESC",
        &args![account.as_str(), now_ms],
    )?
    .iter()
    .map(session)
    .collect()
}

/// Deletes the sessions that ended before `now_ms`, returning how many.
pub fn purge(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        "DELETE FROM sessions WHERE expires_ms <= $1",
        &args![now_ms],
    )
}
