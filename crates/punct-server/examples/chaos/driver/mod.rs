//! The chaos run, shared by the `chaos` example (a large run by hand) and `tests/chaos.rs`
//! (a small one in CI).
//!
//! Clients play games of every mode (against the computer, between two seats, on one
//! screen; untimed and timed) against the real server binary. Each game's client is its only
//! actor, sending every action with the seq of the state it was made on: over HTTP written
//! by hand, hanging up at random moments (part way through the request, right after it,
//! or a little later; with FIN or RST), or over WebSockets dropped at random; after a
//! hang-up or a 5xx it sends the same action again until it gets a final answer. Watchers
//! connect WebSockets to random games and drop them. Meanwhile the server is killed with
//! SIGKILL at random moments and started again on the same database, and with PostgreSQL
//! the database itself is stopped (`pg_ctl stop -m fast`) and started.
//!
//! With PostgreSQL the server may be several nodes ([`Options::nodes`]), each request sent
//! to the next node in turn as a load balancer would, and the engine may run in workers
//! ([`Options::workers`], `punct-server worker`): then a random node or worker is killed
//! at each disruption, and the others carry on (a node's games are taken over once its
//! lease runs out, a worker's job once its job's lease does).
//!
//! Every state the server shows must follow from the acknowledged actions in order (plus
//! the computer's replies and flags falling, the only changes the server makes by itself);
//! at the end the server is killed and started once more, and every game is compared with
//! what the server holds and its record read back. Counted: changes lost, changes applied
//! twice, and games half-done (unreadable, inconsistent, an action never answered, the
//! computer never replying).

mod http;
mod model;
mod player;
mod server;
mod stats;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};

pub use server::postgres_bin;
pub use stats::Stats;

use player::Ctx;
use server::{Postgres, Server, Worker, free_addr};

/// What a run does.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `punct-server` binary.
    pub bin: PathBuf,
    /// How long the clients play.
    pub seconds: u64,
    /// How many clients play at once (each one game at a time).
    pub games: usize,
    /// Keep the games in a throwaway PostgreSQL (stopped and started during the run)
    /// instead of SQLite.
    pub postgres: bool,
    /// The seed of every random choice (the moments still depend on timing).
    pub seed: u64,
    /// The time between two disruptions (kill -9, PostgreSQL restart), drawn in this range.
    pub disrupt_every: (Duration, Duration),
    /// The engine's thinking time per move.
    pub movetime_ms: u64,
    /// The share of moves sent spelt otherwise than canonically (with spaces around).
    pub odd_spellings: f64,
    /// Server nodes on the database (more than one needs PostgreSQL).
    pub nodes: usize,
    /// Engine workers doing the nodes' searches (`--engine workers`; PostgreSQL only);
    /// none: each node searches itself.
    pub workers: usize,
}

/// A fresh directory for a run's files.
fn run_dir(seed: u64) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir().join(format!("punct-chaos-{}-{seed}-{nanos}", std::process::id()))
}

/// Runs the chaos and checks every game: the counts (see [`Stats::clean`]). Fails only if
/// the run itself cannot be set up (no server binary, no PostgreSQL, a server that never
/// starts). The run's files (database, server log) are removed when all is clean and kept,
/// with their place printed, otherwise.
pub async fn run(options: &Options) -> Result<Stats, String> {
    let dir = run_dir(options.seed);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let postgres = if options.postgres {
        let bin = postgres_bin().ok_or("no PostgreSQL server installed")?;
        let (pg_dir, seed) = (dir.join("postgres"), options.seed);
        let pg = tokio::task::spawn_blocking(move || Postgres::start(&bin, &pg_dir, seed))
            .await
            .map_err(|e| e.to_string())??;
        Some(Arc::new(pg))
    } else {
        None
    };
    let db = match &postgres {
        Some(pg) => pg.url.clone(),
        None => dir.join("punct.db").display().to_string(),
    };
    if (options.nodes > 1 || options.workers > 0) && postgres.is_none() {
        return Err("several nodes and engine workers need PostgreSQL".into());
    }
    let mut servers = Vec::new();
    let mut addrs = Vec::new();
    for i in 0..options.nodes.max(1) {
        let addr = free_addr(options.seed ^ u64::from(std::process::id()) ^ (i as u64 * 7919));
        let log = dir.join(format!("server-{i}.log"));
        let mut server = Server::new(&options.bin, addr, &db, options.movetime_ms, &log);
        if postgres.is_some() {
            server = server.node(&format!("node-{i}"), options.workers > 0);
        }
        server.start().await?;
        servers.push(server);
        addrs.push(addr);
    }
    let mut workers = Vec::new();
    for i in 0..options.workers {
        let log = dir.join(format!("worker-{i}.log"));
        let mut worker = Worker::new(&options.bin, &db, &format!("worker-{i}"), &log);
        worker.start()?;
        workers.push(worker);
    }

    let ctx = Arc::new(Ctx {
        addrs,
        turn: std::sync::atomic::AtomicUsize::new(0),
        until: Instant::now() + Duration::from_secs(options.seconds),
        hang_share: 0.35,
        ws_share: 0.15,
        odd_spellings: options.odd_spellings,
        stats: Mutex::new(Stats::default()),
        ids: Mutex::new(Vec::new()),
    });
    let clients: Vec<_> = (0..options.games)
        .map(|i| {
            let seed = options.seed.wrapping_add(i as u64 * 1_000_003);
            tokio::spawn(player::client(ctx.clone(), i, seed))
        })
        .collect();
    let watchers: Vec<_> = (0..options.games / 4 + 1)
        .map(|i| {
            let seed = options.seed.wrapping_add(7_777 + i as u64);
            tokio::spawn(player::watcher(ctx.clone(), seed))
        })
        .collect();

    disrupt(
        options,
        &ctx,
        &mut servers,
        &mut workers,
        postgres.as_deref(),
    )
    .await?;

    let mut games = Vec::new();
    for client in clients {
        games.extend(client.await.map_err(|e| format!("a client failed: {e}"))?);
    }
    for watcher in watchers {
        watcher
            .await
            .map_err(|e| format!("a watcher failed: {e}"))?;
    }
    // The truth is what the database holds: servers started afresh on it are asked.
    for server in &mut servers {
        server.kill();
        ctx.stats().kills += 1;
    }
    for server in &mut servers {
        server.start().await?;
        ctx.stats().restarts += 1;
    }
    for game in games {
        player::check(&ctx, game).await;
    }
    for server in &mut servers {
        server.kill();
    }
    for worker in &mut workers {
        worker.kill();
    }
    if let Some(pg) = &postgres {
        let (url, suspects) = (pg.url.clone(), ctx.stats().suspects.clone());
        if !suspects.is_empty() {
            let rows = tokio::task::spawn_blocking(move || server::rows_of(&url, &suspects))
                .await
                .map_err(|e| e.to_string())?;
            for line in rows {
                eprintln!("chaos: in the database: {line}");
            }
        }
    }
    drop(postgres);
    let stats = std::mem::take(&mut *ctx.stats());
    if stats.clean() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("chaos: the run's files are kept in {}", dir.display());
    }
    Ok(stats)
}

/// Until the clients' time is up: at random moments, kill a server (or a worker) with
/// SIGKILL and start it again after a short pause, or (with PostgreSQL) stop the database
/// and start it again while the servers run.
async fn disrupt(
    options: &Options,
    ctx: &Ctx,
    servers: &mut [Server],
    workers: &mut [Worker],
    postgres: Option<&Postgres>,
) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(options.seed ^ 0x5eed);
    let (low, high) = options.disrupt_every;
    let mut turn = 0usize;
    loop {
        let wait = rng.random_range(low..=high);
        if Instant::now() + wait >= ctx.until {
            tokio::time::sleep_until(ctx.until.into()).await;
            return Ok(());
        }
        tokio::time::sleep(wait).await;
        let down = Duration::from_millis(rng.random_range(100..1500));
        // With workers the disruptions take turns: a worker, a node, the database. Without,
        // the first is a node's kill and the second the database's restart, so that a short
        // run has both, and the rest are drawn.
        turn += 1;
        let database = match postgres {
            Some(_) if workers.is_empty() => turn == 2 || (turn > 2 && rng.random_bool(0.6)),
            Some(_) => turn % 3 == 2,
            None => false,
        };
        match postgres {
            Some(pg) if database => {
                tokio::task::block_in_place(|| pg.stop())?;
                tokio::time::sleep(down).await;
                tokio::task::block_in_place(|| pg.start_again())?;
                ctx.stats().pg_restarts += 1;
            }
            _ if !workers.is_empty() && turn.is_multiple_of(3) => {
                let i = rng.random_range(0..workers.len());
                workers[i].kill();
                ctx.stats().worker_kills += 1;
                tokio::time::sleep(down).await;
                workers[i].start()?;
            }
            _ => {
                let nodes = servers.len();
                let server = &mut servers[rng.random_range(0..nodes)];
                server.kill();
                ctx.stats().kills += 1;
                // A node of several stays away past its lease now and then, so that the
                // others take its games over.
                let away = if nodes > 1 && rng.random_bool(0.5) {
                    Duration::from_millis(rng.random_range(4_500..6_000))
                } else {
                    down
                };
                tokio::time::sleep(away).await;
                server.start().await?;
                ctx.stats().restarts += 1;
            }
        }
    }
}
