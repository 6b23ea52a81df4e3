//! Limits on guessing passwords and recovery codes (`sign_in_failures`), per account name
//! and per address, kept in the database so that every server counts the same.
//!
//! Each attempt is counted before its password is checked (so that attempts made at once
//! cannot slip past the count), and one that succeeds is given back. After [`FREE`] in a
//! row, the next must wait, [`FIRST_WAIT_MS`] at first, twice as long after each further
//! failure, at most [`MAX_WAIT_MS`]; a name or address left alone for [`FORGET_MS`] starts
//! again from nothing. A correct password clears its account name's count, not its
//! address's (which only gets its own attempt back): a guesser with an account of their own
//! cannot wipe their address's record by signing in to it.

use std::net::IpAddr;

use crate::store::sql::{Sql, args};

/// Attempts in a row that need no wait.
pub const FREE: i64 = 5;

/// The wait after the fifth failure in a row.
pub const FIRST_WAIT_MS: i64 = 5_000;

/// The longest wait.
pub const MAX_WAIT_MS: i64 = 3_600_000;

/// How long a record lasts after its last failure: a day.
pub const FORGET_MS: i64 = 86_400_000;

/// The wait that follows `failures` in a row.
pub fn wait_after(failures: i64) -> i64 {
    if failures < FREE {
        return 0;
    }
    let doublings = (failures - FREE).min(20) as u32;
    FIRST_WAIT_MS
        .saturating_mul(1 << doublings)
        .min(MAX_WAIT_MS)
}

/// The record of attempts at account name `key` (the name's lowercase key).
pub fn name_key(key: &str) -> String {
    format!("name:{key}")
}

/// The record of attempts from `address`: an IPv6 address counts by its /64 network, which
/// one user has whole.
pub fn address_key(address: IpAddr) -> String {
    match address {
        IpAddr::V4(v4) => format!("addr:{v4}"),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => format!("addr:{v4}"),
            None => {
                let s = v6.segments();
                format!("addr:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// An attempt refused: try again after this many ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many failed attempts: try again in {} s", self.retry_after_s())]
pub struct Throttled {
    /// How long until the next attempt is let through.
    pub retry_after_ms: i64,
}

impl Throttled {
    /// The wait in whole seconds, rounded up (for `Retry-After`).
    pub fn retry_after_s(&self) -> i64 {
        (self.retry_after_ms.max(0) + 999) / 1000
    }
}

/// Counts an attempt at every record of `keys` at `now_ms`, unless one of them must still
/// wait (then nothing is counted).
pub fn attempt(
    db: &mut dyn Sql,
    keys: &[String],
    now_ms: i64,
) -> anyhow::Result<Result<(), Throttled>> {
    let mut blocked_until = 0;
    for key in keys {
        if let Some(r) = db.query_opt(
            "SELECT blocked_until_ms FROM sign_in_failures WHERE key = $1",
            &args![key.as_str()],
        )? {
            blocked_until = blocked_until.max(r.int("blocked_until_ms")?);
        }
    }
    if blocked_until > now_ms {
        return Ok(Err(Throttled {
            retry_after_ms: blocked_until - now_ms,
        }));
    }
    for key in keys {
        let rows = db.query(
            "INSERT INTO sign_in_failures (key, failures, last_ms, blocked_until_ms)
             VALUES ($1, 1, $2, 0)
             ON CONFLICT (key) DO UPDATE SET
                 failures = CASE WHEN sign_in_failures.last_ms < $3 THEN 1
                                 ELSE sign_in_failures.failures + 1 END,
                 last_ms = $2
             RETURNING failures",
            &args![key.as_str(), now_ms, now_ms - FORGET_MS],
        )?;
        let failures = rows
            .first()
            .ok_or_else(|| anyhow::anyhow!("the count of attempts was not returned"))?
            .int("failures")?;
        let wait = wait_after(failures);
        if wait > 0 {
            db.execute(
                "UPDATE sign_in_failures SET blocked_until_ms = CASE
                     WHEN blocked_until_ms > $2 THEN blocked_until_ms ELSE $2 END
                 WHERE key = $1",
                &args![key.as_str(), now_ms + wait],
            )?;
        }
    }
    Ok(Ok(()))
}

/// The attempt counted by [`attempt`] succeeded: account name `name`'s record is cleared,
/// and address `address`'s gets its attempt back.
pub fn succeeded(db: &mut dyn Sql, name: &str, address: Option<&str>) -> anyhow::Result<()> {
    db.execute("DELETE FROM sign_in_failures WHERE key = $1", &args![name])?;
    if let Some(address) = address {
        db.execute(
            "UPDATE sign_in_failures SET failures = failures - 1,
                 blocked_until_ms = CASE WHEN failures - 1 < $2 THEN 0 ELSE blocked_until_ms END
             WHERE key = $1 AND failures > 0",
            &args![address, FREE],
        )?;
    }
    Ok(())
}

/// Deletes the records forgotten by `now_ms`, returning how many.
pub fn purge(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        "DELETE FROM sign_in_failures WHERE last_ms < $1 AND blocked_until_ms <= $2",
        &args![now_ms - FORGET_MS, now_ms],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_grows_after_five_failures() {
        assert_eq!((0..5).map(wait_after).sum::<i64>(), 0);
        assert_eq!(wait_after(5), 5_000);
        assert_eq!(wait_after(6), 10_000);
        assert_eq!(wait_after(9), 80_000);
        assert_eq!(wait_after(15), MAX_WAIT_MS);
        assert_eq!(wait_after(i64::MAX), MAX_WAIT_MS);
    }

    #[test]
    fn addresses_count_by_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_eq!(address_key(a), "addr:2001:db8:1:2::/64");
        let v4: IpAddr = "192.0.2.7".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(address_key(v4), "addr:192.0.2.7");
        assert_eq!(address_key(mapped), address_key(v4));
    }

    #[test]
    fn the_refusal_says_when_to_come_back() {
        let t = Throttled {
            retry_after_ms: 4_001,
        };
        assert_eq!(t.to_string(), "too many failed attempts: try again in 5 s");
    }
}
