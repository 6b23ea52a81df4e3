//! Recovery codes (`recovery_codes`): shown once at sign-up (no mail server is needed), each
//! resets the password once. Stored as SHA-256 hashes; a code is spent in the same
//! transaction that sets the new password.

use super::accounts::AccountId;
use super::secrets::{Secret, SecretHash};
use crate::store::sql::{Sql, args};

/// Gives `account` a new set of codes (any old ones go), returning them to show once.
pub fn replace(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<Vec<Secret>> {
    let codes = Secret::recovery_codes()?;
    db.execute(
        "DELETE FROM recovery_codes WHERE account = $1",
        &args![account.as_str()],
    )?;
    for code in &codes {
        db.execute(
            "INSERT INTO recovery_codes (account, hash, created_ms) VALUES ($1, $2, $3)",
            &args![account.as_str(), code.hash().as_str(), now_ms],
        )?;
    }
    Ok(codes)
}

/// Whether `typed` is an unspent code of `account` (it stays unspent).
pub fn is_valid(db: &mut dyn Sql, account: &AccountId, typed: &str) -> anyhow::Result<bool> {
    let Some(hash) = SecretHash::of_recovery_code(typed) else {
        return Ok(false);
    };
    Ok(db
        .query_opt(
            "SELECT 1 AS found FROM recovery_codes
             WHERE account = $1 AND hash = $2 AND used_ms IS NULL",
            &args![account.as_str(), hash.as_str()],
        )?
        .is_some())
}

/// Spends code `typed` of `account` at `now_ms`: whether it was unspent (a code is spent
/// once, however many try at once).
pub fn spend(
    db: &mut dyn Sql,
    account: &AccountId,
    typed: &str,
    now_ms: i64,
) -> anyhow::Result<bool> {
    let Some(hash) = SecretHash::of_recovery_code(typed) else {
        return Ok(false);
    };
    Ok(db.execute(
        "UPDATE recovery_codes SET used_ms = $3
         WHERE account = $1 AND hash = $2 AND used_ms IS NULL",
        &args![account.as_str(), hash.as_str(), now_ms],
    )? == 1)
}

/// How many unspent codes `account` has left.
pub fn left(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<i64> {
    db.query(
        "SELECT COUNT(*) AS n FROM recovery_codes WHERE account = $1 AND used_ms IS NULL",
        &args![account.as_str()],
    )?[0]
        .int("n")
}
