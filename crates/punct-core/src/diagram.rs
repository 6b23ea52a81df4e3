//! A plain-text drawing of a position, for terminals and logs.
//!
//! Rows run from 17 at the top to 1 at the bottom; columns run diagonally down to the right,
//! labelled below their lowest cell. Each cell shows its top dot as the owner's letter
//! (capital for a PÜNCT dot) and the dot's level; `.` is empty board and `+` empty board in
//! the central hexagon.

use std::fmt::Write as _;

use crate::cell::Cell;
use crate::geometry::CENTRE;
use crate::piece::{Colour, PieceType};
use crate::position::Position;

const LEFT: i32 = 18;

fn column_x(c: i32, r: i32) -> usize {
    (4 * c - 2 * r + LEFT) as usize
}

/// Draws the board only.
pub fn board(pos: &Position) -> String {
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for r in (0..17).rev() {
        let mut line = vec![b' '; 80];
        let mut first = None;
        for c in 0..17 {
            let Some(cell) = Cell::from_coords(c, r) else {
                continue;
            };
            let x = column_x(c, r);
            first.get_or_insert(x);
            let text = match pos.top(cell) {
                None if CENTRE.contains(cell) => "+".to_owned(),
                None => ".".to_owned(),
                Some(dot) => {
                    let letter = dot.piece.colour.letter();
                    let letter = if dot.is_punct {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    };
                    format!("{letter}{}", dot.piece.level)
                }
            };
            line[x..x + text.len()].copy_from_slice(text.as_bytes());
        }
        let label = format!("{:>2}", r + 1);
        if let Some(first) = first {
            line[first - 4..first - 2].copy_from_slice(label.as_bytes());
        }
        lines.push(line);
    }
    // Column letters one step below each column's lowest cell: on an extra line for A to I,
    // along the lower right edge for J to Q.
    let mut bottom = vec![b' '; 80];
    for c in 0..17 {
        let letter = b'A' + c as u8;
        if c <= 8 {
            bottom[column_x(c, -1)] = letter;
        } else {
            let low = c - 8 + i32::from(c == 16);
            lines[(17 - low) as usize][column_x(c, low - 1)] = letter;
        }
    }
    lines.push(bottom);
    let mut out = String::new();
    for line in lines {
        let text = String::from_utf8_lossy(&line);
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// Draws the board, the reserves, whose turn it is, the centre count and the status.
pub fn diagram(pos: &Position) -> String {
    let mut out = board(pos);
    for colour in Colour::ALL {
        let reserve = pos.reserve(colour);
        let _ = write!(out, "{:<6} reserve:", colour.name());
        for t in PieceType::ALL {
            let _ = write!(out, " {}×{}", t.letter(), reserve.get(t));
        }
        let _ = writeln!(out, "  ({} left)", reserve.total());
    }
    let [w, b] = pos.centre_count();
    let _ = writeln!(out, "centre: White {w}, Black {b}");
    match pos.outcome() {
        Some(outcome) => {
            let _ = writeln!(out, "game over: {outcome}");
        }
        None => {
            let _ = writeln!(out, "{} to move, ply {}", pos.turn(), pos.ply());
        }
    }
    out
}
