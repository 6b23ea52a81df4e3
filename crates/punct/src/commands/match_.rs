//! `punct match`.

use std::time::Duration;

use anyhow::anyhow;
use punct_engine::SearchLimits;
use punct_engine::matches::stats::Sprt;
use punct_engine::matches::{MatchConfig, run as play_match};

use crate::cli::MatchArgs;

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let mut per_move = SearchLimits {
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        ..SearchLimits::default()
    };
    if per_move == SearchLimits::default() && args.clock.is_none() {
        per_move.movetime = Some(Duration::from_millis(100));
    }
    let config = MatchConfig {
        first: args.first.parse().map_err(|e: String| anyhow!(e))?,
        second: args.second.parse().map_err(|e: String| anyhow!(e))?,
        games: args.games,
        variant: args.variant,
        per_move,
        clock: args.clock.map(|c| {
            (
                Duration::from_millis(c),
                Duration::from_millis(args.increment),
            )
        }),
        concurrency: args
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seed: args.seed,
        sprt: args.sprt.map(|v| Sprt {
            elo0: v[0],
            elo1: v[1],
            error: 0.05,
        }),
        max_plies: 400,
        records: args.records,
        progress: true,
    };
    let report = play_match(&config).map_err(|e| anyhow!(e))?;
    print!("{report}");
    Ok(())
}
