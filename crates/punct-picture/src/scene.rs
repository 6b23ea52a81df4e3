//! A whole picture of a position: the board scaled to the picture's height in the middle,
//! the marks and pieces on it, and each side's reserve beside it when there is room, the
//! side to move framed.

use punct_core::{Cell, Colour, Move, PieceType, Position};
use tiny_skia::{Pixmap, Transform};

use crate::canvas::{Canvas, Point};
use crate::layout::{MIDDLE, centre, extent, xy};
use crate::palette;
use crate::{Options, PictureError, board, piece};

/// The smallest and largest side of a picture, in pixels.
pub const SIDE_LIMITS: std::ops::RangeInclusive<u32> = 16..=4096;

/// The pictures of one size and orientation: the board drawn once, the pieces of each
/// position on a copy of it.
pub struct Scene {
    base: Pixmap,
    board: Transform,
    /// The two reserves' boxes (left, top, width, height in pixels), White's first, when
    /// there is room for them.
    reserves: Option<[[f32; 4]; 2]>,
    flipped: bool,
}

impl Scene {
    /// The board for pictures of `options`' size and orientation; refuses sizes outside
    /// [`SIDE_LIMITS`].
    pub fn new(options: &Options) -> Result<Scene, PictureError> {
        let (w, h) = (options.width, options.height);
        if !SIDE_LIMITS.contains(&w) || !SIDE_LIMITS.contains(&h) {
            return Err(PictureError::Size {
                width: w,
                height: h,
            });
        }
        let (wf, hf) = (w as f32, h as f32);
        let [x0, y0, bw, bh] = extent(options.flipped);
        let margin = (hf.min(wf) * 0.02).round();
        let scale = ((hf - 2.0 * margin) / bh).min((wf - 2.0 * margin) / bw);
        let (left, top) = ((wf - bw * scale) / 2.0, (hf - bh * scale) / 2.0);
        let board = Transform::from_translate(-x0, -y0)
            .post_scale(scale, scale)
            .post_translate(left, top);
        let side = left - 2.0 * margin;
        let reserves = (side >= 0.25 * hf).then(|| {
            let height = hf - 2.0 * margin;
            [
                [margin, margin, side, height],
                [wf - margin - side, margin, side, height],
            ]
        });
        let pixmap = Pixmap::new(w, h).ok_or(PictureError::Size {
            width: w,
            height: h,
        })?;
        let mut canvas = Canvas {
            pixmap,
            transform: Transform::identity(),
        };
        canvas.pixmap.fill(palette::BACKGROUND.color());
        canvas.transform = board;
        canvas.rounded_rect((x0, y0), (bw, bh), 8.0 / scale, palette::BOARD);
        board::draw(&mut canvas, options.flipped);
        Ok(Scene {
            base: canvas.pixmap,
            board,
            reserves,
            flipped: options.flipped,
        })
    }

    /// Where the centre of `cell` lies in the pictures, in pixels from the top left.
    pub fn centre_of(&self, cell: Cell) -> (f32, f32) {
        let (x, y) = centre(cell, self.flipped);
        let t = self.board;
        (t.sx * x + t.kx * y + t.tx, t.ky * x + t.sy * y + t.ty)
    }

    /// The picture of `pos`, with `last`, the move that led to it, marked.
    pub fn picture(&self, pos: &Position, last: Option<Move>) -> Pixmap {
        let mut canvas = Canvas {
            pixmap: self.base.clone(),
            transform: self.board,
        };
        let flipped = self.flipped;
        if let Some(mv) = last {
            board::last_move(&mut canvas, pos, mv, flipped);
        }
        board::chains(&mut canvas, pos, flipped);
        let mut pieces = pos.pieces();
        pieces.sort_by_key(|p| p.level);
        for p in pieces {
            if let Some(cells) = p.cells() {
                piece::draw(
                    &mut canvas,
                    cells,
                    cells.map(|c| centre(c, flipped)),
                    p.colour,
                    p.level,
                );
            }
        }
        if let Some(boxes) = self.reserves {
            let to_move = pos.decisive_outcome().is_none().then(|| pos.turn());
            for colour in [Colour::White, Colour::Black] {
                reserve(
                    &mut canvas,
                    pos,
                    colour,
                    boxes[colour.index()],
                    to_move == Some(colour),
                );
            }
        }
        canvas.pixmap
    }
}

/// One side's pieces in hand, a row per type, in the box `[left, top, width, height]`.
fn reserve(
    canvas: &mut Canvas,
    pos: &Position,
    colour: Colour,
    [x, y, w, h]: [f32; 4],
    to_move: bool,
) {
    canvas.transform = Transform::identity();
    let radius = 0.04 * w;
    if to_move {
        canvas.rounded_rect((x, y), (w, h), radius, palette::ACCENT);
        let inset = (0.012 * h).max(2.0);
        canvas.rounded_rect(
            (x + inset, y + inset),
            (w - 2.0 * inset, h - 2.0 * inset),
            radius,
            palette::BOARD,
        );
    } else {
        canvas.rounded_rect((x, y), (w, h), radius, palette::BOARD);
    }
    let in_hand = pos.reserve(colour);
    let row = h / PieceType::ALL.len() as f32;
    let most = f32::from(PieceType::T.count());
    let slot = (0.9 * w / most).min(row);
    for (i, kind) in PieceType::ALL.into_iter().enumerate() {
        let count = in_hand.get(kind);
        let left = x + (w - slot * f32::from(count)) / 2.0;
        for k in 0..count {
            let middle = (
                left + slot * (f32::from(k) + 0.5),
                y + row * (i as f32 + 0.5),
            );
            icon(canvas, kind, colour, middle, slot * 0.92);
        }
    }
    canvas.transform = Transform::identity();
}

/// A piece of `kind` drawn to fit a square `size` wide round `middle`.
fn icon(canvas: &mut Canvas, kind: PieceType, colour: Colour, middle: Point, size: f32) {
    let at = MIDDLE;
    let rotation = if kind == PieceType::R { 1 } else { 0 };
    let Some(cells) = kind.footprint(at, rotation) else {
        return;
    };
    let points = cells.map(|c| {
        let (col, row) = c.coords();
        xy(col as f32, row as f32, false)
    });
    let (xs, ys) = (points.map(|p| p.0), points.map(|p| p.1));
    let span = |v: [f32; 3]| {
        let (lo, hi) = (
            v.iter().copied().fold(f32::MAX, f32::min),
            v.iter().copied().fold(f32::MIN, f32::max),
        );
        (lo, hi)
    };
    let ((x0, x1), (y0, y1)) = (span(xs), span(ys));
    // The tile reaches a little over half a cell beyond the outer dots.
    let reach = crate::layout::D * 1.5;
    let scale = size / ((x1 - x0).max(y1 - y0) + reach);
    canvas.transform = Transform::from_translate(-(x0 + x1) / 2.0, -(y0 + y1) / 2.0)
        .post_scale(scale, scale)
        .post_translate(middle.0, middle.1);
    piece::draw(canvas, cells, points, colour, 1);
}
