//! Static evaluation: who is closer to linking their sides, and what else decides the game.

pub mod distance;
pub mod features;
pub mod reach;

use punct_core::{Bitboard, Position, Variant};

use reach::Reach;

pub use distance::{Connection, connection, distances};

/// Both players' connection distances, the side to move's first.
#[derive(Clone, Copy, Debug)]
pub struct Distances {
    /// The side to move.
    pub me: Connection,
    /// The other player.
    pub op: Connection,
}

impl Distances {
    /// Computes both players' distances in `pos`, with their path cells.
    pub fn of(pos: &Position) -> Distances {
        let me = pos.turn();
        let empty = Bitboard::ALL & !pos.occupied();
        Distances {
            me: connection(pos.visible(me), pos.visible(!me), empty),
            op: connection(pos.visible(!me), pos.visible(me), empty),
        }
    }

    /// Computes both players' distances in `pos`, without path cells and exact only for each
    /// player's two best axes (all [`advantage`] uses).
    pub fn quick(pos: &Position) -> Distances {
        let me = pos.turn();
        let empty = Bitboard::ALL & !pos.occupied();
        Distances {
            me: distances(pos.visible(me), pos.visible(!me), empty),
            op: distances(pos.visible(!me), pos.visible(me), empty),
        }
    }
}

/// How much one cell of central majority is worth, in cells of connection distance, when
/// the 18th placement is near (standard game only). Early on the centre hardly matters;
/// with few pieces left it decides the game.
pub fn centre_weight(pos: &Position) -> f32 {
    if pos.variant() != Variant::Standard {
        return 0.0;
    }
    let least = pos
        .reserve(pos.turn())
        .total()
        .min(pos.reserve(!pos.turn()).total());
    let late = 1.0 - f32::from(least) / 18.0;
    0.1 + 2.0 * late * late * late
}

/// The side to move's advantage in cells of connection distance.
pub fn advantage(pos: &Position, d: &Distances) -> f32 {
    let me = pos.turn();
    let gap = d.op.best() as f32 - d.me.best() as f32;
    let second = (d.op.second().min(25) as f32 - d.me.second().min(25) as f32) * 0.25;
    // Moving first is worth about a cell: a piece covers up to three.
    let tempo = 1.0;
    let [w, b] = pos.centre_count();
    let centre = if me.index() == 0 {
        w as f32 - b as f32
    } else {
        b as f32 - w as f32
    };
    let reserves = f32::from(pos.reserve(me).total()) - f32::from(pos.reserve(!me).total());
    let reach = Reach::of(pos);
    let [mine, theirs] = [me.index(), (!me).index()];
    // Pieces that can still move, and chances to cut the other's chain by covering it: a
    // little of each, as self-play tuned them (in cells of connection distance).
    let mobility = reach.movable[mine] as f32 - reach.movable[theirs] as f32;
    let cuts = reach.coverable[mine].count() as f32 - reach.coverable[theirs].count() as f32;
    gap + second
        + tempo
        + centre * centre_weight(pos)
        + 0.05 * reserves
        + 0.2 * mobility
        + 0.3 * cuts
}

/// Turns an advantage into the side to move's chance of winning.
pub fn win_probability(advantage: f32) -> f32 {
    1.0 / (1.0 + (-0.45 * advantage).exp())
}

/// The side to move's chance of winning, judged without search.
pub fn evaluate(pos: &Position) -> f32 {
    win_probability(advantage(pos, &Distances::quick(pos)))
}
