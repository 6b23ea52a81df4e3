//! The learned move policy: a linear model over a few features of each move, read from
//! tables computed once per position, so that all of a position's ~5 000 legal moves are
//! scored for little more than the cost of the hand-set score.
//!
//! Per position: for each cell and each player, the cost of the cheapest link through that
//! cell minus the player's best link ("slack", bucketed 0–3), the cells each player sees,
//! the centre's weight, and which of three races the position is in (the opponent within
//! three cells, the opponent not behind, the mover ahead). Per move: the slack of the three
//! cells it lands on for both players (split by whether the cell was empty or the
//! opponent's, and by race), the cells it covers, centre cells won or given up, the piece
//! type, whether it is a shift, what the lift gives away (lost own cells and uncovered
//! opponent cells by slack), and the hand-set score of [`MoveContext::score`].

use punct_core::geometry::CENTRE;
use punct_core::{Bitboard, Move, Position};

use crate::evaluation::distance::connection_through;
use crate::evaluation::features::{MoveContext, PRIOR_SHARPNESS, best, normalise, refine};
use crate::evaluation::{Distances, centre_weight};

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
const HAND: usize = ON_OWN + 1;

/// Number of features of a move.
pub const FEATURES: usize = HAND + 1;

/// The logit of a move that has no footprint (never legal; kept last).
const NO_MOVE: f32 = -1000.0;

// The fitted weights, written by `punct train fit`.
include!("policy_weights.rs");

/// Where fitting starts: weights that rank moves as the hand-set priors do, the hand-set
/// score alone, as sharp as those priors.
pub fn initial_weights() -> [f32; FEATURES] {
    let mut weights = [0.0; FEATURES];
    weights[HAND] = PRIOR_SHARPNESS;
    weights
}

/// What the policy needs of one position, computed once for all its moves.
pub struct PolicyContext {
    /// The hand-set move context (also a feature), with the lifts.
    hand: MoveContext,
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
}

impl PolicyContext {
    /// Prepares to judge the moves of `pos`.
    pub fn new(pos: &Position) -> PolicyContext {
        let me = pos.turn();
        let own = pos.visible(me);
        let opp = pos.visible(!me);
        let occupied = pos.occupied();
        let empty = Bitboard::ALL & !occupied;
        // One set of searches gives the hand-set context's distances and the through costs.
        let last = BUCKETS as u32 - 1;
        let (mine, my_through) = connection_through(own, opp, empty, last);
        let (theirs, their_through) = connection_through(opp, own, empty, last);
        let hand = MoveContext::with_distances(
            pos,
            Distances {
                me: mine,
                op: theirs,
            },
        );
        let (my_best, their_best) = (mine.best(), theirs.best());
        let race = if their_best <= 3 {
            0
        } else if their_best <= my_best {
            1
        } else {
            2
        };
        PolicyContext {
            mine: slack(&my_through, my_best),
            theirs: slack(&their_through, their_best),
            hand,
            own,
            opp,
            occupied,
            near_own: own.dilate(),
            race,
            centre_weight: centre_weight(pos),
        }
    }

    /// The distances the context was built from.
    pub fn distances(&self) -> Distances {
        self.hand.distances
    }

    /// Calls `emit(feature, value)` for each non-zero feature of `mv`; returns false (and
    /// emits nothing) for a move of no movable piece.
    #[inline]
    pub fn features(&self, mv: Move, mut emit: impl FnMut(usize, f32)) -> bool {
        let lifts = self.hand.lifts();
        let Some(cells) = lifts.footprint(mv) else {
            return false;
        };
        emit(HAND, self.hand.score(mv));
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

    /// The compiled-in policy's logit for `mv`.
    #[inline]
    pub fn logit(&self, mv: Move) -> f32 {
        self.logit_with(&WEIGHTS, mv)
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
    let scored: Vec<(Move, f32)> = moves.iter().map(|&mv| (mv, ctx.logit(mv))).collect();
    if shortlist == 0 {
        return normalise(best(scored, k), sharpness);
    }
    refine(pos, best(scored, shortlist.max(k)), k)
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

    #[test]
    fn a_cell_on_the_best_link_has_no_slack() {
        let pos = Position::new(punct_core::Variant::Standard);
        let ctx = PolicyContext::new(&pos);
        // On the empty board every line between two sides through the middle is a best link.
        assert!(ctx.mine.contains(&0));
        assert!(ctx.mine.iter().all(|&s| usize::from(s) <= BUCKETS));
    }
}
