//! Players named on the command line.

use std::fmt;
use std::str::FromStr;

use punct_engine::learned::Priors;
use punct_engine::players::{AlphaBeta, EnginePlayer, Greedy, Player, Random};
use punct_engine::search::params::{Params, TUNABLES};
use punct_engine::search::threads;
use punct_engine::{Level, Options};

use crate::external::External;

/// Who plays: a built-in player or another program.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The one-move greedy reference player.
    Greedy,
    /// The three-ply alpha-beta reference player.
    AlphaBeta,
    /// This engine at a level, in this process.
    Level(Level),
    /// This engine at a level with settings of its own, in this process.
    Tuned(Settings),
    /// A program speaking the engine protocol: the command line to start it.
    External(String),
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// `random`, `greedy`, `alphabeta`, `level1` … `level9` (or `full`), a level followed by
    /// settings (`full:threads=2`, `full:threads=2,nodes=600`), or `cmd:<command line>`.
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        if let Some(command) = s.strip_prefix("cmd:") {
            return if command.trim().is_empty() {
                Err("`cmd:` needs a command line after it".to_owned())
            } else {
                Ok(PlayerSpec::External(command.to_owned()))
            };
        }
        if let Some((name, settings)) = s.split_once(':') {
            let PlayerSpec::Level(level) = name.parse()? else {
                return Err(format!(
                    "`{s}`: only the engine's levels take settings, not `{name}`"
                ));
            };
            let settings = Settings::parse(level, settings).map_err(|e| format!("`{s}`: {e}"))?;
            return Ok(if settings == Settings::plain(level) {
                PlayerSpec::Level(level)
            } else {
                PlayerSpec::Tuned(settings)
            });
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
            PlayerSpec::Tuned(settings) => settings.fmt(f),
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
            PlayerSpec::Tuned(settings) => {
                let options = Options {
                    level: settings.level,
                    seed,
                    threads: settings.threads,
                };
                Box::new(
                    EnginePlayer::with_options(options)
                        .with_nodes(settings.nodes)
                        .with_params(settings.params),
                )
            }
            PlayerSpec::External(command) => Box::new(External::start(command)?),
        })
    }
}

/// The engine at a level, with settings of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Its level.
    pub level: Level,
    /// Threads it searches with (`threads=<n>`).
    pub threads: usize,
    /// Its own playouts per move, in place of the match's budget (`nodes=<n>`): two
    /// threads at twice one thread's playouts stand for equal time on an idle machine.
    pub nodes: Option<u64>,
    /// Its search settings (`policy=learned`, `<tunable>=<value>` as the protocol names
    /// them, such as `exploration=1.2`).
    pub params: Params,
}

impl Settings {
    /// The level as it plays without settings.
    fn plain(level: Level) -> Settings {
        Settings {
            level,
            threads: 1,
            nodes: None,
            params: Params::default(),
        }
    }

    /// Settings from `threads=<n>` and `nodes=<n>`, separated by commas.
    fn parse(level: Level, text: &str) -> Result<Settings, String> {
        let mut settings = Settings::plain(level);
        for setting in text.split(',') {
            match setting.split_once('=') {
                Some(("threads", n)) => {
                    settings.threads = n
                        .parse()
                        .ok()
                        .filter(|n| (1..=threads::most()).contains(n))
                        .ok_or_else(|| {
                            format!(
                                "threads must be 1 to {} (twice this machine's cores), not `{n}`",
                                threads::most()
                            )
                        })?;
                }
                Some(("nodes", n)) => {
                    settings.nodes =
                        Some(n.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                            format!("nodes must be a positive number, not `{n}`")
                        })?);
                }
                Some(("policy", p)) => {
                    settings.params.priors = match p {
                        "handset" => Priors::HandSet,
                        "learned" => Priors::default(),
                        _ => return Err(format!("policy must be handset or learned, not `{p}`")),
                    };
                }
                Some((name, v)) if TUNABLES.iter().any(|t| t.name.eq_ignore_ascii_case(name)) => {
                    let v = v
                        .parse::<f64>()
                        .map_err(|_| format!("{name} must be a number, not `{v}`"))?;
                    settings.params.set(name, v)?;
                }
                _ => {
                    return Err(format!(
                        "unknown setting `{setting}`: expected threads=<n>, nodes=<n>, \
                         policy=<handset|learned> or a search setting (exploration=<x>, …)"
                    ));
                }
            }
        }
        Ok(settings)
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level{}:threads={}", self.level.number(), self.threads)?;
        if let Some(n) = self.nodes {
            write!(f, ",nodes={n}")?;
        }
        let defaults = Params::default();
        if self.params.priors != defaults.priors {
            let policy = match self.params.priors {
                Priors::HandSet => "handset",
                Priors::Learned { .. } => "learned",
            };
            write!(f, ",policy={policy}")?;
        }
        for t in TUNABLES {
            let v = (t.get)(&self.params);
            if v != (t.get)(&defaults) {
                write!(f, ",{}={v}", t.name.to_ascii_lowercase())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_takes_a_threads_setting() {
        let two = Settings {
            threads: 2,
            ..Settings::plain(Level::FULL)
        };
        assert_eq!("full:threads=2".parse(), Ok(PlayerSpec::Tuned(two)));
        let five = Level::new(5).unwrap();
        assert_eq!("level5:threads=1".parse(), Ok(PlayerSpec::Level(five)));
        let budget = Settings {
            nodes: Some(600),
            ..two
        };
        assert_eq!(
            "full:threads=2,nodes=600".parse(),
            Ok(PlayerSpec::Tuned(budget))
        );
        for spec in [two, budget] {
            let text = PlayerSpec::Tuned(spec).to_string();
            assert_eq!(text.parse(), Ok(PlayerSpec::Tuned(spec)), "{text}");
        }
    }

    #[test]
    fn bad_settings_are_named() {
        let too_many = format!("full:threads={}", threads::most() + 1);
        for (spec, says) in [
            ("full:threads=0", "threads must be 1 to"),
            (too_many.as_str(), "threads must be 1 to"),
            ("full:threads=two", "threads must be 1 to"),
            ("full:depth=3", "unknown setting `depth=3`"),
            ("full:threads=2,", "unknown setting ``"),
            ("full:nodes=0", "nodes must be a positive number"),
            ("full:nodes=-5", "nodes must be a positive number"),
            ("random:threads=2", "only the engine's levels take settings"),
            ("level10:threads=2", "unknown player `level10`"),
        ] {
            let error = spec.parse::<PlayerSpec>().unwrap_err();
            assert!(error.contains(says), "{spec}: {error}");
        }
    }
}
