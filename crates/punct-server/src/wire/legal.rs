//! The answers of `GET /api/legal`: a position's legal moves, or whether one move is legal
//! there and, if not, why.

use serde::Serialize;

use super::view::OutcomeView;
use crate::error::why::Why;

/// A position's legal moves, canonical.
#[derive(Serialize)]
pub struct LegalMoves {
    /// The moves' texts.
    pub moves: Vec<String>,
}

/// Whether one move is legal in a position.
#[derive(Serialize)]
#[serde(untagged)]
pub enum MoveChecked {
    /// It is: its canonical text, the position after it and the outcome it brings.
    Legal {
        /// The move as asked.
        #[serde(rename = "move")]
        asked: String,
        /// Always `true`.
        legal: bool,
        /// The move's canonical text.
        canonical: String,
        /// The position after it.
        position: String,
        /// The outcome it brings, if it ends the game.
        outcome: Option<OutcomeView>,
    },
    /// It is not: punct-core's reason, and its kind.
    Refused {
        /// The move as asked.
        #[serde(rename = "move")]
        asked: String,
        /// Always `false`.
        legal: bool,
        /// Why, in English.
        reason: String,
        /// Why, as a code and the values it names.
        why: Why,
    },
}
