//! A game as the review screen needs it: the position after every move.

use punct_core::Game;
use serde_json::{Value, json};

use crate::room::colour_name;

/// A game as a list of positions after each move, with the moves and the outcome.
pub fn replay_json(game: &Game) -> Value {
    let mut pos = game.start().clone();
    let mut positions = vec![pos.to_string()];
    for &mv in game.moves() {
        pos.make(mv);
        positions.push(pos.to_string());
    }
    let outcome = game.outcome().map(|o| {
        let chain: Vec<String> = o
            .winner
            .map(|w| {
                pos.winning_chain(w)
                    .into_iter()
                    .map(|c| c.to_string())
                    .collect()
            })
            .unwrap_or_default();
        json!({ "text": o.to_string(), "result": o.result_token(), "winning_chain": chain,
                "winner": o.winner.map(colour_name), "termination": o.termination.name() })
    });
    json!({
        "start": game.start().to_string(),
        "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "positions": positions,
        "outcome": outcome,
    })
}

/// `YYYY.MM.DD` for a time in ms since the epoch (civil-from-days, proleptic Gregorian).
pub(crate) fn chrono_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(chrono_date(0), "1970.01.01");
        assert_eq!(chrono_date(1_795_305_600_000), "2026.11.22");
    }
}
