//! `punct review`: stepping through a saved game.

use std::time::Duration;

use crate::cli::ReviewArgs;

/// Opens the record and the review screen.
pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    punct_tui::review(&args.file, Duration::from_millis(args.movetime))
}
