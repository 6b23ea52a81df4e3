//! The board cursor and how the arrow keys move it over the hexagon.
//!
//! Left and right walk along a row. A row's cells sit between those of the rows above and
//! below, so up and down go to one of the two neighbours on that row, the one nearer the
//! column the cursor was aimed at when it started going up or down: repeated presses zigzag
//! around a straight vertical line instead of drifting sideways.

use punct_core::Cell;

/// A direction on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    /// Towards row 17.
    Up,
    /// Towards row 1.
    Down,
    /// Along the row towards column A.
    Left,
    /// Along the row towards column Q.
    Right,
}

/// The cursor: a cell, and the screen column (in half cells, 2c − r) it is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The cell under the cursor.
    pub cell: Cell,
    aim: i32,
}

/// The screen column of a cell, in half cells.
fn screen_x(cell: Cell) -> i32 {
    let (c, r) = cell.coords();
    2 * c - r
}

impl Cursor {
    /// A cursor on `cell`.
    pub fn new(cell: Cell) -> Cursor {
        Cursor {
            cell,
            aim: screen_x(cell),
        }
    }

    /// Moves one step; at the edge of the board the cursor stays.
    pub fn step(&mut self, arrow: Arrow) {
        let (c, r) = self.cell.coords();
        let candidates: [(i32, i32); 2] = match arrow {
            Arrow::Left => [(c - 1, r), (c - 1, r)],
            Arrow::Right => [(c + 1, r), (c + 1, r)],
            Arrow::Up => [(c, r + 1), (c + 1, r + 1)],
            Arrow::Down => [(c - 1, r - 1), (c, r - 1)],
        };
        let vertical = matches!(arrow, Arrow::Up | Arrow::Down);
        let best = candidates
            .into_iter()
            .filter_map(|(c, r)| Cell::from_coords(c, r))
            .min_by_key(|&cell| (screen_x(cell) - self.aim).abs());
        if let Some(cell) = best {
            self.cell = cell;
            if !vertical {
                self.aim = screen_x(cell);
            }
        }
    }

    /// Puts the cursor on `cell`.
    pub fn jump(&mut self, cell: Cell) {
        *self = Cursor::new(cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str) -> Cursor {
        Cursor::new(Cell::parse(name).unwrap())
    }

    #[test]
    fn arrows_walk_rows_and_zigzag_up_and_down() {
        let mut cur = at("I9");
        cur.step(Arrow::Left);
        assert_eq!(cur.cell.to_string(), "H9");
        cur.step(Arrow::Right);
        cur.step(Arrow::Right);
        assert_eq!(cur.cell.to_string(), "J9");
        let mut cur = at("I9");
        let mut xs = Vec::new();
        for _ in 0..4 {
            cur.step(Arrow::Up);
            xs.push(screen_x(cur.cell));
        }
        // Never more than one half cell away from the start column.
        assert!(xs.iter().all(|x| (x - 8).abs() <= 1), "{xs:?}");
        assert_eq!(cur.cell.row(), 12);
        for _ in 0..4 {
            cur.step(Arrow::Down);
        }
        assert_eq!(cur.cell.row(), 8);
    }

    #[test]
    fn the_cursor_stays_on_the_board() {
        let mut cur = at("B1");
        cur.step(Arrow::Down);
        cur.step(Arrow::Left);
        assert_eq!(cur.cell.to_string(), "B1");
        let mut cur = at("Q16");
        cur.step(Arrow::Right);
        cur.step(Arrow::Up);
        assert_eq!(cur.cell.to_string(), "Q16");
    }
}
