//! The arguments of `go`.

use std::time::Duration;

use crate::limits::{Clock, SearchLimits};

/// The deepest `go depth`: 2^32 playouts, far beyond any search that ends.
pub(super) const DEEPEST: u32 = 32;

/// What `go` asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Go {
    /// The bounds of the search; with `ponder`, those that apply once `ponderhit` comes.
    pub limits: SearchLimits,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

/// The playouts `go depth <depth>` searches. A tree search has no fixed depth; the line
/// it reports after 2^d playouts is about d plies long for d up to 8, and shorter after
/// that (docs/engine.md gives the figures).
pub(super) fn playouts_for_depth(depth: u32) -> u64 {
    1 << depth
}

/// Reads `go`'s arguments.
pub(super) fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut depth_nodes = None;
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        match word {
            "infinite" => {
                go.limits.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            _ => {}
        }
        let (what, least, most) = match word {
            "movetime" | "wtime" | "btime" | "winc" | "binc" => ("milliseconds", 0, u64::MAX),
            "nodes" => ("playouts", 0, u64::MAX),
            "depth" => ("plies", 1, u64::from(DEEPEST)),
            "movestogo" => ("moves", 1, u64::from(u32::MAX)),
            _ => {
                return Err(format!(
                    "unknown `go` argument `{word}` (`help` lists them)"
                ));
            }
        };
        let Some(&text) = words.next() else {
            return Err(format!("`go {word}` needs a number of {what} after it"));
        };
        let value = match text.parse::<u64>() {
            Ok(v) if (least..=most).contains(&v) => v,
            _ => {
                let range = if most == u64::MAX {
                    format!("a whole number of {what}, {least} or more")
                } else {
                    format!("a whole number of {what}, {least} to {most}")
                };
                return Err(format!("`go {word}` takes {range}, not `{text}`"));
            }
        };
        let ms = Duration::from_millis(value);
        match word {
            "movetime" => go.limits.movetime = Some(ms),
            "nodes" => go.limits.nodes = Some(value),
            "depth" => depth_nodes = Some(playouts_for_depth(value as u32)),
            "movestogo" => go.limits.moves_to_go = Some(value as u32),
            "wtime" => clock.white = ms,
            "btime" => clock.black = ms,
            "winc" => clock.white_increment = ms,
            _ => clock.black_increment = ms,
        }
        has_clock |= matches!(word, "wtime" | "btime" | "winc" | "binc");
    }
    if let Some(n) = depth_nodes {
        go.limits.nodes = Some(go.limits.nodes.map_or(n, |m| m.min(n)));
    }
    if has_clock {
        go.limits.clock = Some(clock);
    } else if go.limits.moves_to_go.is_some() {
        return Err(
            "`go movestogo` shares out a clock: give `wtime` and `btime` with it".to_owned(),
        );
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Result<Go, String> {
        parse_go(&text.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn every_argument_is_read() {
        let read = go("wtime 60000 btime 30000 winc 1000 binc 500 movestogo 12 nodes 700").unwrap();
        assert_eq!(
            read.limits.clock,
            Some(Clock {
                white: Duration::from_secs(60),
                black: Duration::from_secs(30),
                white_increment: Duration::from_secs(1),
                black_increment: Duration::from_millis(500),
            })
        );
        assert_eq!(read.limits.moves_to_go, Some(12));
        assert_eq!(read.limits.nodes, Some(700));
        assert!(!read.ponder && !read.limits.infinite);
        let read = go("ponder movetime 250").unwrap();
        assert!(read.ponder);
        assert_eq!(read.limits.movetime, Some(Duration::from_millis(250)));
        assert!(go("infinite").unwrap().limits.infinite);
        assert_eq!(go("").unwrap(), Go::default());
    }

    #[test]
    fn depth_is_a_playout_budget_and_the_smaller_budget_wins() {
        assert_eq!(go("depth 1").unwrap().limits.nodes, Some(2));
        assert_eq!(go("depth 10").unwrap().limits.nodes, Some(1024));
        assert_eq!(go("depth 10 nodes 300").unwrap().limits.nodes, Some(300));
        assert_eq!(go("nodes 5000 depth 10").unwrap().limits.nodes, Some(1024));
    }

    #[test]
    fn each_mistake_gets_its_own_message() {
        let cases = [
            (
                "movetime",
                "`go movetime` needs a number of milliseconds after it",
            ),
            (
                "movetime -5",
                "`go movetime` takes a whole number of milliseconds, 0 or more, not `-5`",
            ),
            (
                "nodes 1.5",
                "`go nodes` takes a whole number of playouts, 0 or more, not `1.5`",
            ),
            (
                "depth 0",
                "`go depth` takes a whole number of plies, 1 to 32, not `0`",
            ),
            (
                "depth 33",
                "`go depth` takes a whole number of plies, 1 to 32, not `33`",
            ),
            (
                "sideways 3",
                "unknown `go` argument `sideways` (`help` lists them)",
            ),
            ("ponder 5", "unknown `go` argument `5` (`help` lists them)"),
            (
                "movestogo 10",
                "`go movestogo` shares out a clock: give `wtime` and `btime` with it",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(go(text), Err(message.to_owned()), "{text}");
        }
    }
}
