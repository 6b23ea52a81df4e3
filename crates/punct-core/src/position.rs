//! A position: the stacks of pieces, reserves, side to move, and make / unmake.
//!
//! Each player's 18 pieces live in fixed slots (`T` ×6, `C` ×2, `E` ×4, `L` ×2, `M` ×2,
//! `R` ×2). A piece on the board remembers, for each of its three cells, the piece whose dot
//! was the top of that cell when it landed. A piece can only leave when it is the top of all
//! three cells, and everything below it is frozen while it stays, so these links form exact
//! per-cell stacks: lifting a piece is three pointer restores.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::geometry::CENTRE;
use crate::moves::Move;
use crate::piece::{Colour, PieceType, Reserve};
use crate::zobrist;

/// Marks "no piece" in a cell's top and in a piece's below-links.
pub(crate) const NO_PIECE: u8 = u8::MAX;

/// Pieces per player.
pub const PIECES_PER_PLAYER: usize = 18;

/// Type of each of a player's 18 slots.
const SLOT_TYPE: [PieceType; PIECES_PER_PLAYER] = {
    let mut out = [PieceType::T; PIECES_PER_PLAYER];
    let mut slot = 0;
    let mut t = 0;
    while t < 6 {
        let mut k = 0;
        while k < PieceType::ALL[t].count() {
            out[slot] = PieceType::ALL[t];
            slot += 1;
            k += 1;
        }
        t += 1;
    }
    out
};

/// First slot of each type.
const FIRST_SLOT: [usize; 6] = [0, 6, 8, 12, 14, 16];

/// The two games of the rulebook.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Only the first placement of the game avoids the central hexagon; placing the 18th
    /// piece draws.
    Basic,
    /// No placement ever touches the central hexagon; placing the 18th piece ends the game
    /// on the central-hexagon count.
    Standard,
}

impl Variant {
    /// `basic` or `standard`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Basic => "basic",
            Variant::Standard => "standard",
        }
    }

    /// Reads `basic` or `standard`.
    pub fn from_name(name: &str) -> Option<Variant> {
        match name {
            "basic" => Some(Variant::Basic),
            "standard" => Some(Variant::Standard),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        Variant::from_name(s)
            .ok_or_else(|| format!("unknown variant `{s}`: expected basic or standard"))
    }
}

/// A piece on the board, as position text describes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its owner.
    pub colour: Colour,
    /// Its type.
    pub kind: PieceType,
    /// Its PÜNCT cell.
    pub at: Cell,
    /// Its rotation (canonical for the type).
    pub rotation: u8,
    /// Its level, 1 being the board.
    pub level: u8,
}

impl Piece {
    /// The three cells it covers, PÜNCT first; `None` if some dot is off the board.
    pub fn cells(&self) -> Option<[Cell; 3]> {
        self.kind.footprint(self.at, self.rotation)
    }

    /// The order of position text (level, then column, then row) as one number.
    pub fn text_order(&self) -> u32 {
        let (column, row) = self.at.coords();
        (u32::from(self.level) << 16) | ((column as u32) << 8) | row as u32
    }
}

/// One dot in a cell's stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Dot {
    /// The piece the dot belongs to.
    pub piece: Piece,
    /// Whether this dot is that piece's PÜNCT.
    pub is_punct: bool,
}

/// One of the 36 pieces' state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Slot {
    /// PÜNCT first; meaningless while `level == 0`.
    pub cells: [Cell; 3],
    pub rotation: u8,
    /// 0 while in the reserve.
    pub level: u8,
    /// For each cell, the piece that was its top when this piece landed.
    pub below: [u8; 3],
}

const EMPTY_SLOT: Slot = Slot {
    cells: [Cell::PLACEHOLDER; 3],
    rotation: 0,
    level: 0,
    below: [NO_PIECE; 3],
};

/// What [`Position::unmake`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    id: u8,
    previous: Slot,
    hash: u64,
}

/// A position: pieces with their levels, reserves, side to move, ply and variant.
#[derive(Clone)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) turn: Colour,
    pub(crate) ply: u32,
    pub(crate) slots: [Slot; 2 * PIECES_PER_PLAYER],
    /// Top piece of each cell index, or `NO_PIECE`.
    pub(crate) top: [u8; 256],
    /// Cells holding at least one dot.
    pub(crate) occupied: Bitboard,
    /// Cells whose top dot is White's / Black's.
    pub(crate) visible: [Bitboard; 2],
    pub(crate) reserve: [Reserve; 2],
    pub(crate) hash: u64,
}

/// Colour of piece `id`.
#[inline]
pub(crate) const fn colour_of(id: u8) -> Colour {
    if (id as usize) < PIECES_PER_PLAYER {
        Colour::White
    } else {
        Colour::Black
    }
}

/// Type of piece `id`.
#[inline]
pub(crate) const fn kind_of(id: u8) -> PieceType {
    SLOT_TYPE[id as usize % PIECES_PER_PLAYER]
}

/// The range of piece ids a colour owns.
#[inline]
pub(crate) const fn ids_of(colour: Colour) -> std::ops::Range<u8> {
    let first = (colour.index() * PIECES_PER_PLAYER) as u8;
    first..first + PIECES_PER_PLAYER as u8
}

impl Position {
    /// The empty board at the start of a game, White to move.
    pub fn new(variant: Variant) -> Position {
        Position {
            variant,
            turn: Colour::White,
            ply: 0,
            slots: [EMPTY_SLOT; 2 * PIECES_PER_PLAYER],
            top: [NO_PIECE; 256],
            occupied: Bitboard::EMPTY,
            visible: [Bitboard::EMPTY; 2],
            reserve: [Reserve::FULL; 2],
            hash: 0,
        }
    }

    /// The game being played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub fn turn(&self) -> Colour {
        self.turn
    }

    /// Turns played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The Zobrist hash of the pieces with their levels and the side to move (not the ply).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The same position with the other side to move, as if the side to move passed (which
    /// the rules never allow: what the opponent could do next is read from it).
    pub fn passed(&self) -> Position {
        let mut pos = self.clone();
        pos.turn = !pos.turn;
        pos.hash ^= zobrist::SIDE;
        pos
    }

    /// The pieces a player has not placed yet.
    pub fn reserve(&self, colour: Colour) -> Reserve {
        self.reserve[colour.index()]
    }

    /// Cells whose top dot has this colour.
    pub fn visible(&self, colour: Colour) -> Bitboard {
        self.visible[colour.index()]
    }

    /// Cells holding at least one dot.
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The level of the top dot of `cell`, 0 for empty board.
    #[inline]
    pub fn height(&self, cell: Cell) -> u8 {
        match self.top[cell.index()] {
            NO_PIECE => 0,
            id => self.slots[id as usize].level,
        }
    }

    pub(crate) fn piece_of(&self, id: u8) -> Piece {
        let slot = &self.slots[id as usize];
        Piece {
            colour: colour_of(id),
            kind: kind_of(id),
            at: slot.cells[0],
            rotation: slot.rotation,
            level: slot.level,
        }
    }

    /// Every piece on the board, in position-text order.
    pub fn pieces(&self) -> Vec<Piece> {
        let (ids, count) = self.ids_in_text_order();
        ids[..count].iter().map(|&id| self.piece_of(id)).collect()
    }

    /// The slot ids of the pieces on the board in position-text order, and their count:
    /// sorted as packed numbers, without allocating.
    pub(crate) fn ids_in_text_order(&self) -> ([u8; 2 * PIECES_PER_PLAYER], usize) {
        let mut keys = [0u32; 2 * PIECES_PER_PLAYER];
        let mut count = 0;
        for id in 0..self.slots.len() as u8 {
            if self.slots[id as usize].level > 0 {
                keys[count] = (self.piece_of(id).text_order() << 8) | u32::from(id);
                count += 1;
            }
        }
        keys[..count].sort_unstable();
        (keys.map(|k| k as u8), count)
    }

    /// The dots in `cell`, bottom to top.
    pub fn stack(&self, cell: Cell) -> Vec<Dot> {
        let mut out = Vec::new();
        let mut id = self.top[cell.index()];
        while id != NO_PIECE {
            let slot = &self.slots[id as usize];
            let i = slot.cells.iter().position(|&c| c == cell).unwrap_or(0);
            out.push(Dot {
                piece: self.piece_of(id),
                is_punct: i == 0,
            });
            id = slot.below[i];
        }
        out.reverse();
        out
    }

    /// The top dot of `cell`.
    pub fn top(&self, cell: Cell) -> Option<Dot> {
        match self.top[cell.index()] {
            NO_PIECE => None,
            id => Some(Dot {
                piece: self.piece_of(id),
                is_punct: self.slots[id as usize].cells[0] == cell,
            }),
        }
    }

    /// The piece whose PÜNCT is the top of `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.top(cell).filter(|d| d.is_punct).map(|d| d.piece)
    }

    /// The type of the piece `mv` places or moves; `None` for a shift from a cell where no
    /// piece's PÜNCT is on top.
    pub fn piece_type_of(&self, mv: Move) -> Option<PieceType> {
        match mv {
            Move::Place { piece, .. } => Some(piece),
            Move::Shift { from, .. } => self.piece_at(from).map(|p| p.kind),
        }
    }

    /// Whether piece `id` is the top of all its cells.
    #[inline]
    pub(crate) fn is_free(&self, id: u8) -> bool {
        let slot = &self.slots[id as usize];
        slot.level > 0 && slot.cells.iter().all(|c| self.top[c.index()] == id)
    }

    /// The pieces of the side to move that may move, by PÜNCT cell.
    pub fn movable(&self) -> Bitboard {
        self.movable_of(self.turn)
    }

    /// The pieces of `colour` that nothing covers, by PÜNCT cell: those it could move on its
    /// turn.
    pub fn movable_of(&self, colour: Colour) -> Bitboard {
        ids_of(colour)
            .filter(|&id| self.is_free(id))
            .map(|id| self.slots[id as usize].cells[0])
            .collect()
    }

    /// How many of the 19 central cells each colour tops, White first.
    pub fn centre_count(&self) -> [u32; 2] {
        [
            (self.visible[0] & CENTRE).count(),
            (self.visible[1] & CENTRE).count(),
        ]
    }

    /// Whether the board holds no piece yet.
    pub fn is_board_empty(&self) -> bool {
        self.occupied.is_empty()
    }

    /// Makes `mv` canonical for this position (C pieces' rotations mod 3).
    pub fn canonical(&self, mv: Move) -> Move {
        match mv {
            Move::Place { .. } => mv,
            Move::Shift { from, to, rotation } => match self.piece_at(from) {
                Some(p) => Move::shift(p.kind, from, to, rotation),
                None => mv,
            },
        }
    }

    #[inline]
    fn set_top(&mut self, cell: Cell, id: u8) {
        self.top[cell.index()] = id;
        self.occupied.set(cell, id != NO_PIECE);
        self.visible[0].set(cell, (id as usize) < PIECES_PER_PLAYER);
        self.visible[1].set(cell, id != NO_PIECE && (id as usize) >= PIECES_PER_PLAYER);
    }

    #[inline]
    fn key(&self, id: u8) -> u64 {
        let slot = &self.slots[id as usize];
        if slot.level == 0 {
            return 0;
        }
        zobrist::piece(
            colour_of(id),
            kind_of(id),
            slot.cells[0],
            slot.rotation,
            slot.level,
        )
    }

    /// Lifts piece `id`, which must be the top of all its cells.
    #[inline]
    fn lift(&mut self, id: u8) {
        let slot = self.slots[id as usize];
        for i in 0..3 {
            self.set_top(slot.cells[i], slot.below[i]);
        }
    }

    /// Sets piece `id` down on `cells` on top of whatever is there.
    #[inline]
    fn land(&mut self, id: u8, cells: [Cell; 3], rotation: u8, level: u8) {
        let below = cells.map(|c| self.top[c.index()]);
        self.slots[id as usize] = Slot {
            cells,
            rotation,
            level,
            below,
        };
        for c in cells {
            self.set_top(c, id);
        }
    }

    /// Puts a piece onto the board with no legality check; used when building positions.
    pub(crate) fn put(&mut self, piece: Piece, cells: [Cell; 3]) {
        let base = ids_of(piece.colour).start as usize;
        let first = base + FIRST_SLOT[piece.kind.index()];
        let id = (first..first + piece.kind.count() as usize)
            .find(|&id| self.slots[id].level == 0)
            .expect("the reserve was checked") as u8;
        self.land(id, cells, piece.rotation, piece.level);
        self.reserve[piece.colour.index()].take(piece.kind);
        self.hash ^= self.key(id);
    }

    /// Plays a legal move, returning what [`Position::unmake`] needs. The move must be
    /// legal in this position ([`Position::legal_moves`] or [`Position::check`] say so);
    /// an illegal one leaves the position inconsistent.
    pub fn make(&mut self, mv: Move) -> Undo {
        let mover = self.turn;
        let (id, cells, rotation) = match mv {
            Move::Place {
                piece,
                at,
                rotation,
            } => {
                let first = ids_of(mover).start as usize + FIRST_SLOT[piece.index()];
                let id = (first..first + piece.count() as usize)
                    .find(|&id| self.slots[id].level == 0)
                    .unwrap_or(first) as u8;
                self.reserve[mover.index()].take(piece);
                let cells = piece.footprint_fitting(at, rotation).unwrap_or([at; 3]);
                (id, cells, rotation)
            }
            Move::Shift { from, to, rotation } => {
                let id = self.top[from.index()];
                let kind = kind_of(id);
                self.lift(id);
                let rotation = kind.normalize(rotation);
                let cells = kind.footprint_fitting(to, rotation).unwrap_or([to; 3]);
                (id, cells, rotation)
            }
        };
        let undo = Undo {
            id,
            previous: self.slots[id as usize],
            hash: self.hash,
        };
        let level = 1 + cells.iter().map(|&c| self.height(c)).max().unwrap_or(0);
        self.hash ^= self.key(id);
        self.land(id, cells, rotation, level);
        self.hash ^= self.key(id) ^ zobrist::SIDE;
        self.turn = !self.turn;
        self.ply += 1;
        undo
    }

    /// Takes back the move that returned `undo`; moves must be taken back in reverse order.
    pub fn unmake(&mut self, undo: Undo) {
        let id = undo.id;
        self.turn = !self.turn;
        self.ply -= 1;
        self.hash = undo.hash;
        self.lift(id);
        let previous = undo.previous;
        if previous.level == 0 {
            self.slots[id as usize] = previous;
            self.reserve[colour_of(id).index()].put_back(kind_of(id));
        } else {
            self.land(id, previous.cells, previous.rotation, previous.level);
        }
    }

    /// The hash computed from scratch, for checking the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let pieces = (0..self.slots.len() as u8).fold(0, |h, id| h ^ self.key(id));
        match self.turn {
            Colour::White => pieces,
            Colour::Black => pieces ^ zobrist::SIDE,
        }
    }

    /// Whether two positions have the same pieces, levels and side to move (the identity
    /// used for repetitions; the ply is ignored).
    pub fn same_arrangement(&self, other: &Position) -> bool {
        self.variant == other.variant && self.turn == other.turn && self.pieces() == other.pieces()
    }
}

impl PartialEq for Position {
    /// Positions are equal when their texts are: same variant, side, ply and pieces.
    fn eq(&self, other: &Position) -> bool {
        self.ply == other.ply && self.same_arrangement(other)
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
