//! Cells of the 211-cell board, their names, and the six directions.
//!
//! A cell (column c, row r), both 0-based, is stored as the index `15·r + c`. The hexagon
//! `|c − r| ≤ 8` minus its six corners maps one-to-one onto `0..256` this way (the only
//! clashes would involve the removed corners A9 and Q9), so a set of cells fits in four
//! `u64` words and a step in a fixed direction is a fixed index offset.

use std::fmt;

/// Width of one board row in the index layout.
pub(crate) const ROW_STRIDE: i32 = 15;

/// A cell of the board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

/// One of the six directions, numbered as in RULINGS.md §1.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Direction(u8);

impl Direction {
    /// All six directions, `D0` to `D5`.
    pub const ALL: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];

    /// The direction with index `i mod 6`.
    pub const fn new(i: u8) -> Direction {
        Direction(i % 6)
    }

    /// This direction's index, `0..6`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The step `(Δcolumn, Δrow)`.
    pub const fn step(self) -> (i32, i32) {
        match self.0 {
            0 => (0, -1),
            1 => (-1, -1),
            2 => (-1, 0),
            3 => (0, 1),
            4 => (1, 1),
            _ => (1, 0),
        }
    }

    /// The step as an offset of cell indices.
    pub const fn offset(self) -> i32 {
        let (dc, dr) = self.step();
        dr * ROW_STRIDE + dc
    }

    /// The direction turned by `k` sixths of a turn.
    pub const fn turn(self, k: u8) -> Direction {
        Direction((self.0 + k) % 6)
    }
}

impl Cell {
    /// Number of cells on the board.
    pub const COUNT: usize = 211;

    /// A cell used to fill arrays before they hold real cells (B1).
    pub(crate) const PLACEHOLDER: Cell = Cell(1);

    /// The cell at 0-based column `c` and row `r`, if it exists.
    pub const fn from_coords(c: i32, r: i32) -> Option<Cell> {
        if c < 0 || r < 0 || c > 16 || r > 16 || (c - r).abs() > 8 {
            return None;
        }
        // The corners A1 A9 I1 I17 Q9 Q17.
        if matches!(
            (c, r),
            (0, 0) | (0, 8) | (8, 0) | (8, 16) | (16, 8) | (16, 16)
        ) {
            return None;
        }
        Some(Cell((r * ROW_STRIDE + c) as u8))
    }

    /// The cell stored at `index`, if an existing cell is stored there.
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index >= 256 {
            return None;
        }
        let i = index as i32;
        // Rows 0..=16 with c in 0..=16: the layout is ambiguous only between
        // (15, r) / (0, r + 1) and (16, r) / (1, r + 1); try both readings.
        let (r, c) = (i / ROW_STRIDE, i % ROW_STRIDE);
        if let Some(cell) = Cell::from_coords(c, r) {
            return Some(cell);
        }
        Cell::from_coords(c + ROW_STRIDE, r - 1)
    }

    /// The cell stored at `index`, which the caller knows to be an existing cell.
    #[inline]
    pub(crate) const fn from_raw(index: u8) -> Cell {
        Cell(index)
    }

    /// The index of this cell in `0..256`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based column (A = 0) and row (row 1 = 0).
    pub const fn coords(self) -> (i32, i32) {
        let i = self.0 as i32;
        let (r, c) = (i / ROW_STRIDE, i % ROW_STRIDE);
        if Cell::from_coords(c, r).is_some() {
            (c, r)
        } else {
            (c + ROW_STRIDE, r - 1)
        }
    }

    /// 0-based column, A = 0.
    pub const fn column(self) -> i32 {
        self.coords().0
    }

    /// 0-based row, row 1 = 0.
    pub const fn row(self) -> i32 {
        self.coords().1
    }

    /// The neighbour in direction `d`, if it exists.
    pub const fn neighbour(self, d: Direction) -> Option<Cell> {
        let (c, r) = self.coords();
        let (dc, dr) = d.step();
        Cell::from_coords(c + dc, r + dr)
    }

    /// Every cell, ordered by column then row.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..17).flat_map(|c| (0..17).filter_map(move |r| Cell::from_coords(c, r)))
    }

    /// Hexagonal distance between two cells.
    pub const fn distance(self, other: Cell) -> i32 {
        let (c1, r1) = self.coords();
        let (c2, r2) = other.coords();
        let (dc, dr) = (c1 - c2, r1 - r2);
        let d = dc - dr;
        let m = if dc.abs() > dr.abs() {
            dc.abs()
        } else {
            dr.abs()
        };
        if d.abs() > m { d.abs() } else { m }
    }

    /// Reads a cell name such as `E4`: one capital letter `A`..`Q` and a row `1`..`17`
    /// without leading zeros.
    pub fn parse(text: &str) -> Result<Cell, CellError> {
        let bytes = text.as_bytes();
        let Some((&letter, digits)) = bytes.split_first() else {
            return Err(CellError::Empty);
        };
        if !(b'A'..=b'Q').contains(&letter) {
            return Err(CellError::BadColumn(text.to_owned()));
        }
        let valid_digits = !digits.is_empty()
            && digits.len() <= 2
            && digits.iter().all(u8::is_ascii_digit)
            && digits[0] != b'0';
        if !valid_digits {
            return Err(CellError::BadRow(text.to_owned()));
        }
        let row: i32 = digits.iter().fold(0, |n, d| n * 10 + i32::from(d - b'0'));
        Cell::from_coords(i32::from(letter - b'A'), row - 1)
            .ok_or_else(|| CellError::OffBoard(text.to_owned()))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let (c, r) = self.coords();
        f.write_char(char::from(b'A' + c as u8))?;
        fmt::Display::fmt(&(r + 1), f)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Cell {
    type Err = CellError;
    fn from_str(s: &str) -> Result<Cell, CellError> {
        Cell::parse(s)
    }
}

/// Why a cell name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// Nothing where a cell was expected.
    #[error("missing cell name")]
    Empty,
    /// The column is not a capital letter A to Q.
    #[error("bad column in cell `{0}`: expected a letter A to Q")]
    BadColumn(String),
    /// The row is not a number 1 to 17 without leading zeros.
    #[error("bad row in cell `{0}`: expected a number 1 to 17")]
    BadRow(String),
    /// A well-formed name for a cell the board does not have.
    #[error("no such cell `{0}` on the board")]
    OffBoard(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_211_cells_with_distinct_indices() {
        let cells: Vec<Cell> = Cell::all().collect();
        assert_eq!(cells.len(), Cell::COUNT);
        let mut seen = [false; 256];
        for cell in &cells {
            assert!(!seen[cell.index()], "index clash at {cell}");
            seen[cell.index()] = true;
            assert_eq!(Cell::from_index(cell.index()), Some(*cell));
        }
        assert_eq!(seen.iter().filter(|s| **s).count(), 211);
        assert_eq!((0..256).filter_map(Cell::from_index).count(), 211);
    }

    #[test]
    fn rows_per_column_match_the_rulings() {
        let expected = [
            (2, 8),
            (1, 10),
            (1, 11),
            (1, 12),
            (1, 13),
            (1, 14),
            (1, 15),
            (1, 16),
            (2, 16),
            (2, 17),
            (3, 17),
            (4, 17),
            (5, 17),
            (6, 17),
            (7, 17),
            (8, 17),
            (10, 16),
        ];
        for (c, (lo, hi)) in expected.into_iter().enumerate() {
            let rows: Vec<i32> = Cell::all()
                .filter(|cell| cell.column() == c as i32)
                .map(|cell| cell.row() + 1)
                .collect();
            assert_eq!(rows, (lo..=hi).collect::<Vec<_>>(), "column {c}");
        }
    }

    #[test]
    fn corners_do_not_exist() {
        for name in ["A1", "A9", "I1", "I17", "Q9", "Q17"] {
            assert!(matches!(Cell::parse(name), Err(CellError::OffBoard(_))));
        }
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for cell in Cell::all() {
            assert_eq!(Cell::parse(&cell.to_string()), Ok(cell));
        }
        for bad in ["", "e4", "R4", "E0", "E04", "E", "E4x", "E100", "Z1"] {
            assert!(Cell::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn neighbours_and_offsets_agree() {
        let i9 = Cell::parse("I9").unwrap();
        let names: Vec<String> = Direction::ALL
            .iter()
            .map(|d| i9.neighbour(*d).unwrap().to_string())
            .collect();
        assert_eq!(names, ["I8", "H8", "H9", "I10", "J10", "J9"]);
        for cell in Cell::all() {
            for d in Direction::ALL {
                if let Some(n) = cell.neighbour(d) {
                    assert_eq!(n.index() as i32 - cell.index() as i32, d.offset());
                    assert_eq!(cell.distance(n), 1);
                }
            }
        }
    }
}
