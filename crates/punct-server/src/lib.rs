//! PÜNCT over the web: games against the computer, on one screen or between friends, with
//! seats held by secret tokens, server-kept clocks, every change stored in SQLite before it
//! is broadcast, live updates over WebSocket with sequence numbers, and the browser app,
//! whose files are built into the binary.
//!
//! The rules are punct-core's alone: the server checks every move with it. The engine runs
//! on its own threads behind a bounded queue ([`engine_pool`]), never on the async runtime.
//! The API is described in `API.md`.

#![warn(missing_docs)]

pub mod api;
pub mod api_error;
mod assets;
pub mod clock;
pub mod engine_pool;
pub mod error;
pub mod hub;
pub mod logging;
pub mod metrics;
pub mod new_game;
pub mod ops;
mod outage;
pub mod replay;
pub mod room;
pub mod store;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::serve::ListenerExt as _;
use tokio::net::TcpListener;

pub use api_error::ApiError;

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// The SQLite file, or a `postgres://` URL to keep the games in PostgreSQL.
    pub db: PathBuf,
    /// Worker threads of the async runtime, which does all the network work.
    pub workers: usize,
    /// Engine threads.
    pub engine_threads: usize,
    /// Analyses that may wait for an engine thread before new ones are refused (the
    /// computer's moves in games have a lane of their own, always served first).
    pub engine_queue: usize,
    /// Analyses one client (address) may have waiting or running at once.
    pub analyses_per_client: usize,
    /// The longest the computer thinks per move.
    pub engine_movetime: Duration,
    /// How long games may wait before they end without a result: a side's first move, an
    /// invitation, an untimed game nobody plays on.
    pub lifetimes: room::Lifetimes,
    /// The longest `/healthz` waits for the database to answer a trivial read.
    pub health_timeout: Duration,
    /// The longest the database writer may go without a commit before `/healthz` says the
    /// server is unwell (it commits at least once a second while it works).
    pub health_commit_age: Duration,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let all_but_one = cores.saturating_sub(1).max(1);
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("punct.db"),
            // One core is left to the database writer and the rest of the machine: on 2 cores
            // a second worker made the slowest moves slower, since four busy threads then
            // share two cores (docs/server.md).
            workers: all_but_one,
            // Leave a core for the network side (the engine's threads are in the idle class).
            engine_threads: all_but_one,
            engine_queue: 64,
            analyses_per_client: 2,
            engine_movetime: Duration::from_secs(2),
            lifetimes: room::Lifetimes::default(),
            health_timeout: Duration::from_secs(2),
            health_commit_age: Duration::from_secs(5),
        }
    }
}

/// Opens the database, restores the live games and serves on an already bound listener
/// until the process ends.
pub async fn serve_on(listener: TcpListener, config: Config) -> anyhow::Result<()> {
    let hub = start(&config).await?;
    serve_hub(listener, hub, &config).await
}

/// Opens the database and restores the live games.
async fn start(config: &Config) -> anyhow::Result<hub::Hub> {
    let store = store::Store::open(&config.db)?;
    let engine = engine_pool::EnginePool::new(
        config.engine_threads,
        config.engine_queue,
        config.analyses_per_client,
        config.engine_movetime,
    );
    hub::Hub::start(store, engine, config.lifetimes).await
}

/// Serves the games of `hub` on an already bound listener until the process ends.
async fn serve_hub(listener: TcpListener, hub: hub::Hub, config: &Config) -> anyhow::Result<()> {
    // Moves are small messages sent one at a time: without TCP_NODELAY, Nagle's algorithm
    // holds a move back until the previous message on that socket is acknowledged, which a
    // watcher's delayed acknowledgement can put off for tens of milliseconds.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
    });
    let health = ops::Health {
        timeout: config.health_timeout,
        commit_age: config.health_commit_age,
    };
    let app = api::router(hub)
        .layer(axum::Extension(health))
        .into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app).await?;
    Ok(())
}

/// Serves with `config`, building its own async runtime; returns only on error. The
/// database is opened (or the error returned) before the server says it serves.
pub fn serve(config: Config) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.workers.max(1))
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let hub = start(&config).await?;
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
        let database = store::redact(&config.db.to_string_lossy());
        tracing::info!(
            database,
            live_games = hub.live_games(),
            "serving on http://{}",
            config.addr
        );
        serve_hub(listener, hub, &config).await
    })
}
