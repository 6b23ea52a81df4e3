//! A game as an animated GIF: one frame per position, from the start to the last move,
//! a pause on the last. Every frame shares one palette (made from the first and last
//! pictures, which hold the board's and both sides' colours); after the first, a frame
//! stores only the rectangle that changed, its unchanged pixels transparent (long runs that
//! compress to almost nothing), so a game of sixty moves stays small.

use std::collections::HashMap;

use color_quant::NeuQuant;
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use punct_core::{Game, Move, Position};

use crate::{Options, PictureError, Scene};

/// The palette index of a pixel that is as in the frame before (transparent).
const UNCHANGED: u8 = 255;

/// How a game is animated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Animation {
    /// The frames' size and orientation.
    pub options: Options,
    /// How long each position shows, in hundredths of a second.
    pub delay: u16,
    /// How long the last position shows before the animation starts again.
    pub last_delay: u16,
    /// The most frames: a longer game is shown from the position `max_frames - 1` moves
    /// before its end.
    pub max_frames: usize,
}

impl Default for Animation {
    fn default() -> Animation {
        Animation {
            options: Options {
                width: 800,
                height: 420,
                flipped: false,
            },
            delay: 80,
            last_delay: 400,
            max_frames: 300,
        }
    }
}

/// The frames a game gives under a bound of `max_frames`: its positions from the start
/// (or from `max_frames - 1` moves before the end), each with the move that led to it.
pub fn frames(game: &Game, max_frames: usize) -> Vec<(Position, Option<Move>)> {
    let moves = game.moves();
    let first = (moves.len() + 1).saturating_sub(max_frames.max(1));
    let mut pos = game.position_after(first);
    let mut out = vec![(pos.clone(), first.checked_sub(1).map(|i| moves[i]))];
    for &mv in &moves[first..] {
        pos.make(mv);
        out.push((pos.clone(), Some(mv)));
    }
    out
}

/// The GIF of `game`. Frames are drawn one at a time (only the one before is kept), so
/// memory does not grow with the game.
pub fn gif(game: &Game, animation: &Animation) -> Result<Vec<u8>, PictureError> {
    let scene = Scene::new(&animation.options)?;
    let frames = frames(game, animation.max_frames);
    let (width, height) = (
        animation.options.width as usize,
        animation.options.height as usize,
    );
    let draw = |(pos, mv): &(Position, Option<Move>)| scene.picture(pos, *mv);
    let sample: Vec<u8> = [frames.first(), frames.last()]
        .into_iter()
        .flatten()
        .flat_map(|frame| draw(frame).take())
        .collect();
    let quant = NeuQuant::new(10, usize::from(UNCHANGED), &sample);
    let mut palette = quant.color_map_rgb();
    palette.resize(3 * 256, 0);
    let mut encoder =
        Encoder::new(Vec::new(), width as u16, height as u16, &palette).map_err(encoding)?;
    encoder.set_repeat(Repeat::Infinite).map_err(encoding)?;
    let mut nearest: HashMap<u32, u8> = HashMap::new();
    let mut index = |px: u32| {
        *nearest
            .entry(px)
            .or_insert_with(|| quant.index_of(&px.to_le_bytes()) as u8)
    };
    let mut previous: Option<Vec<u32>> = None;
    for (i, frame) in frames.iter().enumerate() {
        // Every pixel is opaque, so the premultiplied data is the colour itself.
        let pixels: Vec<u32> = draw(frame)
            .data()
            .chunks_exact(4)
            .map(|px| u32::from_le_bytes([px[0], px[1], px[2], px[3]]))
            .collect();
        let [left, top, w, h] = match &previous {
            Some(before) => changed(before, &pixels, width),
            None => [0, 0, width, height],
        };
        let buffer: Vec<u8> = (top..top + h)
            .flat_map(|y| (y * width + left..).take(w))
            .map(|i| match &previous {
                Some(before) if before[i] == pixels[i] => UNCHANGED,
                _ => index(pixels[i]),
            })
            .collect();
        let last = i + 1 == frames.len();
        let frame = Frame {
            delay: if last {
                animation.last_delay
            } else {
                animation.delay
            },
            dispose: DisposalMethod::Keep,
            transparent: previous.is_some().then_some(UNCHANGED),
            left: left as u16,
            top: top as u16,
            width: w as u16,
            height: h as u16,
            buffer: buffer.into(),
            ..Frame::default()
        };
        encoder.write_frame(&frame).map_err(encoding)?;
        previous = Some(pixels);
    }
    encoder.into_inner().map_err(encoding)
}

/// The smallest rectangle `[left, top, width, height]` holding every pixel that differs
/// between two frames `width` pixels wide (one pixel when none does).
fn changed(before: &[u32], after: &[u32], width: usize) -> [usize; 4] {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, (a, b)) in before.iter().zip(after).enumerate() {
        if a != b {
            let (x, y) = (i % width, i / width);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    if x0 == usize::MAX {
        return [0, 0, 1, 1];
    }
    [x0, y0, x1 - x0 + 1, y1 - y0 + 1]
}

fn encoding(e: gif::EncodingError) -> PictureError {
    PictureError::Encoding(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_holds_every_change() {
        let before = vec![0u32; 12];
        let mut after = before.clone();
        after[4 + 1] = 1;
        after[2 * 4 + 2] = 1;
        assert_eq!(changed(&before, &after, 4), [1, 1, 2, 2]);
        assert_eq!(changed(&before, &before, 4), [0, 0, 1, 1]);
    }
}
