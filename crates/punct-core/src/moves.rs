//! Moves as plain values, and their text (RULINGS.md §6).

use std::fmt;
use std::str::FromStr;

use crate::cell::{Cell, CellError};
use crate::piece::{PieceType, parse_rotation};

/// One turn: a placement from the reserve, or a move of a piece on the board.
///
/// Rotations are kept canonical (C pieces mod 3), so two values are equal exactly when
/// their texts are.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Move {
    /// Put a reserve piece on the board with its PÜNCT on `at`.
    Place {
        /// The piece type taken from the reserve.
        piece: PieceType,
        /// Where its PÜNCT goes.
        at: Cell,
        /// Its rotation, canonical for the type.
        rotation: u8,
    },
    /// Lift the piece whose PÜNCT is on `from`, move the PÜNCT to `to`, set it down turned.
    Shift {
        /// The piece's current PÜNCT cell.
        from: Cell,
        /// Its new PÜNCT cell (may equal `from`).
        to: Cell,
        /// Its new rotation, 0..6 (C pieces 0..3 are canonical, see [`Move::shift`]).
        rotation: u8,
    },
}

impl Move {
    /// A placement with the rotation made canonical for the type.
    pub const fn place(piece: PieceType, at: Cell, rotation: u8) -> Move {
        Move::Place {
            piece,
            at,
            rotation: piece.normalize(rotation),
        }
    }

    /// A move of a board piece of type `piece`, with the rotation made canonical for it.
    pub const fn shift(piece: PieceType, from: Cell, to: Cell, rotation: u8) -> Move {
        Move::Shift {
            from,
            to,
            rotation: piece.normalize(rotation),
        }
    }

    /// The cell the PÜNCT ends on.
    pub const fn destination(self) -> Cell {
        match self {
            Move::Place { at, .. } => at,
            Move::Shift { to, .. } => to,
        }
    }

    /// The rotation the piece ends in.
    pub const fn rotation(self) -> u8 {
        match self {
            Move::Place { rotation, .. } | Move::Shift { rotation, .. } => rotation,
        }
    }

    /// Whether this is a placement.
    pub const fn is_placement(self) -> bool {
        matches!(self, Move::Place { .. })
    }

    /// Reads move text. C rotations 3..5 cannot be told apart from other types' without a
    /// position, so a move's rotation is kept as written (0..6); [`crate::Position`] makes it
    /// canonical when it plays or checks the move.
    pub fn parse(text: &str) -> Result<Move, MoveError> {
        let bad = |why: &'static str| MoveError::Syntax {
            text: text.to_owned(),
            why,
        };
        let (body, rot) = text
            .rsplit_once(':')
            .ok_or_else(|| bad("expected `:` followed by a rotation 0 to 5"))?;
        let rotation = parse_rotation(rot)
            .ok_or_else(|| bad("the rotation after `:` must be one digit 0 to 5"))?;
        if let Some((from, to)) = body.split_once('-') {
            let from = Cell::parse(from).map_err(|e| MoveError::Cell(text.to_owned(), e))?;
            let to = Cell::parse(to).map_err(|e| MoveError::Cell(text.to_owned(), e))?;
            return Ok(Move::Shift { from, to, rotation });
        }
        let mut chars = body.chars();
        let letter = chars.next().ok_or_else(|| bad("nothing before `:`"))?;
        let piece = PieceType::from_letter(letter)
            .ok_or_else(|| bad("a placement starts with a piece type T, C, E, L, M or R"))?;
        let at = Cell::parse(chars.as_str()).map_err(|e| MoveError::Cell(text.to_owned(), e))?;
        Ok(Move::place(piece, at, rotation))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place {
                piece,
                at,
                rotation,
            } => write!(f, "{piece}{at}:{rotation}"),
            Move::Shift { from, to, rotation } => write!(f, "{from}-{to}:{rotation}"),
        }
    }
}

impl FromStr for Move {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<Move, MoveError> {
        Move::parse(s)
    }
}

/// Why move text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text does not have the shape of a move.
    #[error("malformed move `{text}`: {why}")]
    Syntax {
        /// The text read.
        text: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A cell name in the move is wrong.
    #[error("malformed move `{0}`: {1}")]
    Cell(String, CellError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_prints_both_kinds() {
        for text in ["TE4:0", "EM12:3", "CJ3:1", "E4-E7:3", "M12-M12:0"] {
            assert_eq!(Move::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn c_placements_are_printed_mod_three() {
        assert_eq!(Move::parse("CJ3:4").unwrap().to_string(), "CJ3:1");
    }

    #[test]
    fn malformed_moves_name_the_problem() {
        let cases = [
            ("", "expected `:`"),
            ("TE4", "expected `:`"),
            ("TE4:6", "rotation"),
            ("TE4:", "rotation"),
            ("TE4:01", "rotation"),
            ("XE4:0", "piece type"),
            ("TA1:0", "no such cell `A1`"),
            ("E4-:0", "missing cell"),
            ("E4-E7-E8:0", "bad row"),
            ("tE4:0", "piece type"),
        ];
        for (text, needle) in cases {
            let err = Move::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
