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
pub mod online;
mod panel;
mod play;
mod play_view;
mod prompt;
mod record_file;
mod review;
mod screen;
mod signals;
mod worker;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::bail;
use punct_core::{Game, Position};

pub use board::{BoardView, Marks, Scale};
pub use play::{Message, Opponent, Play, PlayOptions, Selection};
/// The engine's strength levels, which [`Opponent::Computer`] takes.
pub use punct_engine::Level;
pub use review::Review;
pub use screen::{Screen, run};

/// Where a game played in the terminal starts.
#[derive(Clone, Debug)]
pub enum Start {
    /// The empty board of the options' variant.
    Empty,
    /// A set position, as `punct show` prints them; its variant is the game's.
    Position(Box<Position>),
    /// The end of game `game` (counted from 1) of the record file `path`, such as `s`
    /// saves: the game is played on from there, its moves kept for take-back.
    Record {
        /// The record file.
        path: PathBuf,
        /// Which game of the file.
        game: usize,
    },
}

/// Plays a game in the terminal until the player quits.
pub fn play(options: PlayOptions, start: Start) -> anyhow::Result<()> {
    let mut play = match start {
        Start::Empty => Play::new(options),
        Start::Position(position) => Play::resume(options, Game::from_position(*position), None),
        Start::Record { path, game } => {
            let (record, count) = record_file::load_game(&path, game)?;
            // Saving offers to replace the file only when the game is all it holds.
            let file = (count == 1).then_some(path);
            Play::resume(options, record.game, file)
        }
    };
    screen::run(&mut play)
}

/// Plays on the server at `server` with the sign-in `punct login` kept for it: the list of
/// the player's games, each played on the play screen. Refused before the screen opens, with
/// what to do, when there is no sign-in, the server cannot be reached, or it no longer takes
/// the token.
pub fn play_online(server: &str) -> anyhow::Result<()> {
    let path = online::config::path()?;
    let Some(login) = online::config::find(&path, server)? else {
        bail!(
            "not signed in to {server}: `punct login --server {server}` first (with a name \
             and password, or --token with a token made on the account page)"
        );
    };
    let api = online::Api::new(&login.server, Some(login.token))?;
    let username = api.whoami()?;
    let mut games = online::Games::open(api, username);
    screen::run(&mut games)
}

/// Opens the records in `path` (one game, or many as `punct match` writes them) at game
/// number `game`, counted from 1, and steps through them; the engine thinks `movetime` per
/// position when asked for its evaluation, and per move in a game played on from a position
/// shown. Games of the file that do not read are passed over, and the screen names them.
pub fn review(path: &Path, game: usize, movetime: Duration) -> anyhow::Result<()> {
    let loaded = record_file::load_all(path)?;
    if let Some((_, e)) = loaded.skipped.iter().find(|(n, _)| *n == game) {
        bail!("game {game} of {} does not read: {e}", path.display());
    }
    let count = loaded.count();
    let title = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    // A game the file lacks becomes an index past the end, refused below.
    let index = loaded
        .games
        .iter()
        .position(|(n, _)| *n == game)
        .unwrap_or(usize::MAX);
    let Some(mut review) = Review::of_file(loaded, index, &title, movetime, 0x5eed) else {
        let games = if count == 1 { "game" } else { "games" };
        bail!(
            "there is no game {game} in {}: it holds {count} {games}",
            path.display()
        );
    };
    screen::run(&mut review)
}
