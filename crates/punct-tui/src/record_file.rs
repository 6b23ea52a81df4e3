//! Game records on disk: saving the game being played, reading one to review.

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

/// Reads and replays the record in `path`.
pub fn load(path: &Path) -> anyhow::Result<Record> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Record::parse(&text).with_context(|| format!("in {}", path.display()))
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
        let record = load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(record.game.moves(), game.moves());
        assert_eq!(record.tag("White"), Some("Ada"));
        assert!(load(&path).is_err());
        assert!(default_name().ends_with(".pgn"));
    }
}
