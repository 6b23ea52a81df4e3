//! A tiny block font for the board's labels and the level numbers (A–Q, 0–9): three by five
//! squares each, enough for coordinates without a font library.

use crate::canvas::{Canvas, Point};
use crate::palette::Rgba;

/// Each glyph's squares, five rows of three, top to bottom.
const GLYPHS: [(char, &str); 27] = [
    ('0', "111101101101111"),
    ('1', "010110010010111"),
    ('2', "111001111100111"),
    ('3', "111001111001111"),
    ('4', "101101111001001"),
    ('5', "111100111001111"),
    ('6', "111100111101111"),
    ('7', "111001010010010"),
    ('8', "111101111101111"),
    ('9', "111101111001111"),
    ('A', "010101111101101"),
    ('B', "110101110101110"),
    ('C', "011100100100011"),
    ('D', "110101101101110"),
    ('E', "111100110100111"),
    ('F', "111100110100100"),
    ('G', "011100101101011"),
    ('H', "101101111101101"),
    ('I', "111010010010111"),
    ('J', "001001001101010"),
    ('K', "101101110101101"),
    ('L', "100100100100111"),
    ('M', "101111111101101"),
    ('N', "110101101101101"),
    ('O', "010101101101010"),
    ('P', "110101110100100"),
    ('Q', "010101101110011"),
];

/// Writes `text` centred on `centre`, each square `size` wide; characters without a glyph
/// are left as gaps.
pub(crate) fn write(canvas: &mut Canvas, text: &str, centre: Point, size: f32, colour: Rgba) {
    let count = text.chars().count() as f32;
    let width = (4.0 * count - 1.0) * size;
    let (x0, y0) = (centre.0 - width / 2.0, centre.1 - 2.5 * size);
    for (i, ch) in text.chars().enumerate() {
        let Some((_, bits)) = GLYPHS.iter().find(|(c, _)| *c == ch) else {
            continue;
        };
        for (j, bit) in bits.bytes().enumerate() {
            if bit == b'1' {
                let (col, row) = ((j % 3) as f32, (j / 3) as f32);
                // A hair wider than the square, so that neighbours join without seams.
                let at = (x0 + (4.0 * i as f32 + col) * size, y0 + row * size);
                canvas.rect(at, (size * 1.05, size * 1.05), colour);
            }
        }
    }
}
