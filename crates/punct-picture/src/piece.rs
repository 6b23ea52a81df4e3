//! How a PÜNCT piece looks, as static/js/board/pieces.js draws it: a tile joining three dots
//! (bars only between neighbouring dots), the PÜNCT marked by a larger dot of its own colour
//! with an eye; a raised piece drawn up and to the left, with a shadow and its level.

use punct_core::{Cell, Colour};

use crate::canvas::{Canvas, Point};
use crate::glyphs;
use crate::layout::{HEX, level_offset};
use crate::palette;

const DOT: f32 = HEX * 0.42;
const TILE: f32 = HEX * 1.5;

/// Draws a piece of `colour` at `level` covering `cells` (the PÜNCT first), whose centres
/// are `points`.
pub(crate) fn draw(
    canvas: &mut Canvas,
    cells: [Cell; 3],
    points: [Point; 3],
    colour: Colour,
    level: u8,
) {
    let off = level_offset(level);
    let pts = points.map(|(x, y)| (x - off, y - off));
    let bars: Vec<(usize, usize)> = [(0, 1), (0, 2), (1, 2)]
        .into_iter()
        .filter(|&(i, j)| cells[i].distance(cells[j]) == 1)
        .collect();
    let side = &palette::SIDES[colour.index()];
    if level > 1 {
        let shift = |(x, y): Point| (x + 3.0, y + 3.0);
        for &(i, j) in &bars {
            canvas.line(shift(pts[i]), shift(pts[j]), TILE, palette::SHADOW);
        }
        for p in pts {
            canvas.disc(shift(p), TILE / 2.0, palette::SHADOW);
        }
    }
    // The tile: its outline, then its face, as round-capped bars (a lone dot's disc for the caps).
    for (colour, grow) in [(side.edge, 1.2), (side.tile, 0.0)] {
        for &(i, j) in &bars {
            canvas.line(pts[i], pts[j], TILE + 2.0 * grow, colour);
        }
        for p in pts {
            canvas.disc(p, TILE / 2.0 + grow, colour);
        }
    }
    for (i, &p) in pts.iter().enumerate() {
        if i == 0 {
            canvas.disc(p, DOT * 1.12 + 0.6, side.dot);
            canvas.disc(p, DOT * 1.12 - 0.6, side.punct);
            canvas.disc(p, DOT * 0.5, side.tile);
        } else {
            canvas.disc(p, DOT, side.dot);
        }
    }
    if level > 1 {
        for (x, y) in pts {
            let badge = (x + HEX * 0.52, y - HEX * 0.52);
            canvas.disc(badge, 6.1, palette::WHITE);
            canvas.disc(badge, 5.1, palette::BADGE);
            glyphs::write(canvas, &level.to_string(), badge, 1.3, palette::WHITE);
        }
    }
}
