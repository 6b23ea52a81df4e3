//! The hexagonal board as a ratatui widget.
//!
//! The geometry is the one of `punct_core::diagram`: row 17 at the top, and cell (c, r) at
//! x = k·(2c − r) so that each cell has its two lower neighbours k columns to either side on
//! the line below. The wide scale (k = 2) shows each top dot as its owner's letter and level
//! (`w1`, capital for a PÜNCT); the compact scale (k = 1) fits an 80×24 terminal and shows
//! only the level, the owner being the cell's colour. PÜNCT dots are underlined in both.

use punct_core::geometry::{CENTRE, GOALS};
use punct_core::{Bitboard, Cell, Colour, Dot, Position};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// How large the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// One character per cell, for 80×24 terminals.
    Compact,
    /// Two characters per cell (owner letter and level).
    Wide,
}

impl Scale {
    /// Columns between a cell and its lower-left or lower-right neighbour.
    const fn step(self) -> u16 {
        match self {
            Scale::Compact => 1,
            Scale::Wide => 2,
        }
    }

    /// Room left of the board for the row numbers.
    const fn margin(self) -> u16 {
        match self {
            Scale::Compact => 3,
            Scale::Wide => 4,
        }
    }

    /// Width of the whole drawing, labels included.
    pub const fn width(self) -> u16 {
        // The widest glyph and the cursor's closing bracket stand right of the last cell.
        self.margin() + 30 * self.step() + 3
    }

    /// Height of the whole drawing: 17 rows and the line of column letters.
    pub const fn height(self) -> u16 {
        18
    }

    /// Offset of (column, row) from the drawing's top-left corner. Rows −1 and below the
    /// lowest cell of a column are where its letter goes.
    fn offset(self, c: i32, r: i32) -> (u16, u16) {
        // 2c − r ranges over −7..=23 on the board, and −1 for the letters.
        let x = self.margin() as i32 + self.step() as i32 * (2 * c - r + 7);
        (x.max(0) as u16, (16 - r) as u16)
    }
}

/// What to highlight on the board besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The cell under the cursor.
    pub cursor: Option<Cell>,
    /// Cells of the piece moved last.
    pub last_move: Bitboard,
    /// Where the selected piece's PÜNCT may go in the chosen rotation.
    pub targets: Bitboard,
    /// The cells the selected piece would cover at the cursor, and whether that is legal.
    pub preview: Option<([Cell; 3], bool)>,
    /// The winner's connected dots once the game is over.
    pub chain: Bitboard,
}

/// A position drawn as a hexagon with its labels.
pub struct BoardView<'a> {
    /// The position to draw.
    pub position: &'a Position,
    /// Highlights.
    pub marks: &'a Marks,
    /// Size of the drawing.
    pub scale: Scale,
}

/// Whether `cell` lies on one of the six goal sides.
fn is_goal(cell: Cell) -> bool {
    GOALS.iter().flatten().any(|side| side.contains(cell))
}

/// The text and style of a cell without highlights.
fn glyph(dot: Option<Dot>, cell: Cell, scale: Scale) -> (String, Style) {
    let Some(dot) = dot else {
        let (text, colour) = if CENTRE.contains(cell) {
            ("+", Color::Yellow)
        } else if is_goal(cell) {
            (":", Color::Cyan)
        } else {
            (".", Color::DarkGray)
        };
        return (text.to_owned(), Style::new().fg(colour));
    };
    let piece = dot.piece;
    let level = char::from_digit(u32::from(piece.level % 10), 10).unwrap_or('?');
    let text = match scale {
        Scale::Compact => level.to_string(),
        Scale::Wide => {
            let letter = piece.colour.letter();
            let letter = if dot.is_punct {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            format!("{letter}{level}")
        }
    };
    let mut style = owner_style(piece.colour);
    if dot.is_punct {
        style = style.add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
    }
    (text, style)
}

/// The colours of a player's dots, also used for their names in the side panel.
pub fn owner_style(colour: Colour) -> Style {
    match colour {
        Colour::White => Style::new().fg(Color::Black).bg(Color::White),
        Colour::Black => Style::new().fg(Color::White).bg(Color::DarkGray),
    }
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let scale = self.scale;
        let marks = self.marks;
        let mut put = |x: u16, y: u16, text: &str, style: Style| {
            let (x, y) = (area.x + x, area.y + y);
            if y < area.bottom() && x < area.right() {
                let room = usize::from(area.right() - x);
                buf.set_stringn(x, y, text, room, style);
            }
        };
        for cell in Cell::all() {
            let (c, r) = cell.coords();
            let (x, y) = scale.offset(c, r);
            let (text, mut style) = glyph(self.position.top(cell), cell, scale);
            let previewed = marks.preview.filter(|(cells, _)| cells.contains(&cell));
            let highlight = if let Some((_, legal)) = previewed {
                Some(if legal { Color::Green } else { Color::Red })
            } else if marks.targets.contains(cell) {
                Some(Color::Cyan)
            } else if marks.chain.contains(cell) {
                Some(Color::Magenta)
            } else if marks.last_move.contains(cell) {
                Some(Color::Yellow)
            } else {
                None
            };
            if let Some(colour) = highlight {
                style = style.bg(colour).fg(Color::Black);
            }
            if marks.cursor == Some(cell) {
                style = style.add_modifier(Modifier::REVERSED);
                let width = text.chars().count() as u16;
                put(
                    x.saturating_sub(1),
                    y,
                    "[",
                    Style::new().fg(Color::LightYellow),
                );
                put(x + width, y, "]", Style::new().fg(Color::LightYellow));
            }
            put(x, y, &text, style);
        }
        let label = Style::new().fg(Color::Gray);
        for r in 0..17 {
            let first = (0..17).find(|&c| Cell::from_coords(c, r).is_some());
            if let Some(c) = first {
                let (x, y) = scale.offset(c, r);
                let text = format!("{:>2}", r + 1);
                put(x.saturating_sub(scale.margin()), y, &text, label);
            }
        }
        // Column letters one step below each column's lowest cell: on an extra line for
        // A to I, along the lower right edge for J to Q (where those spots are off the board).
        for c in 0..17 {
            let low = (0..17)
                .find(|&r| Cell::from_coords(c, r).is_some())
                .unwrap_or(0);
            let letter = char::from(b'A' + c as u8).to_string();
            let (x, y) = scale.offset(c, if c <= 8 { -1 } else { low - 1 });
            put(x, y, &letter, label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Position;

    fn style_at(buf: &Buffer, scale: Scale, name: &str) -> Style {
        let (c, r) = Cell::parse(name).unwrap().coords();
        let (x, y) = scale.offset(c, r);
        buf[(x, y)].style()
    }

    #[test]
    fn owners_punct_dots_and_highlights_have_their_styles() {
        // White's triangle on E4 (E4 E3 D3) under Black's triangle on K5.
        let pos = Position::from_text("standard w 2 wTE4:0@1,bTK5:0@1").unwrap();
        let cell = |name| Cell::parse(name).unwrap();
        let marks = Marks {
            cursor: Some(cell("I9")),
            last_move: [cell("K5"), cell("K4"), cell("J4")].into_iter().collect(),
            targets: [cell("B5")].into_iter().collect(),
            preview: Some(([cell("C7"), cell("C6"), cell("B6")], false)),
            chain: Bitboard::EMPTY,
        };
        for scale in [Scale::Compact, Scale::Wide] {
            let area = Rect::new(0, 0, scale.width(), scale.height());
            let mut buf = Buffer::empty(area);
            BoardView {
                position: &pos,
                marks: &marks,
                scale,
            }
            .render(area, &mut buf);
            let punct = style_at(&buf, scale, "E4");
            assert_eq!(punct.bg, Some(Color::White));
            assert!(punct.add_modifier.contains(Modifier::UNDERLINED));
            let minor = style_at(&buf, scale, "D3");
            assert_eq!(minor.bg, Some(Color::White));
            assert!(!minor.add_modifier.contains(Modifier::UNDERLINED));
            assert_eq!(style_at(&buf, scale, "K5").bg, Some(Color::Yellow));
            assert_eq!(style_at(&buf, scale, "B5").bg, Some(Color::Cyan));
            assert_eq!(style_at(&buf, scale, "C6").bg, Some(Color::Red));
            assert!(
                style_at(&buf, scale, "I9")
                    .add_modifier
                    .contains(Modifier::REVERSED)
            );
            assert_eq!(
                style_at(&buf, scale, "A5").fg,
                Some(Color::Cyan),
                "goal side"
            );
            assert_eq!(
                style_at(&buf, scale, "H8").fg,
                Some(Color::Yellow),
                "centre"
            );
        }
    }

    #[test]
    fn every_cell_has_its_own_spot_inside_the_drawing() {
        for scale in [Scale::Compact, Scale::Wide] {
            let mut seen = std::collections::HashSet::new();
            for cell in Cell::all() {
                let (c, r) = cell.coords();
                let (x, y) = scale.offset(c, r);
                assert!(x + 2 <= scale.width() && y < scale.height(), "{cell}");
                assert!(x >= scale.margin());
                assert!(seen.insert((x, y)));
            }
        }
    }
}
