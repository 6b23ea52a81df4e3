//! The answer to `POST /api/analyse`: what the engine found in a position.

use punct_core::Move;
use punct_engine::SearchResult;
use serde::Serialize;

/// What the engine found, for the side to move (API.md, `POST /api/analyse`).
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The best move's text, if the position has one.
    pub best_move: Option<String>,
    /// The side to move's chance of winning.
    pub win: f32,
    /// Its chance of a draw.
    pub draw: f32,
    /// Its chance of losing.
    pub loss: f32,
    /// The expected line, moves as text.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// The number of the line's first move, as records and move lists print it.
    pub move_number: u32,
}

impl Analysis {
    /// The answer for `result`, the search of a position whose move number is
    /// `move_number`.
    pub fn of(result: &SearchResult, move_number: u32) -> Analysis {
        Analysis {
            best_move: result.best_move.map(|m| m.to_string()),
            win: result.score.win,
            draw: result.score.draw,
            loss: result.score.loss,
            pv: result.pv.iter().map(Move::to_string).collect(),
            nodes: result.nodes,
            move_number,
        }
    }
}
