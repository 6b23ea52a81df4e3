//! Zobrist keys. A piece's key depends on everything that identifies it in a position
//! (colour, type, PÜNCT cell, canonical rotation, level); pieces of one type are
//! interchangeable, so which copy stands where does not change the hash.
//!
//! Keys are computed by a fixed mixing function instead of read from a table: levels have no
//! fixed bound, a table over all of them would not fit in cache, and a key is needed only
//! twice per move.

use crate::cell::Cell;
use crate::piece::{Colour, PieceType};

/// Key toggled when the side to move changes.
pub const SIDE: u64 = mix(0x5eed_0f5a_ce0f_cafe);

/// SplitMix64's finaliser: a bijection of `u64` with good avalanche.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The key of one piece.
#[inline]
pub fn piece(colour: Colour, kind: PieceType, at: Cell, rotation: u8, level: u8) -> u64 {
    let packed = (colour.index() as u64)
        | (kind.index() as u64) << 1
        | (at.index() as u64) << 4
        | (rotation as u64) << 12
        | (level as u64) << 16;
    mix(packed)
}
