//! `punct play`: a game in the terminal.

use std::time::Duration;

use anyhow::Context as _;
use punct_tui::{Level, Opponent, PlayOptions};

use crate::cli::PlayArgs;

/// Opens the play screen with the chosen opponent.
pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let opponent = if args.human {
        Opponent::Human
    } else {
        let level = Level::new(args.level).context("the level must be 1 to 6")?;
        Opponent::Computer {
            level,
            human: args.colour,
        }
    };
    punct_tui::play(PlayOptions {
        variant: args.variant,
        opponent,
        movetime: Duration::from_millis(args.movetime),
        seed: std::process::id().into(),
    })
}
