//! Players named on the command line.

use std::fmt;
use std::str::FromStr;

use punct_engine::Level;
use punct_engine::players::{AlphaBeta, EnginePlayer, Greedy, Player, Random};

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
    /// A program speaking the engine protocol: the command line to start it.
    External(String),
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// `random`, `greedy`, `alphabeta`, `level1` … `level9` (or `full`), or `cmd:<command line>`.
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        if let Some(command) = s.strip_prefix("cmd:") {
            return if command.trim().is_empty() {
                Err("`cmd:` needs a command line after it".to_owned())
            } else {
                Ok(PlayerSpec::External(command.to_owned()))
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
            PlayerSpec::External(command) => Box::new(External::start(command)?),
        })
    }
}
