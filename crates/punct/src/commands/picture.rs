//! `punct picture`: a position as a PNG, or a recorded game as an animated GIF.

use anyhow::{Context as _, bail};
use punct_core::{Record, Variant};
use punct_picture::{Animation, Options};

use crate::cli::PictureArgs;

/// Draws what the arguments name into the output file.
pub fn run(args: PictureArgs) -> anyhow::Result<()> {
    let gif = match args.output.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("gif") => true,
        Some(ext) if ext.eq_ignore_ascii_case("png") => false,
        _ => bail!(
            "the output file's name must end in .png or .gif, not `{}`",
            args.output.display()
        ),
    };
    let game = match &args.record {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let mut records =
                Record::parse_all(&text).with_context(|| format!("in {}", path.display()))?;
            let count = records.len();
            let index = usize::try_from(args.game - 1).unwrap_or(usize::MAX);
            if index >= count {
                bail!(
                    "{} has no game {} (it holds {count})",
                    path.display(),
                    args.game
                );
            }
            Some(records.swap_remove(index).game)
        }
        None => None,
    };
    let bytes = if gif {
        let Some(game) = game else {
            bail!("a GIF shows a game: give it with --record FILE");
        };
        let default = Animation::default();
        let options = Options {
            width: args.width.unwrap_or(default.options.width),
            height: args.height.unwrap_or(default.options.height),
            flipped: args.flip,
        };
        punct_picture::gif(&game, &Animation { options, ..default })?
    } else {
        let default = Options::default();
        let options = Options {
            width: args.width.unwrap_or(default.width),
            height: args.height.unwrap_or(default.height),
            flipped: args.flip,
        };
        let (pos, last) = match game {
            Some(game) => (game.position().clone(), game.moves().last().copied()),
            None => (
                super::start(args.position.as_deref(), Variant::Standard)?,
                None,
            ),
        };
        punct_picture::png(&pos, last, &options)?
    };
    std::fs::write(&args.output, bytes)
        .with_context(|| format!("writing {}", args.output.display()))
}
