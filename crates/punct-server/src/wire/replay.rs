//! A game as the review screen needs it: the position after every move
//! (`GET /api/games/{id}/replay`, and each game an import reads).

use punct_core::Game;
use serde::Serialize;

use super::view::OutcomeView;

/// A game as a list of positions after each move, with the moves, their numbers (as
/// records print them: the number before `3.`/`3...`) and the outcome.
#[derive(Serialize)]
pub struct Replay {
    start: String,
    moves: Vec<String>,
    numbers: Vec<u32>,
    positions: Vec<String>,
    outcome: Option<OutcomeView>,
}

impl Replay {
    /// The replay of `game`.
    pub fn of(game: &Game) -> Replay {
        let mut pos = game.start().clone();
        let mut positions = vec![pos.to_string()];
        let mut numbers = Vec::with_capacity(game.moves().len());
        for &mv in game.moves() {
            numbers.push(pos.move_number());
            pos.make(mv);
            positions.push(pos.to_string());
        }
        Replay {
            start: game.start().to_string(),
            moves: game.moves().iter().map(ToString::to_string).collect(),
            numbers,
            positions,
            outcome: game.outcome().map(|o| OutcomeView::of(&o, &pos)),
        }
    }
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
        let replay = serde_json::to_value(Replay::of(&game)).unwrap();
        assert_eq!(replay["numbers"], serde_json::json!([3, 4, 4]));
        assert_eq!(replay["positions"].as_array().unwrap().len(), 4);
    }
}
