//! The quick-pairing pools' waiting players (`pool_entries`): who waits in which pool, with
//! their rating then and since when. The pairing itself is [`super::pool::pair`], a pure
//! function; a pair is taken out of the pool by [`claim`], which only one server's attempt
//! wins, so several servers pairing the same pool never pair a player twice.

use super::accounts::AccountId;
use super::pool::Entry;
use super::speed::TimeControl;
use crate::store::sql::{Sql, args};

/// A pool: its name (as in `/api/pool/{slot}`) and its time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// `5+3`, `10+5`, `15+10` or `3d`.
    pub name: &'static str,
    /// The games it makes.
    pub time: TimeControl,
}

/// The pools of the lobby's quick-pairing buttons.
pub const SLOTS: [Slot; 4] = [
    Slot {
        name: "5+3",
        time: TimeControl::Clock {
            initial_ms: 5 * 60_000,
            increment_ms: 3_000,
        },
    },
    Slot {
        name: "10+5",
        time: TimeControl::Clock {
            initial_ms: 10 * 60_000,
            increment_ms: 5_000,
        },
    },
    Slot {
        name: "15+10",
        time: TimeControl::Clock {
            initial_ms: 15 * 60_000,
            increment_ms: 10_000,
        },
    },
    Slot {
        name: "3d",
        time: TimeControl::Correspondence { days: 3 },
    },
];

/// How long a correspondence pool entry waits: a week.
pub const CORRESPONDENCE_LIFE_MS: i64 = super::seeks::CORRESPONDENCE_LIFE_MS;

impl Slot {
    /// The pool named `name`.
    pub fn named(name: &str) -> Option<Slot> {
        SLOTS.into_iter().find(|s| s.name == name)
    }

    fn is_real_time(&self) -> bool {
        matches!(self.time, TimeControl::Clock { .. })
    }
}

/// `pool IN (…)` of the real-time pools, whose entries live while their player is in the
/// lobby (the names are the constants above, never input).
fn real_time_pools() -> String {
    let names: Vec<String> = SLOTS
        .iter()
        .filter(|s| s.is_real_time())
        .map(|s| format!("'{}'", s.name))
        .collect();
    format!("pool IN ({})", names.join(", "))
}

/// `account`, rated `rating` in the pool's speed, waits in `slot` from `now_ms` (again: it
/// keeps its place and waits on).
pub fn join(
    db: &mut dyn Sql,
    slot: Slot,
    account: &AccountId,
    rating: f64,
    now_ms: i64,
) -> anyhow::Result<()> {
    let life = if slot.is_real_time() {
        super::presence::LIFE_MS
    } else {
        CORRESPONDENCE_LIFE_MS
    };
    db.execute(
        "INSERT INTO pool_entries (pool, account, rating, joined_ms, expires_ms)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (pool, account) DO UPDATE SET expires_ms = excluded.expires_ms",
        &args![slot.name, account.as_str(), rating, now_ms, now_ms + life],
    )?;
    Ok(())
}

/// `account` stops waiting in `slot`.
pub fn leave(db: &mut dyn Sql, slot: Slot, account: &AccountId) -> anyhow::Result<bool> {
    Ok(db.execute(
        "DELETE FROM pool_entries WHERE pool = $1 AND account = $2",
        &args![slot.name, account.as_str()],
    )? == 1)
}

/// `account` left the lobby: it stops waiting in the real-time pools.
pub fn leave_real_time(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<u64> {
    db.execute(
        &format!(
            "DELETE FROM pool_entries WHERE account = $1 AND {}",
            real_time_pools()
        ),
        &args![account.as_str()],
    )
}

/// `account` is still in the lobby at `now_ms`: its real-time entries wait on.
pub fn keep(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        &format!(
            "UPDATE pool_entries SET expires_ms = $2 WHERE account = $1 AND {}",
            real_time_pools()
        ),
        &args![account.as_str(), now_ms + super::presence::LIFE_MS],
    )
}

/// The pools `account` waits in at `now_ms`.
pub fn pools_of(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<Vec<String>> {
    db.query(
        "SELECT pool FROM pool_entries WHERE account = $1 AND expires_ms > $2 ORDER BY pool",
        &args![account.as_str(), now_ms],
    )?
    .iter()
    .map(|r| r.text("pool"))
    .collect()
}

/// Who waits in `slot` at `now_ms`, longest first.
pub fn waiting(db: &mut dyn Sql, slot: Slot, now_ms: i64) -> anyhow::Result<Vec<Entry<AccountId>>> {
    db.query(
        "SELECT account, rating, joined_ms FROM pool_entries
         WHERE pool = $1 AND expires_ms > $2 ORDER BY joined_ms, account",
        &args![slot.name, now_ms],
    )?
    .iter()
    .map(|r| {
        Ok(Entry {
            player: AccountId(r.text("account")?),
            rating: r.real("rating")?,
            joined_ms: r.int("joined_ms")?,
        })
    })
    .collect()
}

/// Takes `a` and `b` out of `slot` to be paired: whether both were still there (only one
/// claim of either ever succeeds). A claim that finds one of them gone is an error, so that
/// the transaction it runs in undoes the other's removal.
pub fn claim(db: &mut dyn Sql, slot: Slot, a: &AccountId, b: &AccountId) -> anyhow::Result<()> {
    let taken = db.execute(
        "DELETE FROM pool_entries WHERE pool = $1 AND account IN ($2, $3)",
        &args![slot.name, a.as_str(), b.as_str()],
    )?;
    anyhow::ensure!(taken == 2, "paired elsewhere meanwhile");
    Ok(())
}

/// Deletes the entries that ran out by `now_ms`.
pub fn purge(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        "DELETE FROM pool_entries WHERE expires_ms <= $1",
        &args![now_ms],
    )
}
