//! What a finished game's analysis says about each move and each player: how much of the
//! mover's win chance a move gave away, its class (inaccuracy, mistake, blunder) and each
//! player's counts and accuracy. Pure arithmetic over the engine's evaluations.
//!
//! Win chance is the mover's expected score, `win + draw / 2`, from 0 to 1. A move's loss is
//! the mover's chance before it less the chance after it (never below 0; nothing when the
//! engine's best move was played). The classes use lichess's thresholds, 0.1, 0.2 and 0.3,
//! on this 0-to-1 scale (lichess's own scale runs from -1 to 1, so these are twice as
//! lenient): an engine's short search estimates win chances to a few hundredths, and its
//! noise should not be called a mistake. Accuracy per move is lichess's formula on win
//! percentages, `103.1668 · e^(−0.04354 · loss%) − 3.1669` clamped to 0–100, and a player's
//! accuracy the plain mean over their moves.

use punct_core::Colour;
use serde::{Deserialize, Serialize};

/// The engine's view of one position of the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Eval {
    /// White's expected score there (`win + draw / 2`, 0 to 1).
    pub white: f32,
    /// The engine's best move, if the position has one.
    pub best: Option<String>,
    /// The line it expects, from `best`.
    pub pv: Vec<String>,
    /// Playouts searched (0 where the game was over).
    pub nodes: u64,
}

/// A whole game's analysis, as stored: the evaluation of each position, the start's first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// The moves analysed, as text.
    pub moves: Vec<String>,
    /// One more than the moves: the position before each, then the last.
    pub positions: Vec<Eval>,
    /// The engine's time a position, in ms.
    pub movetime_ms: u64,
    /// When it was finished, ms since the epoch.
    pub created_ms: i64,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Lost at least [`INACCURACY`] of the mover's win chance.
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

/// Win chance lost from which a move is an inaccuracy.
pub const INACCURACY: f32 = 0.1;
/// Win chance lost from which a move is a mistake.
pub const MISTAKE: f32 = 0.2;
/// Win chance lost from which a move is a blunder.
pub const BLUNDER: f32 = 0.3;

impl Class {
    /// The class of a move that lost `loss` of its mover's win chance, if it has one.
    pub fn of(loss: f32) -> Option<Class> {
        if loss >= BLUNDER {
            Some(Class::Blunder)
        } else if loss >= MISTAKE {
            Some(Class::Mistake)
        } else if loss >= INACCURACY {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Who played it.
    pub mover: Colour,
    /// The mover's win chance it gave away (0 to 1).
    pub loss: f32,
    /// Its class, if it has one.
    pub class: Option<Class>,
    /// The engine's better move, where the move played was not the engine's.
    pub better: Option<String>,
    /// Accuracy of the move, 0 to 100.
    pub accuracy: f32,
}

/// One player's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    /// Moves classed as inaccuracies.
    pub inaccuracies: u32,
    /// As mistakes.
    pub mistakes: u32,
    /// As blunders.
    pub blunders: u32,
    /// Mean accuracy of their moves (0 to 100), `None` before their first move.
    pub accuracy: Option<f32>,
}

/// A game's moves judged and its players' figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Each move, in order.
    pub moves: Vec<Judged>,
    /// White's figures, then Black's.
    pub players: [Player; 2],
}

/// Accuracy of a move that lost `loss` (0 to 1) of its mover's win chance, by lichess's
/// formula.
pub fn move_accuracy(loss: f32) -> f32 {
    let pct = 100.0 * loss.max(0.0);
    (103.1668 * (-0.04354 * pct).exp() - 3.1669).clamp(0.0, 100.0)
}

impl Review {
    /// The review of `analysis`, whose first position has `first` to move.
    pub fn of(analysis: &GameAnalysis, first: Colour) -> Review {
        let mut mover = first;
        let mut moves = Vec::with_capacity(analysis.moves.len());
        let mut sums = [(0.0f32, 0u32); 2];
        let mut players: [Player; 2] = Default::default();
        for (i, played) in analysis.moves.iter().enumerate() {
            let (Some(before), Some(after)) =
                (analysis.positions.get(i), analysis.positions.get(i + 1))
            else {
                break;
            };
            let chance = |e: &Eval| match mover {
                Colour::White => e.white,
                Colour::Black => 1.0 - e.white,
            };
            let engines = before.best.as_deref() == Some(played.as_str());
            let loss = if engines {
                0.0
            } else {
                (chance(before) - chance(after)).max(0.0)
            };
            let class = Class::of(loss);
            let side = mover as usize;
            let player = &mut players[side];
            match class {
                Some(Class::Inaccuracy) => player.inaccuracies += 1,
                Some(Class::Mistake) => player.mistakes += 1,
                Some(Class::Blunder) => player.blunders += 1,
                None => {}
            }
            let accuracy = move_accuracy(loss);
            sums[side].0 += accuracy;
            sums[side].1 += 1;
            moves.push(Judged {
                mover,
                loss,
                class,
                better: (!engines).then(|| before.best.clone()).flatten(),
                accuracy,
            });
            mover = !mover;
        }
        for (player, (sum, n)) in players.iter_mut().zip(sums) {
            player.accuracy = (n > 0).then(|| sum / n as f32);
        }
        Review { moves, players }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(white: f32, best: &str) -> Eval {
        Eval {
            white,
            best: Some(best.to_owned()),
            pv: vec![best.to_owned()],
            nodes: 100,
        }
    }

    #[test]
    fn moves_are_classed_by_the_win_chance_their_mover_lost() {
        let analysis = GameAnalysis {
            moves: ["a", "b", "c", "d"].map(str::to_owned).to_vec(),
            // White 0.5 → 0.45 (White lost 0.05: nothing), Black 0.45 → 0.8 (Black lost
            // 0.35: a blunder), White plays the engine's move though it looks worse, Black
            // 0.7 → 0.85 (Black lost 0.15: an inaccuracy).
            positions: vec![
                eval(0.5, "x"),
                eval(0.45, "y"),
                eval(0.8, "c"),
                eval(0.7, "z"),
                eval(0.85, "w"),
            ],
            movetime_ms: 100,
            created_ms: 0,
        };
        let review = Review::of(&analysis, Colour::White);
        let classes: Vec<_> = review.moves.iter().map(|m| m.class).collect();
        assert_eq!(
            classes,
            [None, Some(Class::Blunder), None, Some(Class::Inaccuracy)]
        );
        assert_eq!(review.moves[1].better.as_deref(), Some("y"));
        assert_eq!(review.moves[2].better, None, "the engine's own move");
        assert_eq!(review.moves[2].loss, 0.0);
        assert_eq!(review.players[1].blunders, 1);
        assert_eq!(review.players[1].inaccuracies, 1);
        assert_eq!(review.players[0].blunders + review.players[0].mistakes, 0);
        let white = review.players[0].accuracy.unwrap();
        let black = review.players[1].accuracy.unwrap();
        assert!(white > 85.0 && black < 60.0, "{white} {black}");
    }

    #[test]
    fn accuracy_is_full_for_no_loss_and_falls_with_the_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.1) < move_accuracy(0.05));
        assert_eq!(move_accuracy(1.0), 0.0);
    }

    #[test]
    fn thresholds_are_inclusive() {
        assert_eq!(Class::of(0.0999), None);
        assert_eq!(Class::of(0.1), Some(Class::Inaccuracy));
        assert_eq!(Class::of(0.2), Some(Class::Mistake));
        assert_eq!(Class::of(0.3), Some(Class::Blunder));
    }
}
