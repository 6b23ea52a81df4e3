//! A game's record, as its page offers it for download.

use punct_core::Record;

use super::Room;

/// `YYYY.MM.DD` (UTC) for a time in ms since the epoch; `????.??.??` when out of range.
pub fn record_date(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map_or_else(
        |_| "????.??.??".to_owned(),
        |t| t.strftime("%Y.%m.%d").to_string(),
    )
}

impl Room {
    /// The game's record: its moves, its players' names, the day it was made and the server
    /// it was played on.
    pub fn record(&self) -> String {
        let mut record = Record::from_game(
            self.game.clone(),
            self.seats[0].name(),
            self.seats[1].name(),
            &record_date(self.created_ms),
        );
        record.set_tag("Site", &format!("punct game {}", self.id));
        if let Some([white, black]) = self.rating_changes {
            record.set_tag("WhiteRatingDiff", &format!("{white:+.0}"));
            record.set_tag("BlackRatingDiff", &format!("{black:+.0}"));
        }
        record.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(record_date(0), "1970.01.01");
        assert_eq!(record_date(1_795_305_600_000), "2026.11.22");
    }
}
