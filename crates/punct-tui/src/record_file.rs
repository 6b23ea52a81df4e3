//! Game records on disk: saving the game being played, reading a file of them to review.

use std::path::Path;

use anyhow::{Context as _, bail};
use punct_core::{Game, Record, RecordError};

/// Writes `game` as a record to `path`.
pub fn save(path: &Path, game: &Game, white: &str, black: &str) -> anyhow::Result<()> {
    let (date, _) = now();
    let record = Record::from_game(game.clone(), white, black, &date);
    std::fs::write(path, record.to_string())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The games of a record file: those that read, and those that did not.
#[derive(Debug)]
pub struct Loaded {
    /// The games that read, each with its number in the file, counted from 1.
    pub games: Vec<(usize, Record)>,
    /// The games that did not read, each with its number in the file and why.
    pub skipped: Vec<(usize, RecordError)>,
}

impl Loaded {
    /// How many games the file holds, read or not.
    pub fn count(&self) -> usize {
        self.games.len() + self.skipped.len()
    }
}

/// Reads and replays the records in `path`: one game, or many one after another as
/// `punct match` writes them. A game that does not read is skipped, the others are kept;
/// it is an error only when none reads. Errors name the line in the whole file.
pub fn load_all(path: &Path) -> anyhow::Result<Loaded> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let each = Record::read_each(&text);
    let mut loaded = Loaded {
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for (number, read) in (1..).zip(each) {
        match read {
            Ok(record) => loaded.games.push((number, record)),
            Err(e) => loaded.skipped.push((number, e)),
        }
    }
    match loaded.skipped.as_slice() {
        _ if !loaded.games.is_empty() => Ok(loaded),
        [(_, only)] => {
            Err(anyhow::Error::new(only.clone()).context(format!("in {}", path.display())))
        }
        all => {
            let why: Vec<String> = all.iter().map(|(n, e)| format!("game {n}: {e}")).collect();
            bail!("no game of {} reads: {}", path.display(), why.join("; "))
        }
    }
}

/// Reads game `number` (counted from 1) of the record file `path`, to be played on, and
/// tells how many games the file holds.
pub fn load_game(path: &Path, number: usize) -> anyhow::Result<(Record, usize)> {
    let loaded = load_all(path)?;
    if let Some((_, e)) = loaded.skipped.iter().find(|(n, _)| *n == number) {
        bail!("game {number} of {} does not read: {e}", path.display());
    }
    let count = loaded.count();
    match loaded.games.into_iter().find(|(n, _)| *n == number) {
        Some((_, record)) => Ok((record, count)),
        None => {
            let games = if count == 1 { "game" } else { "games" };
            bail!(
                "there is no game {number} in {}: it holds {count} {games}",
                path.display()
            )
        }
    }
}

/// A file name for a record saved now, e.g. `punct-20261122-034512.pgn`.
pub fn default_name() -> String {
    let (date, time) = now();
    format!(
        "punct-{}-{}.pgn",
        date.replace('.', ""),
        time.replace(':', "")
    )
}

/// Today's date as records write it (`2026.11.22`) and the time (`03:45:12`), in UTC.
fn now() -> (String, String) {
    let now = jiff::Timestamp::now();
    (
        now.strftime("%Y.%m.%d").to_string(),
        now.strftime("%H:%M:%S").to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{Move, Variant};

    #[test]
    fn a_saved_game_reads_back() {
        let mut game = Game::new(Variant::Basic);
        game.play(Move::parse("TE4:0").unwrap()).unwrap();
        let path = std::env::temp_dir().join(format!("punct-tui-{}.pgn", std::process::id()));
        save(&path, &game, "Ada", "punct level 1").unwrap();
        let loaded = load_all(&path).unwrap();
        let (again, count) = load_game(&path, 1).unwrap();
        let error = format!("{:#}", load_game(&path, 2).unwrap_err());
        std::fs::remove_file(&path).unwrap();
        assert_eq!((loaded.games.len(), loaded.count()), (1, 1));
        let (number, record) = &loaded.games[0];
        assert_eq!(*number, 1);
        assert_eq!(record.game.moves(), game.moves());
        assert_eq!((again.game.moves(), count), (game.moves(), 1));
        assert_eq!(record.tag("White"), Some("Ada"));
        assert!(
            error.contains("no game 2") && error.contains("holds 1 game"),
            "{error}"
        );
        assert!(load_all(&path).is_err());
        assert!(default_name().ends_with(".pgn"));
    }

    #[test]
    fn a_damaged_game_of_many_is_skipped_with_its_line_and_the_others_read() {
        let path = std::env::temp_dir().join(format!("punct-tui-many-{}.pgn", std::process::id()));
        let good = "[White \"Ada\"]\n\n1. TE4:0 TM12:0 *\n\n[White \"Bob\"]\n\n1. TE4:0 *\n";
        // The third game's move on line 11 is illegal: E4 is not free.
        let broken = "\n[White \"Cy\"]\n\n1. TE4:0 TE4:0 *\n";
        std::fs::write(&path, format!("{good}{broken}\n[White \"Di\"]\n\n*\n")).unwrap();
        let loaded = load_all(&path).unwrap();
        let whites: Vec<(usize, &str)> = loaded
            .games
            .iter()
            .map(|(n, r)| (*n, r.tag("White").unwrap()))
            .collect();
        assert_eq!(whites, [(1, "Ada"), (2, "Bob"), (4, "Di")]);
        assert_eq!(loaded.count(), 4);
        let [(3, e)] = loaded.skipped.as_slice() else {
            panic!("{:?}", loaded.skipped);
        };
        assert_eq!(e.line, 11, "{e}");
        let error = format!("{:#}", load_game(&path, 3).unwrap_err());
        assert!(
            error.contains("game 3") && error.contains("line 11"),
            "{error}"
        );
        let (fourth, count) = load_game(&path, 4).unwrap();
        assert_eq!((fourth.tag("White"), count), (Some("Di"), 4));
        // One game alone that does not read: its error; several: each named.
        std::fs::write(&path, broken).unwrap();
        let error = format!("{:#}", load_all(&path).unwrap_err());
        assert!(error.contains("record line 4"), "{error}");
        std::fs::write(&path, format!("{broken}{broken}")).unwrap();
        let error = format!("{:#}", load_all(&path).unwrap_err());
        std::fs::remove_file(&path).unwrap();
        assert!(
            error.contains("game 1: record line 4") && error.contains("game 2: record line 8"),
            "{error}"
        );
    }
}
