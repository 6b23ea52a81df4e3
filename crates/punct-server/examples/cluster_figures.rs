//! The figures of several nodes on one PostgreSQL (docs/deploy.md), measured by hand:
//!
//! - how long a watcher on the last node takes to see a move made on the first (the
//!   delay's median and 99th percentile, from the move's request to the watcher's event);
//! - what a move costs PostgreSQL with 1, 2 and 3 nodes: statements (`pg_stat_statements`),
//!   WAL bytes (`pg_current_wal_lsn()`) and the server's CPU time (its processes' in
//!   `/proc`), with the moves per second the clients made, and from the CPU time the moves
//!   per second at which one PostgreSQL core is saturated.
//!
//! With several nodes the cost is measured twice: with each move sent to the next node in
//! turn, as plain round robin does, and with each game's requests sent to one node chosen by
//! its id, as `deploy/haproxy.cfg` does (its games made round robin).
//!
//! ```text
//! cargo build --release -p punct-server --bin punct-server --example cluster_figures
//! target/release/examples/cluster_figures [--games 40] [--seconds 15] [--watched 300]
//! ```
//!
//! It runs the `punct-server` binary found beside the examples folder, on a throwaway
//! PostgreSQL (Debian's `postgresql` package) with `pg_stat_statements` loaded. Friend
//! games are played by `--games` clients at once for `--seconds` per node count and
//! routing.

#[allow(dead_code, unused_imports)]
#[path = "chaos/driver/http.rs"]
mod http;
// Shared with the chaos run, which uses the rest of it (the workers, hang-ups).
#[allow(dead_code)]
#[path = "chaos/driver/server.rs"]
mod server;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use punct_core::Position;
use serde_json::{Value, json};
use server::{Postgres, Server, free_addr, postgres_bin};

/// What a run measures.
struct Options {
    bin: std::path::PathBuf,
    games: usize,
    seconds: u64,
    watched: usize,
}

fn options() -> Result<Options, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|dir| dir.join("punct-server"))
        .filter(|bin| bin.exists())
        .ok_or("no punct-server binary beside the examples folder: build it first")?;
    let mut o = Options {
        bin,
        games: 40,
        seconds: 15,
        watched: 300,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value: usize = args
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{arg} needs a number"))?;
        match arg.as_str() {
            "--games" => o.games = value.max(1),
            "--seconds" => o.seconds = value.max(1) as u64,
            "--watched" => o.watched = value.max(1),
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    Ok(o)
}

/// A JSON request to a node.
async fn call(http: &reqwest::Client, url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut r = http.post(url).json(&body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    match r.send().await {
        Ok(answer) => {
            let status = answer.status().as_u16();
            (status, answer.json().await.unwrap_or_default())
        }
        Err(_) => (0, Value::Null),
    }
}

/// A friend game made on `base`, both seats taken: (id, tokens by colour, its state).
async fn friend_game(http: &reqwest::Client, base: &str) -> Option<(String, [String; 2], Value)> {
    let (status, made) = call(
        http,
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "friend", "name": "Ada" }),
    )
    .await;
    if status != 201 {
        return None;
    }
    let id = made["id"].as_str()?.to_owned();
    let (status, joined) = call(
        http,
        &format!("{base}/api/games/{id}/join"),
        None,
        json!({ "name": "Bo", "invite": made["invite"] }),
    )
    .await;
    if status != 200 {
        return None;
    }
    let tokens = [
        made["token"].as_str()?.to_owned(),
        joined["token"].as_str()?.to_owned(),
    ];
    Some((id, tokens, joined["state"].clone()))
}

/// A placement for the side to move in `state` (so that games end), chosen by `seed`.
fn next_move(state: &Value, seed: u64) -> Option<String> {
    let position = Position::from_text(state["position"].as_str()?).ok()?;
    let moves = position.legal_moves();
    let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let placements: Vec<&String> = texts.iter().filter(|t| !t.contains('-')).collect();
    let pick = seed.wrapping_mul(2_654_435_761) as usize;
    if placements.is_empty() {
        texts.get(pick % texts.len().max(1)).cloned()
    } else {
        Some(placements[pick % placements.len()].clone())
    }
}

/// Plays the move of `state`'s side to move on `base`: the new state.
async fn play(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    tokens: &[String; 2],
    state: &Value,
    seed: u64,
) -> Option<Value> {
    if !state["outcome"].is_null() {
        return None;
    }
    let mv = next_move(state, seed)?;
    let token = &tokens[usize::from(state["turn"] != "white")];
    let (status, v) = call(
        http,
        &format!("{base}/api/games/{id}/move"),
        Some(token),
        json!({ "move": mv, "seq": state["seq"] }),
    )
    .await;
    (status == 200).then_some(v)
}

/// How a client's requests are spread over the nodes.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    /// Games made on the first node, each move sent to the next node in turn.
    Turn,
    /// Games made on the nodes in turn, each game's moves sent to the node its id hashes to.
    Game,
}

impl Route {
    fn name(self) -> &'static str {
        match self {
            Route::Turn => "each move to the next node",
            Route::Game => "each game to one node",
        }
    }
}

/// The node `id`'s requests go to among `nodes`, as a balancer hashing the id would.
fn node_of(id: &str, nodes: usize) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut h);
    (h.finish() % nodes as u64) as usize
}

/// A client playing games one after another until `until`, its requests spread by `route`;
/// each move made is counted in `moves`.
async fn client(
    bases: Arc<Vec<String>>,
    route: Route,
    until: Instant,
    seed: u64,
    moves: Arc<AtomicU64>,
) {
    let http = reqwest::Client::new();
    let mut n = seed;
    while Instant::now() < until {
        n += 1;
        let maker = match route {
            Route::Turn => 0,
            Route::Game => n as usize % bases.len(),
        };
        let Some((id, tokens, mut state)) = friend_game(&http, &bases[maker]).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        while Instant::now() < until {
            n += 1;
            let base = match route {
                Route::Turn => &bases[n as usize % bases.len()],
                Route::Game => &bases[node_of(&id, bases.len())],
            };
            match play(&http, base, &id, &tokens, &state, n).await {
                Some(next) => {
                    moves.fetch_add(1, Ordering::Relaxed);
                    state = next;
                }
                None => break,
            }
        }
    }
}

/// A statement on the PostgreSQL at `url`, its rows as text.
fn sql(url: &str, statement: &str) -> Vec<Vec<Option<String>>> {
    let mut db = postgres::Client::connect(url, postgres::NoTls).expect("PostgreSQL answers");
    db.simple_query(statement)
        .expect("the statement runs")
        .into_iter()
        .filter_map(|m| match m {
            postgres::SimpleQueryMessage::Row(r) => {
                Some((0..r.len()).map(|i| r.get(i).map(str::to_owned)).collect())
            }
            _ => None,
        })
        .collect()
}

fn number(url: &str, statement: &str) -> f64 {
    sql(url, statement)
        .first()
        .and_then(|r| r.first().cloned().flatten())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

/// CPU time (user and system) of every process named `postgres`, in seconds.
fn postgres_cpu_seconds() -> f64 {
    // SAFETY: sysconf only reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        if !head.ends_with("(postgres") {
            continue;
        }
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // After the name: state is field 3, utime 14 and stime 15 (1-based, whole line).
        let field = |i: usize| fields.get(i - 3).and_then(|v| v.parse::<u64>().ok());
        total += field(14).unwrap_or(0) + field(15).unwrap_or(0);
    }
    total as f64 / ticks
}

/// The cost of moves with `bases` as the nodes, spread by `route`: printed, one line.
async fn load(options: &Options, url: &str, bases: &[String], route: Route) {
    let url = url.to_owned();
    let reset = url.clone();
    let (lsn, cpu) = tokio::task::spawn_blocking(move || {
        sql(&reset, "SELECT pg_stat_statements_reset()");
        let lsn = sql(&reset, "SELECT pg_current_wal_lsn()")[0][0]
            .clone()
            .unwrap();
        (lsn, postgres_cpu_seconds())
    })
    .await
    .unwrap();
    let moves = Arc::new(AtomicU64::new(0));
    let bases = Arc::new(bases.to_vec());
    let started = Instant::now();
    let until = started + Duration::from_secs(options.seconds);
    let clients: Vec<_> = (0..options.games)
        .map(|i| {
            let seed = i as u64 * 7919;
            tokio::spawn(client(bases.clone(), route, until, seed, moves.clone()))
        })
        .collect();
    for c in clients {
        let _ = c.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let moves = moves.load(Ordering::Relaxed).max(1) as f64;
    let (statements, wal, cpu) = tokio::task::spawn_blocking(move || {
        let cpu = postgres_cpu_seconds() - cpu;
        let statements = number(
            &url,
            "SELECT SUM(calls) FROM pg_stat_statements
             WHERE query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%pg_current_wal_lsn%'",
        );
        let wal = number(
            &url,
            &format!("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn}')"),
        );
        (statements, wal, cpu)
    })
    .await
    .unwrap();
    let cpu_ms = cpu * 1000.0 / moves;
    println!(
        "{} node(s), {}: {moves:.0} moves in {elapsed:.1} s = {:.0} moves/s; per move: {:.2} \
         statements, {:.0} WAL bytes, {cpu_ms:.3} ms of PostgreSQL CPU \
         (one PostgreSQL core saturated at {:.0} moves/s)",
        bases.len(),
        route.name(),
        moves / elapsed,
        statements / moves,
        wal / moves,
        1000.0 / cpu_ms.max(1e-6)
    );
}

/// The delay from a move's request on `maker` to the event at a watcher on `watcher`.
async fn watch_delay(options: &Options, maker: &str, watcher: &str) -> Result<(), String> {
    let http = reqwest::Client::new();
    let mut delays = Vec::new();
    let mut seed = 1;
    while delays.len() < options.watched {
        let (id, tokens, mut state) = friend_game(&http, maker)
            .await
            .ok_or("a friend game could not be made")?;
        let url = format!("{}/api/games/{id}/ws", watcher.replace("http://", "ws://"));
        let (mut ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .map_err(|e| format!("the watcher's socket: {e}"))?;
        // Its first message: the state.
        let _ = tokio::time::timeout(Duration::from_secs(5), ws.next()).await;
        while delays.len() < options.watched {
            seed += 1;
            let sent = Instant::now();
            let Some(next) = play(&http, maker, &id, &tokens, &state, seed).await else {
                break;
            };
            let seq = next["seq"].as_u64();
            loop {
                let heard = tokio::time::timeout(Duration::from_secs(10), ws.next()).await;
                let Ok(Some(Ok(msg))) = heard else {
                    return Err(format!("the watcher heard nothing of seq {seq:?}"));
                };
                let v: Value =
                    serde_json::from_str(msg.to_text().unwrap_or("")).unwrap_or_default();
                if v["type"] == "event" && v["seq"].as_u64() == seq {
                    delays.push(sent.elapsed());
                    break;
                }
            }
            state = next;
        }
    }
    delays.sort();
    let at = |q: f64| delays[((delays.len() - 1) as f64 * q).round() as usize];
    println!(
        "a watcher on {watcher} seeing a move made on {maker}: {} moves, median {:.2} ms, \
         p99 {:.2} ms, slowest {:.2} ms",
        delays.len(),
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        at(1.0).as_secs_f64() * 1000.0
    );
    Ok(())
}

async fn run(options: &Options) -> Result<(), String> {
    let pg_bin = postgres_bin().ok_or("no PostgreSQL server installed")?;
    let dir = std::env::temp_dir().join(format!("punct-figures-{}", std::process::id()));
    let pg_dir = dir.join("postgres");
    let pg = tokio::task::spawn_blocking(move || {
        Postgres::start_with(
            &pg_bin,
            &pg_dir,
            u64::from(std::process::id()),
            "-c shared_preload_libraries=pg_stat_statements -c max_connections=200",
        )
    })
    .await
    .map_err(|e| e.to_string())??;
    let url = pg.url.clone();
    tokio::task::spawn_blocking(move || sql(&url, "CREATE EXTENSION pg_stat_statements"))
        .await
        .map_err(|e| e.to_string())?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{cores} cores; load average {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let mut nodes: Vec<Server> = Vec::new();
    let mut bases = Vec::new();
    for i in 0..3 {
        let addr: SocketAddr = free_addr(u64::from(std::process::id()) ^ (i * 7919));
        let log = dir.join(format!("node-{i}.log"));
        let mut node =
            Server::new(&options.bin, addr, &pg.url, 50, &log).node(&format!("node-{i}"), false);
        node.start().await?;
        nodes.push(node);
        bases.push(format!("http://{addr}"));
        load(options, &pg.url, &bases, Route::Turn).await;
        if bases.len() > 1 {
            load(options, &pg.url, &bases, Route::Game).await;
        }
    }
    watch_delay(options, &bases[0], &bases[2]).await?;
    drop(nodes);
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cluster_figures: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&options).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cluster_figures: {e}");
            ExitCode::FAILURE
        }
    }
}
