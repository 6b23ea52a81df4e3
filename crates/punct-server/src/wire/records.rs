//! The answer of `POST /api/import`: every game read, as its replay with its record, and
//! every game that could not be, with the reason: in English (`reason`) and as a code with
//! the values it names ([`Skip`]), which a page says in its own language.

use std::collections::BTreeMap;

use punct_core::Record;
use serde::Serialize;

use super::replay::Replay;
use super::view::{SeatView, Seats};
use crate::records::import::{self, Imported};
pub use crate::records::skip::Skip;
use crate::room::Holder;

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
    /// The players named by its `White` and `Black` tags, as a game's state has its seats
    /// (with their `kind`): the computer's and the unnamed seat's names are the server's own.
    seats: Seats<'a>,
    /// The archive entry it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

/// A game (or archive entry) that could not be read.
#[derive(Serialize)]
struct SkippedGame<'a> {
    game: usize,
    reason: &'a str,
    #[serde(flatten)]
    why: &'a Skip,
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
                    seats: record_seats(&game.record),
                    file: game.file.as_deref(),
                })
                .collect(),
            skipped: imported
                .skipped
                .iter()
                .map(|s| SkippedGame {
                    game: s.game,
                    reason: &s.reason,
                    why: &s.why,
                    file: s.file.as_deref(),
                })
                .collect(),
        }
    }
}

/// The seats of `record`'s players, as its `White` and `Black` tags name them (`?` for a
/// name the record does not know).
fn record_seats(record: &Record) -> Seats<'_> {
    let seat = |tag| {
        let name = record.tag(tag).unwrap_or("?");
        SeatView::held(name, Holder::of_name(name), false)
    };
    Seats::new(seat("White"), seat("Black"))
}

#[cfg(test)]
mod tests {
    use super::Skip;

    #[test]
    fn each_skip_is_written_with_its_code_and_values() {
        let problem = || "line 1: GM[1]".to_owned();
        let all = [
            Skip::TooManyGames { max: 500 },
            Skip::ArchiveCut { max: 500 },
            Skip::CannotUnpack { problem: problem() },
            Skip::ArchiveTooLarge { mib: 16 },
            Skip::NestedArchive,
            Skip::NotText,
            Skip::NoSgfGame,
            Skip::BadSgf { problem: problem() },
            Skip::BadRecord { problem: problem() },
            Skip::NothingToRead,
            Skip::Unreadable { problem: problem() },
        ];
        let codes: Vec<String> = all
            .iter()
            .map(|s| {
                serde_json::to_value(s).unwrap()["code"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(codes, Skip::CODES, "one of each code, in order");
        assert_eq!(
            serde_json::to_value(&all[3]).unwrap(),
            serde_json::json!({ "code": "archive_too_large", "mib": 16 })
        );
        assert!(all[7].to_string().starts_with("Boardspace SGF, line 1"));
    }
}
