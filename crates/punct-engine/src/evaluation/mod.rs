//! Static evaluation: who is closer to linking their sides, and what else decides the game.

pub mod distance;
pub mod features;
pub mod reach;

use punct_core::{Bitboard, Position, Variant};

use crate::learned::learned_advantage;

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

/// The side to move's advantage in cells of connection distance: the learned value's logit
/// (`crate::learned::value`) on the hand-set evaluation's scale.
pub fn advantage(pos: &Position, d: &Distances) -> f32 {
    learned_advantage(pos, d)
}

/// How many logits of the chance of winning one cell of advantage is worth.
pub const LOGIT_PER_CELL: f32 = 0.45;

/// Turns an advantage into the side to move's chance of winning.
pub fn win_probability(advantage: f32) -> f32 {
    1.0 / (1.0 + (-LOGIT_PER_CELL * advantage).exp())
}

/// The side to move's chance of winning, judged without search.
pub fn evaluate(pos: &Position) -> f32 {
    win_probability(advantage(pos, &Distances::quick(pos)))
}
