//! Text for captions, in DejaVu Sans Bold (fonts/, cut down to the Latin, Greek and Cyrillic
//! letters): each glyph's outline filled as a path, left to right with no shaping, which is
//! enough for names. A character the font lacks is drawn as its empty box.

use std::sync::OnceLock;

use tiny_skia::PathBuilder;
use ttf_parser::{Face, GlyphId, OutlineBuilder};

use crate::canvas::{Canvas, Point};
use crate::palette::Rgba;

const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold-subset.ttf");

/// The font, read once; `None` only if the built-in file were broken.
fn face() -> Option<&'static Face<'static>> {
    static FACE: OnceLock<Option<Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| Face::parse(FONT, 0).ok()).as_ref()
}

/// The glyphs of `text` with where each begins, in font units, and the whole width.
fn glyphs(face: &Face, text: &str) -> (Vec<(GlyphId, f32)>, f32) {
    let mut at = 0.0;
    let mut out = Vec::with_capacity(text.len());
    for ch in text.chars() {
        let id = face.glyph_index(ch).unwrap_or(GlyphId(0));
        out.push((id, at));
        at += f32::from(face.glyph_hor_advance(id).unwrap_or(0));
    }
    (out, at)
}

/// How wide `text` is, in pixels, set `size` pixels to the em.
pub(crate) fn width(text: &str, size: f32) -> f32 {
    face().map_or(0.0, |f| {
        glyphs(f, text).1 * size / f32::from(f.units_per_em())
    })
}

/// `text`, or as much of it as fits in `max` pixels at `size` followed by "…".
pub(crate) fn fit(text: &str, size: f32, max: f32) -> String {
    if width(text, size) <= max {
        return text.to_owned();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let short: String = chars.iter().collect::<String>().trim_end().to_owned() + "…";
        if width(&short, size) <= max {
            return short;
        }
    }
    String::new()
}

/// Maps a glyph's outline (font units, y up) onto the picture (pixels, y down).
struct Outline<'a> {
    path: &'a mut PathBuilder,
    origin: Point,
    scale: f32,
}

impl Outline<'_> {
    fn at(&self, x: f32, y: f32) -> Point {
        (
            self.origin.0 + x * self.scale,
            self.origin.1 - y * self.scale,
        )
    }
}

impl OutlineBuilder for Outline<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        self.path.move_to(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        self.path.line_to(x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let ((x1, y1), (x, y)) = (self.at(x1, y1), self.at(x, y));
        self.path.quad_to(x1, y1, x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let ((x1, y1), (x2, y2), (x, y)) = (self.at(x1, y1), self.at(x2, y2), self.at(x, y));
        self.path.cubic_to(x1, y1, x2, y2, x, y);
    }

    fn close(&mut self) {
        self.path.close();
    }
}

/// Writes `text` on `canvas` (in its pixels) with the left end of its baseline at `origin`,
/// `size` pixels to the em.
pub(crate) fn write(canvas: &mut Canvas, text: &str, origin: Point, size: f32, colour: Rgba) {
    let Some(face) = face() else {
        return;
    };
    let scale = size / f32::from(face.units_per_em());
    let mut path = PathBuilder::new();
    for (id, x) in glyphs(face, text).0 {
        let mut outline = Outline {
            path: &mut path,
            origin: (origin.0 + x * scale, origin.1),
            scale,
        };
        face.outline_glyph(id, &mut outline);
    }
    if let Some(path) = path.finish() {
        canvas.fill_path(&path, colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_reads_and_measures_text_by_its_letters() {
        assert!(face().is_some());
        let (one, two) = (width("M", 20.0), width("MM", 20.0));
        assert!(one > 10.0 && (two - 2.0 * one).abs() < 0.01, "{one} {two}");
        assert!(width("Ștefan Żółć Ελένη Пётр", 20.0) > width("Ștefan", 20.0));
        assert!((width("i", 40.0) - 2.0 * width("i", 20.0)).abs() < 0.01);
    }

    #[test]
    fn a_long_text_is_cut_with_an_ellipsis_to_fit() {
        let long = "Bartholomew Featherstonehaugh-Cholmondeley";
        let cut = fit(long, 30.0, 200.0);
        assert!(cut.ends_with('…') && width(&cut, 30.0) <= 200.0, "{cut}");
        assert!(long.starts_with(cut.trim_end_matches('…')));
        assert_eq!(fit("Ada", 30.0, 200.0), "Ada");
        assert_eq!(fit("Ada", 30.0, 1.0), "");
    }
}
