//! Legal move generation with bitboards.
//!
//! Moves come in groups that share everything but the PÜNCT destination: a placement of one
//! type in one rotation, or a move of one board piece into one rotation and one landing
//! level. Each group is a bitboard of destinations computed with a few shifts, so counting
//! moves is a sum of popcounts, and a uniformly random move is a random index into those
//! counts, found without listing the moves.

use std::ops::ControlFlow;

use rand::{Rng, RngExt};

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::geometry::{CENTRE, LINES};
use crate::moves::Move;
use crate::piece::{FITS, PieceType};
use crate::position::{NO_PIECE, Position, Variant, colour_of, ids_of, kind_of};

/// Levels a stack can reach: 36 pieces can be stacked at most 36 high.
const MAX_LEVELS: usize = 40;

/// What the destinations of a group have in common.
#[derive(Clone, Copy, Debug)]
enum Group {
    Place(PieceType, u8),
    Shift(Cell, u8),
}

impl Group {
    #[inline]
    fn to_move(self, to: Cell) -> Move {
        match self {
            Group::Place(piece, rotation) => Move::Place {
                piece,
                at: to,
                rotation,
            },
            Group::Shift(from, rotation) => Move::Shift { from, to, rotation },
        }
    }

    /// Appends the moves of this group to the destinations `to`, which are cells, in index
    /// order: room is made once, and each word of `to` is read once.
    #[inline]
    fn push_moves(self, to: Bitboard, out: &mut Vec<Move>) {
        out.reserve(to.count() as usize);
        for (w, &word) in to.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let cell = Cell::from_raw((w * 64 + bits.trailing_zeros() as usize) as u8);
                out.push(self.to_move(cell));
                bits &= bits - 1;
            }
        }
    }
}

/// Cells by the level of their top: `planes[h]` holds the cells of height `h`.
struct Planes {
    planes: [Bitboard; MAX_LEVELS],
    max: usize,
}

impl Planes {
    fn new(pos: &Position) -> Planes {
        Planes::of_cells(pos, Bitboard::ALL)
    }

    /// The planes as far as `cells` are concerned: every empty cell in the first, and only
    /// the stacks among `cells` above it, which is all the moves landing on `cells` need.
    fn of_cells(pos: &Position, cells: Bitboard) -> Planes {
        let mut planes = [Bitboard::EMPTY; MAX_LEVELS];
        planes[0] = !pos.occupied;
        let mut max = 0;
        for cell in pos.occupied & cells {
            let h = pos.slots[pos.top[cell.index()] as usize].level as usize;
            planes[h].insert(cell);
            max = max.max(h);
        }
        Planes { planes, max }
    }

    /// Moves `cell` from level `from` to level `to`.
    #[inline]
    fn relevel(&mut self, cell: Cell, from: usize, to: usize) {
        self.planes[from].remove(cell);
        self.planes[to].insert(cell);
    }
}

/// The cells where a `kind` piece turned `rotation` can have its PÜNCT when placed on the
/// `free` cells. Always inlined: left to the compiler, counting the opening's moves took 1.8
/// µs instead of 1.4.
#[inline(always)]
fn placements(free: Bitboard, kind: PieceType, rotation: u8) -> Bitboard {
    let [o1, o2] = kind.offsets(rotation);
    FITS[kind.index()][rotation as usize] & free & free.moved(-o1) & free.moved(-o2)
}

impl Position {
    /// The cells a placement may cover: empty ones, outside the central hexagon when it is
    /// banned (always in the standard game, for the first placement in the basic one).
    #[inline(always)]
    fn placeable(&self) -> Bitboard {
        let centre_banned = self.variant == Variant::Standard || self.occupied.is_empty();
        if centre_banned {
            !self.occupied & !CENTRE
        } else {
            !self.occupied
        }
    }

    /// Calls `f` with every group of legal moves until it breaks.
    #[inline]
    fn for_each_group<F>(&self, f: F) -> ControlFlow<()>
    where
        F: FnMut(Group, Bitboard) -> ControlFlow<()>,
    {
        self.for_each_group_within(|_, _, _| Bitboard::ALL, f)
    }

    /// Calls `f` with every group of legal moves, its destinations cut down to
    /// `within(kind, rotation, from)`, until it breaks; groups left with no destination are
    /// skipped. Cutting down before the stacking levels are scanned spares most of the work
    /// when few destinations are wanted.
    #[inline]
    fn for_each_group_within<W, F>(&self, within: W, mut f: F) -> ControlFlow<()>
    where
        W: Fn(PieceType, u8, Option<Cell>) -> Bitboard,
        F: FnMut(Group, Bitboard) -> ControlFlow<()>,
    {
        let mover = self.turn;
        let reserve = self.reserve[mover.index()];
        if reserve.total() > 0 {
            let free = self.placeable();
            for kind in PieceType::ALL {
                if reserve.get(kind) == 0 {
                    continue;
                }
                for r in 0..kind.rotations() {
                    let to = placements(free, kind, r) & within(kind, r, None);
                    if !to.is_empty() {
                        f(Group::Place(kind, r), to)?;
                    }
                }
            }
        }

        // Built only once the placements are done: a search that stops at the first legal
        // move (whether the game can go on, after every move played) rarely needs it.
        let mut planes = Planes::new(self);
        let mut own = self.visible[mover.index()];
        for id in ids_of(mover) {
            if self.is_free(id) {
                self.piece_groups(&mut planes, &mut own, id, &within, &mut f)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The groups of moves of the mover's free piece `id`: the piece is lifted (each of its
    /// cells shows what lies below it), its groups are generated, and it is put back.
    #[inline]
    fn piece_groups<W, F>(
        &self,
        planes: &mut Planes,
        own: &mut Bitboard,
        id: u8,
        within: &W,
        f: &mut F,
    ) -> ControlFlow<()>
    where
        W: Fn(PieceType, u8, Option<Cell>) -> Bitboard,
        F: FnMut(Group, Bitboard) -> ControlFlow<()>,
    {
        let mover = self.turn;
        let slot = self.slots[id as usize];
        let level = slot.level as usize;
        let below = slot.below.map(|b| match b {
            NO_PIECE => 0,
            b => self.slots[b as usize].level as usize,
        });
        for ((&cell, &b), &h) in slot.cells.iter().zip(&slot.below).zip(&below) {
            planes.relevel(cell, level, h);
            own.set(cell, b != NO_PIECE && colour_of(b) == mover);
        }
        let flow = self.shift_groups(planes, *own, id, within, f);
        for (&cell, &h) in slot.cells.iter().zip(&below) {
            planes.relevel(cell, h, level);
            own.insert(cell);
        }
        flow
    }

    /// The groups of moves of the lifted piece `id`, their destinations cut down to
    /// `within`.
    #[inline]
    fn shift_groups<W, F>(
        &self,
        planes: &Planes,
        own: Bitboard,
        id: u8,
        within: &W,
        f: &mut F,
    ) -> ControlFlow<()>
    where
        W: Fn(PieceType, u8, Option<Cell>) -> Bitboard,
        F: FnMut(Group, Bitboard) -> ControlFlow<()>,
    {
        let kind = kind_of(id);
        let slot = &self.slots[id as usize];
        let (from, current) = (slot.cells[0], slot.rotation);
        let line = LINES[from.index()];
        let empty = planes.planes[0];
        for r in 0..kind.rotations() {
            let mut mask = FITS[kind.index()][r as usize] & line & within(kind, r, Some(from));
            if r == current {
                // Same cells, same PÜNCT: the piece would land where it stands.
                mask.remove(from);
            }
            if mask.is_empty() {
                continue;
            }
            let [o1, o2] = kind.offsets(r);
            let group = Group::Shift(from, r);
            let flat = mask & empty & empty.moved(-o1) & empty.moved(-o2);
            if !flat.is_empty() {
                f(group, flat)?;
            }
            let supported = mask & own;
            if supported.is_empty() {
                continue;
            }
            let mut lower = empty;
            for plane in &planes.planes[1..=planes.max] {
                let p = *plane;
                if !p.is_empty() {
                    let ends = p.moved(-o2);
                    let jump = supported & p & p.moved(-o1) & ends;
                    if !jump.is_empty() {
                        f(group, jump)?;
                    }
                    if kind.can_bridge() {
                        let bridge = if kind.middle_dot() == 0 {
                            supported & lower & p.moved(-o1) & ends
                        } else {
                            supported & p & lower.moved(-o1) & ends
                        };
                        if !bridge.is_empty() {
                            f(group, bridge)?;
                        }
                    }
                }
                lower |= p;
            }
        }
        ControlFlow::Continue(())
    }

    /// All legal moves, in generation order (see [`Position::legal_move_texts`] for the
    /// canonical order).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(8192);
        self.extend_legal_moves(&mut out);
        out
    }

    /// Appends all legal moves to `out` (reuse one vector to avoid allocating).
    pub fn extend_legal_moves(&self, out: &mut Vec<Move>) {
        let _ = self.for_each_group(|group, to| {
            group.push_moves(to, out);
            ControlFlow::Continue(())
        });
    }

    /// Appends the legal moves whose PÜNCT lands in `within(kind, rotation, from)`, for a
    /// piece of type `kind` turned `rotation`, moved from the cell `from` of its PÜNCT
    /// (`None` for a placement): those [`Position::extend_legal_moves`] appends that do, in
    /// the same order. Groups are cut down before the stacking levels are scanned, so few
    /// wanted destinations cost little; `within` is asked once per group, so a caller with
    /// a costly set should look it up from a table.
    pub fn extend_legal_moves_within<W>(&self, within: W, out: &mut Vec<Move>)
    where
        W: Fn(PieceType, u8, Option<Cell>) -> Bitboard,
    {
        let _ = self.for_each_group_within(within, |group, to| {
            group.push_moves(to, out);
            ControlFlow::Continue(())
        });
    }

    /// The canonical list of legal moves: distinct move texts sorted by byte order. Empty
    /// when the game is already decided (connection or 18th placement), since no turn follows.
    pub fn legal_move_texts(&self) -> Vec<String> {
        if self.decisive_outcome().is_some() {
            return Vec::new();
        }
        let mut texts: Vec<String> = self.legal_moves().iter().map(Move::to_string).collect();
        texts.sort_unstable();
        texts
    }

    /// Number of legal moves.
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0;
        let _ = self.for_each_group(|_, to| {
            n += u64::from(to.count());
            ControlFlow::Continue(())
        });
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.for_each_group(|_, _| ControlFlow::Break(()))
            .is_break()
    }

    /// The `n`-th legal move in generation order.
    pub fn nth_legal_move(&self, mut n: u64) -> Option<Move> {
        let mut found = None;
        let _ = self.for_each_group(|group, to| {
            let k = u64::from(to.count());
            if n < k {
                found = to.nth(n as u32).map(|cell| group.to_move(cell));
                return ControlFlow::Break(());
            }
            n -= k;
            ControlFlow::Continue(())
        });
        found
    }

    /// A legal move drawn uniformly at random, without building the move list.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let total = self.count_legal_moves();
        if total == 0 {
            return None;
        }
        self.nth_legal_move(rng.random_range(0..total))
    }

    /// Whether `mv` is legal, by the generator's own rules (fast; [`Position::check`] gives
    /// the reason when it is not).
    pub fn is_legal(&self, mv: Move) -> bool {
        // Only the one group the move belongs to is generated: a placement's, or the moved
        // piece's (a few bitboard operations instead of the whole generator).
        let mover = self.turn;
        match self.canonical(mv) {
            Move::Place {
                piece,
                at,
                rotation,
            } => {
                self.reserve[mover.index()].get(piece) > 0
                    && rotation < piece.rotations()
                    && placements(self.placeable(), piece, rotation).contains(at)
            }
            Move::Shift { from, to, rotation } => {
                let id = self.top[from.index()];
                if id == NO_PIECE
                    || self.slots[id as usize].cells[0] != from
                    || colour_of(id) != mover
                    || !self.is_free(id)
                {
                    return false;
                }
                let kind = kind_of(id);
                let rotation = kind.normalize(rotation);
                let Some(lands) = kind.footprint_fitting(to, rotation) else {
                    return false;
                };
                let mut planes = Planes::of_cells(self, lands.into_iter().collect());
                let mut own = self.visible[mover.index()];
                let only = |_, r, _| {
                    if r == rotation {
                        Bitboard::from_cell(to)
                    } else {
                        Bitboard::EMPTY
                    }
                };
                // Any group left is the move's own.
                self.piece_groups(&mut planes, &mut own, id, &only, &mut |_, _| {
                    ControlFlow::Break(())
                })
                .is_break()
            }
        }
    }
}
