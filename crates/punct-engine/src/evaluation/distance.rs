//! Connection distance: how many cells a player still has to make their own to link two
//! opposite goal sides.
//!
//! A breadth-first search over bitboards, one layer per unit of cost. A player's own visible
//! dots cost nothing, empty cells cost one and the opponent's dots cost two: they can be
//! covered by jumping or bridging, but that needs a piece of one's own next to them.

use punct_core::Bitboard;
use punct_core::geometry::GOALS;

/// Longest distance tracked; further is "unreachable".
pub const FAR: usize = 40;

/// Cells reachable from one goal side at each cost: `layers[k]` holds every cell whose
/// cheapest path from the side, the cell included, costs at most `k`.
struct Layers {
    layers: [Bitboard; FAR + 1],
    len: usize,
}

/// The cells of `within` linked to `seed` through `within`, plus `seed`.
#[inline]
fn closure(seed: Bitboard, within: Bitboard) -> Bitboard {
    seed | (seed.dilate() & within).flood(within)
}

impl Layers {
    /// Layers from `side` for a player with dots `own` against dots `opp` on `empty` board.
    fn from_side(
        side: Bitboard,
        own: Bitboard,
        empty: Bitboard,
        opp: Bitboard,
        max: usize,
    ) -> Layers {
        let mut layers = [Bitboard::EMPTY; FAR + 1];
        let max = max.min(FAR);
        // What lies next to the cells of cost ≤ k - 1 (the side itself for k = 0).
        let frontier = |layers: &[Bitboard; FAR + 1], k: usize| -> Bitboard {
            if k == 0 {
                side
            } else {
                layers[k - 1].dilate() | side
            }
        };
        let mut len = 0;
        for k in 0..=max {
            // Own cells cost nothing: those on the side start the search, the closure
            // below adds the rest. Empty cells cost one, opponent cells two.
            let mut seed = side & own;
            if k >= 1 {
                seed |= layers[k - 1] | (frontier(&layers, k) & empty);
            }
            if k >= 2 {
                seed |= frontier(&layers, k - 1) & opp;
            }
            layers[k] = closure(seed, own);
            len = k + 1;
            if k >= 2 && layers[k] == layers[k - 2] {
                break;
            }
        }
        Layers { layers, len }
    }

    /// The set of cells of cost at most `k`.
    #[inline]
    fn upto(&self, k: usize) -> Bitboard {
        self.layers[k.min(self.len - 1)]
    }
}

/// One player's connection distance on each axis, and the cells on their cheapest paths.
#[derive(Clone, Copy, Debug)]
pub struct Connection {
    /// Cost of the cheapest link per axis (`FAR` when there is none).
    pub distance: [u32; 3],
    /// Cells lying on a cheapest link of the best axis or of axes within one of it.
    pub path: Bitboard,
}

impl Connection {
    /// The best axis's distance.
    pub fn best(&self) -> u32 {
        self.distance.iter().copied().min().unwrap_or(FAR as u32)
    }

    /// The second best axis's distance: a player with two good axes is harder to stop.
    pub fn second(&self) -> u32 {
        let mut d = self.distance;
        d.sort_unstable();
        d[1]
    }
}

/// Connection distances with own dots free, empty cells 1, opponent dots 2.
pub fn connection(own: Bitboard, opp: Bitboard, empty: Bitboard) -> Connection {
    connection_with(own, opp, empty, true)
}

/// [`connection`] without the path cells (half the work).
pub fn distances(own: Bitboard, opp: Bitboard, empty: Bitboard) -> Connection {
    connection_with(own, opp, empty, false)
}

fn connection_with(own: Bitboard, opp: Bitboard, empty: Bitboard, with_paths: bool) -> Connection {
    let mut distance = [FAR as u32; 3];
    let mut paths = [Bitboard::EMPTY; 3];
    for (axis, [a, b]) in GOALS.into_iter().enumerate() {
        let from_a = Layers::from_side(a, own, empty, opp, FAR);
        let Some(d) = (0..from_a.len).find(|&k| from_a.layers[k].intersects(b)) else {
            continue;
        };
        distance[axis] = d as u32;
        if !with_paths {
            continue;
        }
        let from_b = Layers::from_side(b, own, empty, opp, d);
        paths[axis] = on_paths(&from_a, &from_b, d, own, empty, opp);
    }
    let best = distance.iter().copied().min().unwrap_or(FAR as u32);
    let mut path = Bitboard::EMPTY;
    for axis in 0..3 {
        if distance[axis] <= best + 1 {
            path |= paths[axis];
        }
    }
    Connection { distance, path }
}

/// The cells on a path of cost `d` between the two sides: a cell of cost `c` reached at
/// cost exactly `k` from one side must be reached within `d - k + c` from the other.
fn on_paths(
    a: &Layers,
    b: &Layers,
    d: usize,
    own: Bitboard,
    empty: Bitboard,
    opp: Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for k in 0..=d {
        let exact = a.upto(k)
            & !if k == 0 {
                Bitboard::EMPTY
            } else {
                a.upto(k - 1)
            };
        let rest = d - k;
        out |= exact & own & b.upto(rest);
        out |= exact & empty & b.upto(rest + 1);
        out |= exact & opp & b.upto(rest + 2);
    }
    out
}

/// Whether some link costs at most `budget` when every cell not `own` costs one: the test
/// that a player might connect with one move (a piece makes at most three cells its own).
/// Returns the cells, not `own`, that lie on such links.
pub fn short_links(own: Bitboard, budget: usize) -> Bitboard {
    let other = Bitboard::ALL & !own;
    let mut out = Bitboard::EMPTY;
    for [a, b] in GOALS {
        let from_a = Layers::from_side(a, own, other, Bitboard::EMPTY, budget);
        if !(0..from_a.len).any(|k| from_a.layers[k].intersects(b)) {
            continue;
        }
        let from_b = Layers::from_side(b, own, other, Bitboard::EMPTY, budget);
        // Any cell on a link of cost ≤ budget, not only the cheapest.
        for k in 1..=budget {
            let exact = from_a.upto(k) & !from_a.upto(k - 1);
            out |= exact & other & from_b.upto(budget + 1 - k);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{Colour, Position};

    fn dist(text: &str, colour: Colour) -> Connection {
        let pos = Position::from_text(text).unwrap();
        let empty = Bitboard::ALL & !pos.occupied();
        connection(pos.visible(colour), pos.visible(!colour), empty)
    }

    #[test]
    fn empty_board_needs_a_whole_line() {
        let c = dist("standard w 0 -", Colour::White);
        // Opposite sides are 16 steps apart, so a crossing takes 17 cells.
        assert_eq!(c.best(), 17);
        assert!(!c.path.is_empty());
    }

    #[test]
    fn own_pieces_shorten_the_distance() {
        let before = dist("standard w 0 -", Colour::White).distance[0];
        let after = dist("standard b 1 wEE9:5@1", Colour::White).distance[0];
        assert!(after < before, "{after} < {before}");
    }

    #[test]
    fn short_links_only_near_a_connection() {
        assert!(short_links(Bitboard::EMPTY, 3).is_empty());
    }
}
