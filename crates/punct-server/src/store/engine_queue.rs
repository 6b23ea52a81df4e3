//! The engine's job queue in PostgreSQL (`engine_jobs`), for `punct worker` processes on any
//! machine: the owner of a game queues its computer's move, a node queues an analysis's
//! positions, and workers take them with `FOR UPDATE SKIP LOCKED`, a game's move before any
//! analysis (the lane), the oldest first.
//!
//! A taken job is the worker's until its lease runs out; the worker renews it while it
//! searches, so a job whose worker died (kill -9, a lost machine) is taken again by another
//! once the lease has passed. A computer move's id is its game's and its state's number
//! ([`game_job_id`]): however many nodes ask for it (an owner that died and the one that
//! took its game over), it is queued once. The first result written is kept and a later
//! one dropped; and the move itself is applied by the game's owner under the game's `seq`
//! condition, so it is applied once whatever the queue does.
//!
//! The statements are PostgreSQL's (`SKIP LOCKED`); with SQLite the web node searches
//! itself and none of this runs.

use super::sql::{Sql, args};

/// The lane of a game's computer move: always taken before any analysis.
pub const GAME_LANE: i64 = 0;

/// The lane of an analysis's position.
pub const ANALYSIS_LANE: i64 = 1;

/// The lanes, in the order they are served.
pub const LANES: [i64; 2] = [GAME_LANE, ANALYSIS_LANE];

/// The id of the job of the computer's move in game `game` at state `seq`.
pub fn game_job_id(game: &str, seq: u64) -> String {
    format!("{game}:{seq}")
}

/// A job as a worker takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// Its id.
    pub id: String,
    /// Its lane ([`GAME_LANE`] or [`ANALYSIS_LANE`]).
    pub lane: i64,
    /// The job as its node wrote it (`engine::job::JobSpec` as JSON).
    pub job: String,
    /// How many times it has been taken, this time included.
    pub attempts: i64,
    /// The games' moves waiting behind it, not yet taken: the clock policy's queue.
    pub behind: i64,
}

/// Queues job `id` in `lane` for game `game` at state `seq` at `now`; `false` if it is
/// queued already (asked for by another node, or again).
pub fn enqueue(
    db: &mut dyn Sql,
    id: &str,
    lane: i64,
    game: &str,
    seq: u64,
    job: &str,
    now: i64,
) -> anyhow::Result<bool> {
    let made = db.execute(
        "INSERT INTO engine_jobs (id, lane, game, seq, job, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING",
        &args![id, lane, game, seq as i64, job, now],
    )?;
    Ok(made == 1)
}

/// Takes the next job for `worker` at `now`, its lease running until `now + lease_ms`: the
/// first lane's oldest job that is neither done, cancelled nor held by a live lease. Jobs
/// other workers are taking at the same moment are skipped, never waited for.
pub fn take(
    db: &mut dyn Sql,
    worker: &str,
    now: i64,
    lease_ms: i64,
) -> anyhow::Result<Option<Taken>> {
    let Some(row) = db.query_opt(
        "UPDATE engine_jobs SET worker = $1, lease_ms = $2::BIGINT + $3::BIGINT, attempts = attempts + 1
         WHERE id = (
             SELECT id FROM engine_jobs
             WHERE done_ms IS NULL AND NOT cancelled AND (worker IS NULL OR lease_ms < $2)
             ORDER BY lane, created_ms, id
             LIMIT 1
             FOR UPDATE SKIP LOCKED)
         RETURNING id, lane, job, attempts,
             (SELECT COUNT(*) FROM engine_jobs w
              WHERE w.lane = 0 AND w.done_ms IS NULL AND w.worker IS NULL) AS behind",
        &args![worker, now, lease_ms],
    )?
    else {
        return Ok(None);
    };
    Ok(Some(Taken {
        id: row.text("id")?,
        lane: row.int("lane")?,
        job: row.text("job")?,
        attempts: row.int("attempts")?,
        // The job itself was still counted as waiting by the statement's snapshot.
        behind: (row.int("behind")? - 1).max(0),
    }))
}

/// What renewing a lease found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renewed {
    /// The job is still this worker's, now until the new expiry.
    Kept,
    /// Its node no longer wants it (the client hung up): stop searching.
    Cancelled,
    /// It is no longer this worker's: done by another, taken again after this worker's
    /// lease ran out, or forgotten by its node.
    Lost,
}

/// Renews `worker`'s lease on job `id` at `now` until `now + lease_ms`.
pub fn renew(
    db: &mut dyn Sql,
    id: &str,
    worker: &str,
    now: i64,
    lease_ms: i64,
) -> anyhow::Result<Renewed> {
    let row = db.query_opt(
        "UPDATE engine_jobs SET lease_ms = $3::BIGINT + $4::BIGINT
         WHERE id = $1 AND worker = $2 AND done_ms IS NULL
         RETURNING cancelled",
        &args![id, worker, now, lease_ms],
    )?;
    Ok(match row {
        None => Renewed::Lost,
        Some(r) if r.bool("cancelled")? => Renewed::Cancelled,
        Some(_) => Renewed::Kept,
    })
}

/// Writes the result of job `id` (its JSON) at `now`, unless a result or an error is
/// written already: `false` then, and this one is dropped.
pub fn finish(db: &mut dyn Sql, id: &str, result: &str, now: i64) -> anyhow::Result<bool> {
    let made = db.execute(
        "UPDATE engine_jobs SET result = $2, done_ms = $3 WHERE id = $1 AND done_ms IS NULL",
        &args![id, result, now],
    )?;
    Ok(made == 1)
}

/// Ends job `id` at `now` with the error `why`, unless it is done already.
pub fn fail(db: &mut dyn Sql, id: &str, why: &str, now: i64) -> anyhow::Result<bool> {
    let made = db.execute(
        "UPDATE engine_jobs SET error = $2, done_ms = $3 WHERE id = $1 AND done_ms IS NULL",
        &args![id, why, now],
    )?;
    Ok(made == 1)
}

/// How a job ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Its result, as the worker wrote it (`engine::job::JobResult` as JSON).
    Result(String),
    /// Why it failed.
    Error(String),
}

/// How job `id` ended, if it has.
pub fn ended(db: &mut dyn Sql, id: &str) -> anyhow::Result<Option<Ended>> {
    let Some(row) = db.query_opt(
        "SELECT result, error FROM engine_jobs WHERE id = $1 AND done_ms IS NOT NULL",
        &args![id],
    )?
    else {
        return Ok(None);
    };
    Ok(Some(
        match (row.opt_text("result")?, row.opt_text("error")?) {
            (Some(result), _) => Ended::Result(result),
            (None, Some(error)) => Ended::Error(error),
            (None, None) => Ended::Error(format!(
                "engine job {id} is marked done with neither a result nor an error"
            )),
        },
    ))
}

/// Takes back job `id`, which its node no longer wants: forgotten if no worker holds it,
/// else marked so that its worker stops at its next renewal.
pub fn cancel(db: &mut dyn Sql, id: &str) -> anyhow::Result<()> {
    db.execute(
        "DELETE FROM engine_jobs WHERE id = $1 AND (worker IS NULL OR done_ms IS NOT NULL)",
        &args![id],
    )?;
    db.execute(
        "UPDATE engine_jobs SET cancelled = TRUE WHERE id = $1",
        &args![id],
    )?;
    Ok(())
}

/// Forgets job `id` once its node has its result. A worker still searching it (its lease
/// ran out and another did it) finds it gone at its next renewal, and its result is
/// dropped.
pub fn forget(db: &mut dyn Sql, id: &str) -> anyhow::Result<()> {
    db.execute("DELETE FROM engine_jobs WHERE id = $1", &args![id])?;
    Ok(())
}

/// Forgets jobs ended or cancelled before `before` that nobody came for (their node died
/// before reading them).
pub fn prune(db: &mut dyn Sql, before: i64) -> anyhow::Result<u64> {
    db.execute(
        "DELETE FROM engine_jobs
         WHERE (done_ms IS NOT NULL AND done_ms < $1) OR (cancelled AND created_ms < $1)",
        &args![before],
    )
}

/// The jobs of one lane not yet done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Depth {
    /// Jobs waiting for a worker or being searched.
    pub jobs: i64,
    /// When the oldest of them was queued (ms since the epoch), if any.
    pub oldest_ms: Option<i64>,
}

/// The depth of each of [`LANES`], in their order.
pub fn depths(db: &mut dyn Sql) -> anyhow::Result<[Depth; 2]> {
    let mut out = [Depth::default(); 2];
    for row in db.query(
        "SELECT lane, COUNT(*) AS jobs, MIN(created_ms) AS oldest FROM engine_jobs
         WHERE done_ms IS NULL AND NOT cancelled GROUP BY lane",
        &[],
    )? {
        let lane = row.int("lane")?;
        let Some(i) = LANES.iter().position(|l| *l == lane) else {
            anyhow::bail!("engine job lane {lane} is none of the known lanes");
        };
        out[i] = Depth {
            jobs: row.int("jobs")?,
            oldest_ms: row.opt_int("oldest")?,
        };
    }
    Ok(out)
}
