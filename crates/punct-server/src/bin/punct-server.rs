//! The server alone, for tests and load measurements that need a process to kill:
//! `punct-server [ADDR] [DB] [ENGINE_MOVETIME_MS]`, with no rate limits, logging as
//! `PUNCT_LOG_FORMAT` says (`human`, the default, or `json`) at the levels of `RUST_LOG`,
//! and its time moved on by the clock file `PUNCT_CLOCK_FILE` names, if any (the tests'
//! controlled clock, `Config::clock_file`); on a shared PostgreSQL named `PUNCT_NODE` with a
//! lease of `PUNCT_LEASE_MS` (`Config::node`, `Config::lease`), its searches done by workers
//! when `PUNCT_ENGINE` is `workers` (`Config::engine`), each thinking at most
//! `PUNCT_ENGINE_MOVETIME_MS` if set. People use `punct serve`.
//!
//! `punct-server worker DB [THREADS]` is an engine worker instead (what `punct worker`
//! runs), named `PUNCT_WORKER` with a lease on its jobs of `PUNCT_JOB_LEASE_MS`, its time
//! moved on by `PUNCT_CLOCK_FILE` too.

use std::process::ExitCode;
use std::time::Duration;

use punct_server::ops::logging::{self, LogFormat};

// The allocator of the `punct` binary (see its main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let format = std::env::var("PUNCT_LOG_FORMAT").map_or(Ok(LogFormat::Human), |f| f.parse());
    let format = match format {
        Ok(format) => format,
        Err(e) => {
            eprintln!("punct-server: PUNCT_LOG_FORMAT: {e}");
            return ExitCode::FAILURE;
        }
    };
    logging::init(format);
    if std::env::args().nth(1).as_deref() == Some("worker") {
        return match worker().and_then(punct_server::engine::standalone::run) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!("cannot work: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    match config().and_then(punct_server::serve) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("cannot serve: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn worker() -> anyhow::Result<punct_server::engine::standalone::WorkerConfig> {
    let mut args = std::env::args().skip(2);
    let db = args
        .next()
        .ok_or_else(|| anyhow::anyhow!("usage: punct-server worker DB [THREADS]"))?;
    let mut config = punct_server::engine::standalone::WorkerConfig::new(&db);
    if let Some(n) = args.next() {
        config.threads = n.parse()?;
    }
    if let Ok(name) = std::env::var("PUNCT_WORKER") {
        config.name = name;
    }
    if let Ok(ms) = std::env::var("PUNCT_JOB_LEASE_MS") {
        config.lease = Duration::from_millis(ms.parse()?);
    }
    config.clock_file = std::env::var_os("PUNCT_CLOCK_FILE").map(Into::into);
    Ok(config)
}

fn config() -> anyhow::Result<punct_server::Config> {
    let mut args = std::env::args().skip(1);
    let mut config = punct_server::Config {
        // Load measurements make hundreds of games from one address.
        rate_limits: None,
        ..punct_server::Config::default()
    };
    if let Some(addr) = args.next() {
        config.addr = addr.parse()?;
    }
    if let Some(db) = args.next() {
        config.db = db.into();
    }
    if let Some(ms) = args.next() {
        config.engine_movetime = Duration::from_millis(ms.parse()?);
    }
    config.clock_file = std::env::var_os("PUNCT_CLOCK_FILE").map(Into::into);
    config.node = std::env::var("PUNCT_NODE").ok();
    if let Ok(ms) = std::env::var("PUNCT_LEASE_MS") {
        config.lease = Duration::from_millis(ms.parse()?);
    }
    if let Ok(ms) = std::env::var("PUNCT_ENGINE_MOVETIME_MS") {
        config.engine_movetime = Duration::from_millis(ms.parse()?);
    }
    if let Ok(engine) = std::env::var("PUNCT_ENGINE") {
        config.engine = engine.parse().map_err(anyhow::Error::msg)?;
    }
    Ok(config)
}
