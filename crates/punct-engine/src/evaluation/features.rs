//! Cheap judgements of single moves, for ordering them: which few of the thousands of legal
//! moves deserve a look.
//!
//! A move matters when the cells it lands on lie on a cheapest link of the mover's or of the
//! opponent's, when it covers opponent dots (a jump onto a chain cuts it), or when it takes
//! the centre late in a standard game. Lifting a piece costs what it uncovers.

use punct_core::geometry::CENTRE;
use punct_core::{Bitboard, Cell, Move, PieceType, Position};

use super::{Distances, advantage, centre_weight};

/// A lifted piece: the cells it leaves, and what they show once it is gone.
#[derive(Clone, Copy)]
pub(crate) struct Lift {
    pub(crate) kind: PieceType,
    cells: Bitboard,
    /// The same cells, one by one.
    pub(crate) cell_list: [Cell; 3],
    /// Cells no longer the mover's after the lift.
    pub(crate) lost: Bitboard,
    /// Cells the opponent's after the lift.
    pub(crate) uncovered: Bitboard,
}

/// The side to move's movable pieces and what lifting each would uncover.
pub struct Lifts {
    lifts: Vec<Lift>,
    /// For each cell index, the position in `lifts` of the piece whose PÜNCT is there
    /// (`u8::MAX` for none).
    index: [u8; 256],
}

impl Lifts {
    /// The movable pieces of the side to move in `pos`.
    pub fn new(pos: &Position) -> Lifts {
        let me = pos.turn();
        let lifts = pos
            .movable()
            .into_iter()
            .filter_map(|from| {
                let piece = pos.piece_at(from)?;
                let cells = piece.cells()?;
                let mut lift = Lift {
                    kind: piece.kind,
                    cells: cells.into_iter().collect(),
                    cell_list: cells,
                    lost: Bitboard::EMPTY,
                    uncovered: Bitboard::EMPTY,
                };
                for cell in cells {
                    let stack = pos.stack(cell);
                    match stack.len().checked_sub(2).map(|i| stack[i].piece.colour) {
                        Some(c) if c == me => {}
                        Some(_) => {
                            lift.lost.insert(cell);
                            lift.uncovered.insert(cell);
                        }
                        None => lift.lost.insert(cell),
                    }
                }
                Some((from, lift))
            })
            .collect::<Vec<_>>();
        let mut index = [u8::MAX; 256];
        for (i, (from, _)) in lifts.iter().enumerate() {
            if index[from.index()] == u8::MAX
                && let Ok(i) = u8::try_from(i)
            {
                index[from.index()] = i;
            }
        }
        Lifts {
            lifts: lifts.into_iter().map(|(_, l)| l).collect(),
            index,
        }
    }

    #[inline]
    pub(crate) fn get(&self, from: Cell) -> Option<&Lift> {
        self.lifts.get(usize::from(self.index[from.index()]))
    }

    /// The cells `mv` lands on, PÜNCT first (`None` for a move of no movable piece).
    pub fn footprint(&self, mv: Move) -> Option<[Cell; 3]> {
        match mv {
            Move::Place {
                piece,
                at,
                rotation,
            } => footprint(piece, at, rotation),
            Move::Shift { from, to, rotation } => footprint(self.get(from)?.kind, to, rotation),
        }
    }

    /// The cells a move leaves: those of the lifted piece, none for a placement.
    pub fn lifted(&self, mv: Move) -> Option<Bitboard> {
        match mv {
            Move::Place { .. } => None,
            Move::Shift { from, .. } => self.get(from).map(|l| l.cells),
        }
    }
}

/// [`PieceType::footprint`] from a table: move ordering asks for the footprint of every
/// legal move of every expanded node.
#[inline]
fn footprint(kind: PieceType, at: Cell, rotation: u8) -> Option<[Cell; 3]> {
    match FOOTPRINTS[kind.index()].get(usize::from(rotation)) {
        Some(by_cell) => by_cell[at.index()],
        None => kind.footprint(at, rotation),
    }
}

/// [`PieceType::footprint`] by type, rotation and PÜNCT cell index (`None` off the board).
static FOOTPRINTS: [[[Option<[Cell; 3]>; 256]; 6]; 6] = {
    let mut table = [[[None; 256]; 6]; 6];
    let mut kind = 0;
    while kind < 6 {
        let mut rotation = 0;
        while rotation < 6 {
            let mut i = 0;
            while i < 256 {
                if let Some(at) = Cell::from_index(i) {
                    table[kind][rotation][i] = PieceType::ALL[kind].footprint(at, rotation as u8);
                }
                i += 1;
            }
            rotation += 1;
        }
        kind += 1;
    }
    table
};

/// What ordering the moves of one position needs, computed once for that position.
pub struct MoveContext {
    /// Per cell index, what landing there adds to the counts of [`MoveContext::score`], in
    /// the fields of [`Landing`].
    landing: [u32; 256],
    my_path: Bitboard,
    op_path: Bitboard,
    block_weight: f32,
    centre_weight: f32,
    lifts: Lifts,
    /// The distances it was built from.
    pub distances: Distances,
}

impl MoveContext {
    /// Prepares to judge the moves of `pos`.
    pub fn new(pos: &Position) -> MoveContext {
        MoveContext::with_distances(pos, Distances::of(pos))
    }

    /// Prepares to judge the moves of `pos`, with its distances already known.
    pub fn with_distances(pos: &Position, distances: Distances) -> MoveContext {
        let me = pos.turn();
        let own = pos.visible(me);
        let opp = pos.visible(!me);
        let lifts = Lifts::new(pos);
        let (me_d, op_d) = (distances.me.best(), distances.op.best());
        // The closer the opponent is to linking, the more blocking matters.
        let block_weight = if op_d <= 3 {
            4.0
        } else if op_d <= me_d {
            1.3
        } else {
            0.8
        };
        MoveContext {
            landing: Landing::table(own, opp, distances.me.path, distances.op.path),
            my_path: distances.me.path,
            op_path: distances.op.path,
            block_weight,
            centre_weight: centre_weight(pos),
            lifts,
            distances,
        }
    }

    /// The same judgement by a player who does not see the opponent's plans: being in the
    /// opponent's way counts for nothing.
    pub fn blind_to_opponent(mut self) -> MoveContext {
        self.block_weight = 0.0;
        self
    }

    /// A score for `mv`: higher is more worth searching. Roughly in cells of distance.
    pub fn score(&self, mv: Move) -> f32 {
        let Some(cells) = self.lifts.footprint(mv) else {
            return -10.0;
        };
        // The three cells are distinct, so each count is that of the matching set of cells.
        let counts = cells.iter().map(|c| self.landing[c.index()]).sum::<u32>();
        let count = |field: u32| (counts >> field) & Landing::MASK;
        let mut s = count(Landing::ON_MY_PATH) as f32
            + self.block_weight * count(Landing::BLOCKING) as f32
            + 0.4 * count(Landing::COVERED) as f32
            + self.centre_weight * count(Landing::CENTRAL) as f32;
        if count(Landing::NEAR_OWN) > 0 {
            s += 0.3;
        }
        if let Move::Shift { from, .. } = mv
            && let Some(lift) = self.lifts.get(from)
        {
            // The lifted piece's cells no longer the mover's, counted cell by cell as above.
            let (mut lost, mut lost_path, mut lost_centre, mut opened) = (0u32, 0u32, 0u32, 0u32);
            for c in lift.cell_list {
                if cells.contains(&c) {
                    continue;
                }
                if lift.lost.contains(c) {
                    lost += 1;
                    lost_path += u32::from(self.my_path.contains(c));
                    lost_centre += u32::from(CENTRE.contains(c));
                }
                opened += u32::from(lift.uncovered.contains(c) && self.op_path.contains(c));
            }
            s -= lost_path as f32 + 0.3 * lost as f32;
            s -= 1.5 * opened as f32;
            s -= self.centre_weight * lost_centre as f32;
        }
        s
    }
}

/// The fields of [`MoveContext::landing`]: how many of a move's cells are of each kind, six
/// bits each, so that the three cells' entries add up to the counts.
struct Landing;

impl Landing {
    /// Not the mover's, on the mover's cheapest links.
    const ON_MY_PATH: u32 = 0;
    /// Not the mover's, on the opponent's cheapest links.
    const BLOCKING: u32 = 6;
    /// Not the mover's, in the central hexagon.
    const CENTRAL: u32 = 12;
    /// The opponent's.
    const COVERED: u32 = 18;
    /// The mover's or next to the mover's.
    const NEAR_OWN: u32 = 24;
    /// One field.
    const MASK: u32 = 0b11_1111;

    /// The entry of each cell index for a mover owning `own` against `opp`.
    fn table(own: Bitboard, opp: Bitboard, my_path: Bitboard, op_path: Bitboard) -> [u32; 256] {
        let mut table = [0; 256];
        let free = !own;
        for (field, cells) in [
            (Landing::ON_MY_PATH, my_path & free),
            (Landing::BLOCKING, op_path & free),
            (Landing::CENTRAL, CENTRE & free),
            (Landing::COVERED, opp),
            (Landing::NEAR_OWN, own.dilate()),
        ] {
            for c in cells {
                table[c.index()] |= 1 << field;
            }
        }
        table
    }
}

/// The `k` best moves of `moves` by [`MoveContext::score`], best first, with prior
/// probabilities that sum to one.
pub fn priors(ctx: &MoveContext, moves: &[Move], k: usize) -> Vec<(Move, f32)> {
    let scored: Vec<(Move, f32)> = moves.iter().map(|&mv| (mv, ctx.score(mv))).collect();
    normalise(best(scored, k), PRIOR_SHARPNESS)
}

/// How strongly priors favour higher scores (per cell of distance).
pub const PRIOR_SHARPNESS: f32 = 1.5;

/// Like [`priors`], but the `shortlist` best by the cheap score are judged again by the
/// static evaluation after playing them: slower, so used where it pays, at the root.
pub fn refined_priors(
    pos: &mut Position,
    ctx: &MoveContext,
    moves: &[Move],
    shortlist: usize,
    k: usize,
) -> Vec<(Move, f32)> {
    let scored: Vec<(Move, f32)> = moves.iter().map(|&mv| (mv, ctx.score(mv))).collect();
    refine(pos, best(scored, shortlist), k)
}

/// The `k` best of `shortlist` judged by the static evaluation after playing each, with
/// prior probabilities that sum to one.
pub(crate) fn refine(
    pos: &mut Position,
    shortlist: Vec<(Move, f32)>,
    k: usize,
) -> Vec<(Move, f32)> {
    let judged = shortlist
        .into_iter()
        .map(|(mv, _)| (mv, one_ply_value(pos, mv)))
        .collect();
    normalise(best(judged, k), REFINED_SHARPNESS)
}

/// How good `mv` is for the side to move of `pos`, judged by the static evaluation after
/// playing it: the mover's advantage in cells, ±100 when the move ends the game.
pub fn one_ply_value(pos: &mut Position, mv: Move) -> f32 {
    let mover = pos.turn();
    let undo = pos.make(mv);
    let value = match pos.decisive_outcome() {
        Some(o) if o.winner == Some(mover) => 100.0,
        Some(o) if o.winner.is_some() => -100.0,
        Some(_) => 0.0,
        None => -advantage(pos, &Distances::quick(pos)),
    };
    pos.unmake(undo);
    value
}

/// The one-ply judgement's sharpness: refined priors are a softmax of [`one_ply_value`]
/// with this inverse temperature (per cell of advantage).
pub const REFINED_SHARPNESS: f32 = 0.8;

/// The `k` highest scored, best first.
pub(crate) fn best(mut scored: Vec<(Move, f32)>, k: usize) -> Vec<(Move, f32)> {
    let k = k.min(scored.len());
    if k == 0 {
        return scored;
    }
    if k < scored.len() {
        scored.select_nth_unstable_by(k - 1, |a, b| b.1.total_cmp(&a.1));
        scored.truncate(k);
    }
    scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
    scored
}

/// Scores turned into probabilities: a softmax with `sharpness` as inverse temperature.
pub(crate) fn normalise(mut scored: Vec<(Move, f32)>, sharpness: f32) -> Vec<(Move, f32)> {
    let Some(&(_, top)) = scored.first() else {
        return scored;
    };
    let mut sum = 0.0;
    for (_, s) in &mut scored {
        *s = ((*s - top) * sharpness).exp();
        sum += *s;
    }
    for (_, s) in &mut scored {
        *s /= sum;
    }
    scored
}
