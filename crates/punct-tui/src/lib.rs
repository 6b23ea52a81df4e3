//! PÜNCT in the terminal: `punct play` and `punct review`.
//!
//! A full-screen program for people who live in a terminal or play over SSH: the hexagonal
//! board with its labels, reserves and status; moves made with a cursor or typed as move
//! text; the computer as opponent (thinking on its own thread, so the screen never freezes)
//! or two people at one keyboard; records saved at any time and stepped through later with
//! the engine's evaluation on request.
//!
//! The state of each screen ([`Play`], [`Review`]) is plain data driven by key events, so it
//! is tested without a terminal; [`BoardView`] is an ordinary ratatui widget.

#![warn(missing_docs)]

mod board;
mod cursor;
mod panel;
mod play;
mod play_view;
mod prompt;
mod record_file;
mod review;
mod screen;
mod signals;
mod worker;

use std::path::Path;
use std::time::Duration;

pub use board::{BoardView, Marks, Scale};
pub use play::{Message, Opponent, Play, PlayOptions, Selection};
/// The engine's strength levels, which [`Opponent::Computer`] takes.
pub use punct_engine::Level;
pub use review::Review;
pub use screen::{Screen, run};

/// Plays a game in the terminal until the player quits.
pub fn play(options: PlayOptions) -> anyhow::Result<()> {
    screen::run(&mut Play::new(options))
}

/// Opens the record in `path` and steps through it; the engine thinks `movetime` per
/// position when asked for its evaluation.
pub fn review(path: &Path, movetime: Duration) -> anyhow::Result<()> {
    let record = record_file::load(path)?;
    let title = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    screen::run(&mut Review::new(record, &title, movetime, 0x5eed))
}
