//! Game records on disk: saving the game being played, reading one to review.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

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
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!("{:02}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60),
    )
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{Move, Variant};

    #[test]
    fn dates_are_counted_right() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_414), (2025, 11, 22));
    }

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
