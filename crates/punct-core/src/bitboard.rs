//! Sets of cells as 256-bit masks over the cell index layout of [`Cell`].

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use crate::cell::{Cell, Direction};

/// A set of cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub [u64; 4]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; 4]);

    /// Every cell of the board.
    pub const ALL: Bitboard = {
        let mut b = Bitboard::EMPTY;
        let mut i = 0;
        while i < 256 {
            if Cell::from_index(i).is_some() {
                b = b.with_index(i);
            }
            i += 1;
        }
        b
    };

    const fn with_index(self, i: usize) -> Bitboard {
        let mut w = self.0;
        w[i / 64] |= 1 << (i % 64);
        Bitboard(w)
    }

    /// The set holding only `cell`.
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard::EMPTY.with_index(cell.index())
    }

    /// This set with `cell` added.
    pub const fn with(self, cell: Cell) -> Bitboard {
        self.with_index(cell.index())
    }

    /// This set with `cell` removed.
    pub const fn without(self, cell: Cell) -> Bitboard {
        let mut w = self.0;
        w[cell.index() / 64] &= !(1 << (cell.index() % 64));
        Bitboard(w)
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell.index() / 64] |= 1 << (cell.index() % 64);
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell.index() / 64] &= !(1 << (cell.index() % 64));
    }

    /// Adds or removes `cell`.
    #[inline]
    pub fn set(&mut self, cell: Cell, on: bool) {
        if on {
            self.insert(cell);
        } else {
            self.remove(cell);
        }
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0[cell.index() / 64] >> (cell.index() % 64) & 1 != 0
    }

    /// Number of cells in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        !self.and(other).is_empty()
    }

    /// Intersection, usable in constants.
    pub const fn and(self, o: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    /// Union, usable in constants.
    pub const fn or(self, o: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    /// The set with every index moved by `delta` (bits moved outside `0..256` are lost).
    ///
    /// Only meaningful for cells whose target index is an existing cell reached by a real
    /// step: callers mask the result, or the source, with a set that guarantees it.
    #[inline]
    pub const fn moved(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            self.shl(delta as u32)
        } else {
            self.shr((-delta) as u32)
        }
    }

    #[inline]
    const fn shl(self, n: u32) -> Bitboard {
        if n == 0 {
            return self;
        }
        let q = (n / 64) as usize;
        let b = n % 64;
        let mut out = [0u64; 4];
        let mut i = q;
        while i < 4 {
            let s = i - q;
            out[i] = self.0[s] << b;
            if b != 0 && s > 0 {
                out[i] |= self.0[s - 1] >> (64 - b);
            }
            i += 1;
        }
        Bitboard(out)
    }

    #[inline]
    const fn shr(self, n: u32) -> Bitboard {
        if n == 0 {
            return self;
        }
        let q = (n / 64) as usize;
        let b = n % 64;
        let mut out = [0u64; 4];
        let mut i = 0;
        while i + q < 4 {
            let s = i + q;
            out[i] = self.0[s] >> b;
            if b != 0 && s + 1 < 4 {
                out[i] |= self.0[s + 1] << (64 - b);
            }
            i += 1;
        }
        Bitboard(out)
    }

    /// The cells of this set moved one step in direction `d`, keeping only those that land
    /// on the board.
    #[inline]
    pub fn step(self, d: Direction) -> Bitboard {
        (self & HAS_NEIGHBOUR[d.index()]).moved(d.offset())
    }

    /// This set together with every neighbour of its cells.
    #[inline]
    pub fn dilate(self) -> Bitboard {
        let mut out = self;
        for d in Direction::ALL {
            out |= self.step(d);
        }
        out
    }

    /// The cells of `within` connected to this set through cells of `within`.
    #[inline]
    pub fn flood(self, within: Bitboard) -> Bitboard {
        self.flood_and_dilate(within).0
    }

    /// [`Bitboard::flood`], and the dilation of the cells it reached.
    ///
    /// The search grows in waves, each the cells first reached by the last: the cells of a
    /// wave are few, so looking their neighbourhoods up one by one is cheaper than dilating
    /// the whole set once per wave, and the lookups add up to the dilation of the result.
    pub fn flood_and_dilate(self, within: Bitboard) -> (Bitboard, Bitboard) {
        let mut reached = self & within;
        let mut around = reached;
        let mut wave = reached;
        loop {
            let mut next = Bitboard::EMPTY;
            for (w, &word) in wave.0.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    next |= NEIGHBOURHOOD[w * 64 + word.trailing_zeros() as usize];
                    word &= word - 1;
                }
            }
            around |= next;
            wave = next & within & !reached;
            if wave.is_empty() {
                return (reached, around);
            }
            reached |= wave;
        }
    }

    /// The cell with the lowest index.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        for (w, word) in (self & Bitboard::ALL).0.iter().enumerate() {
            if *word != 0 {
                return Some(Cell::from_raw(
                    (w * 64 + word.trailing_zeros() as usize) as u8,
                ));
            }
        }
        None
    }

    /// The `n`-th cell in index order, counting from 0.
    pub fn nth(self, mut n: u32) -> Option<Cell> {
        for (w, &word) in (self & Bitboard::ALL).0.iter().enumerate() {
            let ones = word.count_ones();
            if n < ones {
                let mut word = word;
                for _ in 0..n {
                    word &= word - 1;
                }
                return Some(Cell::from_raw(
                    (w * 64 + word.trailing_zeros() as usize) as u8,
                ));
            }
            n -= ones;
        }
        None
    }
}

/// For each direction, the cells that have a neighbour that way.
const HAS_NEIGHBOUR: [Bitboard; 6] = {
    let mut out = [Bitboard::EMPTY; 6];
    let mut i = 0;
    while i < 256 {
        if let Some(cell) = Cell::from_index(i) {
            let mut d = 0;
            while d < 6 {
                if cell.neighbour(Direction::new(d as u8)).is_some() {
                    out[d] = out[d].with(cell);
                }
                d += 1;
            }
        }
        i += 1;
    }
    out
};

/// For each index, the cell there with its neighbours (empty for indices of no cell).
const NEIGHBOURHOOD: [Bitboard; 256] = {
    let mut out = [Bitboard::EMPTY; 256];
    let mut i = 0;
    while i < 256 {
        if let Some(cell) = Cell::from_index(i) {
            let mut b = Bitboard::from_cell(cell);
            let mut d = 0;
            while d < 6 {
                if let Some(n) = cell.neighbour(Direction::new(d as u8)) {
                    b = b.with(n);
                }
                d += 1;
            }
            out[i] = b;
        }
        i += 1;
    }
    out
};

/// Iterates over the cells of a set in index order.
pub struct Cells {
    /// The cells not yet yielded.
    rest: Bitboard,
    /// The word of `rest` being read: those before it are empty.
    word: usize,
}

impl Iterator for Cells {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while let Some(&bits) = self.rest.0.get(self.word) {
            if bits != 0 {
                self.rest.0[self.word] = bits & (bits - 1);
                // Only cells of the board are left in the set (see `into_iter`).
                let i = self.word * 64 + bits.trailing_zeros() as usize;
                return Some(Cell::from_raw(i as u8));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;
    fn into_iter(self) -> Cells {
        // Bits outside the board, which only a hand-built set can hold, are dropped, so
        // every index the iterator meets is a cell.
        Cells {
            rest: self & Bitboard::ALL,
            word: 0,
        }
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for cell in iter {
            b.insert(cell);
        }
        b
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        self.and(o)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        self.or(o)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] ^ o.0[0],
            self.0[1] ^ o.0[1],
            self.0[2] ^ o.0[2],
            self.0[3] ^ o.0[3],
        ])
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the board.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard([
            !self.0[0] & Bitboard::ALL.0[0],
            !self.0[1] & Bitboard::ALL.0[1],
            !self.0[2] & Bitboard::ALL.0[2],
            !self.0[3] & Bitboard::ALL.0[3],
        ])
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        *self = *self | o;
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn all_has_211_cells() {
        assert_eq!(Bitboard::ALL.count(), 211);
        assert_eq!(Bitboard::ALL.into_iter().count(), 211);
    }

    #[test]
    fn a_hand_built_set_yields_only_cells() {
        let every_bit = Bitboard([u64::MAX; 4]);
        let cells: Vec<Cell> = every_bit.into_iter().collect();
        let in_order: Vec<Cell> = Bitboard::ALL.into_iter().collect();
        assert_eq!(cells, in_order);
        assert_eq!(every_bit.first(), in_order.first().copied());
        assert_eq!(every_bit.nth(210), in_order.last().copied());
        assert_eq!(every_bit.nth(211), None);
        let mut by_column = cells.clone();
        by_column.sort_by_key(|c| c.coords());
        assert_eq!(by_column, Cell::all().collect::<Vec<_>>());
    }

    #[test]
    fn steps_match_neighbours() {
        for cell in Cell::all() {
            for d in Direction::ALL {
                let stepped = Bitboard::from_cell(cell).step(d);
                match cell.neighbour(d) {
                    Some(n) => assert_eq!(stepped, Bitboard::from_cell(n)),
                    None => assert!(stepped.is_empty(), "{cell} {d:?}"),
                }
            }
        }
    }

    #[test]
    fn nth_and_iteration_agree() {
        let b: Bitboard = Cell::all().step_by(7).collect();
        for (i, cell) in b.into_iter().enumerate() {
            assert_eq!(b.nth(i as u32), Some(cell));
        }
        assert_eq!(b.nth(b.count()), None);
        assert_eq!(b.first(), b.nth(0));
    }

    /// The flood by definition: dilate until nothing changes.
    fn naive_flood(seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut reached = seed & within;
        loop {
            let next = reached.dilate() & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// A random set of any density from 1/8 to 7/8, bits outside the board included.
    fn random_set() -> impl Strategy<Value = Bitboard> {
        (any::<[[u64; 4]; 3]>(), 0..6u8).prop_map(|([a, b, c], density)| {
            Bitboard(std::array::from_fn(|i| match density {
                0 => a[i] & b[i] & c[i],
                1 => a[i] & b[i],
                2 => a[i] & (b[i] | c[i]),
                3 => a[i],
                4 => a[i] | b[i],
                _ => a[i] | b[i] | c[i],
            }))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn flood_equals_the_naive_flood(
            within in random_set(),
            seeds in random_set(),
            start in 0..256usize,
            one_cell in any::<bool>(),
        ) {
            // A single seed, as when listing chains, or many, as from a goal side.
            let seed = if one_cell {
                Bitboard::EMPTY.with_index(start)
            } else {
                seeds
            };
            let (flood, around) = seed.flood_and_dilate(within);
            prop_assert_eq!(flood, naive_flood(seed, within));
            prop_assert_eq!(seed.flood(within), flood);
            prop_assert_eq!(around, flood.dilate());
        }
    }

    #[test]
    fn moves_across_word_boundaries() {
        for delta in [-200, -64, -63, -1, 1, 63, 64, 65, 130] {
            for i in 0..256i32 {
                let mut b = Bitboard::EMPTY;
                b.0[(i / 64) as usize] = 1 << (i % 64);
                let m = b.moved(delta);
                let j = i + delta;
                let expected = (0..256).contains(&j) as u32;
                assert_eq!(m.count(), expected);
                if expected == 1 {
                    assert_eq!(m.0[(j / 64) as usize] >> (j % 64) & 1, 1);
                }
            }
        }
    }
}
