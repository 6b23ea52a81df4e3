//! A reference player in the manner of the only other PÜNCT program: a three-ply alpha-beta
//! search over a hand-weighted connectivity score, after throwing away all but a few moves
//! in every position. Wins in one are seen exactly at every node, and at the root only moves
//! that stop the opponent's win in one are considered, as [`super::Greedy`] does. Measuring the engine against it says how much the tree search and
//! the evaluation add over that classic design.

use punct_core::{Bitboard, Colour, Game, Move, Position};

use super::Player;
use crate::evaluation::distances;
use crate::evaluation::features::{MoveContext, priors};
use crate::limits::SearchLimits;
use crate::tactics;

/// Plies searched.
const DEPTH: u32 = 3;

/// Moves kept in every position, the best by the cheap move score.
const WIDTH: usize = 16;

/// The value of a won position; wins sooner score higher.
const WIN: f32 = 1000.0;

/// Three plies of alpha-beta over the best [`WIDTH`] moves of each position.
pub struct AlphaBeta;

impl Player for AlphaBeta {
    fn name(&self) -> String {
        "alphabeta".to_owned()
    }

    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Game, _: &SearchLimits) -> Result<Move, String> {
        let mut pos = game.position().clone();
        let moves = match tactics::triage(&mut pos) {
            Ok(win) => return Ok(win),
            Err(moves) => moves,
        };
        let mut best = None;
        let mut alpha = -f32::INFINITY;
        for mv in candidates(&pos, &moves) {
            let undo = pos.make(mv);
            let value = -negamax(&mut pos, DEPTH - 1, -f32::INFINITY, -alpha);
            pos.unmake(undo);
            if best.is_none() || value > alpha {
                alpha = value;
                best = Some(mv);
            }
        }
        best.ok_or_else(|| "no legal move".to_owned())
    }
}

/// The moves worth searching in `pos`, best first.
fn candidates(pos: &Position, moves: &[Move]) -> Vec<Move> {
    priors(&MoveContext::new(pos), moves, WIDTH)
        .into_iter()
        .map(|(mv, _)| mv)
        .collect()
}

/// The value of `pos` for the side to move, searched `depth` plies deep.
fn negamax(pos: &mut Position, depth: u32, mut alpha: f32, beta: f32) -> f32 {
    if let Some(outcome) = pos.decisive_outcome() {
        return match outcome.winner {
            Some(c) if c == pos.turn() => WIN + depth as f32,
            Some(_) => -WIN - depth as f32,
            None => 0.0,
        };
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return 0.0;
    }
    // Wins in one are found exactly at every node, whether or not they rank among the few
    // moves searched.
    if tactics::winning_move(pos, Some(&moves)).is_some() {
        return WIN + depth as f32;
    }
    if depth == 0 {
        return score(pos, pos.turn());
    }
    let mut best = -f32::INFINITY;
    for mv in candidates(pos, &moves) {
        let undo = pos.make(mv);
        let value = -negamax(pos, depth - 1, -beta, -alpha);
        pos.unmake(undo);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// A hand-weighted connectivity score for `me`: the opponent's connection distance minus
/// one's own, on the best axis and, with less weight, on the second best.
fn score(pos: &Position, me: Colour) -> f32 {
    let empty = Bitboard::ALL & !pos.occupied();
    let mine = distances(pos.visible(me), pos.visible(!me), empty);
    let theirs = distances(pos.visible(!me), pos.visible(me), empty);
    let gap = |a: u32, b: u32| a as f32 - b as f32;
    gap(theirs.best(), mine.best()) + 0.5 * gap(theirs.second(), mine.second())
}
