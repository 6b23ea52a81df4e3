//! Why a move is refused, for interfaces that say it in their own words (the browser app in
//! eight languages): a stable code for each kind of refusal and the values its message
//! names, beside punct-core's English sentence.

use punct_core::position::Variant;
use punct_core::{Illegal, Position};
use serde_json::{Value, json};

use crate::room::colour_name;

/// `{"code", …}`: the kind of refusal `why` is in `pos`, and the cells, colours, piece types
/// and heights it names. Codes are listed in API.md; a new kind of refusal gets a new code.
pub(crate) fn details(why: &Illegal, pos: &Position) -> Value {
    match why {
        Illegal::NotInReserve(colour, kind) => {
            json!({ "code": "not_in_reserve", "colour": colour_name(*colour), "type": kind.to_string() })
        }
        Illegal::OffBoard => json!({ "code": "off_board" }),
        Illegal::NotEmpty(cell) => json!({ "code": "not_empty", "cell": cell.to_string() }),
        Illegal::CentreBanned(_, cell) => {
            // Which rule bans it follows from the variant (RULINGS.md §4).
            let code = match pos.variant() {
                Variant::Standard => "centre_standard",
                Variant::Basic => "centre_basic_first",
            };
            json!({ "code": code, "cell": cell.to_string() })
        }
        Illegal::NoPiece(cell) => json!({ "code": "no_piece", "cell": cell.to_string() }),
        Illegal::NotYours(cell, colour) => {
            json!({ "code": "not_yours", "cell": cell.to_string(), "colour": colour_name(*colour) })
        }
        Illegal::Frozen(cell, above) => {
            json!({ "code": "frozen", "cell": cell.to_string(), "above": above.to_string() })
        }
        Illegal::NotInLine(from, to) => {
            json!({ "code": "not_in_line", "from": from.to_string(), "to": to.to_string() })
        }
        Illegal::NoChange => json!({ "code": "no_change" }),
        Illegal::Unsupported(heights) => json!({ "code": "unsupported", "heights": heights }),
        Illegal::TriangleBridge(heights) => {
            json!({ "code": "triangle_bridge", "heights": heights })
        }
        Illegal::PunctOnOpponent(cell, colour) => {
            json!({ "code": "punct_on_opponent", "cell": cell.to_string(), "colour": colour_name(*colour) })
        }
        Illegal::PunctOverEmpty(cell) => {
            json!({ "code": "punct_over_empty", "cell": cell.to_string() })
        }
    }
}

#[cfg(test)]
mod tests {
    use punct_core::{Move, Position};

    fn why(position: &str, mv: &str) -> serde_json::Value {
        let pos = Position::from_text(position).unwrap();
        let reason = pos.check(Move::parse(mv).unwrap()).unwrap_err();
        super::details(&reason, &pos)
    }

    #[test]
    fn refusals_name_their_kind_and_cells() {
        assert_eq!(
            why("standard w 0 -", "TI9:0"),
            serde_json::json!({ "code": "centre_standard", "cell": "I9" })
        );
        assert_eq!(
            why("basic w 0 -", "TI9:0"),
            serde_json::json!({ "code": "centre_basic_first", "cell": "I9" })
        );
        let stacked = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";
        assert_eq!(
            why(stacked, "E4-E5:0"),
            serde_json::json!({ "code": "not_yours", "cell": "E4", "colour": "white" })
        );
        assert_eq!(
            why("standard w 0 -", "E4-E5:0"),
            serde_json::json!({ "code": "no_piece", "cell": "E4" })
        );
    }
}
