//! Position text (RULINGS.md §7): text → [`Setup`] → [`Position`] and back.
//!
//! A [`Setup`] is an unvalidated description; [`Position::from_setup`] is the single door that
//! checks it is a legal stack of pieces.

use std::fmt;
use std::str::FromStr;

use crate::cell::Cell;
use crate::piece::{Colour, PieceType, parse_rotation};
use crate::position::{Piece, Position, TextBuffer, Variant};

/// A position as written, not yet checked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The game.
    pub variant: Variant,
    /// The side to move.
    pub turn: Colour,
    /// Turns played so far.
    pub ply: u32,
    /// The pieces on the board.
    pub pieces: Vec<Piece>,
}

/// Why a position text or setup was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The text does not have the four fields.
    #[error(
        "malformed position: expected `<variant> <side> <ply> <pieces>` separated by single spaces, got {0} field(s)"
    )]
    Fields(usize),
    /// Unknown variant.
    #[error("malformed position: unknown variant `{0}` (expected basic or standard)")]
    Variant(String),
    /// Unknown side.
    #[error("malformed position: side to move `{0}` must be w or b")]
    Side(String),
    /// Bad ply.
    #[error("malformed position: ply `{0}` must be a number without sign or leading zeros")]
    Ply(String),
    /// A piece entry is malformed.
    #[error("malformed position: piece {index} `{text}`: {why}")]
    PieceSyntax {
        /// 1-based number of the entry.
        index: usize,
        /// The entry.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// Pieces out of order.
    #[error("position pieces must be sorted by level, column, row: `{0}` comes after `{1}`")]
    Order(String, String),
    /// More pieces of one type than a player owns.
    #[error("{0} has more than {2} {1} pieces on the board")]
    TooMany(Colour, PieceType, u8),
    /// A dot off the board.
    #[error("piece `{0}` does not fit on the board")]
    OffBoard(String),
    /// Two dots in one cell at one level.
    #[error("piece `{0}` overlaps another piece on {1} at level {2}")]
    Overlap(String, Cell, u8),
    /// A piece not resting on what is below it.
    #[error("piece `{0}` is unsupported: the cells below it have heights {1:?}")]
    Unsupported(String, [u8; 3]),
    /// A PÜNCT above the board not resting on its own colour.
    #[error("piece `{0}` has its PÜNCT above the board but not on its own colour")]
    PunctSupport(String),
}

fn piece_text(p: &Piece) -> String {
    p.to_string()
}

fn parse_number(text: &str) -> Option<u32> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if plain { text.parse().ok() } else { None }
}

fn parse_piece(index: usize, text: &str) -> Result<Piece, PositionError> {
    let bad = |why: &str| PositionError::PieceSyntax {
        index,
        text: text.to_owned(),
        why: why.to_owned(),
    };
    let mut chars = text.chars();
    let colour = chars
        .next()
        .and_then(Colour::from_letter)
        .ok_or_else(|| bad("must start with the colour w or b"))?;
    let kind = chars
        .next()
        .and_then(PieceType::from_letter)
        .ok_or_else(|| bad("the colour must be followed by a type T, C, E, L, M or R"))?;
    let rest = chars.as_str();
    let (cell, rest) = rest
        .split_once(':')
        .ok_or_else(|| bad("expected `:` and a rotation after the cell"))?;
    let at = Cell::parse(cell).map_err(|e| bad(&e.to_string()))?;
    let (rotation, level) = rest
        .split_once('@')
        .ok_or_else(|| bad("expected `@` and a level after the rotation"))?;
    let rotation =
        parse_rotation(rotation).ok_or_else(|| bad("the rotation must be one digit 0 to 5"))?;
    let level = parse_number(level)
        .filter(|l| (1..=64).contains(l))
        .ok_or_else(|| bad("the level must be a number 1 or more"))? as u8;
    Ok(Piece {
        colour,
        kind,
        at,
        rotation: kind.normalize(rotation),
        level,
    })
}

impl Setup {
    /// Reads position text strictly: single spaces, canonical piece order.
    pub fn parse(text: &str) -> Result<Setup, PositionError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [variant, side, ply, pieces] = fields[..] else {
            return Err(PositionError::Fields(fields.len()));
        };
        let variant = Variant::from_name(variant)
            .ok_or_else(|| PositionError::Variant(variant.to_owned()))?;
        let turn = match side {
            "w" => Colour::White,
            "b" => Colour::Black,
            _ => return Err(PositionError::Side(side.to_owned())),
        };
        let ply = parse_number(ply).ok_or_else(|| PositionError::Ply(ply.to_owned()))?;
        let pieces = if pieces == "-" {
            Vec::new()
        } else {
            let pieces = pieces
                .split(',')
                .enumerate()
                .map(|(i, t)| parse_piece(i + 1, t))
                .collect::<Result<Vec<Piece>, _>>()?;
            for pair in pieces.windows(2) {
                if pair[0].text_order() > pair[1].text_order() {
                    return Err(PositionError::Order(
                        piece_text(&pair[1]),
                        piece_text(&pair[0]),
                    ));
                }
            }
            pieces
        };
        Ok(Setup {
            variant,
            turn,
            ply,
            pieces,
        })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} ", self.variant, self.turn.letter(), self.ply)?;
        if self.pieces.is_empty() {
            return f.write_str("-");
        }
        let mut pieces = self.pieces.clone();
        pieces.sort_by_key(Piece::text_order);
        write_pieces(f, &pieces)
    }
}

/// Pieces already in text order, separated by commas.
fn write_pieces(f: &mut fmt::Formatter<'_>, pieces: &[Piece]) -> fmt::Result {
    for (i, p) in pieces.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        fmt::Display::fmt(p, f)?;
    }
    Ok(())
}

impl Position {
    /// The single door from a description to a position: checks that the pieces form a
    /// legal stack (each rests level on what is below it or bridges over it, its PÜNCT
    /// above the board rests on its own colour, no two dots share a cell at one level, no
    /// player has more pieces of a type than they own).
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position::new(setup.variant);
        let mut pieces = setup.pieces.clone();
        pieces.sort_by_key(Piece::text_order);
        for piece in &pieces {
            let piece = Piece {
                rotation: piece.kind.normalize(piece.rotation),
                ..*piece
            };
            if pos.reserve(piece.colour).get(piece.kind) == 0 {
                return Err(PositionError::TooMany(
                    piece.colour,
                    piece.kind,
                    piece.kind.count(),
                ));
            }
            let cells = piece
                .cells()
                .ok_or_else(|| PositionError::OffBoard(piece_text(&piece)))?;
            let heights = cells.map(|c| pos.height(c));
            if let Some(i) = (0..3).find(|&i| heights[i] >= piece.level) {
                return Err(PositionError::Overlap(
                    piece_text(&piece),
                    cells[i],
                    piece.level,
                ));
            }
            let below = piece.level - 1;
            let mid = piece.kind.middle_dot();
            let level = heights.iter().all(|&h| h == below)
                || (piece.kind.can_bridge()
                    && below >= 1
                    && (0..3).all(|i| {
                        if i == mid {
                            heights[i] < below
                        } else {
                            heights[i] == below
                        }
                    }));
            if !level {
                return Err(PositionError::Unsupported(piece_text(&piece), heights));
            }
            if piece.level > 1 && pos.top(piece.at).map(|d| d.piece.colour) != Some(piece.colour) {
                return Err(PositionError::PunctSupport(piece_text(&piece)));
            }
            pos.put(piece, cells);
        }
        pos.turn = setup.turn;
        pos.ply = setup.ply;
        if setup.turn == Colour::Black {
            pos.hash ^= crate::zobrist::SIDE;
        }
        Ok(pos)
    }

    /// The description of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            turn: self.turn,
            ply: self.ply,
            pieces: self.pieces(),
        }
    }

    /// Reads position text.
    pub fn from_text(text: &str) -> Result<Position, PositionError> {
        Position::from_setup(&Setup::parse(text)?)
    }
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::from_text(s)
    }
}

impl fmt::Display for Position {
    /// The position text (RULINGS.md §7).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} ", self.variant, self.turn.letter(), self.ply)?;
        let (ids, count) = self.ids_in_text_order();
        if count == 0 {
            return f.write_str("-");
        }
        let mut out = TextBuffer::new();
        for (i, &id) in ids[..count].iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.piece_of(id).push_text(&mut out);
        }
        f.write_str(out.as_str()?)
    }
}
