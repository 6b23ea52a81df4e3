//! The end of the game (RULINGS.md §5).

use std::fmt;

use crate::bitboard::Bitboard;
use crate::geometry::{CROSSINGS, GOALS};
use crate::piece::Colour;
use crate::position::{Position, Variant};

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// The mover linked two opposite sides.
    Connection,
    /// The mover uncovered a line of the opponent's, who wins.
    UncoveredConnection,
    /// Standard game: the 18th placement, decided by the central-hexagon count.
    CentreMajority,
    /// Standard game: the 18th placement with equal central-hexagon counts.
    CentreTie,
    /// Basic game: the 18th placement draws.
    AllPlaced,
    /// The same position for the third time.
    Repetition,
    /// The side to move has no legal move.
    NoLegalMove,
    /// A player resigned (not a rule of the board; recorded by servers and records).
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// The players agreed to a draw.
    Agreement,
    /// The game was called off before it got going (a side never made its first move, or
    /// an invitation was never taken up): no result.
    Aborted,
    /// Nobody played on for a long time: the game was ended without a result.
    Abandoned,
}

impl Termination {
    /// All terminations, for parsing.
    pub const ALL: [Termination; 12] = [
        Termination::Connection,
        Termination::UncoveredConnection,
        Termination::CentreMajority,
        Termination::CentreTie,
        Termination::AllPlaced,
        Termination::Repetition,
        Termination::NoLegalMove,
        Termination::Resignation,
        Termination::Timeout,
        Termination::Agreement,
        Termination::Aborted,
        Termination::Abandoned,
    ];

    /// The name used in records, e.g. `connection`.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Connection => "connection",
            Termination::UncoveredConnection => "uncovered connection",
            Termination::CentreMajority => "centre majority",
            Termination::CentreTie => "centre tie",
            Termination::AllPlaced => "all pieces placed",
            Termination::Repetition => "threefold repetition",
            Termination::NoLegalMove => "no legal move",
            Termination::Resignation => "resignation",
            Termination::Timeout => "time forfeit",
            Termination::Agreement => "agreement",
            Termination::Aborted => "aborted",
            Termination::Abandoned => "abandoned",
        }
    }

    /// Whether the game ended without a result (neither a win nor a draw): records write
    /// `*` for it.
    pub const fn is_void(self) -> bool {
        matches!(self, Termination::Aborted | Termination::Abandoned)
    }

    /// Reads a name written by [`Termination::name`].
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game and its reason.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Colour>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Outcome {
    /// The result token of records: `1-0`, `0-1`, `1/2-1/2`, or `*` for a game ended
    /// without a result.
    pub const fn result_token(self) -> &'static str {
        if self.termination.is_void() {
            return "*";
        }
        match self.winner {
            Some(Colour::White) => "1-0",
            Some(Colour::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// White's score: 1, ½ or 0.
    pub fn white_score(self) -> f64 {
        match self.winner {
            Some(Colour::White) => 1.0,
            Some(Colour::Black) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            _ if self.termination.is_void() => write!(f, "game {}", self.termination),
            Some(c) => write!(f, "{c} wins by {}", self.termination),
            None => write!(f, "draw by {}", self.termination),
        }
    }
}

impl Position {
    /// The cells of `colour`'s visible dots that take part in a connection between two
    /// opposite sides (empty when there is none).
    pub fn winning_chain(&self, colour: Colour) -> Bitboard {
        let own = self.visible[colour.index()];
        let mut chain = Bitboard::EMPTY;
        for [a, b] in GOALS {
            if !own.intersects(a) || !own.intersects(b) {
                continue;
            }
            let from_a = (own & a).flood(own);
            if from_a.intersects(b) {
                chain |= from_a & (own & b).flood(from_a);
            }
        }
        chain
    }

    /// Whether `colour`'s visible dots link two opposite sides.
    pub fn is_connected(&self, colour: Colour) -> bool {
        let own = self.visible[colour.index()];
        GOALS.iter().zip(&CROSSINGS).any(|(&[a, b], crossings)| {
            // A missing crossing line, found in a few tests, spares most floods.
            own.intersects(a)
                && own.intersects(b)
                && crossings.iter().all(|line| own.intersects(*line))
                && (own & a).flood(own).intersects(b)
        })
    }

    /// Rules 1–3 of §5, which need no history: connections and the 18th placement.
    ///
    /// The player who just moved is the one not to move. In play the game stops as soon as
    /// a player's reserve is empty, so an empty reserve for the player who just moved means
    /// they have just placed their 18th piece.
    pub fn decisive_outcome(&self) -> Option<Outcome> {
        let mover = !self.turn;
        if self.is_connected(mover) {
            return Some(Outcome {
                winner: Some(mover),
                termination: Termination::Connection,
            });
        }
        if self.is_connected(self.turn) {
            return Some(Outcome {
                winner: Some(self.turn),
                termination: Termination::UncoveredConnection,
            });
        }
        if self.reserve[mover.index()].total() == 0 {
            return Some(match self.variant {
                Variant::Basic => Outcome {
                    winner: None,
                    termination: Termination::AllPlaced,
                },
                Variant::Standard => {
                    let [w, b] = self.centre_count();
                    Outcome {
                        winner: match w.cmp(&b) {
                            std::cmp::Ordering::Greater => Some(Colour::White),
                            std::cmp::Ordering::Less => Some(Colour::Black),
                            std::cmp::Ordering::Equal => None,
                        },
                        termination: if w == b {
                            Termination::CentreTie
                        } else {
                            Termination::CentreMajority
                        },
                    }
                }
            });
        }
        None
    }

    /// The outcome judged from this position alone: rules 1–3 and 5 of §5 (repetition needs
    /// the game's history, see [`crate::Game`]).
    pub fn outcome(&self) -> Option<Outcome> {
        self.decisive_outcome().or_else(|| {
            (!self.has_legal_move()).then_some(Outcome {
                winner: None,
                termination: Termination::NoLegalMove,
            })
        })
    }
}
