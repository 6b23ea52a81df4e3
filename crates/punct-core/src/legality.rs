//! A single-move legality test written directly from RULINGS.md §4.
//!
//! It shares nothing with the generator but the piece shapes: heights are recomputed from
//! the list of pieces, so the tests can hold the two against each other. It also says why a
//! move is refused, which is what people want to hear.

use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::{Colour, PieceType};
use crate::position::{Piece, Position, Variant};

/// Why a move is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The reserve has no piece of that type left.
    #[error("{0} has no {1} piece left to place")]
    NotInReserve(Colour, PieceType),
    /// Some dot would be off the board.
    #[error("the piece does not fit on the board there: a dot would be off the board")]
    OffBoard,
    /// A placement on a cell that holds a dot (or lies under a bridge).
    #[error("a piece can only be placed on empty board, and {0} is not empty")]
    NotEmpty(Cell),
    /// A placement touching the central hexagon where the variant forbids it.
    #[error("{0}: {1} is in the central hexagon")]
    CentreBanned(&'static str, Cell),
    /// No piece has its PÜNCT on the cell.
    #[error("no piece has its PÜNCT on {0}")]
    NoPiece(Cell),
    /// The piece belongs to the other player.
    #[error("the piece on {0} is {1}'s")]
    NotYours(Cell, Colour),
    /// Another piece's dot lies above the piece.
    #[error("the piece on {0} cannot move: another piece lies above it on {1}")]
    Frozen(Cell, Cell),
    /// The destination is not on one of the three lines through the PÜNCT.
    #[error("{1} is not on a straight line from {0}")]
    NotInLine(Cell, Cell),
    /// The piece would end exactly where it was.
    #[error("the piece would end where it stands, which is not a move")]
    NoChange,
    /// The three cells cannot carry the piece.
    #[error("the piece would not rest level: heights {0:?} neither match nor form a bridge")]
    Unsupported([u8; 3]),
    /// Triangles never bridge.
    #[error("a triangle cannot bridge a gap (heights {0:?})")]
    TriangleBridge([u8; 3]),
    /// Above the board, the PÜNCT must rest over the mover's own colour.
    #[error("the PÜNCT may only rest on your own colour, and {0} shows {1}")]
    PunctOnOpponent(Cell, Colour),
    /// Above the board, the PÜNCT cannot hang over empty board.
    #[error("the PÜNCT cannot hang over empty board at {0}: it must rest on your own colour")]
    PunctOverEmpty(Cell),
}

/// The top of a cell, ignoring one piece: its level and the colour of its dot.
fn top_without(
    pieces: &[(Piece, [Cell; 3])],
    cell: Cell,
    skip: Option<usize>,
) -> (u8, Option<Colour>) {
    let mut best = (0, None);
    for (i, (p, cells)) in pieces.iter().enumerate() {
        if Some(i) != skip && cells.contains(&cell) && p.level > best.0 {
            best = (p.level, Some(p.colour));
        }
    }
    best
}

/// Checks `mv` in `pos`, returning it in canonical form or the reason it is illegal.
pub fn check(pos: &Position, mv: Move) -> Result<Move, Illegal> {
    let mover = pos.turn();
    let pieces: Vec<(Piece, [Cell; 3])> = pos
        .pieces()
        .into_iter()
        .filter_map(|p| p.cells().map(|c| (p, c)))
        .collect();
    match mv {
        Move::Place {
            piece,
            at,
            rotation,
        } => {
            if pos.reserve(mover).get(piece) == 0 {
                return Err(Illegal::NotInReserve(mover, piece));
            }
            let rotation = piece.normalize(rotation);
            let cells = piece.footprint(at, rotation).ok_or(Illegal::OffBoard)?;
            for cell in cells {
                if top_without(&pieces, cell, None).0 > 0 {
                    return Err(Illegal::NotEmpty(cell));
                }
            }
            let rule = match pos.variant() {
                Variant::Standard => {
                    Some("in the standard game no placement may touch the central hexagon")
                }
                Variant::Basic if pieces.is_empty() => {
                    Some("the first placement of the basic game may not touch the central hexagon")
                }
                Variant::Basic => None,
            };
            if let Some(rule) = rule
                && let Some(&cell) = cells.iter().find(|c| crate::geometry::CENTRE.contains(**c))
            {
                return Err(Illegal::CentreBanned(rule, cell));
            }
            Ok(Move::Place {
                piece,
                at,
                rotation,
            })
        }
        Move::Shift { from, to, rotation } => {
            let (index, (piece, old_cells)) = pieces
                .iter()
                .enumerate()
                .filter(|(_, (p, _))| p.at == from)
                .max_by_key(|(_, (p, _))| p.level)
                .ok_or(Illegal::NoPiece(from))?;
            if piece.colour != mover {
                return Err(Illegal::NotYours(from, piece.colour));
            }
            for (i, (other, cells)) in pieces.iter().enumerate() {
                if i != index
                    && other.level > piece.level
                    && let Some(c) = old_cells.iter().find(|c| cells.contains(c))
                {
                    return Err(Illegal::Frozen(from, *c));
                }
            }
            let (fc, fr) = from.coords();
            let (tc, tr) = to.coords();
            if fc != tc && fr != tr && fc - fr != tc - tr {
                return Err(Illegal::NotInLine(from, to));
            }
            let kind = piece.kind;
            let rotation = kind.normalize(rotation);
            let cells = kind.footprint(to, rotation).ok_or(Illegal::OffBoard)?;
            let heights = cells.map(|c| top_without(&pieces, c, Some(index)).0);
            let level = if heights.iter().all(|&h| h == heights[0]) {
                heights[0] + 1
            } else {
                let mid = kind.middle_dot();
                let ends: Vec<u8> = (0..3).filter(|&i| i != mid).map(|i| heights[i]).collect();
                let bridges = ends[0] == ends[1] && ends[0] >= 1 && heights[mid] < ends[0];
                if !bridges {
                    return Err(Illegal::Unsupported(heights));
                }
                if kind == PieceType::T {
                    return Err(Illegal::TriangleBridge(heights));
                }
                ends[0] + 1
            };
            if level > 1 {
                match top_without(&pieces, to, Some(index)).1 {
                    None => return Err(Illegal::PunctOverEmpty(to)),
                    Some(c) if c != mover => return Err(Illegal::PunctOnOpponent(to, c)),
                    Some(_) => {}
                }
            }
            let mut old_sorted = *old_cells;
            let mut new_sorted = cells;
            old_sorted.sort();
            new_sorted.sort();
            if to == from && old_sorted == new_sorted && level == piece.level {
                return Err(Illegal::NoChange);
            }
            Ok(Move::Shift { from, to, rotation })
        }
    }
}
