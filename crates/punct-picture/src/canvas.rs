//! A pixmap drawn on in the board's units: the few shapes the board is made of, each
//! filled or stroked with anti-aliasing.

use tiny_skia::{
    FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

use crate::palette::Rgba;

/// A point in the board's units.
pub(crate) type Point = (f32, f32);

/// The picture being drawn, and the map from board units to its pixels.
pub(crate) struct Canvas {
    pub pixmap: Pixmap,
    pub transform: Transform,
}

fn paint(colour: Rgba) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(colour.color());
    paint.anti_alias = true;
    paint
}

fn polygon(points: &[Point]) -> Option<Path> {
    let mut pb = PathBuilder::new();
    let (&(x, y), rest) = points.split_first()?;
    pb.move_to(x, y);
    for &(x, y) in rest {
        pb.line_to(x, y);
    }
    pb.close();
    pb.finish()
}

impl Canvas {
    /// Fills the closed polygon through `points`.
    pub fn fill_polygon(&mut self, points: &[Point], colour: Rgba) {
        if let Some(path) = polygon(points) {
            self.fill(&path, colour);
        }
    }

    /// Strokes the closed polygon through `points`, dashed when `dash` is given.
    pub fn stroke_polygon(
        &mut self,
        points: &[Point],
        colour: Rgba,
        width: f32,
        dash: Option<[f32; 2]>,
    ) {
        if let Some(path) = polygon(points) {
            let stroke = Stroke {
                width,
                line_cap: LineCap::Round,
                dash: dash.and_then(|[on, off]| StrokeDash::new(vec![on, off], 0.0)),
                ..Stroke::default()
            };
            self.stroke(&path, colour, &stroke);
        }
    }

    /// A disc of radius `r` round `centre`.
    pub fn disc(&mut self, (x, y): Point, r: f32, colour: Rgba) {
        if let Some(path) = PathBuilder::from_circle(x, y, r) {
            self.fill(&path, colour);
        }
    }

    /// A circle of radius `r` round `centre`, its line `width` wide, dashed when `dash` is given.
    pub fn ring(
        &mut self,
        (x, y): Point,
        r: f32,
        colour: Rgba,
        width: f32,
        dash: Option<[f32; 2]>,
    ) {
        if let Some(path) = PathBuilder::from_circle(x, y, r) {
            let stroke = Stroke {
                width,
                dash: dash.and_then(|[on, off]| StrokeDash::new(vec![on, off], 0.0)),
                ..Stroke::default()
            };
            self.stroke(&path, colour, &stroke);
        }
    }

    /// A straight line `width` wide with round ends.
    pub fn line(&mut self, (x1, y1): Point, (x2, y2): Point, width: f32, colour: Rgba) {
        let mut pb = PathBuilder::new();
        pb.move_to(x1, y1);
        pb.line_to(x2, y2);
        if let Some(path) = pb.finish() {
            let stroke = Stroke {
                width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            self.stroke(&path, colour, &stroke);
        }
    }

    /// A filled rectangle.
    pub fn rect(&mut self, (x, y): Point, (w, h): (f32, f32), colour: Rgba) {
        if let Some(rect) = Rect::from_xywh(x, y, w, h) {
            self.pixmap
                .fill_rect(rect, &paint(colour), self.transform, None);
        }
    }

    /// A filled rectangle with corners rounded by `r`.
    pub fn rounded_rect(&mut self, (x, y): Point, (w, h): (f32, f32), r: f32, colour: Rgba) {
        let mut pb = PathBuilder::new();
        pb.move_to(x + r, y);
        pb.line_to(x + w - r, y);
        pb.quad_to(x + w, y, x + w, y + r);
        pb.line_to(x + w, y + h - r);
        pb.quad_to(x + w, y + h, x + w - r, y + h);
        pb.line_to(x + r, y + h);
        pb.quad_to(x, y + h, x, y + h - r);
        pb.line_to(x, y + r);
        pb.quad_to(x, y, x + r, y);
        pb.close();
        if let Some(path) = pb.finish() {
            self.fill(&path, colour);
        }
    }

    /// Fills `path` (a text's glyphs).
    pub fn fill_path(&mut self, path: &Path, colour: Rgba) {
        self.fill(path, colour);
    }

    fn fill(&mut self, path: &Path, colour: Rgba) {
        self.pixmap.fill_path(
            path,
            &paint(colour),
            FillRule::Winding,
            self.transform,
            None,
        );
    }

    fn stroke(&mut self, path: &Path, colour: Rgba, stroke: &Stroke) {
        self.pixmap
            .stroke_path(path, &paint(colour), stroke, self.transform, None);
    }
}
