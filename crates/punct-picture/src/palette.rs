//! The colours of the web app's light theme (static/style.css), so that a shared picture
//! looks like the board people played on.

use tiny_skia::Color;

/// A colour with its opacity, as the style sheet writes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// The colour for painting.
    pub(crate) fn color(self) -> Color {
        let [r, g, b, a] = self.0;
        Color::from_rgba8(r, g, b, a)
    }
}

const fn rgb(hex: u32) -> Rgba {
    rgba(hex, 255)
}

const fn rgba(hex: u32, alpha: u8) -> Rgba {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, alpha])
}

/// Around the board.
pub const BACKGROUND: Rgba = rgb(0xf6f4ef);
/// The board under the cells.
pub const BOARD: Rgba = rgb(0xe8e2d4);
/// An empty cell.
pub const CELL: Rgba = rgb(0xf7f3ea);
/// A cell's outline.
pub const CELL_EDGE: Rgba = rgb(0xb9ad96);
/// A cell of the central hexagon.
pub const CENTRE: Rgba = rgb(0xd6c7a6);
/// The central hexagon's outline.
pub const CENTRE_EDGE: Rgba = rgb(0x7a6a48);
/// The coordinates.
pub const LABEL: Rgba = rgb(0x333333);
/// Words said in passing (the site's name).
pub const MUTED: Rgba = rgb(0x555555);
/// The three pairs of goal sides: columns A and Q, rows 1 and 17, the diagonals.
pub const GOALS: [Rgba; 3] = [rgb(0x0072b2), rgb(0x009e73), rgb(0xd55e00)];
/// The last move's cells.
pub const LAST: Rgba = rgba(0xe69f00, 140);
/// The ring round a moved piece's start.
pub const LAST_RING: Rgba = rgb(0xe69f00);
/// The winning chain.
pub const CHAIN: Rgba = rgba(0xcc79a7, 115);
/// The chain's outline.
pub const CHAIN_EDGE: Rgba = rgb(0x8a3f6b);
/// The side to move, marked round its reserve.
pub const ACCENT: Rgba = rgb(0x0072b2);
/// A raised piece's shadow.
pub const SHADOW: Rgba = rgba(0x000000, 71);
/// A raised piece's level badge.
pub const BADGE: Rgba = rgb(0x0b3d91);
/// The level number and the badge's ring.
pub const WHITE: Rgba = rgb(0xffffff);

/// One side's piece colours.
pub struct Side {
    /// The tile under the dots.
    pub tile: Rgba,
    /// The tile's outline.
    pub edge: Rgba,
    /// The two minor dots.
    pub dot: Rgba,
    /// The PÜNCT dot.
    pub punct: Rgba,
}

/// White's and Black's pieces.
pub const SIDES: [Side; 2] = [
    Side {
        tile: rgb(0xf5f1e8),
        edge: rgb(0x4a4339),
        dot: rgb(0x3a3a3a),
        punct: rgb(0xd55e00),
    },
    Side {
        tile: rgb(0x2a2a2a),
        edge: rgb(0x000000),
        dot: rgb(0xece8df),
        punct: rgb(0xe69f00),
    },
];
