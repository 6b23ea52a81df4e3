//! What people import: punct's own records (one game or several), a position text,
//! Boardspace.net's SGF records (one game or several), and `.zip` archives of those. Every
//! game becomes a [`Record`] or a note of why it could not be read, so that an import says
//! which of its games it read.

use std::io::{Cursor, Read};

use punct_core::{Game, Position, Record, sgf};

use crate::error::Error;
use crate::records::skip::Skip;

/// The most games (read or not) one import gives; a larger archive is cut there, saying so.
pub const MAX_GAMES: usize = 500;

/// The most bytes the files of one archive may unpack to, so that a small archive cannot
/// make the server inflate gigabytes.
pub const MAX_UNPACKED_BYTES: u64 = 16 * 1024 * 1024;

/// A game read, and the archive entry it came from.
#[derive(Debug)]
pub struct ImportedGame {
    /// The game and its tags.
    pub record: Record,
    /// The archive entry's name, for a game from a `.zip`.
    pub file: Option<String>,
}

/// A game (or a file) that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its 1-based place among all the games of the import, read or not.
    pub game: usize,
    /// The archive entry's name, for a game from a `.zip`.
    pub file: Option<String>,
    /// Why, naming the line where there is one.
    pub reason: String,
    /// Why, as a code with the values it names.
    pub why: Skip,
}

/// What an import gave: the games read and those that were not, each numbered by its place
/// in the import.
#[derive(Debug, Default)]
pub struct Imported {
    /// The games read, in order.
    pub games: Vec<ImportedGame>,
    /// The games (or files) not read, in order.
    pub skipped: Vec<Skipped>,
}

impl Imported {
    /// How many games (read or not) the import has given so far.
    fn count(&self) -> usize {
        self.games.len() + self.skipped.len()
    }

    fn full(&self) -> bool {
        self.count() >= MAX_GAMES
    }

    fn skip(&mut self, file: Option<&str>, why: Skip) {
        self.skipped.push(Skipped {
            game: self.count() + 1,
            file: file.map(str::to_owned),
            reason: why.to_string(),
            why,
        });
    }

    /// Adds each game of `text`, whatever its format, up to [`MAX_GAMES`].
    fn add_text(&mut self, text: &str, file: Option<&str>) {
        for game in read_text(text) {
            if self.full() {
                self.skip(file, Skip::TooManyGames { max: MAX_GAMES });
                return;
            }
            match game {
                Ok(record) => self.games.push(ImportedGame {
                    record,
                    file: file.map(str::to_owned),
                }),
                Err(reason) => self.skip(file, reason),
            }
        }
    }
}

/// Reads pasted or uploaded text: every game in it.
pub fn from_text(text: &str) -> Imported {
    let mut imported = Imported::default();
    imported.add_text(text, None);
    imported
}

/// Reads a `.zip` archive: every game of every file in it, in the archive's order. An
/// archive that cannot be opened at all is refused; a file in it that cannot be read is a
/// skipped entry naming the file.
pub fn from_zip(bytes: &[u8]) -> Result<Imported, Error> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Error::bad_request(format!("not a .zip archive that can be read: {e}")))?;
    let mut imported = Imported::default();
    let mut unpacked = 0u64;
    for index in 0..archive.len() {
        if imported.full() {
            imported.skip(None, Skip::ArchiveCut { max: MAX_GAMES });
            break;
        }
        // A name that is not UTF-8 (nor the legacy code page) is shown as best it can be.
        let name = match archive.name_for_index(index) {
            Some(Ok(name)) => name.into_owned(),
            _ => format!("file {}", index + 1),
        };
        let mut entry = match archive.by_index(index) {
            Ok(entry) => entry,
            Err(e) => {
                let problem = e.to_string();
                imported.skip(Some(&name), Skip::CannotUnpack { problem });
                continue;
            }
        };
        // Folders, and the resource forks the Finder adds to archives it makes, hold no games.
        if entry.is_dir() || name.starts_with("__MACOSX/") {
            continue;
        }
        let mut data = Vec::new();
        let left = MAX_UNPACKED_BYTES - unpacked;
        if let Err(e) = (&mut entry).take(left + 1).read_to_end(&mut data) {
            let problem = e.to_string();
            imported.skip(Some(&name), Skip::CannotUnpack { problem });
            continue;
        }
        if data.len() as u64 > left {
            let mib = MAX_UNPACKED_BYTES / (1024 * 1024);
            imported.skip(Some(&name), Skip::ArchiveTooLarge { mib });
            break;
        }
        unpacked += data.len() as u64;
        match String::from_utf8(data) {
            Ok(text) => imported.add_text(&text, Some(&name)),
            Err(_) if name.to_ascii_lowercase().ends_with(".zip") => {
                imported.skip(Some(&name), Skip::NestedArchive)
            }
            Err(_) => imported.skip(Some(&name), Skip::NotText),
        }
    }
    Ok(imported)
}

/// Every game of a text: Boardspace SGF (it starts with `(`), punct's records (tag pairs,
/// or numbered moves), or else a position text.
fn read_text(text: &str) -> Vec<Result<Record, Skip>> {
    let text = text.trim_start_matches('\u{feff}').trim();
    if sgf::looks_like_sgf(text) {
        let games = sgf::read_all(text);
        if games.is_empty() {
            return vec![Err(Skip::NoSgfGame)];
        }
        return games
            .into_iter()
            .map(|g| {
                g.map_err(|e| Skip::BadSgf {
                    problem: e.to_string(),
                })
            })
            .collect();
    }
    if text.starts_with('[') || text.contains("1.") {
        return Record::read_each(text)
            .into_iter()
            .map(|r| {
                r.map_err(|e| Skip::BadRecord {
                    problem: e.to_string(),
                })
            })
            .collect();
    }
    if text.is_empty() {
        return vec![Err(Skip::NothingToRead)];
    }
    vec![
        Position::from_text(text)
            .map(|start| Record::from_game(Game::from_position(start), "?", "?", "????.??.??"))
            .map_err(|e| Skip::Unreadable {
                problem: e.to_string(),
            }),
    ]
}

/// A short title for a game: `Ada vs Bo, 2026.11.22`, leaving out what the record does not
/// know; `Position, Black to move` for a position.
pub fn title(record: &Record) -> String {
    let known = |tag: &str| {
        record
            .tag(tag)
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.contains('?'))
    };
    let white = known("White");
    let black = known("Black");
    if white.is_none() && black.is_none() && record.moves.is_empty() {
        return format!("Position, {} to move", record.game.start().turn());
    }
    let mut title = format!(
        "{} vs {}",
        white.unwrap_or("White"),
        black.unwrap_or("Black")
    );
    if let Some(date) = known("Date") {
        title.push_str(", ");
        title.push_str(date);
    }
    title
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_recognised() {
        let record = "[Variant \"basic\"]\n[White \"Ada\"]\n\n1. TE4:0 *\n";
        let imported = from_text(record);
        assert_eq!(imported.games.len(), 1);
        assert_eq!(title(&imported.games[0].record), "Ada vs Black");
        let imported = from_text("  standard b 1 wTE4:0@1\n");
        assert_eq!(title(&imported.games[0].record), "Position, Black to move");
        let imported = from_text("(;GM[25]P0[id \"a\"]P1[id \"b\"]; P0[0 Start P0])");
        assert_eq!(imported.games[0].record.tag("Site"), Some("boardspace.net"));
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        for (text, needle) in [
            ("", "nothing to read"),
            (
                "hello",
                "not a game record, a Boardspace SGF file nor a position",
            ),
            ("(;GM[1]P0[id \"a\"])", "Boardspace SGF, line 1: GM[1]"),
            ("[Variant \"chess\"]\n\n*\n", "unknown Variant"),
            ("(  )", "no node"),
        ] {
            let imported = from_text(text);
            assert!(imported.games.is_empty(), "{text}");
            assert_eq!(imported.skipped.len(), 1, "{text}");
            assert!(
                imported.skipped[0].reason.contains(needle),
                "{text}: {}",
                imported.skipped[0].reason
            );
            assert_eq!(imported.skipped[0].game, 1);
        }
    }

    #[test]
    fn an_import_stops_at_the_most_games() {
        let game = "(;GM[25]P0[id \"a\"])";
        let imported = from_text(&game.repeat(MAX_GAMES + 10));
        assert_eq!(imported.games.len(), MAX_GAMES);
        assert_eq!(imported.skipped.len(), 1);
        assert_eq!(imported.skipped[0].game, MAX_GAMES + 1);
        assert!(imported.skipped[0].reason.contains("at most"));
    }

    #[test]
    fn titles_leave_out_what_is_unknown() {
        let record = |tags: &str| Record::parse(&format!("{tags}\n1. TE4:0 *\n")).unwrap();
        assert_eq!(
            title(&record(
                "[White \"Ada\"]\n[Black \"Bo\"]\n[Date \"2026.11.22\"]\n"
            )),
            "Ada vs Bo, 2026.11.22"
        );
        assert_eq!(
            title(&record("[White \"?\"]\n[Date \"????.??.??\"]\n")),
            "White vs Black"
        );
    }
}
