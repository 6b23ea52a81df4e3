//! Where the board's cells lie, in the web board's units (static/js/board/layout.js): a
//! cell's centre, the hexagon round it, and the board's extent. The picture scales these
//! units to its pixels, so that strokes and radii keep the web app's proportions.

use punct_core::Cell;

/// The distance between neighbouring cell centres.
pub(crate) const D: f32 = 30.0;
/// A cell's hexagon radius.
pub(crate) const HEX: f32 = D / 1.732_050_8;
/// The board's middle cell, I9.
pub(crate) const MIDDLE: Cell = match Cell::from_coords(8, 8) {
    Some(cell) => cell,
    None => panic!("I9 is a cell"),
};
/// The room round the cells, for the labels.
const PAD: f32 = 1.4 * D;

/// The centre of the cell at column `c`, row `r` (fractional for label places); `flipped`
/// turns the board half round (Black at the bottom).
pub(crate) fn xy(c: f32, r: f32, flipped: bool) -> (f32, f32) {
    let x = 3f32.sqrt() / 2.0 * c * D;
    let y = (0.5 * c - r) * D;
    if flipped { (-x, -y) } else { (x, y) }
}

/// The centre of `cell`.
pub(crate) fn centre(cell: Cell, flipped: bool) -> (f32, f32) {
    let (c, r) = cell.coords();
    xy(c as f32, r as f32, flipped)
}

/// The corners of a flat-topped hexagon of radius `rad` round `(cx, cy)`.
pub(crate) fn hex_corners((cx, cy): (f32, f32), rad: f32) -> [(f32, f32); 6] {
    std::array::from_fn(|i| {
        let a = std::f32::consts::FRAC_PI_3 * i as f32;
        (cx + rad * a.cos(), cy + rad * a.sin())
    })
}

/// The board's extent with room for the labels: left, top, width, height.
pub(crate) fn extent(flipped: bool) -> [f32; 4] {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for cell in Cell::all() {
        let (x, y) = centre(cell, flipped);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    [x0 - PAD, y0 - PAD, x1 - x0 + 2.0 * PAD, y1 - y0 + 2.0 * PAD]
}

/// How far a piece at `level` is drawn up and to the left of its cells, so that stacks show
/// their height.
pub(crate) fn level_offset(level: u8) -> f32 {
    f32::from(level.saturating_sub(1)) * HEX * 0.22
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_one_step_apart() {
        let e4 = Cell::parse("E4").unwrap();
        for n in punct_core::Direction::ALL
            .iter()
            .filter_map(|&d| e4.neighbour(d))
        {
            let ((x1, y1), (x2, y2)) = (centre(e4, false), centre(n, false));
            assert!(((x1 - x2).hypot(y1 - y2) - D).abs() < 1e-3, "{n}");
        }
    }

    #[test]
    fn the_first_row_is_at_the_bottom_unless_flipped() {
        let (a, b) = (Cell::parse("E2").unwrap(), Cell::parse("E9").unwrap());
        assert!(centre(a, false).1 > centre(b, false).1);
        assert!(centre(a, true).1 < centre(b, true).1);
    }
}
