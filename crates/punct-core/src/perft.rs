//! Perft: the number of legal move sequences of a given length, a check of the generator.
//!
//! Play stops when a game ends by connection or by the 18th placement (rules 1–3 of
//! RULINGS.md §5); repetition is not counted, as perft has no history.

use crate::moves::Move;
use crate::position::Position;

/// Number of move sequences of length `depth` from `pos`, counting the last ply in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.decisive_outcome().is_some() {
        return 0;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let mut child = pos.clone();
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let undo = child.make(mv);
            let n = perft(&child, depth - 1);
            child.unmake(undo);
            n
        })
        .sum()
}

/// [`perft`] split by first move, in canonical move order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || pos.decisive_outcome().is_some() {
        return Vec::new();
    }
    let mut child = pos.clone();
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let undo = child.make(mv);
            let n = perft(&child, depth - 1);
            child.unmake(undo);
            (mv, n)
        })
        .collect();
    out.sort_by_cached_key(|(mv, _)| mv.to_string());
    out
}
