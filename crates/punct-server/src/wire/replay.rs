//! A game as the review screen needs it: the position after every move.

use punct_core::Game;
use serde_json::{Value, json};

use crate::room::OutcomeView;

/// A game as a list of positions after each move, with the moves, their numbers (as
/// records print them: the number before `3.`/`3...`) and the outcome.
pub fn replay_json(game: &Game) -> Value {
    let mut pos = game.start().clone();
    let mut positions = vec![pos.to_string()];
    let mut numbers = Vec::with_capacity(game.moves().len());
    for &mv in game.moves() {
        numbers.push(pos.move_number());
        pos.make(mv);
        positions.push(pos.to_string());
    }
    let outcome = game.outcome().map(|o| OutcomeView::of(&o, &pos));
    json!({
        "start": game.start().to_string(),
        "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "numbers": numbers,
        "positions": positions,
        "outcome": outcome,
    })
}

/// `YYYY.MM.DD` (UTC) for a time in ms since the epoch; `????.??.??` when out of range.
pub(crate) fn chrono_date(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map_or_else(
        |_| "????.??.??".to_owned(),
        |t| t.strftime("%Y.%m.%d").to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_carry_their_numbers() {
        let start = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";
        let mut game = Game::from_position(punct_core::Position::from_text(start).unwrap());
        for m in ["K5-K9:0", "TC2:0", "TC8:0"] {
            game.play(punct_core::Move::parse(m).unwrap()).unwrap();
        }
        assert_eq!(replay_json(&game)["numbers"], json!([3, 4, 4]));
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(chrono_date(0), "1970.01.01");
        assert_eq!(chrono_date(1_795_305_600_000), "2026.11.22");
    }
}
