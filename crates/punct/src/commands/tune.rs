//! `punct tune`: SPSA over search settings, printing where they stand as it goes.

use std::sync::atomic::Ordering;

use anyhow::anyhow;
use punct_engine::SearchLimits;
use punct_engine::search::params::Params;
use punct_match::tune::{self, TuneConfig, Tuned};
use punct_match::{MatchConfig, PlayerSpec};

use crate::cli::TuneArgs;
use crate::commands::match_::interrupt_on_ctrl_c;

pub fn run(args: TuneArgs) -> anyhow::Result<()> {
    let interrupt = interrupt_on_ctrl_c()?;
    let tuned = args
        .params
        .iter()
        .map(|p| p.parse::<Tuned>().map_err(|e| anyhow!("--param {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let base = match args
        .base
        .parse::<PlayerSpec>()
        .map_err(|e| anyhow!("--base: {e}"))?
    {
        PlayerSpec::Level(level) if level.number() == punct_engine::Level::MAX => Params::default(),
        PlayerSpec::Tuned(settings) if settings.threads == 1 && settings.nodes.is_none() => {
            settings.params
        }
        other => {
            return Err(anyhow!(
                "--base: `{other}` is not the full-strength engine on one thread with settings"
            ));
        }
    };
    let concurrency = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let config = TuneConfig {
        tuned,
        base,
        iterations: args.iterations as usize,
        r_end: args.r_end,
        games: MatchConfig {
            variant: args.variant,
            per_move: SearchLimits::nodes(args.nodes),
            concurrency,
            seed: args.seed,
            ..MatchConfig::default()
        },
    };
    let every = args.every as usize;
    let end = tune::run(&config, &interrupt, &|p| {
        if p.done % every == 0 {
            println!(
                "{:6} pairs, balance {:+5.0}: {}",
                p.done,
                p.balance,
                p.spec(&config.tuned)
            );
        }
    })
    .map_err(|e| anyhow!(e))?;
    if interrupt.load(Ordering::SeqCst) {
        println!("interrupted after {} pairs", end.done);
    }
    println!(
        "final after {} pairs: {}",
        end.done,
        end.spec(&config.tuned)
    );
    Ok(())
}
