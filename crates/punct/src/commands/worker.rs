//! `punct worker`: an engine process for the nodes sharing a PostgreSQL
//! (`punct_server::engine::standalone`).

use crate::cli::WorkerArgs;
use punct_server::engine::standalone::{self, WorkerConfig};

/// Takes jobs until the process is stopped; a failure to start is logged and exits with 1.
pub fn run(args: WorkerArgs) -> anyhow::Result<()> {
    punct_server::ops::logging::init(args.log_format);
    let most = punct_engine::search::threads::most();
    if usize::from(args.engine_threads) > most {
        anyhow::bail!(
            "--engine-threads {} is more than this machine can use: at most {most} (twice its cores)",
            args.engine_threads
        );
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut config = WorkerConfig::new(&args.db);
    config.threads = args.threads.map_or(cores, usize::from);
    config.search_threads = usize::from(args.engine_threads);
    config.lease = std::time::Duration::from_secs(u64::from(args.lease));
    config.clock_file = args.clock_file;
    if let Some(name) = args.name {
        config.name = name;
    }
    if let Err(e) = standalone::run(config) {
        tracing::error!("cannot work: {e:#}");
        std::process::exit(1);
    }
    Ok(())
}
