//! Connection distance: how many cells a player still has to make their own to link two
//! opposite goal sides.
//!
//! A breadth-first search over bitboards, one layer per unit of cost. A player's own visible
//! dots cost nothing, empty cells cost one and the opponent's dots cost two: they can be
//! covered by jumping or bridging, but that needs a piece of one's own next to them.

use std::cell::RefCell;
use std::rc::Rc;

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

/// The chains (connected groups) of a player's dots, so a search reaching one dot takes
/// the whole chain at once instead of growing along it a cell per dilation.
struct Chains {
    list: [Bitboard; MAX_CHAINS],
    len: usize,
}

/// Chains listed; dots of further chains are grown along one cell at a time.
const MAX_CHAINS: usize = 32;

/// The chains of the sets of dots this thread listed last, to be shared: positions one move
/// apart, which a search evaluates by the hundred, share one player's dots whenever the move
/// is a placement, and each asks for the chains of both players' dots.
struct Remembered {
    sets: [Bitboard; 2],
    chains: [Rc<Chains>; 2],
    /// The entry to replace next: the one used less recently.
    older: usize,
}

thread_local! {
    static REMEMBERED: RefCell<Remembered> = RefCell::new(Remembered {
        sets: [Bitboard::EMPTY; 2],
        chains: [Rc::new(Chains::NONE), Rc::new(Chains::NONE)],
        older: 0,
    });
}

impl Chains {
    /// The chains of `own`, from those this thread remembers when it can.
    fn of(own: Bitboard) -> Rc<Chains> {
        REMEMBERED.with_borrow_mut(|memo| {
            if let Some(i) = memo.sets.iter().position(|set| *set == own) {
                memo.older = 1 - i;
                return Rc::clone(&memo.chains[i]);
            }
            let i = memo.older;
            memo.older = 1 - i;
            memo.sets[i] = own;
            // Listed in place unless a caller still holds the old list.
            match Rc::get_mut(&mut memo.chains[i]) {
                Some(chains) => chains.list(own),
                None => {
                    let mut chains = Chains::NONE;
                    chains.list(own);
                    memo.chains[i] = Rc::new(chains);
                }
            }
            Rc::clone(&memo.chains[i])
        })
    }

    /// Lists the chains of `own` in place of these.
    fn list(&mut self, own: Bitboard) {
        let mut len = 0;
        let mut rest = own;
        while len < MAX_CHAINS
            && let Some(cell) = rest.first()
        {
            let chain = Bitboard::from_cell(cell).flood(own);
            self.list[len] = chain;
            len += 1;
            rest &= !chain;
        }
        self.len = len;
    }

    /// No chains listed: searches grow along every chain a cell at a time.
    const NONE: Chains = Chains {
        list: [Bitboard::EMPTY; MAX_CHAINS],
        len: 0,
    };

    /// The chains that share a cell with `cells`.
    #[inline]
    fn touching(&self, cells: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for chain in &self.list[..self.len] {
            if chain.intersects(cells) {
                out |= *chain;
            }
        }
        out
    }
}

/// The search from one goal side, one cost layer at a time, keeping only what the next
/// layer needs. Each layer takes one dilation, reused for the next two layers, plus one more
/// when it reaches own dots (whole listed chains are taken at once).
struct Growth<'a> {
    chains: &'a Chains,
    side: Bitboard,
    own: Bitboard,
    empty: Bitboard,
    opp: Bitboard,
    /// The cost of the next layer.
    k: usize,
    /// The last layer and the one before.
    last: [Bitboard; 2],
    /// What lies next to the cells of cost ≤ k - 1 and ≤ k - 2 (the side itself when there
    /// are none).
    next: [Bitboard; 2],
}

impl<'a> Growth<'a> {
    fn new(
        chains: &'a Chains,
        side: Bitboard,
        own: Bitboard,
        empty: Bitboard,
        opp: Bitboard,
    ) -> Growth<'a> {
        Growth {
            chains,
            side,
            own,
            empty,
            opp,
            k: 0,
            last: [Bitboard::EMPTY; 2],
            next: [side; 2],
        }
    }

    /// The next layer, and whether it equals the one two before (nothing grows any more).
    #[inline(always)]
    fn step(&mut self) -> (Bitboard, bool) {
        let k = self.k;
        // Own cells cost nothing: those on the side start the search, the closure below
        // adds the rest. Empty cells cost one, opponent cells two.
        let mut layer = self.side & self.own;
        if k >= 1 {
            layer |= self.last[0] | (self.next[0] & self.empty);
        }
        if k >= 2 {
            layer |= self.next[1] & self.opp;
        }
        // The cells of `own` linked to the seed through `own`, plus the seed; the last
        // dilation is kept as what lies next to the layer.
        let mut around = layer.dilate();
        loop {
            let add = around & self.own & !layer;
            if add.is_empty() {
                break;
            }
            layer |= add | self.chains.touching(add);
            around = layer.dilate();
        }
        let still = k >= 2 && layer == self.last[1];
        self.last = [layer, self.last[0]];
        self.next = [around | self.side, self.next[0]];
        self.k += 1;
        (layer, still)
    }
}

impl Layers {
    /// Layers from `side` for a player with dots `own` against dots `opp` on `empty` board,
    /// up to cost `max`, stopping early at the first layer that meets `goal` (when set).
    fn from_side(
        chains: &Chains,
        side: Bitboard,
        own: Bitboard,
        empty: Bitboard,
        opp: Bitboard,
        max: usize,
        goal: Option<Bitboard>,
    ) -> Layers {
        let mut layers = [Bitboard::EMPTY; FAR + 1];
        let mut growth = Growth::new(chains, side, own, empty, opp);
        let mut len = 0;
        for (k, slot) in layers.iter_mut().enumerate().take(max.min(FAR) + 1) {
            let (layer, still) = growth.step();
            *slot = layer;
            len = k + 1;
            if still || goal.is_some_and(|g| layer.intersects(g)) {
                break;
            }
        }
        Layers { layers, len }
    }

    /// For each cell (by index), the cost of reaching it, `FAR` when never reached.
    fn costs(&self) -> [u8; 256] {
        let mut costs = [FAR as u8; 256];
        let mut seen = Bitboard::EMPTY;
        for (k, layer) in self.layers[..self.len].iter().enumerate() {
            for cell in *layer & !seen {
                costs[cell.index()] = k as u8;
            }
            seen |= *layer;
        }
        costs
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
    connection_with(own, opp, empty)
}

/// [`connection`] without the path cells, and exact only for the two best axes (all the
/// evaluation uses): the worst axis's distance is only known to be above the second's.
///
/// The three searches grow in step, one cost layer each per round, and stop once two have
/// reached their far side.
pub fn distances(own: Bitboard, opp: Bitboard, empty: Bitboard) -> Connection {
    let chains = Chains::of(own);
    let mut growths = GOALS.map(|[a, _]| Growth::new(&chains, a, own, empty, opp));
    let mut distance = [FAR as u32; 3];
    let mut open = [true; 3];
    let mut linked = 0;
    for k in 0..=FAR {
        for (axis, growth) in growths.iter_mut().enumerate() {
            if !open[axis] {
                continue;
            }
            let (layer, still) = growth.step();
            if layer.intersects(GOALS[axis][1]) {
                distance[axis] = k as u32;
                open[axis] = false;
                linked += 1;
            } else if still {
                open[axis] = false;
            }
        }
        if linked >= 2 {
            // Any axis still open costs more than k, the worse of the two linked.
            for axis in 0..3 {
                if open[axis] {
                    distance[axis] = (k as u32 + 1).min(FAR as u32);
                }
            }
            break;
        }
        if !open.contains(&true) {
            break;
        }
    }
    Connection {
        distance,
        path: Bitboard::EMPTY,
    }
}

fn connection_with(own: Bitboard, opp: Bitboard, empty: Bitboard) -> Connection {
    let chains = Chains::of(own);
    let mut distance = [FAR as u32; 3];
    let mut paths = [Bitboard::EMPTY; 3];
    for (axis, [a, b]) in GOALS.into_iter().enumerate() {
        let from_a = Layers::from_side(&chains, a, own, empty, opp, FAR, Some(b));
        let Some(d) = (0..from_a.len).find(|&k| from_a.layers[k].intersects(b)) else {
            continue;
        };
        distance[axis] = d as u32;
        let from_b = Layers::from_side(&chains, b, own, empty, opp, d, None);
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

/// [`connection`]'s path cells and [`distances`]' distances, with, for each cell (by index),
/// the cost of the cheapest link between two opposite sides that passes through it, over
/// the three axes: what a move landing there is worth to the player, as the learned policy
/// reads it. Through costs are exact up to `slack` above the best link; dearer cells get
/// `FAR`.
pub fn connection_through(
    own: Bitboard,
    opp: Bitboard,
    empty: Bitboard,
    slack: u32,
) -> (Connection, [u8; 256]) {
    let quick = distances(own, opp, empty);
    let best = quick.best();
    // A cell on a link within `slack` of the best is reached within that plus its own
    // cost (at most 2) from either side: no search need go further, which in a late game
    // with a short link saves most of the layers.
    let cap = (best + slack + 2).min(FAR as u32) as usize;
    let chains = Chains::of(own);
    let mut path = Bitboard::EMPTY;
    let mut min = [FAR as u8; 256];
    for (axis, [a, b]) in GOALS.into_iter().enumerate() {
        if quick.distance[axis] > best + slack {
            continue;
        }
        let from_a = Layers::from_side(&chains, a, own, empty, opp, cap, None);
        let from_b = Layers::from_side(&chains, b, own, empty, opp, cap, None);
        let (cost_a, cost_b) = (from_a.costs(), from_b.costs());
        // A cell lies on a cheapest link exactly when the cheapest link through it is one.
        let on_path = quick.distance[axis] <= best + 1;
        for cell in own | empty | opp {
            let i = cell.index();
            // The cell's own cost is counted by both searches.
            let own_cost = if own.contains(cell) {
                0
            } else if empty.contains(cell) {
                1
            } else {
                2
            };
            let t = (u32::from(cost_a[i]) + u32::from(cost_b[i])).saturating_sub(own_cost);
            min[i] = min[i].min(t.min(FAR as u32) as u8);
            if on_path && t == quick.distance[axis] {
                path.insert(cell);
            }
        }
    }
    (
        Connection {
            distance: quick.distance,
            path,
        },
        min,
    )
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
    // Few layers are grown here: listing the chains would cost more than it saves.
    let chains = &Chains::NONE;
    let mut out = Bitboard::EMPTY;
    for [a, b] in GOALS {
        let from_a = Layers::from_side(chains, a, own, other, Bitboard::EMPTY, budget, None);
        if !(0..from_a.len).any(|k| from_a.layers[k].intersects(b)) {
            continue;
        }
        let from_b = Layers::from_side(chains, b, own, other, Bitboard::EMPTY, budget, None);
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
    fn quick_distances_agree_on_the_two_best_axes() {
        let texts = [
            "standard w 0 -",
            "standard w 2 bLG3:3@1,wLH11:3@1",
            "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,\
             wLH11:3@1,bEH15:0@1,wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3",
            "standard w 44 bEB8:3@1,bRC6:5@1,wMD3:3@1,bCD5:2@1,wED12:4@1,bLE2:1@1,\
             wEE9:0@1,wRE10:5@1,wCF5:0@1,bTG5:3@1,bEH2:2@1,bTH7:2@1,bLI3:2@1,wRI5:4@1,\
             bEI10:1@1,wCJ3:0@1,bMJ5:4@1,wMJ9:5@1,bTJ11:5@1,bCL6:2@1,bRN6:0@1,bME5:3@2,\
             wLE7:0@2,bEG8:2@2,bTH4:3@2,wEJ4:4@2,wEJ9:3@2,wLD5:5@3",
        ];
        for text in texts {
            let mut pos = Position::from_text(text).unwrap();
            // The position and those after its first moves, for variety.
            let mut positions = vec![pos.clone()];
            for mv in pos.legal_moves().into_iter().step_by(97) {
                let undo = pos.make(mv);
                positions.push(pos.clone());
                pos.unmake(undo);
            }
            for p in positions {
                let empty = Bitboard::ALL & !p.occupied();
                for colour in [Colour::White, Colour::Black] {
                    let (own, opp) = (p.visible(colour), p.visible(!colour));
                    let full = connection(own, opp, empty);
                    let quick = distances(own, opp, empty);
                    assert_eq!(quick.best(), full.best(), "{text}");
                    assert_eq!(quick.second(), full.second(), "{text}");
                }
            }
        }
    }

    #[test]
    fn connection_through_agrees_with_connection() {
        let texts = [
            "standard w 0 -",
            "standard w 2 bLG3:3@1,wLH11:3@1",
            "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,\
             wLH11:3@1,bEH15:0@1,wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3",
        ];
        for text in texts {
            let pos = Position::from_text(text).unwrap();
            let empty = Bitboard::ALL & !pos.occupied();
            for colour in [Colour::White, Colour::Black] {
                let (own, opp) = (pos.visible(colour), pos.visible(!colour));
                let full = connection(own, opp, empty);
                let (same, through) = connection_through(own, opp, empty, 3);
                assert_eq!(same.best(), full.best(), "{text}");
                assert_eq!(same.second(), full.second(), "{text}");
                assert_eq!(same.path, full.path, "{text}");
                // Cells on a best link have through cost equal to the best distance.
                for cell in full.path {
                    assert!(u32::from(through[cell.index()]) <= full.best() + 1);
                }
                assert!(through.iter().all(|&t| u32::from(t) >= full.best()));
            }
        }
    }

    #[test]
    fn short_links_only_near_a_connection() {
        assert!(short_links(Bitboard::EMPTY, 3).is_empty());
    }
}
