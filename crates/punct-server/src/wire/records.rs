//! The answer of `POST /api/import`: every game read, as its replay with its record, and
//! every game that could not be, with the reason.

use std::collections::BTreeMap;

use serde::Serialize;

use super::replay::Replay;
use crate::records::import::{self, Imported};

/// The games an import read and those it skipped.
#[derive(Serialize)]
pub struct ImportAnswer<'a> {
    games: Vec<ImportedGame<'a>>,
    skipped: Vec<SkippedGame<'a>>,
}

/// A game read.
#[derive(Serialize)]
struct ImportedGame<'a> {
    #[serde(flatten)]
    replay: Replay,
    /// The record text punct-core writes for it, with every tag kept.
    record: String,
    /// A short title.
    name: String,
    /// The record's tags.
    tags: BTreeMap<&'a str, &'a str>,
    /// The archive entry it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

/// A game (or archive entry) that could not be read.
#[derive(Serialize)]
struct SkippedGame<'a> {
    game: usize,
    reason: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

impl<'a> ImportAnswer<'a> {
    /// The answer for `imported`.
    pub fn of(imported: &'a Imported) -> ImportAnswer<'a> {
        ImportAnswer {
            games: imported
                .games
                .iter()
                .map(|game| ImportedGame {
                    replay: Replay::of(&game.record.game),
                    record: game.record.to_string(),
                    name: import::title(&game.record),
                    tags: game
                        .record
                        .tags
                        .iter()
                        .map(|(name, value)| (name.as_str(), value.as_str()))
                        .collect(),
                    file: game.file.as_deref(),
                })
                .collect(),
            skipped: imported
                .skipped
                .iter()
                .map(|s| SkippedGame {
                    game: s.game,
                    reason: &s.reason,
                    file: s.file.as_deref(),
                })
                .collect(),
        }
    }
}
