//! Boardspace.net's PÜNCT game records, read into [`Record`]s.
//!
//! Boardspace writes a game as an SGF-shaped tree (`(;GM[25]…; P0[1 Dropb 17 L 13 1]TM[0]…)`)
//! whose move nodes hold its own move commands; a file may hold several games one after
//! another. [`read_all`] reads every game of such a text, each as a record replayed by the
//! rules or as the reason it could not be read, so one damaged game does not hide the
//! others.
//!
//! ```
//! let text = "(;GM[25]VV[1]SU[Punct]DT[Wed Nov 25 06:19:00 GMT 2026]\
//!             P0[id \"Ada\"]P1[id \"Bo\"]\
//!             ; P0[0 Start P0]; P0[1 Dropb 13 L 11 3]TM[0]; P0[2 Done ]TM[0])";
//! let games = punct_core::sgf::read_all(text);
//! let record = games[0].as_ref().unwrap();
//! assert_eq!(record.tag("White"), Some("Ada"));
//! assert_eq!(record.tag("Date"), Some("2026.11.25"));
//! assert_eq!(record.game.moves()[0].to_string(), "LL11:3");
//! ```

mod boardspace;
mod tree;

use crate::record::Record;

/// Why a game of an SGF text could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SgfError {
    /// 1-based line of the problem in the whole text.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl SgfError {
    fn new(line: usize, message: impl Into<String>) -> SgfError {
        SgfError {
            line,
            message: message.into(),
        }
    }
}

/// Reads every game of a Boardspace SGF text, in order: each a record (tags `White`,
/// `Black`, `Date`, `Result`, `Termination` when the moves or the record say how it ended,
/// `Site` and `GameName`), or the reason it could not be read. An empty list means the
/// text holds no game.
pub fn read_all(text: &str) -> Vec<Result<Record, SgfError>> {
    tree::collection(text)
        .into_iter()
        .map(|game| game.and_then(|game| boardspace::record(&game)))
        .collect()
}

/// Whether `text` looks like SGF (its first character other than white space is `(`), so
/// that an importer can tell it from punct's own records and position texts.
pub fn looks_like_sgf(text: &str) -> bool {
    text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .starts_with('(')
}
