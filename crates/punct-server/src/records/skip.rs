//! Why a game of an import was not read.

use std::fmt;

use serde::Serialize;

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
