//! The answer of `POST /api/import`: every game read, as its replay with its record, and
//! every game that could not be, with the reason: in English (`reason`) and as a code with
//! the values it names ([`Skip`]), which a page says in its own language.

use std::collections::BTreeMap;
use std::fmt;

use punct_core::Record;
use serde::Serialize;

use super::replay::Replay;
use super::view::{SeatView, Seats};
use crate::records::import::{self, Imported};
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

/// Why a game (or an archive's file) of an import was not read (`{"code", …}`, listed in
/// API.md); its English sentence is [`fmt::Display`]'s. What a reader of records or SGF
/// found wrong is passed on as `problem`, in English (it names a line and what is on it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Skip {
    /// The import has given its most games; this one and the rest were not read.
    TooManyGames {
        /// The most games an import gives.
        max: usize,
    },
    /// The archive's games reached the most an import gives; the rest were not read.
    ArchiveCut {
        /// The most games an import gives.
        max: usize,
    },
    /// The archive's file cannot be unpacked.
    CannotUnpack {
        /// Why, in English.
        problem: String,
    },
    /// The archive unpacks to too much; this file and the rest were not read.
    ArchiveTooLarge {
        /// The most it may unpack to, in MiB.
        mib: u64,
    },
    /// An archive inside the archive.
    NestedArchive,
    /// A file that is not UTF-8 text.
    NotText,
    /// SGF text without a game.
    NoSgfGame,
    /// A Boardspace SGF game that cannot be read.
    BadSgf {
        /// Why, in English.
        problem: String,
    },
    /// A punct record that cannot be read.
    BadRecord {
        /// Why, in English.
        problem: String,
    },
    /// Nothing at all.
    NothingToRead,
    /// Neither a record, an SGF file nor a position.
    Unreadable {
        /// Why it is not a position, in English.
        problem: String,
    },
}

impl Skip {
    /// Every code, for the tests that check each is translated, in declaration order.
    pub const CODES: &[&str] = &[
        "too_many_games",
        "archive_cut",
        "cannot_unpack",
        "archive_too_large",
        "nested_archive",
        "not_text",
        "no_sgf_game",
        "bad_sgf",
        "bad_record",
        "nothing_to_read",
        "unreadable",
    ];
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::TooManyGames { max } => write!(
                f,
                "an import reads at most {max} games: this one and the rest were not read"
            ),
            Skip::ArchiveCut { max } => write!(
                f,
                "an import reads at most {max} games: the rest of the archive was not read"
            ),
            Skip::CannotUnpack { problem } => write!(f, "cannot be unpacked: {problem}"),
            Skip::ArchiveTooLarge { mib } => write!(
                f,
                "the archive unpacks to more than {mib} MiB: this file and the rest were not read"
            ),
            Skip::NestedArchive => f.write_str("an archive inside the archive is not opened"),
            Skip::NotText => {
                f.write_str("not text (UTF-8): expected a game record, an SGF file or a position")
            }
            Skip::NoSgfGame => f.write_str("no game in the SGF text"),
            Skip::BadSgf { problem } => write!(f, "Boardspace SGF, {problem}"),
            Skip::BadRecord { problem } => f.write_str(problem),
            Skip::NothingToRead => {
                f.write_str("nothing to read: expected a game record, an SGF file or a position")
            }
            Skip::Unreadable { problem } => write!(
                f,
                "not a game record, a Boardspace SGF file nor a position text (read as a position: {problem})"
            ),
        }
    }
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
