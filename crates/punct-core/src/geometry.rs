//! Fixed regions of the board: the central hexagon, the goal sides, the lines of travel.

use crate::bitboard::Bitboard;
use crate::cell::Cell;

/// The regions of the board, for building their masks in constants.
#[derive(Clone, Copy)]
enum Region {
    Centre,
    Column(i32),
    Row(i32),
    /// Cells with `c - r` equal to the value.
    Diagonal(i32),
}

const fn region(region: Region) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut i = 0;
    while i < 256 {
        if let Some(cell) = Cell::from_index(i) {
            let (c, r) = cell.coords();
            let inside = match region {
                Region::Centre => {
                    let (dc, dr) = (c - 8, r - 8);
                    dc.abs() <= 2 && dr.abs() <= 2 && (dc - dr).abs() <= 2
                }
                Region::Column(k) => c == k,
                Region::Row(k) => r == k,
                Region::Diagonal(k) => c - r == k,
            };
            if inside {
                b = b.with(cell);
            }
        }
        i += 1;
    }
    b
}

/// The 19 cells within distance 2 of I9.
pub const CENTRE: Bitboard = region(Region::Centre);

/// The three pairs of opposite goal sides, 7 cells each: column A ↔ column Q, row 1 ↔ row 17,
/// `J2 … P8` ↔ `B10 … H16`.
pub const GOALS: [[Bitboard; 2]; 3] = [
    [region(Region::Column(0)), region(Region::Column(16))],
    [region(Region::Row(0)), region(Region::Row(16))],
    [region(Region::Diagonal(8)), region(Region::Diagonal(-8))],
];

/// For each axis of [`GOALS`], the 15 lines that cross the board between its two sides,
/// middle first: a step moves to the next line at most, so a link between the sides has a
/// cell on every one of them.
pub const CROSSINGS: [[Bitboard; 15]; 3] = {
    let mut out = [[Bitboard::EMPTY; 15]; 3];
    let mut i = 0;
    while i < 15 {
        // 0, 1, -1, 2, -2, ... from the middle line.
        let k = if i % 2 == 1 {
            (i as i32 + 1) / 2
        } else {
            -(i as i32) / 2
        };
        out[0][i] = region(Region::Column(8 + k));
        out[1][i] = region(Region::Row(8 + k));
        out[2][i] = region(Region::Diagonal(k));
        i += 1;
    }
    out
};

/// Names of the three axes of [`GOALS`], for messages.
pub const AXIS_NAMES: [&str; 3] = ["A–Q", "1–17", "J2·P8–B10·H16"];

/// The cells on the three straight lines through `cell`, itself included: where a piece
/// whose PÜNCT is on `cell` may move it.
pub fn lines(cell: Cell) -> Bitboard {
    LINES[cell.index()]
}

/// For each cell index, the cells on the three straight lines through it (itself included).
pub(crate) const LINES: [Bitboard; 256] = {
    let mut out = [Bitboard::EMPTY; 256];
    let mut i = 0;
    while i < 256 {
        if let Some(from) = Cell::from_index(i) {
            let (c0, r0) = from.coords();
            let mut j = 0;
            while j < 256 {
                if let Some(to) = Cell::from_index(j) {
                    let (c, r) = to.coords();
                    if c == c0 || r == r0 || c - r == c0 - r0 {
                        out[i] = out[i].with(to);
                    }
                }
                j += 1;
            }
        }
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = b.into_iter().map(|c| c.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn centre_is_the_nineteen_listed_cells() {
        let mut listed: Vec<&str> =
            "G7 G8 G9 H7 H8 H9 H10 I7 I8 I9 I10 I11 J8 J9 J10 J11 K9 K10 K11"
                .split(' ')
                .collect();
        listed.sort();
        assert_eq!(names(CENTRE), listed);
    }

    #[test]
    fn goal_sides_are_the_listed_cells() {
        let expect = [
            ["A2 A3 A4 A5 A6 A7 A8", "Q10 Q11 Q12 Q13 Q14 Q15 Q16"],
            ["B1 C1 D1 E1 F1 G1 H1", "J17 K17 L17 M17 N17 O17 P17"],
            ["J2 K3 L4 M5 N6 O7 P8", "B10 C11 D12 E13 F14 G15 H16"],
        ];
        for (axis, pair) in expect.iter().enumerate() {
            for side in 0..2 {
                let mut listed: Vec<&str> = pair[side].split(' ').collect();
                listed.sort();
                assert_eq!(names(GOALS[axis][side]), listed);
            }
        }
    }

    #[test]
    fn crossings_split_the_board_between_the_goal_sides() {
        for (axis, [a, b]) in GOALS.into_iter().enumerate() {
            // The line at offset k from the middle, the goal sides at ±8 (the diagonal
            // axis runs the other way).
            let line = |k: i32| match (k, axis) {
                (-8, 2) | (8, 0 | 1) => b,
                (8, 2) | (-8, 0 | 1) => a,
                _ => CROSSINGS[axis][if k > 0 { 2 * k - 1 } else { -2 * k } as usize],
            };
            let mut seen = Bitboard::EMPTY;
            for k in -8..=8 {
                assert!(
                    !line(k).is_empty() && !line(k).intersects(seen),
                    "{axis} {k}"
                );
                seen |= line(k);
                let near = line((k - 1).max(-8)) | line(k) | line((k + 1).min(8));
                assert_eq!(line(k).dilate() & !near, Bitboard::EMPTY, "{axis} {k}");
            }
            assert_eq!(seen, Bitboard::ALL, "axis {axis}");
        }
    }

    #[test]
    fn lines_through_the_centre_cover_three_full_lines() {
        let i9 = Cell::parse("I9").unwrap();
        // Column I has 15 cells, row 9 has 15, and the diagonal through I9 has 15.
        assert_eq!(LINES[i9.index()].count(), 15 + 15 + 15 - 2);
    }
}
