//! Command-line arguments.

use clap::{Parser, Subcommand};
use punct_core::Variant;

/// PÜNCT: play, analyse and serve Kris Burm's connection game.
#[derive(Parser, Debug)]
#[command(version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count move sequences to a depth (a check of the move generator).
    Perft {
        /// Variant of the starting position (ignored with --position).
        #[arg(long, default_value = "standard")]
        variant: Variant,
        /// Position text to start from instead of the empty board.
        #[arg(long)]
        position: Option<String>,
        /// Number of plies.
        #[arg(long)]
        depth: u32,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// Print the canonical list of legal moves of a position.
    ///
    /// Without --position, reads position texts from standard input, one per line, and
    /// prints one line per position with its moves separated by spaces.
    Moves {
        /// Position text.
        #[arg(long)]
        position: Option<String>,
    },
    /// Draw a position with levels, reserves and the game status.
    Show {
        /// Position text (default: the empty standard board).
        #[arg(long)]
        position: Option<String>,
    },
}
