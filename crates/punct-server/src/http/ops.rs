//! The operator's endpoints: `/metrics` (Prometheus text format) and `/healthz` (whether
//! the database answers and the writer commits).

use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};

use crate::games::Hub;
use crate::ops::metrics::{QueueDepth, Scraped};
use crate::wire::health::HealthReport;

/// How `/healthz` judges the database.
#[derive(Clone, Copy, Debug)]
pub struct Health {
    /// The longest a trivial read may take.
    pub timeout: Duration,
    /// The longest the writer may go without a commit (it commits at least once a second
    /// while it works).
    pub commit_age: Duration,
}

impl Default for Health {
    fn default() -> Health {
        let config = crate::Config::default();
        Health {
            timeout: config.health_timeout,
            commit_age: config.health_commit_age,
        }
    }
}

/// The longest `/metrics` waits for the depth of the workers' queue.
const QUEUE_READ: Duration = Duration::from_secs(2);

/// The routes `/metrics` and `/healthz`. `/healthz` reads its limits from an
/// `Extension<Health>` layered on the router, or uses the defaults.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
}

async fn metrics(State(hub): State<Hub>) -> Response {
    // With workers, the queue is the database's: read now, or left as last read if the
    // database is slow to answer.
    let queue = tokio::time::timeout(QUEUE_READ, hub.engine().queue_depths()).await;
    match queue {
        Ok(Some(Ok(depths))) => {
            let now = hub.time().now_ms();
            hub.metrics().engine_jobs(&depths.map(|d| {
                QueueDepth {
                    jobs: d.jobs,
                    oldest_seconds: d
                        .oldest_ms
                        .map_or(0.0, |t| (now - t).max(0) as f64 / 1000.0),
                }
            }));
        }
        Ok(Some(Err(e))) => tracing::warn!("the engine's job queue could not be read: {e:#}"),
        Err(_) => tracing::warn!("the engine's job queue was not read in time"),
        Ok(None) => {}
    }
    let text = hub.metrics().render(&Scraped {
        live_games: hub.live_games(),
        engine_queue: hub.engine().queued(),
        since_commit: hub.database().since_commit(),
    });
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn healthz(State(hub): State<Hub>, health: Option<Extension<Health>>) -> Response {
    let Health {
        timeout,
        commit_age,
    } = health.map(|h| h.0).unwrap_or_default();
    let store = hub.database();
    let mut problems = Vec::new();
    match tokio::time::timeout(timeout, store.health()).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => problems.push(format!("the database does not answer: {e}")),
        Err(_) => problems.push(format!(
            "the database did not answer within {} ms",
            timeout.as_millis()
        )),
    }
    let since_commit = store.since_commit();
    if since_commit > commit_age {
        problems.push(format!(
            "the database writer has not committed for {:.1} s: writes fail or are stuck",
            since_commit.as_secs_f64()
        ));
    }
    let since_commit_ms = since_commit.as_millis() as u64;
    if problems.is_empty() {
        let body = HealthReport::Ok {
            since_commit_ms,
            live_games: hub.live_games(),
        };
        return (StatusCode::OK, Json(body)).into_response();
    }
    let reason = problems.join("; ");
    tracing::warn!("health check failed: {reason}");
    let body = HealthReport::Unavailable {
        reason: &reason,
        since_commit_ms,
    };
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}
