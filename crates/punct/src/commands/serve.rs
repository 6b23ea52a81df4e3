//! `punct serve` (and a bare `punct`): the web server of punct-server.

use crate::cli::ServeArgs;

/// The options of a bare `punct`: those `punct serve` has without flags.
pub fn defaults() -> ServeArgs {
    ServeArgs {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], 8080)),
        db: "punct.db".into(),
        workers: None,
        engine_threads: 1,
        log_format: punct_server::ops::logging::LogFormat::Human,
        max_connections: None,
        no_rate_limits: false,
        clock_file: None,
        trust_proxy: false,
        node: None,
        engine: punct_server::engine::EngineMode::Local,
        house_bots: crate::cli::HouseLevels(punct_engine::Level::all().collect()),
        house_sparring: false,
    }
}

/// Serves until the process is stopped. A failure is logged like everything else the
/// server says (as a JSON line with `--log-format json`), and the process exits with 1.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    punct_server::ops::logging::init(args.log_format);
    let defaults = punct_server::Config::default();
    let most = punct_engine::search::threads::most();
    if usize::from(args.engine_threads) > most {
        anyhow::bail!(
            "--engine-threads {} is more than this machine can use: at most {most} (twice its cores)",
            args.engine_threads
        );
    }
    super::bot::house::start_beside(&args.db, args.addr, &args.house_bots.0, args.house_sparring)
        .unwrap_or_else(|e| {
            tracing::error!("cannot start the house bots: {e:#}");
            std::process::exit(1);
        });
    let served = punct_server::serve(punct_server::Config {
        addr: args.addr,
        db: args.db,
        workers: args.workers.map_or(defaults.workers, usize::from),
        search_threads: usize::from(args.engine_threads),
        max_connections: args
            .max_connections
            .map_or(defaults.max_connections, |n| n as usize),
        rate_limits: if args.no_rate_limits {
            None
        } else {
            defaults.rate_limits
        },
        clock_file: args.clock_file,
        trust_proxy: args.trust_proxy,
        node: args.node,
        engine: args.engine,
        ..defaults
    });
    if let Err(e) = served {
        tracing::error!("cannot serve: {e:#}");
        std::process::exit(1);
    }
    Ok(())
}
