//! PÜNCT over the web: games against the computer, on one screen or between friends, with
//! seats held by secret tokens, server-kept clocks, every change stored in SQLite before it
//! is broadcast, live updates over WebSocket with sequence numbers, and the browser app,
//! whose files are built into the binary.
//!
//! The rules are punct-core's alone: the server checks every move with it. The engine runs
//! on its own threads behind a bounded queue ([`engine`]), never on the async runtime.
//! The API is described in `API.md`.

#![warn(missing_docs)]

pub mod analysis;
pub mod engine;
pub mod error;
pub mod games;
pub mod http;
pub mod lobby;
pub mod ops;
pub mod pictures;
pub mod players;
pub mod records;
pub mod room;
pub mod store;
pub mod wire;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tokio::net::TcpListener;

pub use http::error::ApiError;
pub use http::rate_limit::{Rate, RateLimits};

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// The SQLite file, or a `postgres://` URL to keep the games in PostgreSQL.
    pub db: PathBuf,
    /// Worker threads of the async runtime, which does all the network work.
    pub workers: usize,
    /// Engine threads: searches run at once.
    pub engine_threads: usize,
    /// Threads each of the computer's searches uses (`--engine-threads`).
    pub search_threads: usize,
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
    /// Connections open at once (WebSockets included); past it a new one is answered 503
    /// and closed. Lowered at start, with a warning, to what the limit on open files
    /// allows (whose soft limit is raised to the hard one).
    pub max_connections: usize,
    /// How long a client has to send a request's head (request line and headers), from
    /// connecting or from the head's first byte; a slower one is cut off.
    pub header_read_timeout: Duration,
    /// How long a keep-alive connection may wait, idle, for its next request.
    pub idle_timeout: Duration,
    /// The largest request head in bytes; a larger one is answered 431.
    pub max_header_bytes: usize,
    /// The largest request body in bytes; a larger one is answered 413.
    pub max_body_bytes: usize,
    /// The largest body of `POST /api/import` (files and `.zip` archives of games), in
    /// bytes; a larger one is answered 413.
    pub max_import_bytes: usize,
    /// How long a request's body may take to arrive once its head has; a slower one is
    /// answered 408.
    pub body_read_timeout: Duration,
    /// The largest WebSocket message (and frame) a client may send, in bytes; a socket
    /// that sends a larger one is closed (1009).
    pub ws_max_message_bytes: usize,
    /// How long a WebSocket may send nothing, not even a pong, before it is closed; the
    /// server pings it at a third of that.
    pub ws_silence_timeout: Duration,
    /// How long a WebSocket whose request named no token is waited for, for a `hello`
    /// naming one, before it is served as a watcher.
    pub ws_hello_timeout: Duration,
    /// Rate limits per client address; `None` for none.
    pub rate_limits: Option<RateLimits>,
    /// For tests: a file holding an offset in milliseconds added to the system clock,
    /// watched while the server runs, so that a test can move the server's time on without
    /// waiting ([`ops::time`]). `None`: the system clock.
    pub clock_file: Option<PathBuf>,
    /// Whether the server is reached through a reverse proxy alone, whose
    /// `X-Forwarded-Proto` (HTTPS: the cookies get `Secure`) and last `X-Forwarded-For`
    /// address (the limits on guessing passwords) are then believed. Off, both headers are
    /// ignored: any client could write them.
    pub trust_proxy: bool,
    /// This server's name among several sharing one PostgreSQL (`games::Node::id`): a node
    /// started again under its name takes its games back at once. `None`: the machine's
    /// host name and the port listened on.
    pub node: Option<String>,
    /// How long a node's heartbeat stays good on a shared PostgreSQL: a node silent for
    /// longer is dead, and the others take its games over.
    pub lease: Duration,
    /// Where the computer's moves and the analyses are searched: on this server's engine
    /// threads, or by `punct worker` processes through the job queue in PostgreSQL
    /// (`--engine workers`, refused with SQLite).
    pub engine: engine::EngineMode,
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
            // One: a server plays many games at once and the engine threads already use
            // every core but one, so more threads per search would only take cores from
            // other games' searches, at a loss (docs/server.md).
            search_threads: 1,
            engine_queue: 64,
            analyses_per_client: 2,
            engine_movetime: Duration::from_secs(2),
            lifetimes: room::Lifetimes::default(),
            health_timeout: Duration::from_secs(2),
            health_commit_age: Duration::from_secs(5),
            max_connections: 10_000,
            // A client sends its head in one go: seconds are plenty, and a slow one holds
            // a connection (and a place under the cap) for no more than that.
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_header_bytes: 16 * 1024,
            // Bodies are small JSON; the longest, a game's moves to write as a record, is a
            // few KiB (imports have their own limit).
            max_body_bytes: 64 * 1024,
            // An archive of a few hundred Boardspace records (about 2.5 KiB each unpacked).
            max_import_bytes: 4 * 1024 * 1024,
            body_read_timeout: Duration::from_secs(10),
            // Client messages are short JSON (a move, a token).
            ws_max_message_bytes: 4 * 1024,
            // The app pings every 25 s and browsers answer pings by themselves.
            ws_silence_timeout: Duration::from_secs(60),
            // A hello comes one round trip after the socket opens.
            ws_hello_timeout: Duration::from_secs(2),
            rate_limits: Some(RateLimits::default()),
            clock_file: None,
            trust_proxy: false,
            node: None,
            lease: games::Node::LEASE,
            engine: engine::EngineMode::Local,
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
async fn start(config: &Config) -> anyhow::Result<games::Hub> {
    let time = match &config.clock_file {
        Some(path) => ops::time::TimeSource::with_clock_file(path)?,
        None => ops::time::TimeSource::system(),
    };
    let store = store::Store::open::<room::Stored>(&config.db, time.clone())?;
    let engine = match config.engine {
        engine::EngineMode::Local => {
            let engine = engine::EnginePool::new(
                config.engine_threads,
                config.engine_queue,
                config.analyses_per_client,
                config.engine_movetime,
                time.clone(),
            );
            engine.set_search_threads(config.search_threads);
            engine
        }
        engine::EngineMode::Workers => engine::EnginePool::workers(
            store.clone(),
            config.engine_queue,
            config.analyses_per_client,
            config.engine_movetime,
            time.clone(),
        )?,
    };
    let node = games::Node {
        id: config.node.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
                .map_or_else(|_| "punct".to_owned(), |h| h.trim().to_owned());
            format!("{host}:{}", config.addr.port())
        }),
        lease: config.lease,
    };
    games::Hub::start_node(store, engine, config.lifetimes, time, node).await
}

/// Serves the games of `hub` on an already bound listener until the process ends.
async fn serve_hub(listener: TcpListener, hub: games::Hub, config: &Config) -> anyhow::Result<()> {
    let health = http::ops::Health {
        timeout: config.health_timeout,
        commit_age: config.health_commit_age,
    };
    let router = http::router(hub, config).layer(axum::Extension(health));
    http::listener::serve(
        listener,
        router,
        http::listener::ConnectionLimits::of(config),
    )
    .await;
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
            engine = ?hub.engine().mode(),
            "serving on http://{}",
            config.addr
        );
        serve_hub(listener, hub, &config).await
    })
}
