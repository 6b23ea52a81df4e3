//! The learned move policy: a linear model over a few features of each move, read from
//! tables computed once per position, so that all of a position's ~5 000 legal moves are
//! scored in a few table reads each.
//!
//! Per position: for each cell and each player, the cost of the cheapest link through that
//! cell minus the player's best link ("slack", bucketed 0–3), the cells each player sees,
//! the centre's weight, and which of three races the position is in (the opponent within
//! three cells, the opponent not behind, the mover ahead). Per move: the slack of the three
//! cells it lands on for both players (split by whether the cell was empty or the
//! opponent's, and by race), the cells it covers, centre cells won or given up, the piece
//! type, whether it is a shift, and what the lift gives away (lost own cells and uncovered
//! opponent cells by slack).
//!
//! Every feature but two belongs to one landing cell, one lifted cell or the piece, so the
//! engine's logit is folded from the weights into per-position tables
//! ([`PolicyContext::logit`]): a value per cell landed on, a value per lifted piece with a
//! correction for each of its cells landed on again, and the two set tests (a cell raised,
//! a cell next to the mover's) as flags of the landing cells. Training reads the features
//! themselves ([`PolicyContext::features`]), which the tables must sum to.

use punct_core::geometry::CENTRE;
use punct_core::{Bitboard, Cell, Move, PieceType, Position};

use crate::evaluation::centre_weight;
use crate::evaluation::distance::connection_through;
use crate::evaluation::features::{Lifts, best, normalise, refine};

/// Slack buckets: a cell within 0, 1, 2 or 3 of the player's best link (further counts
/// for nothing).
const BUCKETS: usize = 4;
/// Races: opponent within three cells of linking; opponent not behind; mover ahead.
const RACES: usize = 3;

const MINE: usize = 0;
const THEIRS: usize = MINE + 2 * BUCKETS * RACES;
const LOST_MINE: usize = THEIRS + 2 * BUCKETS * RACES;
const OPENED_THEIRS: usize = LOST_MINE + BUCKETS * RACES;
const COVERED: usize = OPENED_THEIRS + BUCKETS * RACES;
const CENTRE_WON: usize = COVERED + 1;
const CENTRE_LOST: usize = CENTRE_WON + 1;
const NEAR_OWN: usize = CENTRE_LOST + 1;
const PIECE: usize = NEAR_OWN + 1;
const SHIFT: usize = PIECE + 6;
const LOST: usize = SHIFT + 1;
const RAISED: usize = LOST + 1;
const ON_OWN: usize = RAISED + 1;

/// Number of features of a move.
pub const FEATURES: usize = ON_OWN + 1;

/// The logit of a move that has no footprint (never legal; kept last).
const NO_MOVE: f32 = -1000.0;

/// A player's pieces: the most the side to move can have movable.
const PIECES: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PieceType::ALL.len() {
        n += PieceType::ALL[i].count() as usize;
        i += 1;
    }
    n
};

/// Landing-cell flag: the cell is occupied (the move raises a stack).
const RAISES: u8 = 1;
/// Landing-cell flag: the cell is the mover's or next to one.
const NEARS: u8 = 2;

// The fitted weights, written by `punct train fit`.
include!("policy_weights.rs");

/// Where fitting starts: every move alike.
pub fn initial_weights() -> [f32; FEATURES] {
    [0.0; FEATURES]
}

/// What landing on one cell adds to a move's logit.
#[derive(Clone, Copy, Default)]
struct Landing {
    value: f32,
    /// [`RAISES`] and [`NEARS`].
    flags: u8,
}

/// What lifting one movable piece adds to a move's logit.
#[derive(Clone, Copy)]
struct Lifted {
    /// The piece, the shift, and what leaving each of its cells costs.
    value: f32,
    /// The piece's cells.
    cells: [Cell; 3],
    /// What leaving each of them costs: taken back when the move lands there again.
    left: [f32; 3],
}

/// The weights folded into one position's tables: a move's logit is a few reads.
struct Tables {
    /// By cell index.
    land: [Landing; 256],
    /// By the landing cells' flags together: what raising and nearing add.
    flagged: [f32; 4],
    /// By piece type: what placing one adds.
    placed: [f32; 6],
    /// By the cell index of a movable piece's PÜNCT: its slot in `lifted` (`u8::MAX` for
    /// none).
    slot: [u8; 256],
    lifted: [Lifted; PIECES],
}

/// What the policy needs of one position, computed once for all its moves.
pub struct PolicyContext {
    lifts: Lifts,
    /// Per cell index: the mover's slack bucket, `u8::MAX` when beyond the last.
    mine: [u8; 256],
    /// The same for the opponent.
    theirs: [u8; 256],
    own: Bitboard,
    opp: Bitboard,
    occupied: Bitboard,
    near_own: Bitboard,
    race: usize,
    centre_weight: f32,
    tables: Tables,
}

impl PolicyContext {
    /// Prepares to judge the moves of `pos` with the compiled-in weights.
    pub fn new(pos: &Position) -> PolicyContext {
        PolicyContext::with_weights(pos, &WEIGHTS)
    }

    /// Prepares to judge the moves of `pos` with `weights`.
    pub fn with_weights(pos: &Position, weights: &[f32; FEATURES]) -> PolicyContext {
        let me = pos.turn();
        let own = pos.visible(me);
        let opp = pos.visible(!me);
        let occupied = pos.occupied();
        let empty = Bitboard::ALL & !occupied;
        let last = BUCKETS as u32 - 1;
        let (mine, my_through) = connection_through(own, opp, empty, last);
        let (theirs, their_through) = connection_through(opp, own, empty, last);
        let (my_best, their_best) = (mine.best(), theirs.best());
        let race = if their_best <= 3 {
            0
        } else if their_best <= my_best {
            1
        } else {
            2
        };
        let mut ctx = PolicyContext {
            mine: slack(&my_through, my_best),
            theirs: slack(&their_through, their_best),
            lifts: Lifts::new(pos),
            own,
            opp,
            occupied,
            near_own: own.dilate(),
            race,
            centre_weight: centre_weight(pos),
            tables: Tables {
                land: [Landing::default(); 256],
                flagged: [0.0; 4],
                placed: [0.0; 6],
                slot: [u8::MAX; 256],
                lifted: [Lifted {
                    value: 0.0,
                    cells: [Cell::all().next().expect("the board has cells"); 3],
                    left: [0.0; 3],
                }; PIECES],
            },
        };
        ctx.fold(pos, weights);
        ctx
    }

    /// Folds `weights` into the tables, feature by feature as [`PolicyContext::features`]
    /// emits them.
    fn fold(&mut self, pos: &Position, w: &[f32; FEATURES]) {
        let race = self.race;
        for c in Cell::all() {
            let mut flags = 0;
            if self.occupied.contains(c) {
                flags |= RAISES;
            }
            if self.near_own.contains(c) {
                flags |= NEARS;
            }
            let value = if self.own.contains(c) {
                w[ON_OWN]
            } else {
                let kind = usize::from(self.opp.contains(c));
                let mut v = kind as f32 * w[COVERED];
                let i = c.index();
                if let Some(b) = bucket(self.mine[i]) {
                    v += w[MINE + (kind * BUCKETS + b) * RACES + race];
                }
                if let Some(b) = bucket(self.theirs[i]) {
                    v += w[THEIRS + (kind * BUCKETS + b) * RACES + race];
                }
                if CENTRE.contains(c) {
                    v += self.centre_weight * w[CENTRE_WON];
                }
                v
            };
            self.tables.land[c.index()] = Landing { value, flags };
        }
        self.tables.flagged = [0.0, w[RAISED], w[NEAR_OWN], w[RAISED] + w[NEAR_OWN]];
        for kind in PieceType::ALL {
            self.tables.placed[kind.index()] = w[PIECE + kind.index()];
        }
        let mut slots = 0;
        for from in pos.movable() {
            let Some(lift) = self.lifts.get(from) else {
                continue;
            };
            let mut lifted = Lifted {
                value: w[PIECE + lift.kind.index()] + w[SHIFT],
                cells: lift.cell_list,
                left: [0.0; 3],
            };
            for (j, c) in lift.cell_list.into_iter().enumerate() {
                let i = c.index();
                let mut v = 0.0;
                if lift.lost.contains(c) {
                    v += w[LOST];
                    if let Some(b) = bucket(self.mine[i]) {
                        v += w[LOST_MINE + b * RACES + race];
                    }
                    if CENTRE.contains(c) {
                        v += self.centre_weight * w[CENTRE_LOST];
                    }
                }
                if lift.uncovered.contains(c)
                    && let Some(b) = bucket(self.theirs[i])
                {
                    v += w[OPENED_THEIRS + b * RACES + race];
                }
                lifted.left[j] = v;
                lifted.value += v;
            }
            // A player has no more movable pieces than pieces.
            if slots < PIECES {
                self.tables.lifted[slots] = lifted;
                self.tables.slot[from.index()] = slots as u8;
                slots += 1;
            }
        }
    }

    /// Calls `emit(feature, value)` for each non-zero feature of `mv`; returns false (and
    /// emits nothing) for a move of no movable piece.
    #[inline]
    pub fn features(&self, mv: Move, mut emit: impl FnMut(usize, f32)) -> bool {
        let lifts = &self.lifts;
        let Some(cells) = lifts.footprint(mv) else {
            return false;
        };
        let race = self.race;
        let mut land = Bitboard::EMPTY;
        let (mut central, mut raised) = (0u32, false);
        for c in cells {
            land.insert(c);
            raised |= self.occupied.contains(c);
            if self.own.contains(c) {
                emit(ON_OWN, 1.0);
                continue;
            }
            let kind = usize::from(self.opp.contains(c));
            if kind == 1 {
                emit(COVERED, 1.0);
            }
            let i = c.index();
            if let Some(b) = bucket(self.mine[i]) {
                emit(MINE + (kind * BUCKETS + b) * RACES + race, 1.0);
            }
            if let Some(b) = bucket(self.theirs[i]) {
                emit(THEIRS + (kind * BUCKETS + b) * RACES + race, 1.0);
            }
            central += u32::from(CENTRE.contains(c));
        }
        if central > 0 {
            emit(CENTRE_WON, central as f32 * self.centre_weight);
        }
        if land.intersects(self.near_own) {
            emit(NEAR_OWN, 1.0);
        }
        if raised {
            emit(RAISED, 1.0);
        }
        let kind = match mv {
            Move::Place { piece, .. } => piece,
            Move::Shift { from, .. } => match lifts.get(from) {
                Some(lift) => lift.kind,
                None => return true,
            },
        };
        emit(PIECE + kind.index(), 1.0);
        if let Move::Shift { from, .. } = mv
            && let Some(lift) = lifts.get(from)
        {
            emit(SHIFT, 1.0);
            let (mut lost, mut lost_centre) = (0u32, 0u32);
            for c in lift.cell_list {
                if land.contains(c) {
                    continue;
                }
                let i = c.index();
                if lift.lost.contains(c) {
                    lost += 1;
                    lost_centre += u32::from(CENTRE.contains(c));
                    if let Some(b) = bucket(self.mine[i]) {
                        emit(LOST_MINE + b * RACES + race, 1.0);
                    }
                }
                if lift.uncovered.contains(c)
                    && let Some(b) = bucket(self.theirs[i])
                {
                    emit(OPENED_THEIRS + b * RACES + race, 1.0);
                }
            }
            if lost > 0 {
                emit(LOST, lost as f32);
            }
            if lost_centre > 0 {
                emit(CENTRE_LOST, lost_centre as f32 * self.centre_weight);
            }
        }
        true
    }

    /// The policy's logit for `mv` under `weights`: higher is more worth searching.
    #[inline]
    pub fn logit_with(&self, weights: &[f32; FEATURES], mv: Move) -> f32 {
        let mut s = 0.0;
        if self.features(mv, |i, v| s += weights[i] * v) {
            s
        } else {
            NO_MOVE
        }
    }

    /// The policy's logit for `mv` under the weights the context was made with: the same as
    /// [`PolicyContext::logit_with`] those weights, read from the tables.
    #[inline]
    pub fn logit(&self, mv: Move) -> f32 {
        let t = &self.tables;
        let Some(cells) = self.lifts.footprint(mv) else {
            return NO_MOVE;
        };
        let [a, b, c] = cells.map(|c| t.land[c.index()]);
        let mut s =
            a.value + b.value + c.value + t.flagged[usize::from(a.flags | b.flags | c.flags)];
        match mv {
            Move::Place { piece, .. } => s += t.placed[piece.index()],
            Move::Shift { from, .. } => {
                let Some(lifted) = t.lifted.get(usize::from(t.slot[from.index()])) else {
                    return NO_MOVE;
                };
                s += lifted.value;
                for (cell, left) in lifted.cells.iter().zip(lifted.left) {
                    if cells.contains(cell) {
                        s -= left;
                    }
                }
            }
        }
        s
    }
}

/// A cell's slack bucket, `None` beyond the last.
#[inline]
fn bucket(slack: u8) -> Option<usize> {
    let b = usize::from(slack);
    (b < BUCKETS).then_some(b)
}

/// Per cell, how much dearer the cheapest link through it is than the best link.
fn slack(through: &[u8; 256], best: u32) -> [u8; 256] {
    let best = best.min(u32::from(u8::MAX)) as u8;
    through.map(|t| t.saturating_sub(best).min(BUCKETS as u8))
}

/// The `k` best of `moves` by the learned policy, with priors summing to one: the
/// `shortlist` best by the policy are judged by the one-ply evaluation first (as the
/// hand-set priors are), or, when `shortlist` is 0, a softmax of the policy's logits with
/// inverse temperature `sharpness` is the prior.
pub fn learned_priors(
    pos: &mut Position,
    moves: &[Move],
    shortlist: usize,
    k: usize,
    sharpness: f32,
) -> Vec<(Move, f32)> {
    let ctx = PolicyContext::new(pos);
    if shortlist == 0 {
        return normalise(top(&ctx, moves, k), sharpness);
    }
    refine(pos, top(&ctx, moves, shortlist.max(k)), k)
}

/// The `n` best of `moves` by the policy, best first. Moves are kept only while they beat
/// the `n`th best so far, so that the thousands of others are scored without being stored
/// or sorted.
fn top(ctx: &PolicyContext, moves: &[Move], n: usize) -> Vec<(Move, f32)> {
    let n = n.max(1);
    let mut kept: Vec<(Move, f32)> = Vec::with_capacity(2 * n);
    let mut floor = f32::NEG_INFINITY;
    for &mv in moves {
        let logit = ctx.logit(mv);
        if logit <= floor {
            continue;
        }
        kept.push((mv, logit));
        if kept.len() == 2 * n {
            kept = best(kept, n);
            floor = kept[n - 1].1;
        }
    }
    best(kept, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_gets_a_finite_logit_and_features_in_range() {
        let mut pos = Position::from_text(
            "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,\
             wLH11:3@1,bEH15:0@1,wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3",
        )
        .unwrap();
        let ctx = PolicyContext::new(&pos);
        let moves = pos.legal_moves();
        assert!(moves.len() > 100);
        for &mv in &moves {
            assert!(ctx.logit(mv).is_finite());
            assert!(ctx.features(mv, |i, v| assert!(i < FEATURES && v.is_finite())));
        }
        let priors = learned_priors(&mut pos, &moves, 16, 8, 1.0);
        assert_eq!(priors.len(), 8);
        let sum: f32 = priors.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    }

    /// Positions of every kind: the start, an opening, stacks three high, a late game.
    fn positions() -> Vec<Position> {
        [
            "standard w 0 -",
            "standard w 2 bLG3:3@1,wLH11:3@1",
            "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,\
             wLH11:3@1,bEH15:0@1,wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3",
            "standard w 44 bEB8:3@1,bRC6:5@1,wMD3:3@1,bCD5:2@1,wED12:4@1,bLE2:1@1,\
             wEE9:0@1,wRE10:5@1,wCF5:0@1,bTG5:3@1,bEH2:2@1,bTH7:2@1,bLI3:2@1,wRI5:4@1,\
             bEI10:1@1,wCJ3:0@1,bMJ5:4@1,wMJ9:5@1,bTJ11:5@1,bCL6:2@1,bRN6:0@1,bME5:3@2,\
             wLE7:0@2,bEG8:2@2,bTH4:3@2,wEJ4:4@2,wEJ9:3@2,wLD5:5@3",
        ]
        .into_iter()
        .map(|text| Position::from_text(text).unwrap())
        .collect()
    }

    #[test]
    fn the_tables_give_the_sum_of_the_weighted_features() {
        // The compiled-in weights, and weights where every feature counts (so that a
        // feature the tables forgot cannot hide behind a zero weight).
        let varied: [f32; FEATURES] = std::array::from_fn(|i| 0.37 * i as f32 - 11.0);
        let mut shifts = 0;
        for pos in positions() {
            for weights in [WEIGHTS, varied] {
                let ctx = PolicyContext::with_weights(&pos, &weights);
                for mv in pos.legal_moves() {
                    let (fast, slow) = (ctx.logit(mv), ctx.logit_with(&weights, mv));
                    let tolerance = 1e-4 * slow.abs().max(1.0);
                    assert!(
                        (fast - slow).abs() <= tolerance,
                        "{pos} {mv}: {fast} vs {slow}"
                    );
                    shifts += usize::from(matches!(mv, Move::Shift { .. }));
                }
            }
        }
        assert!(shifts > 1000, "{shifts}");
    }

    #[test]
    fn the_best_moves_are_those_of_a_full_sort() {
        for pos in positions() {
            let ctx = PolicyContext::new(&pos);
            let moves = pos.legal_moves();
            let all: Vec<(Move, f32)> = moves.iter().map(|&mv| (mv, ctx.logit(mv))).collect();
            for n in [1, 8, 40, 400] {
                let logits = |v: Vec<(Move, f32)>| v.into_iter().map(|m| m.1).collect::<Vec<_>>();
                assert_eq!(logits(top(&ctx, &moves, n)), logits(best(all.clone(), n)));
            }
        }
    }

    #[test]
    fn a_cell_on_the_best_link_has_no_slack() {
        let pos = Position::new(punct_core::Variant::Standard);
        let ctx = PolicyContext::new(&pos);
        // On the empty board every line between two sides through the middle is a best link.
        assert!(ctx.mine.contains(&0));
        assert!(ctx.mine.iter().all(|&s| usize::from(s) <= BUCKETS));
    }
}
