//! The chaos run at a large size, by hand (tests/chaos.rs runs it small in CI): games of
//! every mode, HTTP clients hanging up at random moments (FIN and RST), WebSockets dropped,
//! the server killed with SIGKILL at random moments, and with `--postgres` the database
//! stopped and started; then every acknowledged change is compared with what the server
//! holds (see driver/mod.rs). Exits with status 1 if anything was half-done, lost or
//! applied twice.
//!
//! ```text
//! cargo build --release -p punct-server --bin punct-server --example chaos
//! target/release/examples/chaos [--seconds 600] [--games 60] [--postgres] [--seed N]
//!                               [--every-ms 3000-12000] [--movetime-ms 20] [--odd-spellings 0.2]
//!                               [--nodes 3] [--workers 2]
//! ```
//!
//! It runs the `punct-server` binary found beside the examples folder it is in (cargo puts
//! `target/release/punct-server` next to `target/release/examples/chaos`); build both, as
//! above. `--postgres` needs a PostgreSQL server installed (Debian's layout, as
//! tests/postgres.rs uses): a throwaway cluster is created and removed. `--odd-spellings`
//! sends that share of moves with spaces around their text (the server trims it).
//! `--nodes` and `--workers` (with `--postgres`) run several server nodes, each request sent
//! to the next, and the engine in worker processes, killed at random as the nodes are.

mod driver;

use std::process::ExitCode;
use std::time::Duration;

use driver::{Options, postgres_bin, run};

const USAGE: &str = "usage: chaos [--seconds N] [--games N] [--postgres] [--seed N] \
                     [--every-ms LOW-HIGH] [--movetime-ms N] [--odd-spellings SHARE] \
                     [--nodes N] [--workers N]";

fn options() -> Result<Options, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|dir| dir.join("punct-server"))
        .filter(|bin| bin.exists())
        .ok_or(
            "no punct-server binary beside the examples folder: build it first with \
                `cargo build --release -p punct-server --bin punct-server`",
        )?;
    let mut options = Options {
        bin,
        seconds: 120,
        games: 30,
        postgres: false,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs()),
        disrupt_every: (Duration::from_secs(3), Duration::from_secs(12)),
        movetime_ms: 20,
        odd_spellings: 0.0,
        nodes: 1,
        workers: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--postgres" {
            if postgres_bin().is_none() {
                return Err("--postgres: no PostgreSQL server installed \
                            (apt-get install -y postgresql)"
                    .into());
            }
            options.postgres = true;
            continue;
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|e| format!("{arg} {v}: {e}\n{USAGE}"))
        };
        match arg.as_str() {
            "--seconds" => options.seconds = number(&value)?,
            "--games" => options.games = number(&value)? as usize,
            "--seed" => options.seed = number(&value)?,
            "--movetime-ms" => options.movetime_ms = number(&value)?,
            "--nodes" => options.nodes = (number(&value)? as usize).max(1),
            "--workers" => options.workers = number(&value)? as usize,
            "--odd-spellings" => {
                options.odd_spellings = value
                    .parse::<f64>()
                    .ok()
                    .filter(|share| (0.0..=1.0).contains(share))
                    .ok_or_else(|| format!("--odd-spellings wants a share in 0..1\n{USAGE}"))?;
            }
            "--every-ms" => {
                let (low, high) = value
                    .split_once('-')
                    .ok_or_else(|| format!("--every-ms wants LOW-HIGH\n{USAGE}"))?;
                let (low, high) = (number(low)?, number(high)?);
                if low == 0 || low > high {
                    return Err(format!("--every-ms wants 0 < LOW <= HIGH\n{USAGE}"));
                }
                options.disrupt_every = (Duration::from_millis(low), Duration::from_millis(high));
            }
            _ => return Err(format!("unknown argument {arg}\n{USAGE}")),
        }
    }
    Ok(options)
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "chaos: {} clients for {} s on {}, {} node(s), {} worker(s), seed {}",
        options.games,
        options.seconds,
        if options.postgres {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        options.nodes,
        options.workers,
        options.seed
    );
    match run(&options).await {
        Ok(stats) => {
            print!("{stats}");
            if stats.clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("chaos: {e}");
            ExitCode::from(2)
        }
    }
}
