//! The board under the pieces, drawn as static/js/board/draw.js draws it: the cells, the
//! coloured goal sides, the central hexagon's outline and the coordinates; and the marks
//! between the cells and the pieces (the last move, the winning chain).

use punct_core::geometry::GOALS;
use punct_core::{Cell, Move, Position};

use crate::canvas::{Canvas, Point};
use crate::glyphs;
use crate::layout::{D, HEX, MIDDLE, centre, hex_corners, xy};
use crate::palette;

/// Which pair of goal sides a border cell is on (columns A and Q, rows 1 and 17, the
/// diagonals); `None` inside.
fn goal_of(cell: Cell) -> Option<usize> {
    GOALS
        .iter()
        .position(|[a, b]| a.contains(cell) || b.contains(cell))
}

/// Whether `cell` is one of the central hexagon's 19.
pub(crate) fn in_centre(cell: Cell) -> bool {
    cell.distance(MIDDLE) <= 2
}

/// The cells, goal sides, central hexagon and labels.
pub(crate) fn draw(canvas: &mut Canvas, flipped: bool) {
    for cell in Cell::all() {
        let at = centre(cell, flipped);
        let corners = hex_corners(at, HEX);
        let fill = if in_centre(cell) {
            palette::CENTRE
        } else {
            palette::CELL
        };
        canvas.fill_polygon(&corners, fill);
        canvas.stroke_polygon(&corners, palette::CELL_EDGE, 1.0, None);
        if let Some(goal) = goal_of(cell) {
            let dash = [None, Some([7.0, 3.0]), Some([2.0, 3.0])][goal];
            canvas.stroke_polygon(&hex_corners(at, HEX - 3.0), palette::GOALS[goal], 4.0, dash);
        }
    }
    centre_outline(canvas, flipped);
    labels(canvas, flipped);
}

/// The outer edges of the central hexagon's cells: those with no central cell beyond them.
fn centre_outline(canvas: &mut Canvas, flipped: bool) {
    for cell in Cell::all().filter(|&c| in_centre(c)) {
        let (x, y) = centre(cell, flipped);
        let corners = hex_corners((x, y), HEX);
        for i in 0..6 {
            let mid = std::f32::consts::FRAC_PI_3 * (i as f32 + 0.5);
            let beyond = (x + D * mid.cos(), y + D * mid.sin());
            let inner = Cell::all().any(|n| {
                let (nx, ny) = centre(n, flipped);
                in_centre(n) && (nx - beyond.0).hypot(ny - beyond.1) < 1.0
            });
            if !inner {
                canvas.line(corners[i], corners[(i + 1) % 6], 2.5, palette::CENTRE_EDGE);
            }
        }
    }
}

/// The least distance between two labels' centres, so that no two touch.
const LABEL_GAP: f32 = 15.0;

/// Column letters beyond each column's first cell, row numbers beyond each row's.
fn labels(canvas: &mut Canvas, flipped: bool) {
    const SIZE: f32 = 1.7;
    for (text, at) in label_places(flipped) {
        glyphs::write(canvas, &text, at, SIZE, palette::LABEL);
    }
}

/// Where the labels go, as the web board places them (static/js/board/draw.js): column A
/// and row 1 both start beside the missing corner A1, so labels that fall too close are
/// pushed apart along the line between them.
fn label_places(flipped: bool) -> Vec<(String, Point)> {
    let mut out = Vec::with_capacity(34);
    for c in 0..17 {
        if let Some(first) = (0..17).find(|&r| Cell::from_coords(c, r).is_some()) {
            let letter = char::from(b'A' + c as u8).to_string();
            out.push((letter, xy(c as f32, first as f32 - 0.85, flipped)));
        }
    }
    for r in 0..17 {
        if let Some(first) = (0..17).find(|&c| Cell::from_coords(c, r).is_some()) {
            out.push((
                (r + 1).to_string(),
                xy(first as f32 - 0.85, r as f32, flipped),
            ));
        }
    }
    for i in 0..out.len() {
        for j in i + 1..out.len() {
            let ((ax, ay), (bx, by)) = (out[i].1, out[j].1);
            let d = (bx - ax).hypot(by - ay);
            if d >= LABEL_GAP || d == 0.0 {
                continue;
            }
            let push = (LABEL_GAP - d) / 2.0 / d;
            let (dx, dy) = ((bx - ax) * push, (by - ay) * push);
            out[i].1 = (ax - dx, ay - dy);
            out[j].1 = (bx + dx, by + dy);
        }
    }
    out
}

/// The last move, `mv`, which led to `pos`: the cells of the piece it put down filled, the
/// start of a moved piece ringed.
pub(crate) fn last_move(canvas: &mut Canvas, pos: &Position, mv: Move, flipped: bool) {
    let cells = pos.piece_at(mv.destination()).and_then(|p| p.cells());
    for cell in cells.into_iter().flatten() {
        canvas.fill_polygon(
            &hex_corners(centre(cell, flipped), HEX - 1.0),
            palette::LAST,
        );
    }
    if let Move::Shift { from, .. } = mv {
        let at = centre(from, flipped);
        canvas.ring(at, HEX * 0.75, palette::LAST_RING, 3.0, Some([4.0, 3.0]));
    }
}

/// The dots of a connection between two opposite sides, for either side that has one.
pub(crate) fn chains(canvas: &mut Canvas, pos: &Position, flipped: bool) {
    for colour in [punct_core::Colour::White, punct_core::Colour::Black] {
        for cell in pos.winning_chain(colour) {
            let corners = hex_corners(centre(cell, flipped), HEX - 1.5);
            canvas.fill_polygon(&corners, palette::CHAIN);
            canvas.stroke_polygon(&corners, palette::CHAIN_EDGE, 3.0, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_labels_touch_either_way_up() {
        for flipped in [false, true] {
            let places = label_places(flipped);
            assert_eq!(places.len(), 34);
            for (i, (a, (ax, ay))) in places.iter().enumerate() {
                for (b, (bx, by)) in &places[i + 1..] {
                    let d = (bx - ax).hypot(by - ay);
                    assert!(d >= LABEL_GAP - 1e-3, "{a} and {b} are {d} apart");
                }
            }
        }
    }

    #[test]
    fn the_centre_has_nineteen_cells() {
        assert_eq!(Cell::all().filter(|&c| in_centre(c)).count(), 19);
        assert!(in_centre(Cell::parse("K10").unwrap()));
        assert!(!in_centre(Cell::parse("L9").unwrap()));
    }
}
