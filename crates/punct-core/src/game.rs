//! A game: a starting position, the moves played, and the history that threefold
//! repetition needs.

use crate::legality::Illegal;
use crate::moves::Move;
use crate::position::{Position, Undo, Variant};
use crate::status::{Outcome, Termination};

/// Why [`Game::play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has already ended.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The move breaks a rule.
    #[error("illegal move {0}: {1}")]
    Illegal(String, Illegal),
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    /// Hash of the position before each move, then of the current one.
    hashes: Vec<u64>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the empty board.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::new(variant))
    }

    /// A game starting from `start` (which may already be finished).
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            hashes: vec![start.hash()],
            position: start.clone(),
            start,
            moves: Vec::new(),
            undos: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The result, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The hash ([`Position::hash`]) of the position before each move, then of the current
    /// one: every position the game has been in, in order.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        let now = self.position.hash();
        self.hashes.iter().filter(|&&h| h == now).count()
    }

    fn judge(&self) -> Option<Outcome> {
        self.position
            .decisive_outcome()
            .or_else(|| {
                (self.repetitions() >= 3).then_some(Outcome {
                    winner: None,
                    termination: Termination::Repetition,
                })
            })
            .or_else(|| {
                (!self.position.has_legal_move()).then_some(Outcome {
                    winner: None,
                    termination: Termination::NoLegalMove,
                })
            })
    }

    /// Plays a move after checking it, and judges the end of the game. Returns the move in
    /// canonical form.
    pub fn play(&mut self, mv: Move) -> Result<Move, PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        // The generator's legality test is fast (the tests hold it to the rules' own check,
        // which runs here only to name the reason a move is refused).
        let mv = if self.position.is_legal(mv) {
            self.position.canonical(mv)
        } else {
            self.position
                .check(mv)
                .map_err(|e| PlayError::Illegal(mv.to_string(), e))?
        };
        self.undos.push(self.position.make(mv));
        self.moves.push(mv);
        self.hashes.push(self.position.hash());
        self.outcome = self.judge();
        Ok(mv)
    }

    /// Takes back the last move, if there is one; the game is open again.
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.undos.pop()?;
        self.position.unmake(undo);
        self.hashes.pop();
        self.outcome = self.judge();
        self.moves.pop()
    }

    /// Ends the game for a reason outside the board (resignation, time, agreement).
    pub fn end(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// The position after the first `n` moves.
    pub fn position_after(&self, n: usize) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves[..n.min(self.moves.len())] {
            pos.make(mv);
        }
        pos
    }
}

impl Position {
    /// Checks `mv` against the rules (see [`crate::legality`]), returning it in canonical
    /// form or the reason it is refused.
    pub fn check(&self, mv: Move) -> Result<Move, Illegal> {
        crate::legality::check(self, mv)
    }

    /// Plays `mv` if it is legal.
    pub fn play(&mut self, mv: Move) -> Result<Undo, Illegal> {
        let mv = self.check(mv)?;
        Ok(self.make(mv))
    }
}
