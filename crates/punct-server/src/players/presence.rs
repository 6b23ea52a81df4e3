//! Who is in the lobby (`lobby_sockets`): one row per open lobby socket, on whichever
//! server holds it, its expiry pushed on by that server's heartbeat ([`beat`]). A real-time
//! seek or pool entry lives while its seeker has a socket here: the last one to close takes
//! them away ([`close`]), and should its server die, the rows it kept run out by themselves
//! ([`super::seeks::REAL_TIME_LIFE_MS`]), so any server can tell.

use super::accounts::AccountId;
use crate::store::sql::{Sql, args};

/// How long a socket's row lives without a heartbeat; its server beats at a third of it.
pub const LIFE_MS: i64 = super::seeks::REAL_TIME_LIFE_MS;

/// Records lobby socket `id` of `account`, open at `now_ms`.
pub fn open(db: &mut dyn Sql, id: &str, account: &AccountId, now_ms: i64) -> anyhow::Result<()> {
    db.execute(
        "INSERT INTO lobby_sockets (id, account, expires_ms) VALUES ($1, $2, $3)",
        &args![id, account.as_str(), now_ms + LIFE_MS],
    )?;
    Ok(())
}

/// The heartbeat of socket `id` of `account` at `now_ms`: its row, the account's real-time
/// seeks and its pool entries live on.
pub fn beat(db: &mut dyn Sql, id: &str, account: &AccountId, now_ms: i64) -> anyhow::Result<()> {
    let until = now_ms + LIFE_MS;
    db.execute(
        "UPDATE lobby_sockets SET expires_ms = $2 WHERE id = $1",
        &args![id, until],
    )?;
    super::seeks::keep(db, account, now_ms)?;
    super::queue::keep(db, account, now_ms)?;
    Ok(())
}

/// Socket `id` of `account` closed at `now_ms`: if it was the account's last one (on any
/// server), its real-time seeks and pool entries go. Returns the ids of the seeks that went.
pub fn close(
    db: &mut dyn Sql,
    id: &str,
    account: &AccountId,
    now_ms: i64,
) -> anyhow::Result<Vec<String>> {
    db.execute("DELETE FROM lobby_sockets WHERE id = $1", &args![id])?;
    let left = db.query_opt(
        "SELECT 1 AS found FROM lobby_sockets WHERE account = $1 AND expires_ms > $2",
        &args![account.as_str(), now_ms],
    )?;
    if left.is_some() {
        return Ok(Vec::new());
    }
    super::queue::leave_real_time(db, account)?;
    db.query(
        "DELETE FROM seeks WHERE account = $1 AND days_per_move IS NULL RETURNING id",
        &args![account.as_str()],
    )?
    .iter()
    .map(|r| r.text("id"))
    .collect()
}

/// Deletes the rows of sockets whose server stopped beating by `now_ms`.
pub fn purge(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        "DELETE FROM lobby_sockets WHERE expires_ms <= $1",
        &args![now_ms],
    )
}
