//! The answer of `GET /healthz`.

use serde::Serialize;

/// Whether the database answers and its writer commits.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum HealthReport<'a> {
    /// All is well.
    Ok {
        /// Milliseconds since the writer last committed.
        since_commit_ms: u64,
        /// Games being played, in memory.
        live_games: usize,
    },
    /// Something is wrong: what.
    Unavailable {
        /// What is wrong.
        reason: &'a str,
        /// Milliseconds since the writer last committed.
        since_commit_ms: u64,
    },
}
