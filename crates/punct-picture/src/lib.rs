//! PÜNCT positions as pictures, drawn as the web app draws its board (same orientation,
//! hexagonal cells, coloured goal sides, pieces as three dots on one tile with the PÜNCT
//! marked, stacks offset and numbered, the last move highlighted): a position to a PNG
//! (1200×630 by default, the size of a link preview), a game to an animated GIF.
//!
//! Pure Rust (tiny-skia draws, the `gif` crate animates). The board's coordinates are drawn in
//! a small block font; a shared picture's caption (the players' names, their scores, the
//! site's name) in DejaVu Sans Bold, built in.
//!
//! ```
//! use punct_core::{Move, Position, Variant};
//! let mut pos = Position::new(Variant::Standard);
//! let mv = Move::parse("TE4:0").unwrap();
//! pos.play(mv).unwrap();
//! let png = punct_picture::png(&pos, Some(mv), &punct_picture::Options::default()).unwrap();
//! assert!(png.starts_with(b"\x89PNG"));
//! ```

#![warn(missing_docs)]

mod animation;
mod board;
mod canvas;
mod caption;
mod glyphs;
mod layout;
pub mod palette;
mod piece;
mod scene;
mod text;

pub use animation::{Animation, frames, gif};
pub use caption::Caption;
pub use scene::{SIDE_LIMITS, Scene};

use punct_core::{Move, Position};

/// A picture's size and orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The board turned half round, Black at the bottom, as Black's players see it.
    pub flipped: bool,
}

impl Default for Options {
    /// 1200×630, the size link previews show.
    fn default() -> Options {
        Options {
            width: 1200,
            height: 630,
            flipped: false,
        }
    }
}

/// Why no picture was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// A side of the picture is outside [`SIDE_LIMITS`].
    #[error("a picture is {min} to {max} pixels a side, not {width}×{height}", min = SIDE_LIMITS.start(), max = SIDE_LIMITS.end())]
    Size {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
    },
    /// The encoder failed.
    #[error("the picture could not be encoded: {0}")]
    Encoding(String),
}

/// The PNG of `pos`, with `last`, the move that led to it, marked.
pub fn png(pos: &Position, last: Option<Move>, options: &Options) -> Result<Vec<u8>, PictureError> {
    encode(&Scene::new(options)?.picture(pos, last), options)
}

/// The PNG of `pos` as [`png`] draws it, with `caption` beside the board.
pub fn captioned_png(
    pos: &Position,
    last: Option<Move>,
    options: &Options,
    caption: &Caption,
) -> Result<Vec<u8>, PictureError> {
    encode(&Scene::new(options)?.captioned(pos, last, caption), options)
}

fn encode(picture: &tiny_skia::Pixmap, options: &Options) -> Result<Vec<u8>, PictureError> {
    // Every pixel is opaque: RGB, a quarter less to compress, with png's fast deflate,
    // several times quicker than its default for a file a little larger.
    let rgb: Vec<u8> = picture
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let encoding = |e: ::png::EncodingError| PictureError::Encoding(e.to_string());
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, options.width, options.height);
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(::png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer.write_image_data(&rgb).map_err(encoding)?;
    writer.finish().map_err(encoding)?;
    Ok(out)
}
