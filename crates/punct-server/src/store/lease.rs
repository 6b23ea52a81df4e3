//! Which server owns which live game, when several share one PostgreSQL: a row per game
//! (`game_owners`: its owner node) and a row per node (`nodes`: its last heartbeat). A
//! game's owner runs its clock timer and asks for its computer moves; it owns the game for
//! as long as its heartbeat is fresh, and a node whose heartbeat is older than the lease is
//! dead, its games taken over by whichever node looks first. Owning a game is about who
//! does its timed work, never about whose writes count: every write is still conditional
//! on the game's `seq`, so two nodes that both believe they own a game (one cut off from
//! the database past its lease) can never both change it.
//!
//! The statements are PostgreSQL's (`FOR UPDATE … SKIP LOCKED`): with SQLite one server
//! owns everything and none of this runs.

use super::sql::{Sql, Statement, args};

/// Records that `node` (started at `started_ms`) is alive at `now`.
pub fn heartbeat(db: &mut dyn Sql, node: &str, started_ms: i64, now: i64) -> anyhow::Result<()> {
    db.execute(
        "INSERT INTO nodes (id, started_ms, alive_ms) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET alive_ms = excluded.alive_ms",
        &args![node, started_ms, now],
    )?;
    Ok(())
}

/// Whether a node other than `node` was heard from after `alive_after`.
pub fn others_alive(db: &mut dyn Sql, node: &str, alive_after: i64) -> anyhow::Result<bool> {
    let row = db.query_opt(
        "SELECT COUNT(*) AS n FROM nodes WHERE id <> $1 AND alive_ms > $2",
        &args![node, alive_after],
    )?;
    Ok(row.map(|r| r.int("n")).transpose()?.unwrap_or(0) > 0)
}

/// The last heartbeat of `node` (of an earlier run of it, when read before its first).
pub fn alive_ms(db: &mut dyn Sql, node: &str) -> anyhow::Result<Option<i64>> {
    db.query_opt("SELECT alive_ms FROM nodes WHERE id = $1", &args![node])?
        .map(|r| r.int("alive_ms"))
        .transpose()
}

/// The statement that makes `node` the owner of new game `game` at `now`, written with the
/// game's first row.
pub fn first_owner(game: &str, node: &str, now: i64) -> Statement {
    Statement::new(
        "INSERT INTO game_owners (game, node, since_ms) VALUES ($1, $2, $3)
         ON CONFLICT (game) DO NOTHING",
        args![game, node, now],
    )
}

/// How `node` came to own a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owned {
    /// It owned it already, or nobody did.
    Already,
    /// It took it over from a dead node, whose last heartbeat was then: the side to move is
    /// charged up to it and no further.
    From {
        /// The dead owner's last heartbeat.
        alive_ms: i64,
    },
}

/// Takes game `game` for `node` at `now` unless a live node (one whose heartbeat is not
/// older than `dead_before`) owns it: `None` if one does.
pub fn claim(
    db: &mut dyn Sql,
    game: &str,
    node: &str,
    now: i64,
    dead_before: i64,
) -> anyhow::Result<Option<Owned>> {
    let made = db.execute(
        "INSERT INTO game_owners (game, node, since_ms) VALUES ($1, $2, $3)
         ON CONFLICT (game) DO NOTHING",
        &args![game, node, now],
    )?;
    if made == 1 {
        return Ok(Some(Owned::Already));
    }
    let Some(row) = db.query_opt(
        "SELECT o.node, n.alive_ms FROM game_owners o LEFT JOIN nodes n ON n.id = o.node
         WHERE o.game = $1 FOR UPDATE OF o",
        &args![game],
    )?
    else {
        return Ok(None);
    };
    if row.text("node")? == node {
        return Ok(Some(Owned::Already));
    }
    let alive = row.opt_int("alive_ms")?;
    if alive.is_some_and(|a| a >= dead_before) {
        return Ok(None);
    }
    db.execute(
        "UPDATE game_owners SET node = $2, since_ms = $3 WHERE game = $1",
        &args![game, node, now],
    )?;
    Ok(Some(match alive {
        Some(alive_ms) => Owned::From { alive_ms },
        None => Owned::Already,
    }))
}

/// Takes for `node` at `now` up to `limit` live games whose owner is dead (its heartbeat
/// older than `dead_before`) or that have no owner: each with how it came to own it. Rows
/// another node is taking at the same moment are left to it.
pub fn take_over(
    db: &mut dyn Sql,
    node: &str,
    now: i64,
    dead_before: i64,
    limit: i64,
) -> anyhow::Result<Vec<(String, Owned)>> {
    let mut taken = Vec::new();
    for row in db.query(
        "WITH dead AS (
             SELECT o.game, n.alive_ms FROM game_owners o
             LEFT JOIN nodes n ON n.id = o.node
             WHERE o.node <> $1 AND (n.alive_ms IS NULL OR n.alive_ms < $3)
               AND EXISTS (SELECT 1 FROM games g WHERE g.id = o.game AND g.live)
             LIMIT $4
             FOR UPDATE OF o SKIP LOCKED)
         UPDATE game_owners o SET node = $1, since_ms = $2 FROM dead
         WHERE o.game = dead.game
         RETURNING o.game, dead.alive_ms",
        &args![node, now, dead_before, limit],
    )? {
        let owned = match row.opt_int("alive_ms")? {
            Some(alive_ms) => Owned::From { alive_ms },
            None => Owned::Already,
        };
        taken.push((row.text("game")?, owned));
    }
    for row in db.query(
        "INSERT INTO game_owners (game, node, since_ms)
         SELECT g.id, $1, $2 FROM games g
         WHERE g.live AND NOT EXISTS (SELECT 1 FROM game_owners o WHERE o.game = g.id)
         LIMIT $3
         ON CONFLICT (game) DO NOTHING
         RETURNING game",
        &args![node, now, limit],
    )? {
        taken.push((row.text("game")?, Owned::Already));
    }
    Ok(taken)
}

/// The games `node` owns.
pub fn owned_by(db: &mut dyn Sql, node: &str) -> anyhow::Result<Vec<String>> {
    db.query("SELECT game FROM game_owners WHERE node = $1", &args![node])?
        .iter()
        .map(|r| r.text("game"))
        .collect()
}

/// Forgets the owners of games no longer live, and nodes dead since `gone_before` that own
/// nothing.
pub fn prune(db: &mut dyn Sql, gone_before: i64) -> anyhow::Result<()> {
    db.execute(
        "DELETE FROM game_owners o
         WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = o.game AND g.live)",
        &[],
    )?;
    db.execute(
        "DELETE FROM nodes n WHERE n.alive_ms < $1
         AND NOT EXISTS (SELECT 1 FROM game_owners o WHERE o.node = n.id)",
        &args![gone_before],
    )?;
    Ok(())
}

/// Stores game `id` again at the state `seq` it was read at, its clocks resumed by a node
/// that took it over (`data`): made only if the database holds no later state, folding the
/// pending moves the form holds. Returns whether it was made.
pub fn resume(
    db: &mut dyn Sql,
    id: &str,
    seq: u64,
    data: &str,
    updated_ms: i64,
) -> anyhow::Result<bool> {
    let seq = seq as i64;
    let made = db.execute(
        "UPDATE games SET data = $2, seq = $3, updated_ms = $4
         WHERE id = $1 AND seq <= $3
           AND NOT EXISTS (SELECT 1 FROM pending_moves WHERE game = $1 AND seq > $3)",
        &args![id, data, seq, updated_ms],
    )?;
    if made == 0 {
        return Ok(false);
    }
    db.execute(
        "DELETE FROM pending_moves WHERE game = $1 AND seq <= $2",
        &args![id, seq],
    )?;
    Ok(true)
}
