//! The hexagonal board as a ratatui widget.
//!
//! The geometry is the one of `punct_core::diagram`: row 17 at the top, and cell (c, r) at
//! x = k·(2c − r) so that each cell has its two lower neighbours k columns to either side on
//! the line below. The wide and large scales (k = 2, 3) show each top dot as its owner's
//! letter and level (`w1`, capital for a PÜNCT); the compact scale (k = 1) fits an 80×24
//! terminal with one character per dot: White's level as a digit, Black's as a letter
//! (`a` for level 1, `b` for 2 …). The owner is thus in the text itself, not only in the
//! colours, for monochrome terminals and colour-blind players. PÜNCT dots are underlined and
//! bold in all three.
//!
//! Highlights never hide whose a dot is: a highlighted dot keeps its owner's colours and is
//! framed by half blocks in the highlight's colour in the gaps beside it; only empty cells
//! are filled with the highlight's colour.

use std::collections::HashMap;

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
    /// Two characters per cell (owner letter and level), one line per row.
    Wide,
    /// Two characters per cell, cells further apart and two lines per row.
    Large,
}

impl Scale {
    /// The scales from the largest down, in the order layouts try them.
    pub const LARGEST_FIRST: [Scale; 3] = [Scale::Large, Scale::Wide, Scale::Compact];

    /// Columns between a cell and its lower-left or lower-right neighbour.
    const fn step(self) -> u16 {
        match self {
            Scale::Compact => 1,
            Scale::Wide => 2,
            Scale::Large => 3,
        }
    }

    /// Screen lines from one row of cells to the next.
    const fn row_lines(self) -> u16 {
        match self {
            Scale::Compact | Scale::Wide => 1,
            Scale::Large => 2,
        }
    }

    /// Room left of the board for the row numbers.
    const fn margin(self) -> u16 {
        match self {
            Scale::Compact => 3,
            Scale::Wide | Scale::Large => 4,
        }
    }

    /// Width of the whole drawing, labels included.
    pub const fn width(self) -> u16 {
        // Right of the last cell stand the widest glyph and the cursor's closing bracket,
        // and one step further the letters of the columns P and Q.
        let bracket = self.margin() + 30 * self.step() + 3;
        let letter = self.margin() + 31 * self.step() + 1;
        if bracket > letter { bracket } else { letter }
    }

    /// Height of the whole drawing: 17 rows and the line of column letters.
    pub const fn height(self) -> u16 {
        17 * self.row_lines() + 1
    }

    /// Offset of (column, row) from the drawing's top-left corner. Rows −1 and below the
    /// lowest cell of a column are where its letter goes.
    fn offset(self, c: i32, r: i32) -> (u16, u16) {
        // 2c − r ranges over −7..=23 on the board, and −1 for the letters.
        let x = self.margin() as i32 + self.step() as i32 * (2 * c - r + 7);
        let y = self.row_lines() as i32 * (16 - r);
        (x.max(0) as u16, y.max(0) as u16)
    }
}

/// What to highlight on the board besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The cell under the cursor.
    pub cursor: Option<Cell>,
    /// Cells of the piece moved last.
    pub last_move: Bitboard,
    /// Cells of the piece picked up to be moved.
    pub origin: Bitboard,
    /// Where the selected piece's PÜNCT may go in the chosen rotation.
    pub targets: Bitboard,
    /// The cells the selected piece would cover at the cursor (or the engine's best move
    /// would cover), and whether that is legal.
    pub preview: Option<(Bitboard, bool)>,
    /// The position after the previewed move, when it is legal: the preview's cells show
    /// the dots the piece would make there, so that the piece is seen whole, in colour or
    /// not.
    pub after: Option<Position>,
    /// The winner's connected dots once the game is over.
    pub chain: Bitboard,
}

impl Marks {
    /// The dot the previewed move would leave on top of `cell`, if the preview covers it.
    fn ghost(&self, cell: Cell) -> Option<Dot> {
        let (cells, _) = self.preview?;
        cells
            .contains(cell)
            .then(|| self.after.as_ref()?.top(cell))
            .flatten()
    }

    /// The colour `cell` is highlighted in, the most telling mark first.
    fn colour(&self, cell: Cell) -> Option<Color> {
        match self.preview {
            Some((cells, legal)) if cells.contains(cell) => {
                return Some(if legal { Color::Green } else { Color::Red });
            }
            _ => {}
        }
        [
            (self.targets, Color::Cyan),
            (self.origin, Color::Blue),
            (self.chain, Color::Magenta),
            (self.last_move, Color::Yellow),
        ]
        .into_iter()
        .find(|(cells, _)| cells.contains(cell))
        .map(|(_, colour)| colour)
    }
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

/// The glyph of an empty goal cell: its side drawn as part of the hexagon's outline, so that
/// the two sides of a pair, which lie parallel, share one glyph. In the order of `GOALS`:
/// columns A and Q, rows 1 and 17, the diagonal sides.
pub const GOAL_GLYPHS: [char; 3] = ['\\', '-', '/'];

/// The glyph of `cell` when empty.
fn empty_glyph(cell: Cell) -> (char, Color) {
    if CENTRE.contains(cell) {
        return ('+', Color::Yellow);
    }
    let axis = GOALS
        .iter()
        .position(|pair| pair.iter().any(|side| side.contains(cell)));
    match axis {
        Some(axis) => (GOAL_GLYPHS[axis], Color::Cyan),
        None => ('.', Color::DarkGray),
    }
}

/// The text and style of a cell holding `dot`, without highlights.
fn dot_glyph(dot: Dot, scale: Scale) -> (String, Style) {
    let piece = dot.piece;
    let level = char::from_digit(u32::from(piece.level % 10), 10).unwrap_or('?');
    let text = match scale {
        Scale::Compact => compact_glyph(piece.colour, piece.level).to_string(),
        Scale::Wide | Scale::Large => {
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

/// The one character of a dot on the compact board: White's level as a digit, Black's as a
/// letter counting from `a` for level 1, so that owner and level read without colour.
fn compact_glyph(owner: Colour, level: u8) -> char {
    match owner {
        Colour::White => char::from_digit(u32::from(level % 10), 10).unwrap_or('?'),
        Colour::Black => level
            .checked_sub(1)
            .map_or('?', |above_first| char::from(b'a' + above_first % 26)),
    }
}

/// The colours of a player's dots, also used for their names in the side panel.
pub fn owner_style(colour: Colour) -> Style {
    match colour {
        Colour::White => Style::new().fg(Color::Black).bg(Color::White),
        Colour::Black => Style::new().fg(Color::White).bg(Color::DarkGray),
    }
}

/// A gap between cells, framing the dots on either side: the colour of its left half
/// (the frame of the cell on its left) and of its right half.
type Gap = [Option<Color>; 2];

/// The character and style that show a gap's two halves.
fn gap_glyph([left, right]: Gap) -> (&'static str, Style) {
    match (left, right) {
        (Some(l), Some(r)) => ("▌", Style::new().fg(l).bg(r)),
        (Some(l), None) => ("▌", Style::new().fg(l)),
        (None, Some(r)) => ("▐", Style::new().fg(r)),
        (None, None) => (" ", Style::new()),
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
        let mut gaps: HashMap<(u16, u16), Gap> = HashMap::new();
        let mut cursor = None;
        for cell in Cell::all() {
            let (c, r) = cell.coords();
            let (x, y) = scale.offset(c, r);
            let mark = marks.colour(cell);
            let top = self.position.top(cell);
            let ghost = marks.ghost(cell);
            let (text, mut style) = match ghost.or(top) {
                Some(dot) => dot_glyph(dot, scale),
                None => {
                    let (glyph, colour) = empty_glyph(cell);
                    (glyph.to_string(), Style::new().fg(colour))
                }
            };
            let width = text.chars().count() as u16;
            // A dot in the preview is filled with its mark like an empty cell: its text still
            // names the owner.
            match (mark, top.filter(|_| ghost.is_none())) {
                (Some(colour), Some(_)) => {
                    if x > 0 {
                        gaps.entry((x - 1, y)).or_default()[1] = Some(colour);
                    }
                    gaps.entry((x + width, y)).or_default()[0] = Some(colour);
                }
                (Some(colour), None) => style = style.bg(colour).fg(Color::Black),
                (None, _) => {}
            }
            if marks.cursor == Some(cell) {
                style = if mark.is_none() && top.is_none() {
                    style.add_modifier(Modifier::REVERSED)
                } else {
                    style.add_modifier(Modifier::BOLD)
                };
                cursor = Some((x, y, width, mark));
            }
            put(x, y, &text, style);
        }
        for ((x, y), gap) in gaps {
            let (text, style) = gap_glyph(gap);
            put(x, y, text, style);
        }
        // The brackets go over any frame in their gaps, keeping the cell's mark as their
        // background.
        if let Some((x, y, width, mark)) = cursor {
            let style = match mark {
                Some(colour) => Style::new().fg(Color::Black).bg(colour),
                None => Style::new().fg(Color::LightYellow),
            }
            .add_modifier(Modifier::BOLD);
            put(x.saturating_sub(1), y, "[", style);
            put(x + width, y, "]", style);
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

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    fn cells(names: &[&str]) -> Bitboard {
        names.iter().map(|&n| cell(n)).collect()
    }

    fn draw(pos: &Position, marks: &Marks, scale: Scale) -> Buffer {
        let area = Rect::new(0, 0, scale.width(), scale.height());
        let mut buf = Buffer::empty(area);
        BoardView {
            position: pos,
            marks,
            scale,
        }
        .render(area, &mut buf);
        buf
    }

    /// The screen spot of a cell, and of the gaps left and right of its glyph.
    fn spots(pos: &Position, scale: Scale, name: &str) -> [(u16, u16); 3] {
        let (c, r) = cell(name).coords();
        let (x, y) = scale.offset(c, r);
        let dot = pos.top(cell(name)).is_some();
        let width = if dot && scale != Scale::Compact { 2 } else { 1 };
        [(x, y), (x - 1, y), (x + width, y)]
    }

    #[test]
    fn owners_punct_dots_and_board_features_have_their_styles() {
        // White's triangle on E4 (E4 E3 D3), Black's on K5 (K5 K4 J4).
        let pos = Position::from_text("standard w 2 wTE4:0@1,bTK5:0@1").unwrap();
        for scale in Scale::LARGEST_FIRST {
            let buf = draw(&pos, &Marks::default(), scale);
            let [punct, ..] = spots(&pos, scale, "E4");
            assert_eq!(buf[punct].style().bg, Some(Color::White));
            assert!(
                buf[punct]
                    .style()
                    .add_modifier
                    .contains(Modifier::UNDERLINED)
            );
            let [minor, ..] = spots(&pos, scale, "D3");
            assert_eq!(buf[minor].style().bg, Some(Color::White));
            assert!(
                !buf[minor]
                    .style()
                    .add_modifier
                    .contains(Modifier::UNDERLINED)
            );
            let [black, ..] = spots(&pos, scale, "J4");
            assert_eq!(buf[black].style().bg, Some(Color::DarkGray));
            assert_eq!(buf[spots(&pos, scale, "H8")[0]].symbol(), "+", "centre");
            // Each goal side drawn as its edge of the hexagon: parallel sides alike.
            for (names, glyph) in [
                (["A5", "Q12"], "\\"),
                (["E1", "L17"], "-"),
                (["L4", "D12"], "/"),
            ] {
                for name in names {
                    let spot = spots(&pos, scale, name)[0];
                    assert_eq!(buf[spot].symbol(), glyph, "{name} at {scale:?}");
                    assert_eq!(buf[spot].style().fg, Some(Color::Cyan));
                }
            }
        }
    }

    #[test]
    fn compact_dots_name_owner_and_level_in_their_character() {
        // White's triangle on E4 jumped onto by White's at level 2; Black's at K5 level 1.
        let pos = Position::from_text("standard b 5 wTE4:0@1,bTK5:0@1,wTE4:0@2").unwrap();
        let buf = draw(&pos, &Marks::default(), Scale::Compact);
        let symbol = |name| {
            buf[spots(&pos, Scale::Compact, name)[0]]
                .symbol()
                .to_owned()
        };
        assert_eq!(symbol("E4"), "2");
        assert_eq!(symbol("K5"), "a");
        assert_eq!(symbol("J4"), "a");
        assert_eq!(compact_glyph(Colour::Black, 2), 'b');
        assert_eq!(compact_glyph(Colour::White, 3), '3');
        // Levels no game reaches still give one character, never a panic.
        assert_eq!(compact_glyph(Colour::Black, 0), '?');
        assert_eq!(compact_glyph(Colour::Black, 255), 'u');
        assert_eq!(compact_glyph(Colour::White, 12), '2');
    }

    #[test]
    fn highlighted_dots_keep_their_owners_colours_inside_a_frame() {
        let pos = Position::from_text("standard w 2 wTE4:0@1,bTK5:0@1").unwrap();
        let marks = Marks {
            cursor: Some(cell("E4")),
            last_move: cells(&["K5", "K4", "J4"]),
            targets: cells(&["B5", "D3"]),
            preview: Some((cells(&["C7", "C6", "B6"]), false)),
            ..Marks::default()
        };
        for scale in Scale::LARGEST_FIRST {
            let buf = draw(&pos, &marks, scale);
            // Black's last move: its dots in Black's colours, framed in yellow.
            let [k5, left, right] = spots(&pos, scale, "K5");
            assert_eq!(buf[k5].style().bg, Some(Color::DarkGray), "{scale:?}");
            assert_eq!(buf[left].symbol(), "▐");
            assert_eq!(buf[left].style().fg, Some(Color::Yellow));
            assert_eq!(buf[right].style().fg, Some(Color::Yellow));
            // A target on White's dot: White's colours framed in cyan.
            let [d3, left, _] = spots(&pos, scale, "D3");
            assert_eq!(buf[d3].style().bg, Some(Color::White));
            assert_eq!(buf[left].style().fg, Some(Color::Cyan));
            // Empty cells are filled with their mark.
            assert_eq!(
                buf[spots(&pos, scale, "B5")[0]].style().bg,
                Some(Color::Cyan)
            );
            assert_eq!(
                buf[spots(&pos, scale, "C6")[0]].style().bg,
                Some(Color::Red)
            );
            // The cursor on a dot: brackets, and the dot still in its owner's colours.
            let [e4, left, right] = spots(&pos, scale, "E4");
            assert_eq!(buf[e4].style().bg, Some(Color::White));
            assert!(!buf[e4].style().add_modifier.contains(Modifier::REVERSED));
            assert_eq!((buf[left].symbol(), buf[right].symbol()), ("[", "]"));
        }
        // In the compact board neighbours in a row share a gap: K4 and J4 both framed.
        let buf = draw(&pos, &marks, Scale::Compact);
        let [_, between, _] = spots(&pos, Scale::Compact, "K4");
        assert_eq!(buf[between].symbol(), "▌");
        assert_eq!(buf[between].style().fg, Some(Color::Yellow));
        assert_eq!(buf[between].style().bg, Some(Color::Yellow));
    }

    #[test]
    fn a_legal_preview_shows_the_dots_the_piece_would_make() {
        // Black's triangle about to be placed on K5 (K5 K4 J4), J4 jumping nothing.
        let pos = Position::from_text("standard b 1 wTE4:0@1").unwrap();
        let mut after = pos.clone();
        after
            .play(punct_core::Move::parse("TK5:0").unwrap())
            .unwrap();
        let marks = Marks {
            cursor: Some(cell("K5")),
            preview: Some((cells(&["K5", "K4", "J4"]), true)),
            after: Some(after),
            ..Marks::default()
        };
        for scale in Scale::LARGEST_FIRST {
            let buf = draw(&pos, &marks, scale);
            let glyph = |name| buf[spots(&pos, scale, name)[0]].symbol().to_owned();
            let (punct, minor) = match scale {
                Scale::Compact => ("a", "a"),
                Scale::Wide | Scale::Large => ("B", "b"),
            };
            assert_eq!(
                [glyph("K5"), glyph("K4"), glyph("J4")],
                [punct, minor, minor]
            );
            for name in ["K5", "K4", "J4"] {
                let style = buf[spots(&pos, scale, name)[0]].style();
                assert_eq!(style.bg, Some(Color::Green), "{name} at {scale:?}");
            }
            let punct_style = buf[spots(&pos, scale, "K5")[0]].style();
            assert!(punct_style.add_modifier.contains(Modifier::UNDERLINED));
        }
        // An illegal preview shows the cells as they are.
        let illegal = Marks {
            after: None,
            preview: Some((cells(&["E4", "E3", "D3"]), false)),
            ..marks
        };
        let buf = draw(&pos, &illegal, Scale::Compact);
        assert_eq!(buf[spots(&pos, Scale::Compact, "E4")[0]].symbol(), "1");
        assert_eq!(
            buf[spots(&pos, Scale::Compact, "E4")[0]].style().bg,
            Some(Color::White)
        );
    }

    #[test]
    fn every_cell_has_its_own_spot_inside_the_drawing() {
        for scale in Scale::LARGEST_FIRST {
            let mut seen = std::collections::HashSet::new();
            for cell in Cell::all() {
                let (c, r) = cell.coords();
                let (x, y) = scale.offset(c, r);
                assert!(x + 2 <= scale.width() && y < scale.height(), "{cell}");
                assert!(x >= scale.margin());
                assert!(seen.insert((x, y)));
            }
            let pos = Position::new(punct_core::Variant::Standard);
            let buf = draw(&pos, &Marks::default(), scale);
            let text: String = buf.content().iter().map(|c| c.symbol()).collect();
            for letter in 'A'..='Q' {
                assert!(text.contains(letter), "{letter} at {scale:?}");
            }
        }
    }
}
