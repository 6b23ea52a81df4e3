//! Game records on disk: saving the game being played, reading a file of them to review.

use std::path::Path;

use anyhow::Context as _;
use punct_core::{Game, Record};

/// Writes `game` as a record to `path`.
pub fn save(path: &Path, game: &Game, white: &str, black: &str) -> anyhow::Result<()> {
    let (date, _) = now();
    let record = Record::from_game(game.clone(), white, black, &date);
    std::fs::write(path, record.to_string())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Reads and replays the records in `path`: one game, or many one after another as
/// `punct match` writes them. An error names the line in the whole file.
pub fn load_all(path: &Path) -> anyhow::Result<Vec<Record>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Record::parse_all(&text).with_context(|| format!("in {}", path.display()))
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
        let records = load_all(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].game.moves(), game.moves());
        assert_eq!(records[0].tag("White"), Some("Ada"));
        assert!(load_all(&path).is_err());
        assert!(default_name().ends_with(".pgn"));
    }

    #[test]
    fn a_file_of_many_games_reads_game_by_game_and_errors_name_the_line() {
        let path = std::env::temp_dir().join(format!("punct-tui-many-{}.pgn", std::process::id()));
        let good = "[White \"Ada\"]\n\n1. TE4:0 TM12:0 *\n\n[White \"Bob\"]\n\n1. TE4:0 *\n";
        std::fs::write(&path, good).unwrap();
        let records = load_all(&path).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].tag("White"), Some("Bob"));
        // The second game's move on line 7 is illegal: E4 is not free.
        std::fs::write(
            &path,
            format!("{good}\n[White \"Cy\"]\n\n1. TE4:0 TE4:0 *\n"),
        )
        .unwrap();
        let error = format!("{:#}", load_all(&path).unwrap_err());
        std::fs::remove_file(&path).unwrap();
        assert!(error.contains("line 11"), "{error}");
    }
}
