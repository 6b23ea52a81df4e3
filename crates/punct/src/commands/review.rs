//! `punct review`: stepping through saved games.

use std::time::Duration;

use crate::cli::ReviewArgs;

/// Opens the records and the review screen.
pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    // A number past usize is past any file's games too, and reported as such.
    let game = usize::try_from(args.game).unwrap_or(usize::MAX);
    punct_tui::review(&args.file, game, Duration::from_millis(args.movetime))
}
