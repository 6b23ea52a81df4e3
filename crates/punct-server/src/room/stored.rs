//! The form a game is stored in (JSON in the database), and the small form of a move that
//! leaves its game running, which the store keeps apart until it folds it in.

use std::collections::VecDeque;

use punct_core::{Colour, Game, Move, Outcome, Position, Termination};
use serde::{Deserialize, Serialize};

use serde_json::value::RawValue;

use super::MoveTexts;
use super::{
    Action, Change, Joined, Made, Mode, Room, Seat, SeatShown, colour_name, parse_colour, remember,
};
use crate::room::clock::Clock;
use crate::store::{Form, PendingMove};

/// The stored form written straight from a room, without copying it ([`Stored`] reads it).
#[derive(Serialize)]
struct StoredRef<'a> {
    moves: &'a RawValue,
    id: &'a str,
    mode: Mode,
    start: &'a str,
    seats: &'a [Seat; 2],
    clock: &'a Option<Clock>,
    draw_offer: Option<&'static str>,
    takeback_request: Option<&'static str>,
    rematch_offer: Option<&'static str>,
    rematch: &'a Option<String>,
    seq: u64,
    created_ms: i64,
    updated_ms: i64,
    ended: Option<(Option<&'static str>, &'static str)>,
    result: Option<String>,
    invite: &'a Option<String>,
    joined: &'a Option<Joined>,
    recent: &'a VecDeque<Made>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    rated: bool,
}

/// The form a room is stored in (JSON in the database).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stored {
    id: String,
    mode: Mode,
    start: String,
    pub(super) moves: Vec<String>,
    seats: [Seat; 2],
    clock: Option<Clock>,
    draw_offer: Option<String>,
    takeback_request: Option<String>,
    /// The side that offered a rematch of the finished game.
    #[serde(default)]
    rematch_offer: Option<String>,
    /// The rematch's id, once it was made.
    #[serde(default)]
    rematch: Option<String>,
    pub(super) seq: u64,
    created_ms: i64,
    updated_ms: i64,
    /// The outcome when it came from outside the board (resignation, time, agreement).
    ended: Option<(Option<String>, String)>,
    /// The outcome in words, for lists of games without replaying them.
    #[serde(default)]
    result: Option<String>,
    /// The open seat's invitation secret.
    #[serde(default)]
    invite: Option<String>,
    /// The invitation the seat was taken with, for repeats of the join.
    #[serde(default)]
    joined: Option<Joined>,
    /// The last changes made at a seat holder's request.
    #[serde(default)]
    recent: VecDeque<Made>,
    /// Whether the game is rated (absent in the older form: casual).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    rated: bool,
}

impl Stored {
    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A line for the list of games.
    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id.clone(),
            mode: self.mode,
            live: self.result.is_none(),
            white: self.seats[0].name().to_owned(),
            black: self.seats[1].name().to_owned(),
            moves: self.moves.len(),
            result: self.result.clone(),
            outcome: self.result.as_deref().and_then(outcome_of),
            seats: [SeatShown::of(&self.seats[0]), SeatShown::of(&self.seats[1])],
            position: None,
            updated_ms: self.updated_ms,
        }
    }
}

impl Form for Stored {
    fn seq(&self) -> u64 {
        self.seq
    }

    fn updated_ms(&self) -> i64 {
        self.updated_ms
    }

    /// Changes the stored form as the move changed the room: one more move, offers
    /// withdrawn, the mover's clock charged and the other side's started.
    fn apply(&mut self, m: &PendingMove) -> Result<(), String> {
        if m.seq <= self.seq {
            return Ok(());
        }
        if m.seq != self.seq + 1 || self.result.is_some() || m.mover > 1 {
            return Err(format!(
                "game {}: stored move {} (seq {}) does not follow its state (seq {})",
                self.id, m.text, m.seq, self.seq
            ));
        }
        match (&mut self.clock, m.left_ms) {
            (Some(clock), Some(left)) => {
                clock.remaining_ms[usize::from(m.mover)] = left;
                clock.running_since = Some(m.at_ms);
            }
            (None, None) => {}
            _ => {
                return Err(format!(
                    "game {}: stored move {} has no clock",
                    self.id, m.text
                ));
            }
        }
        self.moves.push(m.text.clone());
        self.draw_offer = None;
        self.takeback_request = None;
        self.seq = m.seq;
        self.updated_ms = m.at_ms;
        remember(
            &mut self.recent,
            Made {
                seq: m.seq,
                by: m.mover,
                action: Action::Move {
                    text: m.text.clone(),
                },
            },
        );
        Ok(())
    }
}

/// A game's line in the list of games (API.md, `GET /api/games`; written by
/// `wire::list`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The game's id.
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// Whether it is being played.
    pub live: bool,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Moves made.
    pub moves: usize,
    /// The outcome in words, once it is over.
    pub result: Option<String>,
    /// The outcome, once it is over.
    pub outcome: Option<Outcome>,
    /// White's and Black's seats as anyone may see them.
    pub seats: [SeatShown; 2],
    /// The position text now, for live games only (the home page draws them small); a
    /// finished game's would need its moves replayed.
    pub position: Option<String>,
    /// When it last changed, ms since the epoch.
    pub updated_ms: i64,
}

/// The outcome whose words (punct-core's `Display`) are `text`, as a stored game keeps its
/// result: every outcome there is, written and compared, so that the words are never parsed.
fn outcome_of(text: &str) -> Option<Outcome> {
    [None, Some(Colour::White), Some(Colour::Black)]
        .into_iter()
        .flat_map(|winner| {
            Termination::ALL.map(|termination| Outcome {
                winner,
                termination,
            })
        })
        .find(|o| o.to_string() == text)
}

fn outside_board(t: Termination) -> bool {
    matches!(
        t,
        Termination::Resignation | Termination::Timeout | Termination::Agreement
    ) || t.is_void()
}

impl Room {
    fn ended(&self) -> Option<(Option<&'static str>, &'static str)> {
        self.game
            .outcome()
            .filter(|o| outside_board(o.termination))
            .map(|o| (o.winner.map(colour_name), o.termination.name()))
    }

    /// The game's line in the list of games, written from the room as [`Stored::summary`]
    /// writes it from the stored form.
    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id.clone(),
            mode: self.mode,
            live: self.is_live(),
            white: self.seats[0].name().to_owned(),
            black: self.seats[1].name().to_owned(),
            moves: self.game.moves().len(),
            result: self.game.outcome().map(|o| o.to_string()),
            outcome: self.game.outcome(),
            seats: [SeatShown::of(&self.seats[0]), SeatShown::of(&self.seats[1])],
            position: self.is_live().then(|| self.game.position().to_string()),
            updated_ms: self.updated_ms,
        }
    }

    /// Whether anyone may see the game in the list of live games: not a friend game whose
    /// open seat waits for the friend who holds its invitation, nor a game not yet begun
    /// (nothing to watch: one left without a move is aborted, never played).
    pub fn is_public(&self) -> bool {
        !self.seats.iter().any(Seat::is_open) && !self.game.moves().is_empty()
    }

    /// The stored form.
    pub fn to_stored(&self) -> Stored {
        Stored {
            id: self.id.clone(),
            mode: self.mode,
            start: self.start_text.to_string(),
            moves: self.texts.iter().map(str::to_owned).collect(),
            seats: self.seats.clone(),
            clock: self.clock.clone(),
            draw_offer: self.draw_offer.map(|c| colour_name(c).to_owned()),
            takeback_request: self.takeback_request.map(|c| colour_name(c).to_owned()),
            rematch_offer: self.rematch_offer.map(|c| colour_name(c).to_owned()),
            rematch: self.rematch.clone(),
            seq: self.seq,
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            ended: self
                .ended()
                .map(|(w, t)| (w.map(str::to_owned), t.to_owned())),
            result: self.game.outcome().map(|o| o.to_string()),
            invite: self.invite.clone(),
            joined: self.joined.clone(),
            recent: self.recent.clone(),
            rated: self.rated,
        }
    }

    /// The stored form as JSON, written without copying the room.
    pub fn stored_json(&self) -> String {
        let stored = StoredRef {
            moves: self.texts.json(),
            id: &self.id,
            mode: self.mode,
            start: &self.start_text,
            seats: &self.seats,
            clock: &self.clock,
            draw_offer: self.draw_offer.map(colour_name),
            takeback_request: self.takeback_request.map(colour_name),
            rematch_offer: self.rematch_offer.map(colour_name),
            rematch: &self.rematch,
            seq: self.seq,
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            ended: self.ended(),
            result: self.game.outcome().map(|o| o.to_string()),
            invite: &self.invite,
            joined: &self.joined,
            recent: &self.recent,
            rated: self.rated,
        };
        // The form holds nothing serde could refuse.
        serde_json::to_string(&stored).unwrap_or_default()
    }

    /// What the last change, a move that left the game running, changed: stored instead of
    /// the whole room. `None` if the last change was anything else.
    pub fn pending_move(&self, change: Change) -> Option<PendingMove> {
        let mv = self
            .game
            .moves()
            .last()
            .filter(|_| change == Change::Move && self.is_live())?;
        let mover = !self.turn();
        Some(PendingMove {
            game: self.id.clone(),
            seq: self.seq,
            at_ms: self.updated_ms,
            mover: mover.index() as u8,
            text: mv.to_string(),
            left_ms: self.clock.as_ref().map(|c| c.remaining_ms[mover.index()]),
        })
    }

    /// Rebuilds a room from its stored form, replaying the moves with the rules. A running
    /// clock charges the side to move for its thinking up to `alive_ms` (when the server was
    /// last known to be running) and restarts at `now`: downtime costs no one.
    pub fn from_stored(s: Stored, now: i64, alive_ms: i64) -> Result<Room, String> {
        let start = Position::from_text(&s.start).map_err(|e| e.to_string())?;
        let mut game = Game::from_position(start);
        for text in &s.moves {
            let mv = Move::parse(text).map_err(|e| e.to_string())?;
            game.play(mv).map_err(|e| e.to_string())?;
        }
        if let Some((winner, termination)) = &s.ended {
            let termination = Termination::from_name(termination)
                .ok_or_else(|| format!("unknown termination `{termination}`"))?;
            let winner = winner.as_deref().and_then(parse_colour);
            game.end(Outcome {
                winner,
                termination,
            });
        }
        let mut clock = s.clock;
        let turn = game.position().turn();
        if let Some(c) = clock.as_mut() {
            c.resume(turn, alive_ms, now);
        }
        let texts = MoveTexts::new(game.moves());
        Ok(Room {
            texts,
            start_text: s.start.into(),
            id: s.id,
            mode: s.mode,
            game,
            seats: s.seats,
            clock,
            draw_offer: s.draw_offer.as_deref().and_then(parse_colour),
            takeback_request: s.takeback_request.as_deref().and_then(parse_colour),
            rematch_offer: s.rematch_offer.as_deref().and_then(parse_colour),
            rematch: s.rematch,
            seq: s.seq,
            created_ms: s.created_ms,
            updated_ms: s.updated_ms,
            invite: s.invite,
            joined: s.joined,
            recent: s.recent,
            rated: s.rated,
            rating_changes: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use punct_core::{Colour, Outcome, Termination};

    use super::outcome_of;

    /// Every outcome's words read back as that outcome (a game without a result has no
    /// winner), and no other words do.
    #[test]
    fn a_stored_result_reads_back_as_its_outcome() {
        for winner in [None, Some(Colour::White), Some(Colour::Black)] {
            for termination in Termination::ALL {
                let outcome = Outcome {
                    winner,
                    termination,
                };
                let expected = if termination.is_void() {
                    Outcome {
                        winner: None,
                        termination,
                    }
                } else {
                    outcome
                };
                assert_eq!(
                    outcome_of(&outcome.to_string()),
                    Some(expected),
                    "{outcome}"
                );
            }
        }
        for other in ["", "1-0", "White wins by magic", "white wins by connection"] {
            assert_eq!(outcome_of(other), None, "{other}");
        }
    }
}
