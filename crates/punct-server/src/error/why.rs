//! Why a move is refused, for interfaces that say it in their own words (the browser app in
//! eight languages): a stable code for each kind of refusal and the values its message
//! names, beside punct-core's English sentence.

use punct_core::position::Variant;
use punct_core::{Illegal, Position};
use serde::Serialize;

use crate::room::colour_name;

/// The kind of refusal a move met and the cells, colours, piece types and heights its
/// message names (`{"code", …}`). Codes are listed in API.md; a new kind of refusal gets a
/// new code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Why {
    /// The mover has none of that piece left.
    NotInReserve {
        /// The mover.
        colour: &'static str,
        /// The piece type.
        #[serde(rename = "type")]
        kind: String,
    },
    /// A dot would be off the board.
    OffBoard,
    /// A placement on a cell that is taken.
    NotEmpty {
        /// The cell.
        cell: String,
    },
    /// The standard game's ban on the central hexagon.
    CentreStandard {
        /// The cell.
        cell: String,
    },
    /// The basic game's ban on the central hexagon for the first placements.
    CentreBasicFirst {
        /// The cell.
        cell: String,
    },
    /// No piece has its PÜNCT there.
    NoPiece {
        /// The cell.
        cell: String,
    },
    /// The piece is the other side's.
    NotYours {
        /// The cell.
        cell: String,
        /// Its owner.
        colour: &'static str,
    },
    /// Another piece lies above it.
    Frozen {
        /// The piece's cell.
        cell: String,
        /// The cell above it.
        above: String,
    },
    /// Not on a straight line.
    NotInLine {
        /// Where from.
        from: String,
        /// Where to.
        to: String,
    },
    /// The piece would end where it stands.
    NoChange,
    /// The piece would not rest level.
    Unsupported {
        /// The heights under its dots.
        heights: [u8; 3],
    },
    /// A triangle cannot bridge a gap.
    TriangleBridge {
        /// The heights under its dots.
        heights: [u8; 3],
    },
    /// The PÜNCT would rest on the other colour.
    PunctOnOpponent {
        /// The cell.
        cell: String,
        /// The colour there.
        colour: &'static str,
    },
    /// The PÜNCT would hang over empty board.
    PunctOverEmpty {
        /// The cell.
        cell: String,
    },
}

impl Why {
    /// The kind of refusal `why` is in `pos`.
    pub fn of(why: &Illegal, pos: &Position) -> Why {
        match why {
            Illegal::NotInReserve(colour, kind) => Why::NotInReserve {
                colour: colour_name(*colour),
                kind: kind.to_string(),
            },
            Illegal::OffBoard => Why::OffBoard,
            Illegal::NotEmpty(cell) => Why::NotEmpty {
                cell: cell.to_string(),
            },
            // Which rule bans it follows from the variant (RULINGS.md §4).
            Illegal::CentreBanned(_, cell) => match pos.variant() {
                Variant::Standard => Why::CentreStandard {
                    cell: cell.to_string(),
                },
                Variant::Basic => Why::CentreBasicFirst {
                    cell: cell.to_string(),
                },
            },
            Illegal::NoPiece(cell) => Why::NoPiece {
                cell: cell.to_string(),
            },
            Illegal::NotYours(cell, colour) => Why::NotYours {
                cell: cell.to_string(),
                colour: colour_name(*colour),
            },
            Illegal::Frozen(cell, above) => Why::Frozen {
                cell: cell.to_string(),
                above: above.to_string(),
            },
            Illegal::NotInLine(from, to) => Why::NotInLine {
                from: from.to_string(),
                to: to.to_string(),
            },
            Illegal::NoChange => Why::NoChange,
            Illegal::Unsupported(heights) => Why::Unsupported { heights: *heights },
            Illegal::TriangleBridge(heights) => Why::TriangleBridge { heights: *heights },
            Illegal::PunctOnOpponent(cell, colour) => Why::PunctOnOpponent {
                cell: cell.to_string(),
                colour: colour_name(*colour),
            },
            Illegal::PunctOverEmpty(cell) => Why::PunctOverEmpty {
                cell: cell.to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use punct_core::{Move, Position};

    fn why(position: &str, mv: &str) -> serde_json::Value {
        let pos = Position::from_text(position).unwrap();
        let reason = pos.check(Move::parse(mv).unwrap()).unwrap_err();
        serde_json::to_value(super::Why::of(&reason, &pos)).unwrap()
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
