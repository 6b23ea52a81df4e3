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
mod hangup;
mod new_game;
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

use anyhow::bail;

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

/// Opens the records in `path` (one game, or many as `punct match` writes them) at game
/// number `game`, counted from 1, and steps through them; the engine thinks `movetime` per
/// position when asked for its evaluation.
pub fn review(path: &Path, game: usize, movetime: Duration) -> anyhow::Result<()> {
    let records = record_file::load_all(path)?;
    let count = records.len();
    let title = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    // Game 0 becomes an index past the end, refused below like any game the file lacks.
    let index = game.checked_sub(1).unwrap_or(count);
    let Some(mut review) = Review::new(records, index, &title, movetime, 0x5eed) else {
        let games = if count == 1 { "game" } else { "games" };
        bail!(
            "there is no game {game} in {}: it holds {count} {games}",
            path.display()
        );
    };
    screen::run(&mut review)
}
