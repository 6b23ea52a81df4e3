//! The server's metrics, served at `/metrics` in the Prometheus text format.
//!
//! Built on the `prometheus` crate (TiKV's), whose counters and histograms are plain atomics:
//! a move costs a few atomic additions and no lock or allocation. Every labelled series is
//! made once here, at start, and kept in an array indexed by its label, so that the hot path
//! never looks a label up. What is cheaper to read when scraped than to keep up to date
//! (live games, the engine's queue, the age of the last commit) is read then.

use std::sync::Arc;
use std::time::Duration;

use prometheus::{
    Encoder as _, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry,
    TextEncoder,
};

use crate::error::ErrorKind;

/// Seconds, for the latencies of a change: from a tenth of a millisecond to seconds.
const LATENCY_BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// Seconds a search waits for an engine thread: none at all up to a minute.
const ENGINE_WAIT_BUCKETS: [f64; 12] = [
    0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0, 60.0,
];

/// The lanes of the engine workers' queue, as its metrics name them, in the queue's order
/// (a game's move, then an analysis).
pub const ENGINE_LANES: [&str; 2] = ["game", "analysis"];

/// One lane of the workers' queue as read when scraped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QueueDepth {
    /// Jobs not yet done (waiting, or being searched).
    pub jobs: i64,
    /// Seconds since the oldest of them was queued (0 when there is none).
    pub oldest_seconds: f64,
}

/// Where storage failed.
#[derive(Clone, Copy, Debug)]
pub enum StorageOp {
    /// A change could not be stored.
    Write,
    /// A game or the list of games could not be read.
    Read,
}

/// How a node caught up with a change another node made to a game it holds.
#[derive(Clone, Copy, Debug)]
pub enum CaughtUp {
    /// By the move the notification carried.
    Notified,
    /// By reading the game back from the database.
    ReadBack,
}

/// What is read when `/metrics` is scraped.
pub struct Scraped {
    /// Games in memory that are still being played.
    pub live_games: usize,
    /// Searches waiting for an engine thread.
    pub engine_queue: usize,
    /// Time since the database writer last committed (it commits a heartbeat every second
    /// when nothing else is written).
    pub since_commit: Duration,
}

/// The server's metrics; clones share them.
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    moves: IntCounter,
    changes: Vec<IntCounter>,
    move_commit: Histogram,
    move_broadcast: Histogram,
    websockets: IntGauge,
    live_games: IntGauge,
    engine_queue: IntGauge,
    errors: Vec<IntCounter>,
    storage_failures: [IntCounter; 2],
    caught_up: [IntCounter; 2],
    since_commit: prometheus::Gauge,
    /// The job queue's depth and its oldest job's age, per lane (`store::engine_queue`).
    engine_jobs: [IntGauge; 2],
    engine_job_age: [prometheus::Gauge; 2],
}

/// The histogram of the time searches wait for an engine thread, made by the engine pool,
/// which observes it, and registered with the rest by [`Metrics::new`].
pub fn engine_wait() -> Histogram {
    let opts = HistogramOpts::new(
        "punct_engine_wait_seconds",
        "Time a search waited in the engine queue before an engine thread started it",
    )
    .buckets(ENGINE_WAIT_BUCKETS.to_vec());
    Histogram::with_opts(opts).expect("the histogram's options are valid")
}

fn registered<T: prometheus::core::Collector + Clone + 'static>(registry: &Registry, c: T) -> T {
    registry
        .register(Box::new(c.clone()))
        .expect("each metric is registered once under its own name");
    c
}

impl Metrics {
    /// All the metrics, at zero, with `engine_wait` (from [`engine_wait`]) among them and a
    /// count for each kind of change a game goes through, by its name in `changes`.
    pub fn new(engine_wait: &Histogram, changes: &[&str]) -> Metrics {
        let r = Registry::new();
        let counter = |name: &str, help: &str| {
            registered(&r, IntCounter::new(name, help).expect("valid counter"))
        };
        let gauge = |name: &str, help: &str| {
            registered(&r, IntGauge::new(name, help).expect("valid gauge"))
        };
        let latency = |name: &str, help: &str| {
            let opts = HistogramOpts::new(name, help).buckets(LATENCY_BUCKETS.to_vec());
            registered(&r, Histogram::with_opts(opts).expect("valid histogram"))
        };
        let vec = |name: &str, help: &str, label: &str| {
            registered(
                &r,
                IntCounterVec::new(Opts::new(name, help), &[label]).expect("valid counter"),
            )
        };
        let counted = vec(
            "punct_changes_total",
            "Changes stored and announced, by kind (the event names of the API)",
            "change",
        );
        let errors = vec(
            "punct_errors_total",
            "Requests refused or failed, by the kind of error",
            "kind",
        );
        let storage = vec(
            "punct_storage_failures_total",
            "Reads and writes of the database that failed",
            "op",
        );
        let caught_up = vec(
            "punct_caught_up_total",
            "Changes another node made to a game held here, caught up with: by the move the \
             notification carried, or by reading the game back from the database",
            "from",
        );
        registered(&r, engine_wait.clone());
        let jobs = registered(
            &r,
            prometheus::IntGaugeVec::new(
                Opts::new(
                    "punct_engine_jobs",
                    "Engine jobs in the workers' queue not yet done (waiting or being \
                     searched), by lane; read when scraped, with --engine workers",
                ),
                &["lane"],
            )
            .expect("valid gauge"),
        );
        let age = registered(
            &r,
            prometheus::GaugeVec::new(
                Opts::new(
                    "punct_engine_job_oldest_seconds",
                    "Age of the oldest engine job in the workers' queue not yet done, by lane \
                     (0 when there is none)",
                ),
                &["lane"],
            )
            .expect("valid gauge"),
        );
        let lanes = ENGINE_LANES;
        Metrics {
            inner: Arc::new(Inner {
                moves: counter("punct_moves_total", "Moves stored and announced"),
                changes: changes
                    .iter()
                    .map(|c| counted.with_label_values(&[*c]))
                    .collect(),
                move_commit: latency(
                    "punct_move_commit_seconds",
                    "Time from a move being checked to its being committed to the database",
                ),
                move_broadcast: latency(
                    "punct_move_broadcast_seconds",
                    "Time from a move being checked to its event being sent to the game's sockets",
                ),
                websockets: gauge("punct_websockets_open", "WebSockets open"),
                live_games: gauge("punct_live_games", "Games being played, held in memory"),
                engine_queue: gauge(
                    "punct_engine_queue_depth",
                    "Searches waiting for an engine thread",
                ),
                errors: ErrorKind::ALL
                    .iter()
                    .map(|k| errors.with_label_values(&[k.name()]))
                    .collect(),
                storage_failures: [
                    storage.with_label_values(&["write"]),
                    storage.with_label_values(&["read"]),
                ],
                caught_up: [
                    caught_up.with_label_values(&["notification"]),
                    caught_up.with_label_values(&["database"]),
                ],
                since_commit: registered(
                    &r,
                    prometheus::Gauge::new(
                        "punct_db_seconds_since_commit",
                        "Seconds since the database writer last committed (at least once a \
                         second while it works)",
                    )
                    .expect("valid gauge"),
                ),
                engine_jobs: lanes.map(|lane| jobs.with_label_values(&[lane])),
                engine_job_age: lanes.map(|lane| age.with_label_values(&[lane])),
                registry: r,
            }),
        }
    }

    /// A change stored, of the kind `change` indexes among the names given at start; a
    /// move's `checked` says how long ago it was checked.
    pub fn committed(&self, change: usize, move_checked: Option<Duration>) {
        if let Some(counter) = self.inner.changes.get(change) {
            counter.inc();
        }
        if let Some(checked) = move_checked {
            self.inner.moves.inc();
            self.inner.move_commit.observe(checked.as_secs_f64());
        }
    }

    /// A move's event sent to its sockets, `checked` after it was checked.
    pub fn move_broadcast(&self, checked: Duration) {
        self.inner.move_broadcast.observe(checked.as_secs_f64());
    }

    /// A request refused or failed with `kind`.
    pub fn error(&self, kind: ErrorKind) {
        self.inner.errors[kind as usize].inc();
    }

    /// A read or write of the database that failed.
    pub fn storage_failed(&self, op: StorageOp) {
        self.inner.storage_failures[op as usize].inc();
    }

    /// A change another node made, caught up with as `how` says.
    pub fn caught_up(&self, how: CaughtUp) {
        self.inner.caught_up[how as usize].inc();
    }

    /// Counts a WebSocket as open until the returned guard is dropped.
    pub fn socket_opened(&self) -> SocketOpen {
        self.inner.websockets.inc();
        SocketOpen(self.inner.websockets.clone())
    }

    /// The workers' queue as read now: its depth per lane, in the order of
    /// [`ENGINE_LANES`].
    pub fn engine_jobs(&self, depths: &[QueueDepth; 2]) {
        for (i, d) in depths.iter().enumerate() {
            self.inner.engine_jobs[i].set(d.jobs);
            self.inner.engine_job_age[i].set(d.oldest_seconds);
        }
    }

    /// Everything, in the Prometheus text format, with `scraped` read now.
    pub fn render(&self, scraped: &Scraped) -> String {
        let m = &self.inner;
        m.live_games.set(scraped.live_games as i64);
        m.engine_queue.set(scraped.engine_queue as i64);
        m.since_commit.set(scraped.since_commit.as_secs_f64());
        let mut out = Vec::new();
        // Writing into a Vec fails only for metrics the crate cannot encode, which these are not.
        let _ = TextEncoder::new().encode(&m.registry.gather(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// An open WebSocket, counted until this is dropped (whichever way the socket ends).
pub struct SocketOpen(IntGauge);

impl Drop for SocketOpen {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_kind_has_its_own_series() {
        for (i, kind) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, i);
        }
    }

    #[test]
    fn counts_are_rendered_with_their_labels() {
        let m = Metrics::new(&engine_wait(), &["move", "resign"]);
        m.committed(0, Some(Duration::from_millis(2)));
        m.committed(1, None);
        m.error(ErrorKind::Illegal);
        m.storage_failed(StorageOp::Read);
        m.caught_up(CaughtUp::Notified);
        let open = m.socket_opened();
        let text = m.render(&Scraped {
            live_games: 3,
            engine_queue: 1,
            since_commit: Duration::from_millis(500),
        });
        for line in [
            "punct_moves_total 1",
            "punct_changes_total{change=\"resign\"} 1",
            "punct_errors_total{kind=\"illegal\"} 1",
            "punct_errors_total{kind=\"storage\"} 0",
            "punct_storage_failures_total{op=\"read\"} 1",
            "punct_caught_up_total{from=\"notification\"} 1",
            "punct_caught_up_total{from=\"database\"} 0",
            "punct_move_commit_seconds_bucket{le=\"0.0025\"} 1",
            "punct_move_commit_seconds_bucket{le=\"0.001\"} 0",
            "punct_websockets_open 1",
            "punct_live_games 3",
            "punct_engine_queue_depth 1",
            "punct_db_seconds_since_commit 0.5",
            "punct_engine_jobs{lane=\"game\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
        drop(open);
        let text = m.render(&Scraped {
            live_games: 0,
            engine_queue: 0,
            since_commit: Duration::ZERO,
        });
        assert!(text.lines().any(|l| l == "punct_websockets_open 0"));
    }

    #[test]
    fn the_workers_queue_is_rendered_per_lane() {
        let m = Metrics::new(&engine_wait(), &["move"]);
        let depths = [
            QueueDepth {
                jobs: 3,
                oldest_seconds: 2.5,
            },
            QueueDepth::default(),
        ];
        m.engine_jobs(&depths);
        let text = m.render(&Scraped {
            live_games: 0,
            engine_queue: 0,
            since_commit: Duration::ZERO,
        });
        for line in [
            "punct_engine_jobs{lane=\"game\"} 3",
            "punct_engine_jobs{lane=\"analysis\"} 0",
            "punct_engine_job_oldest_seconds{lane=\"game\"} 2.5",
            "punct_engine_job_oldest_seconds{lane=\"analysis\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
    }
}
