//! `punct match`: one match, or a gauntlet of one against several.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context as _, anyhow, bail};
use punct_engine::SearchLimits;
use punct_match::stats::Sprt;
use punct_match::{MatchConfig, MatchReport, PlayerSpec, openings};

use crate::cli::MatchArgs;

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let interrupt = interrupt_on_ctrl_c()?;
    let mut per_move = SearchLimits {
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        ..SearchLimits::default()
    };
    if per_move == SearchLimits::default() && args.clock.is_none() {
        per_move.movetime = Some(Duration::from_millis(100));
    }
    let suite = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading openings {}", path.display()))?;
            let suite = openings::parse(&text, args.variant)
                .map_err(|e| anyhow!("openings {}: {e}", path.display()))?;
            Some(suite)
        }
        None => None,
    };
    let sprt = args
        .sprt
        .map(|words| words.join(" ").parse::<Sprt>())
        .transpose()
        .map_err(|e| anyhow!("--sprt: {e}"))?;
    let first: PlayerSpec = args.first.parse().map_err(|e: String| anyhow!(e))?;
    let opponents = args
        .opponents
        .iter()
        .map(|o| o.parse::<PlayerSpec>().map_err(|e| anyhow!(e)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let concurrency = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let mut reports = Vec::new();
    let mut records_failed = false;
    for (i, second) in opponents.into_iter().enumerate() {
        let config = MatchConfig {
            first: first.clone(),
            second,
            games: args.games,
            variant: args.variant,
            openings: suite.clone(),
            per_move,
            clock: args.clock.map(|c| {
                (
                    Duration::from_millis(c),
                    Duration::from_millis(args.increment),
                )
            }),
            concurrency,
            seed: args.seed,
            sprt,
            max_plies: 400,
            records: args.records.as_deref().map(|path| records_path(path, i)),
            progress: true,
        };
        let report = punct_match::run(&config, &interrupt).map_err(|e| anyhow!(e))?;
        print!("{report}");
        records_failed |= report.records_error.is_some();
        reports.push(report);
        if interrupt.load(Ordering::SeqCst) || records_failed {
            break;
        }
        println!();
    }
    if reports.len() > 1 {
        print!("{}", gauntlet_table(&reports));
    }
    if records_failed {
        bail!("the records could not be written");
    }
    Ok(())
}

/// A flag set by the first Ctrl-C, which ends the match with what it has; a second one
/// ends the program at once.
pub(crate) fn interrupt_on_ctrl_c() -> anyhow::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = Arc::clone(&flag);
    ctrlc::set_handler(move || {
        if set.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!(
            "\npunct: interrupted; finishing with the games played so far (Ctrl-C again to quit)"
        );
    })
    .context("installing the Ctrl-C handler")?;
    Ok(flag)
}

/// The records file of the `i`th opponent of a gauntlet: the given path for the first,
/// `NAME-2.EXT`, `NAME-3.EXT` … for the others.
fn records_path(path: &Path, i: usize) -> PathBuf {
    if i == 0 {
        return path.to_owned();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{}.{}", i + 1, ext.to_string_lossy()),
        None => format!("{stem}-{}", i + 1),
    };
    path.with_file_name(name)
}

/// One line per opponent of a gauntlet.
fn gauntlet_table(reports: &[MatchReport]) -> String {
    let mut out = format!("\ngauntlet of {}:\n", reports[0].names[0]);
    for r in reports {
        out.push_str(&format!("  {}\n", r.summary()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauntlet_records_are_numbered_after_the_first() {
        let p = Path::new("out/games.pgn");
        assert_eq!(records_path(p, 0), Path::new("out/games.pgn"));
        assert_eq!(records_path(p, 1), Path::new("out/games-2.pgn"));
        assert_eq!(records_path(Path::new("games"), 2), Path::new("games-3"));
    }
}
