//! The rungs below the search: a player who looks at a few natural moves, at most one move
//! ahead, and, like a newcomer, sometimes overlooks a win in one, their own or the
//! opponent's. Weaker by what a person misses, not by random moves.

use punct_core::{Move, Position};
use rand::RngExt;
use rand::rngs::SmallRng;

use crate::draw;
use crate::evaluation::features::MoveContext;
use crate::evaluation::{Distances, advantage};
use crate::tactics::{self, Defence};

/// How a rung below the search plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Habits {
    /// The chance of overlooking one's own win in one: the winning moves are then passed
    /// over as if they were not there.
    pub miss_win: f32,
    /// The chance of overlooking the opponent's threat to win in one: the move is then
    /// chosen as if nothing threatened.
    pub miss_threat: f32,
    /// How many moves are looked at: the best by the cheap move score (near one's own
    /// pieces and paths, in the opponent's way).
    pub glance: usize,
    /// Whether those moves are judged by the position after them (one move ahead) rather
    /// than by the cheap score alone.
    pub look_ahead: bool,
    /// How strongly the choice favours the better-judged moves, per cell of distance: low
    /// values make aimless moves common.
    pub sharpness: f32,
}

/// The move a player with `habits` makes in `pos`, with `rng` deciding its lapses and its
/// choice; `None` when there is no legal move.
pub fn choose(pos: &mut Position, habits: &Habits, rng: &mut SmallRng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let sees_win = rng.random_range(0.0..1.0) >= habits.miss_win;
    if sees_win && let Some(win) = tactics::winning_move(pos, Some(&moves)) {
        return Some(win);
    }
    let sees_threat = rng.random_range(0.0..1.0) >= habits.miss_threat;
    let (candidates, blind) = match tactics::defend(pos, &moves, &|| false) {
        Defence::Stoppers(stoppers) if sees_threat => (stoppers, false),
        Defence::Stoppers(_) | Defence::Lost => (moves, !sees_threat),
        Defence::None | Defence::Unfinished => (moves, false),
    };
    let mut ctx = MoveContext::new(pos);
    if blind {
        ctx = ctx.blind_to_opponent();
    }
    let mut scored: Vec<(Move, f32)> = candidates.iter().map(|&m| (m, ctx.score(m))).collect();
    scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
    let mover = pos.turn();
    let mut judged = Vec::with_capacity(habits.glance);
    // The best-scored moves in order, until `glance` of them are seen: a win overlooked is
    // not seen, whatever its score.
    for &(mv, score) in &scored {
        if judged.len() >= habits.glance.max(1) {
            break;
        }
        let undo = pos.make(mv);
        let value = match pos.decisive_outcome().map(|o| o.winner) {
            Some(Some(w)) if w == mover => sees_win.then_some(100.0),
            // A move that loses at once is seen to lose only by a player who looks ahead.
            Some(Some(_)) if habits.look_ahead => Some(-100.0),
            Some(None) if habits.look_ahead => Some(0.0),
            None if habits.look_ahead && blind => {
                // Only its own connection counts for a player blind to the opponent.
                Some(-(Distances::quick(pos).op.best() as f32))
            }
            None if habits.look_ahead => Some(-advantage(pos, &Distances::quick(pos))),
            _ => Some(score),
        };
        pos.unmake(undo);
        if let Some(v) = value {
            judged.push((mv, v));
        }
    }
    if judged.is_empty() {
        judged = scored;
    }
    draw(&judged, habits.sharpness, rng)
}

/// A move drawn with chances by a softmax of its value at `sharpness`.
fn draw(judged: &[(Move, f32)], sharpness: f32, rng: &mut SmallRng) -> Option<Move> {
    let top = judged.iter().map(|j| j.1).fold(f32::NEG_INFINITY, f32::max);
    let weights: Vec<f32> = judged
        .iter()
        .map(|&(_, v)| ((v - top) * sharpness).exp())
        .collect();
    let i = draw::weighted(&weights, rng).unwrap_or(0);
    judged.get(i).map(|j| j.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn habits(miss_win: f32, miss_threat: f32) -> Habits {
        Habits {
            miss_win,
            miss_threat,
            glance: 12,
            look_ahead: true,
            sharpness: 1.5,
        }
    }

    #[test]
    fn the_choice_is_legal_and_the_same_for_the_same_seed() {
        let mut pos = Position::new(punct_core::Variant::Standard);
        let pick = |pos: &mut Position, seed| {
            choose(pos, &habits(0.5, 0.5), &mut SmallRng::seed_from_u64(seed)).unwrap()
        };
        let first = pick(&mut pos, 7);
        assert!(pos.is_legal(first));
        assert_eq!(first, pick(&mut pos, 7));
    }

    #[test]
    fn a_sure_draw_always_picks_the_best_judged() {
        let moves = [
            (Move::parse("TE4:0").unwrap(), 0.0),
            (Move::parse("TK5:0").unwrap(), 30.0),
        ];
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..20 {
            assert_eq!(draw(&moves, 10.0, &mut rng), Some(moves[1].0));
        }
    }
}
