//! `punct play`: a game in the terminal.

use std::time::Duration;

use anyhow::{Context as _, bail};
use punct_core::Position;
use punct_engine::search::threads;
use punct_tui::{Level, Opponent, PlayOptions, Start};

use crate::cli::PlayArgs;

/// Opens the play screen with the chosen opponent, on the empty board, a position or a
/// game saved before; or, with `--server`, the list of the player's games on that server.
pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    if let Some(server) = &args.server {
        return punct_tui::play_online(server);
    }
    let opponent = if args.human {
        Opponent::Human
    } else {
        let level = Level::new(args.level)
            .with_context(|| format!("the level must be 1 to {}", Level::MAX))?;
        Opponent::Computer {
            level,
            human: args.colour,
        }
    };
    let start = match (args.resume, args.position) {
        (Some(path), _) => Start::Record {
            path,
            // A number past usize is past any file's games too, and reported as such.
            game: usize::try_from(args.game).unwrap_or(usize::MAX),
        },
        (None, Some(text)) => Start::Position(Box::new(
            Position::from_text(&text).with_context(|| format!("bad --position `{text}`"))?,
        )),
        (None, None) => Start::Empty,
    };
    let threads = match args.threads {
        None => threads::available(),
        Some(n) if n <= threads::most() as u64 => n as usize,
        Some(n) => bail!(
            "--threads {n} is more than this machine can use: at most {} (twice its cores)",
            threads::most()
        ),
    };
    let options = PlayOptions {
        variant: args.variant,
        opponent,
        movetime: Duration::from_millis(args.movetime),
        seed: std::process::id().into(),
        threads,
    };
    punct_tui::play(options, start)
}
