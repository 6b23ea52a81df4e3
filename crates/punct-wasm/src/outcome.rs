//! A finished game's outcome as the page reads it: the fields of the server's game state
//! (API.md, "The game state"), so that the page shows a game played in it as it shows the
//! server's.

use punct_core::{Colour, Outcome, Position};
use serde::Serialize;

/// `"white"` or `"black"`, as the API writes colours.
pub fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// The colour the API's name gives, if it is one.
pub fn colour_of(name: &str) -> Option<Colour> {
    match name {
        "white" => Some(Colour::White),
        "black" => Some(Colour::Black),
        _ => None,
    }
}

/// How a game ended: winner, reason, result token, the reason in English, the winner's
/// chain of cells.
#[derive(Serialize)]
pub struct OutcomeView {
    winner: Option<&'static str>,
    termination: &'static str,
    result: &'static str,
    text: String,
    winning_chain: Vec<String>,
}

impl OutcomeView {
    /// `outcome` in `pos`, the final position (where the winner's chain lies).
    pub fn of(outcome: &Outcome, pos: &Position) -> OutcomeView {
        OutcomeView {
            winner: outcome.winner.map(colour_name),
            termination: outcome.termination.name(),
            result: outcome.result_token(),
            text: outcome.to_string(),
            winning_chain: outcome
                .winner
                .map(|w| {
                    pos.winning_chain(w)
                        .into_iter()
                        .map(|c| c.to_string())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}
