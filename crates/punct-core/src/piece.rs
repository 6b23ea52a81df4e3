//! Colours, the six piece types, their shapes under rotation, and the reserves.

use std::fmt;
use std::ops::Not;

use crate::bitboard::Bitboard;
use crate::cell::{Cell, Direction};

/// A player's colour. White moves first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Colour {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl Colour {
    /// Both colours, White first.
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position text: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }

    /// Reads `w` or `b`.
    pub const fn from_letter(c: char) -> Option<Colour> {
        match c {
            'w' => Some(Colour::White),
            'b' => Some(Colour::Black),
            _ => None,
        }
    }

    /// `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
}

impl Not for Colour {
    type Output = Colour;
    fn not(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The six piece types.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum PieceType {
    /// Triangle.
    T,
    /// Straight, PÜNCT in the middle.
    C,
    /// Straight, PÜNCT at an end.
    E,
    /// Angular, PÜNCT at one end.
    L,
    /// Angular, PÜNCT at the elbow.
    M,
    /// Angular, PÜNCT at the other end (mirror of L).
    R,
}

impl PieceType {
    /// All types in the order T C E L M R.
    pub const ALL: [PieceType; 6] = [
        PieceType::T,
        PieceType::C,
        PieceType::E,
        PieceType::L,
        PieceType::M,
        PieceType::R,
    ];

    /// Position of this type in [`PieceType::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many pieces of this type each player owns.
    pub const fn count(self) -> u8 {
        match self {
            PieceType::T => 6,
            PieceType::E => 4,
            _ => 2,
        }
    }

    /// How many distinct rotations the type has: 3 for C, 6 for the others.
    pub const fn rotations(self) -> u8 {
        match self {
            PieceType::C => 3,
            _ => 6,
        }
    }

    /// The canonical form of rotation `r` (taken mod 6, and mod 3 for C).
    pub const fn normalize(self, r: u8) -> u8 {
        (r % 6) % self.rotations()
    }

    /// Whether the type can bridge (every type but the triangle).
    pub const fn can_bridge(self) -> bool {
        !matches!(self, PieceType::T)
    }

    /// The type's letter.
    pub const fn letter(self) -> char {
        match self {
            PieceType::T => 'T',
            PieceType::C => 'C',
            PieceType::E => 'E',
            PieceType::L => 'L',
            PieceType::M => 'M',
            PieceType::R => 'R',
        }
    }

    /// Reads a type letter.
    pub const fn from_letter(c: char) -> Option<PieceType> {
        Some(match c {
            'T' => PieceType::T,
            'C' => PieceType::C,
            'E' => PieceType::E,
            'L' => PieceType::L,
            'M' => PieceType::M,
            'R' => PieceType::R,
            _ => return None,
        })
    }

    /// The paths to the two minor dots, as turns of the rotation's direction walked from
    /// the PÜNCT (`None` ends a path).
    const fn turns(self) -> [[Option<u8>; 2]; 2] {
        match self {
            PieceType::T => [[Some(0), None], [Some(1), None]],
            PieceType::C => [[Some(0), None], [Some(3), None]],
            PieceType::E => [[Some(0), None], [Some(0), Some(0)]],
            PieceType::L => [[Some(0), None], [Some(0), Some(1)]],
            PieceType::M => [[Some(1), None], [Some(3), None]],
            PieceType::R => [[Some(4), None], [Some(4), Some(3)]],
        }
    }

    /// The paths, as directions walked from the PÜNCT, to the two minor dots.
    const fn paths(self, r: u8) -> [[Option<Direction>; 2]; 2] {
        let turns = self.turns();
        let mut out = [[None; 2]; 2];
        let mut i = 0;
        while i < 4 {
            if let Some(k) = turns[i / 2][i % 2] {
                out[i / 2][i % 2] = Some(Direction::new(r + k));
            }
            i += 1;
        }
        out
    }

    /// Index offsets of the two minor dots from the PÜNCT.
    #[inline]
    pub(crate) const fn offsets(self, r: u8) -> [i32; 2] {
        OFFSETS[self.index()][r as usize % 6]
    }

    /// The PÜNCT cells from which this piece turned `r` would cover at least one of `cells`
    /// (where it fits on the board, see [`FITS`]): a move's destinations cut down to those
    /// landing on `cells` with three shifts instead of a footprint per move.
    #[inline]
    pub fn covering(self, cells: Bitboard, r: u8) -> Bitboard {
        let [o1, o2] = self.offsets(r);
        FITS[self.index()][r as usize % 6] & (cells | cells.moved(-o1) | cells.moved(-o2))
    }

    /// The three cells covered, for a PÜNCT cell and rotation where the piece fits on the
    /// board (see [`FITS`]); a table lookup instead of the walk of [`PieceType::footprint`].
    #[inline]
    pub(crate) fn footprint_fitting(self, at: Cell, r: u8) -> Option<[Cell; 3]> {
        if !FITS[self.index()][r as usize % 6].contains(at) {
            return None;
        }
        let [o1, o2] = self.offsets(r);
        let p = at.index() as i32;
        Some([
            at,
            Cell::from_raw((p + o1) as u8),
            Cell::from_raw((p + o2) as u8),
        ])
    }

    const fn compute_offsets(self, r: u8) -> [i32; 2] {
        let paths = self.paths(r);
        let mut out = [0; 2];
        let mut i = 0;
        while i < 2 {
            let mut j = 0;
            while j < 2 {
                if let Some(d) = paths[i][j] {
                    out[i] += d.offset();
                }
                j += 1;
            }
            i += 1;
        }
        out
    }

    /// Which of the three dots (0 = PÜNCT, 1 and 2 = minor dots in the order of
    /// [`PieceType::footprint`]) is the middle one when the piece bridges.
    pub const fn middle_dot(self) -> usize {
        match self {
            PieceType::C | PieceType::M => 0,
            _ => 1,
        }
    }

    /// The three cells covered with the PÜNCT on `at` in rotation `r`: the PÜNCT first,
    /// then the minor dots (for E, L and R the one next to the PÜNCT comes first).
    /// `None` when a dot would be off the board.
    pub const fn footprint(self, at: Cell, r: u8) -> Option<[Cell; 3]> {
        let paths = self.paths(r);
        let mut out = [at; 3];
        let mut i = 0;
        while i < 2 {
            let mut cell = at;
            let mut j = 0;
            while j < 2 {
                if let Some(d) = paths[i][j] {
                    match cell.neighbour(d) {
                        Some(n) => cell = n,
                        None => return None,
                    }
                }
                j += 1;
            }
            out[i + 1] = cell;
            i += 1;
        }
        Some(out)
    }
}

impl fmt::Display for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Reads a rotation written as one digit 0 to 5.
pub(crate) fn parse_rotation(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [d @ b'0'..=b'5'] => Some(d - b'0'),
        _ => None,
    }
}

/// For each type and rotation, the index offsets of the two minor dots.
const OFFSETS: [[[i32; 2]; 6]; 6] = {
    let mut out = [[[0; 2]; 6]; 6];
    let mut t = 0;
    while t < 6 {
        let mut r = 0;
        while r < 6 {
            out[t][r] = PieceType::ALL[t].compute_offsets(r as u8);
            r += 1;
        }
        t += 1;
    }
    out
};

/// For each type and rotation, the PÜNCT cells where the whole piece fits on the board.
pub(crate) const FITS: [[Bitboard; 6]; 6] = {
    let mut out = [[Bitboard::EMPTY; 6]; 6];
    let mut t = 0;
    while t < 6 {
        let mut r = 0;
        while r < 6 {
            let mut i = 0;
            while i < 256 {
                if let Some(cell) = Cell::from_index(i)
                    && PieceType::ALL[t].footprint(cell, r as u8).is_some()
                {
                    out[t][r] = out[t][r].with(cell);
                }
                i += 1;
            }
            r += 1;
        }
        t += 1;
    }
    out
};

/// How many pieces of each type a player has not yet placed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Reserve([u8; 6]);

impl Reserve {
    /// A full reserve of 18 pieces.
    pub const FULL: Reserve = Reserve([6, 2, 4, 2, 2, 2]);

    /// Pieces of type `t` left.
    pub const fn get(self, t: PieceType) -> u8 {
        self.0[t.index()]
    }

    /// All pieces left.
    pub const fn total(self) -> u8 {
        self.0[0] + self.0[1] + self.0[2] + self.0[3] + self.0[4] + self.0[5]
    }

    pub(crate) fn take(&mut self, t: PieceType) {
        self.0[t.index()] -= 1;
    }

    pub(crate) fn put_back(&mut self, t: PieceType) {
        self.0[t.index()] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(t: PieceType, at: &str, r: u8) -> Vec<String> {
        let cells = t.footprint(Cell::parse(at).unwrap(), r).unwrap();
        cells.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn shapes_match_the_rulings_example() {
        assert_eq!(names(PieceType::T, "I9", 0), ["I9", "I8", "H8"]);
        assert_eq!(names(PieceType::C, "I9", 0), ["I9", "I8", "I10"]);
        assert_eq!(names(PieceType::E, "I9", 0), ["I9", "I8", "I7"]);
        assert_eq!(names(PieceType::L, "I9", 0), ["I9", "I8", "H7"]);
        assert_eq!(names(PieceType::M, "I9", 0), ["I9", "H8", "I10"]);
        assert_eq!(names(PieceType::R, "I9", 0), ["I9", "J10", "J11"]);
    }

    #[test]
    fn offsets_match_footprints() {
        for t in PieceType::ALL {
            for r in 0..6 {
                let [o1, o2] = t.offsets(r);
                for cell in Cell::all() {
                    let fits = FITS[t.index()][r as usize].contains(cell);
                    assert_eq!(fits, t.footprint(cell, r).is_some());
                    assert_eq!(t.footprint_fitting(cell, r), t.footprint(cell, r));
                    if let Some([p, a, b]) = t.footprint(cell, r) {
                        assert_eq!(a.index() as i32 - p.index() as i32, o1);
                        assert_eq!(b.index() as i32 - p.index() as i32, o2);
                    }
                }
            }
        }
    }

    #[test]
    fn c_rotations_repeat_after_three() {
        let at = Cell::parse("I9").unwrap();
        for r in 0..3 {
            let mut a = PieceType::C.footprint(at, r).unwrap();
            let mut b = PieceType::C.footprint(at, r + 3).unwrap();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }
}
