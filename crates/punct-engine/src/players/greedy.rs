//! A one-move reference player: tactics, then the best change of connection distance.

use punct_core::{Bitboard, Game, Move};

use super::Player;
use crate::evaluation::distances;
use crate::limits::SearchLimits;
use crate::tactics;

/// Takes a win in one, stops the opponent's, and otherwise plays the move that most
/// improves its connection distance minus the opponent's.
pub struct Greedy;

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Game, _: &SearchLimits) -> Result<Move, String> {
        let mut pos = game.position().clone();
        let moves = match tactics::triage(&mut pos) {
            Ok(win) => return Ok(win),
            Err(moves) => moves,
        };
        let me = pos.turn();
        let mut best = None;
        for mv in moves {
            let undo = pos.make(mv);
            let value = match pos.decisive_outcome() {
                Some(o) if o.winner == Some(me) => f32::INFINITY,
                Some(o) if o.winner.is_some() => f32::NEG_INFINITY,
                Some(_) => 0.0,
                None => {
                    let empty = Bitboard::ALL & !pos.occupied();
                    let mine = distances(pos.visible(me), pos.visible(!me), empty).best();
                    let theirs = distances(pos.visible(!me), pos.visible(me), empty).best();
                    theirs as f32 - mine as f32
                }
            };
            pos.unmake(undo);
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((mv, value));
            }
        }
        best.map(|(mv, _)| mv)
            .ok_or_else(|| "no legal move".to_owned())
    }
}
