//! Blocks (`blocks`): an account that blocks another no longer gets its challenges or sees
//! its chat.

use super::accounts::AccountId;
use crate::store::sql::{Sql, args};

/// `account` blocks `whom` (again: no change).
pub fn block(
    db: &mut dyn Sql,
    account: &AccountId,
    whom: &AccountId,
    now_ms: i64,
) -> anyhow::Result<()> {
    anyhow::ensure!(account != whom, "an account cannot block itself");
    db.execute(
        "INSERT INTO blocks (account, blocked, created_ms) VALUES ($1, $2, $3)
         ON CONFLICT (account, blocked) DO NOTHING",
        &args![account.as_str(), whom.as_str(), now_ms],
    )?;
    Ok(())
}

/// `account` unblocks `whom`.
pub fn unblock(db: &mut dyn Sql, account: &AccountId, whom: &AccountId) -> anyhow::Result<bool> {
    Ok(db.execute(
        "DELETE FROM blocks WHERE account = $1 AND blocked = $2",
        &args![account.as_str(), whom.as_str()],
    )? == 1)
}

/// Whether `account` blocked `whom`.
pub fn is_blocked(db: &mut dyn Sql, account: &AccountId, whom: &AccountId) -> anyhow::Result<bool> {
    Ok(db
        .query_opt(
            "SELECT 1 AS found FROM blocks WHERE account = $1 AND blocked = $2",
            &args![account.as_str(), whom.as_str()],
        )?
        .is_some())
}

/// The accounts `account` blocked.
pub fn blocked_by(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<Vec<AccountId>> {
    db.query(
        "SELECT blocked FROM blocks WHERE account = $1 ORDER BY created_ms",
        &args![account.as_str()],
    )?
    .iter()
    .map(|r| Ok(AccountId(r.text("blocked")?)))
    .collect()
}

/// The names of the accounts `account` blocked, in the order blocked ("deleted" for one
/// since deleted).
pub fn blocked_names(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<Vec<String>> {
    db.query(
        "SELECT a.username FROM blocks b JOIN accounts a ON a.id = b.blocked
         WHERE b.account = $1 ORDER BY b.created_ms, a.username_key",
        &args![account.as_str()],
    )?
    .iter()
    .map(|r| {
        Ok(r.opt_text("username")?
            .unwrap_or_else(|| "deleted".to_owned()))
    })
    .collect()
}
