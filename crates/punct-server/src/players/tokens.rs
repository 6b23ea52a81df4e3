//! Personal API tokens (`api_tokens`): made and revoked on the account page, for scripts and
//! programs (`Authorization: Bearer punct_…`), each with a name its owner gives it; stored
//! as SHA-256 hashes and found by them.

use super::accounts::AccountId;
use super::secrets::{Secret, SecretHash, new_id};
use crate::store::sql::{Row, Sql, args};

/// The most tokens one account may have.
pub const MAX_PER_ACCOUNT: i64 = 20;

/// The most characters of a token's name.
pub const MAX_NAME_CHARS: usize = 40;

/// A token as its owner's list shows it (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Its id, to revoke it by.
    pub id: String,
    /// The name its owner gave it.
    pub name: String,
    /// When it was made.
    pub created_ms: i64,
    /// When it was last used, to within a day.
    pub used_ms: Option<i64>,
}

/// Why a token was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// An empty name, or a longer one than [`MAX_NAME_CHARS`], or with control characters.
    #[error("a token's name must be 1 to 40 characters, without control characters")]
    Name,
    /// The account has [`MAX_PER_ACCOUNT`] tokens already.
    #[error("an account may have at most 20 tokens: revoke one first")]
    TooMany,
}

/// Makes a token named `name` for `account`: its id and the token, to show once.
pub fn create(
    db: &mut dyn Sql,
    account: &AccountId,
    name: &str,
    now_ms: i64,
) -> anyhow::Result<Result<(String, Secret), TokenError>> {
    let name = name.trim();
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Ok(Err(TokenError::Name));
    }
    let held = db.query(
        "SELECT COUNT(*) AS n FROM api_tokens WHERE account = $1",
        &args![account.as_str()],
    )?[0]
        .int("n")?;
    if held >= MAX_PER_ACCOUNT {
        return Ok(Err(TokenError::TooMany));
    }
    let (id, token) = (new_id(now_ms)?, Secret::api_token()?);
    db.execute(
        "INSERT INTO api_tokens (id, hash, account, name, created_ms) VALUES ($1, $2, $3, $4, $5)",
        &args![
            id.as_str(),
            token.hash().as_str(),
            account.as_str(),
            name,
            now_ms
        ],
    )?;
    Ok(Ok((id, token)))
}

fn token(r: &Row) -> anyhow::Result<Token> {
    Ok(Token {
        id: r.text("id")?,
        name: r.text("name")?,
        created_ms: r.int("created_ms")?,
        used_ms: r.opt_int("used_ms")?,
    })
}

/// The tokens of `account`, oldest first.
pub fn of_account(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<Vec<Token>> {
    db.query(
        "SELECT id, name, created_ms, used_ms FROM api_tokens WHERE account = $1 ORDER BY id",
        &args![account.as_str()],
    )?
    .iter()
    .map(token)
    .collect()
}

/// Revokes token `id` of `account` (another account's is not touched).
pub fn revoke(db: &mut dyn Sql, account: &AccountId, id: &str) -> anyhow::Result<bool> {
    Ok(db.execute(
        "DELETE FROM api_tokens WHERE id = $1 AND account = $2",
        &args![id, account.as_str()],
    )? == 1)
}

/// The account and the token's id for bearer token `presented`, if it is a live token of
/// an open account.
pub fn lookup(db: &mut dyn Sql, presented: &str) -> anyhow::Result<Option<(AccountId, Token)>> {
    let Some(hash) = SecretHash::of_token(presented) else {
        return Ok(None);
    };
    db.query_opt(
        "SELECT t.id, t.name, t.created_ms, t.used_ms, t.account
         FROM api_tokens t JOIN accounts a ON a.id = t.account
         WHERE t.hash = $1 AND a.closed_ms IS NULL AND a.deleted_ms IS NULL",
        &args![hash.as_str()],
    )?
    .map(|r| Ok((AccountId(r.text("account")?), token(&r)?)))
    .transpose()
}

/// Whether token `id` is still live: not revoked, its account open.
pub fn is_live(db: &mut dyn Sql, id: &str) -> anyhow::Result<bool> {
    Ok(db
        .query_opt(
            "SELECT t.id FROM api_tokens t JOIN accounts a ON a.id = t.account
             WHERE t.id = $1 AND a.closed_ms IS NULL AND a.deleted_ms IS NULL",
            &args![id],
        )?
        .is_some())
}

/// Records that token `id` was used at `now_ms` (callers do so at most daily).
pub fn note_use(db: &mut dyn Sql, id: &str, now_ms: i64) -> anyhow::Result<()> {
    db.execute(
        "UPDATE api_tokens SET used_ms = $2 WHERE id = $1",
        &args![id, now_ms],
    )?;
    Ok(())
}
