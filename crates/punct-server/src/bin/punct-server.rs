//! The server alone, for tests and load measurements that need a process to kill:
//! `punct-server [ADDR] [DB] [ENGINE_MOVETIME_MS]`, with no rate limits. People use
//! `punct serve`.

use std::time::Duration;

// The allocator of the `punct` binary (see its main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
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
    punct_server::serve(config)
}
