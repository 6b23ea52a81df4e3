//! Players named on the command line.

use std::fmt;
use std::str::FromStr;

use punct_engine::players::{AlphaBeta, EnginePlayer, Greedy, Player, Random};
use punct_engine::search::threads;
use punct_engine::{Level, Options};

use crate::external::External;

/// Who plays: a built-in player or another program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The one-move greedy reference player.
    Greedy,
    /// The three-ply alpha-beta reference player.
    AlphaBeta,
    /// This engine at a level, in this process.
    Level(Level),
    /// This engine at a level searching on more than one thread, in this process.
    Threaded(Level, usize),
    /// A program speaking the engine protocol: the command line to start it.
    External(String),
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// `random`, `greedy`, `alphabeta`, `level1` … `level6` (or `full`), a level followed by
    /// `:threads=<n>` (`full:threads=2`), or `cmd:<command line>`.
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        if let Some(command) = s.strip_prefix("cmd:") {
            return if command.trim().is_empty() {
                Err("`cmd:` needs a command line after it".to_owned())
            } else {
                Ok(PlayerSpec::External(command.to_owned()))
            };
        }
        if let Some((name, setting)) = s.split_once(':') {
            let PlayerSpec::Level(level) = name.parse()? else {
                return Err(format!(
                    "`{s}`: only the engine's levels take settings, not `{name}`"
                ));
            };
            let threads = setting.strip_prefix("threads=").ok_or_else(|| {
                format!("`{s}`: unknown setting `{setting}`: expected threads=<n>")
            })?;
            return match threads.parse::<usize>() {
                Ok(1) => Ok(PlayerSpec::Level(level)),
                Ok(n) if (2..=threads::most()).contains(&n) => Ok(PlayerSpec::Threaded(level, n)),
                _ => Err(format!(
                    "`{s}`: threads must be 1 to {} (twice this machine's cores), not `{threads}`",
                    threads::most()
                )),
            };
        }
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            "alphabeta" => Ok(PlayerSpec::AlphaBeta),
            "full" | "punct" => Ok(PlayerSpec::Level(Level::FULL)),
            _ => lower
                .strip_prefix("level")
                .and_then(|n| n.parse().ok())
                .and_then(Level::new)
                .map(PlayerSpec::Level)
                .ok_or_else(|| {
                    format!(
                        "unknown player `{s}`: expected random, greedy, alphabeta, level1 to level{}, full, \
                         or cmd:<program>",
                        Level::MAX
                    )
                }),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::AlphaBeta => f.write_str("alphabeta"),
            PlayerSpec::Level(l) => write!(f, "level{}", l.number()),
            PlayerSpec::Threaded(l, n) => write!(f, "level{}:threads={n}", l.number()),
            PlayerSpec::External(c) => write!(f, "cmd:{c}"),
        }
    }
}

impl PlayerSpec {
    /// A fresh player; a program is started and greeted.
    pub fn create(&self, seed: u64) -> Result<Box<dyn Player>, String> {
        Ok(match self {
            PlayerSpec::Random => Box::new(Random::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy),
            PlayerSpec::AlphaBeta => Box::new(AlphaBeta),
            PlayerSpec::Level(level) => Box::new(EnginePlayer::new(*level, seed)),
            PlayerSpec::Threaded(level, threads) => Box::new(EnginePlayer::with_options(Options {
                level: *level,
                seed,
                threads: *threads,
            })),
            PlayerSpec::External(command) => Box::new(External::start(command)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_takes_a_threads_setting() {
        assert_eq!(
            "full:threads=2".parse(),
            Ok(PlayerSpec::Threaded(Level::FULL, 2))
        );
        let five = Level::new(5).unwrap();
        assert_eq!("level5:threads=1".parse(), Ok(PlayerSpec::Level(five)));
        assert_eq!(
            PlayerSpec::Threaded(Level::FULL, 2).to_string(),
            "level6:threads=2"
        );
        let round_trip: PlayerSpec = "level6:threads=2".parse().unwrap();
        assert_eq!(round_trip, PlayerSpec::Threaded(Level::FULL, 2));
    }

    #[test]
    fn bad_settings_are_named() {
        let too_many = format!("full:threads={}", threads::most() + 1);
        for (spec, says) in [
            ("full:threads=0", "threads must be 1 to"),
            (too_many.as_str(), "threads must be 1 to"),
            ("full:threads=two", "threads must be 1 to"),
            ("full:depth=3", "unknown setting `depth=3`"),
            ("random:threads=2", "only the engine's levels take settings"),
            ("level9:threads=2", "unknown player `level9`"),
        ] {
            let error = spec.parse::<PlayerSpec>().unwrap_err();
            assert!(error.contains(says), "{spec}: {error}");
        }
    }
}
