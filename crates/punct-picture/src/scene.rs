//! A whole picture of a position: the board scaled to the picture's height in the middle,
//! the marks and pieces on it, and each side's reserve beside it when there is room, the
//! side to move framed.

use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use punct_core::{Cell, Colour, Move, PieceType, Position};
use tiny_skia::{Pixmap, PixmapPaint, Transform};

use crate::canvas::{Canvas, Point};
use crate::layout::{HEX, MIDDLE, centre, extent, level_offset, xy};
use crate::palette;
use crate::{Caption, Options, PictureError, board, caption, piece};

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
    /// Each look of a piece drawn once, then copied: a frame holds up to 36 pieces on the
    /// board and 36 in the reserves, a few dozen shapes each.
    sprites: RefCell<HashMap<Look, Pixmap>>,
}

/// What a piece's picture depends on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Look {
    /// On the board.
    Board {
        kind: PieceType,
        rotation: u8,
        colour: Colour,
        level: u8,
    },
    /// In a reserve.
    Icon { kind: PieceType, colour: Colour },
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
            sprites: RefCell::default(),
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
        self.draw(pos, last, None)
    }

    /// The picture of `pos` with `caption`'s names, scores and site over the reserves (when
    /// the picture is wide enough to have them beside the board; else as [`Scene::picture`]).
    pub fn captioned(&self, pos: &Position, last: Option<Move>, caption: &Caption) -> Pixmap {
        self.draw(pos, last, Some(caption))
    }

    fn draw(&self, pos: &Position, last: Option<Move>, caption: Option<&Caption>) -> Pixmap {
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
        let scale = self.board.sx;
        for p in pieces {
            let Some(cells) = p.cells() else {
                continue;
            };
            let look = Look::Board {
                kind: p.kind,
                rotation: p.rotation,
                colour: p.colour,
                level: p.level,
            };
            let points = cells.map(|c| centre(c, flipped));
            // The box round its dots that the piece's picture fills: a tile's half, the
            // shadow and level badge beyond them, and its offset up the stack.
            let reach = HEX * 1.2 + level_offset(p.level);
            let (xs, ys) = (
                points.map(|q| q.0 - points[0].0),
                points.map(|q| q.1 - points[0].1),
            );
            let low = (min(xs) - reach, min(ys) - reach);
            let size = (max(xs) - low.0 + reach, max(ys) - low.1 + reach);
            let at = self.centre_of(cells[0]);
            let corner = (low.0 * scale, low.1 * scale);
            self.stamp(
                &mut canvas,
                look,
                at,
                corner,
                (size.0 * scale, size.1 * scale),
                |c, origin| {
                    c.transform = Transform::from_translate(-points[0].0, -points[0].1)
                        .post_scale(scale, scale)
                        .post_translate(origin.0, origin.1);
                    piece::draw(c, cells, points, p.colour, p.level);
                },
            );
        }
        if let Some(boxes) = self.reserves {
            // A game over (in the position, or by its caption's result) has no side to move.
            let over =
                pos.decisive_outcome().is_some() || caption.is_some_and(|c| c.outcome.is_some());
            let to_move = (!over).then(|| pos.turn());
            for colour in [Colour::White, Colour::Black] {
                let frame = boxes[colour.index()];
                let pieces = caption.map_or(frame, |_| caption::pieces_box(frame));
                self.reserve(
                    &mut canvas,
                    pos,
                    colour,
                    frame,
                    pieces,
                    to_move == Some(colour),
                );
                if let Some(caption) = caption {
                    caption::name(&mut canvas, caption, colour, frame);
                }
            }
            if let Some(caption) = caption {
                caption::site(&mut canvas, caption, boxes[Colour::White.index()]);
            }
        }
        canvas.pixmap
    }

    /// Copies the picture of `look` onto `canvas` with its anchor on pixel `at`: a box
    /// `size` pixels large whose top left is `corner` from the anchor. Draws it first (with
    /// `draw`, given the anchor's place in the box) if this scene has not drawn it yet.
    fn stamp(
        &self,
        canvas: &mut Canvas,
        look: Look,
        at: Point,
        corner: Point,
        size: (f32, f32),
        draw: impl FnOnce(&mut Canvas, Point),
    ) {
        let mut sprites = self.sprites.borrow_mut();
        let sprite = match sprites.entry(look) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let (w, h) = (size.0.ceil() as u32 + 2, size.1.ceil() as u32 + 2);
                let Some(pixmap) = Pixmap::new(w, h) else {
                    return;
                };
                let mut sprite = Canvas {
                    pixmap,
                    transform: Transform::identity(),
                };
                draw(&mut sprite, (1.0 - corner.0, 1.0 - corner.1));
                e.insert(sprite.pixmap)
            }
        };
        // To the nearest pixel: half a pixel off at most.
        let x = (at.0 + corner.0 - 1.0).round() as i32;
        let y = (at.1 + corner.1 - 1.0).round() as i32;
        let paint = PixmapPaint::default();
        canvas
            .pixmap
            .draw_pixmap(x, y, sprite.as_ref(), &paint, Transform::identity(), None);
    }

    /// One side's pieces in hand, a row per type, in the box `pieces` within its frame
    /// `[left, top, width, height]`.
    fn reserve(
        &self,
        canvas: &mut Canvas,
        pos: &Position,
        colour: Colour,
        [x, y, w, h]: [f32; 4],
        pieces: [f32; 4],
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
        let [x, y, w, h] = pieces;
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
                let size = slot * 0.92;
                let half = 0.6 * size;
                let look = Look::Icon { kind, colour };
                let square = (2.0 * half, 2.0 * half);
                self.stamp(canvas, look, middle, (-half, -half), square, |c, at| {
                    icon(c, kind, colour, at, size);
                });
            }
        }
        canvas.transform = Transform::identity();
    }
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

fn min(v: [f32; 3]) -> f32 {
    v.into_iter().fold(f32::MAX, f32::min)
}

fn max(v: [f32; 3]) -> f32 {
    v.into_iter().fold(f32::MIN, f32::max)
}
