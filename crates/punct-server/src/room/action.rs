//! What a seat holder asks for, read from JSON, and the changes a game goes through.

use punct_core::Colour;
use serde::{Deserialize, Serialize};

/// A change asked for by a seat holder, read from `{"action": …}` (with `"move"` for a move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ActionFields", into = "ActionFields")]
pub enum Action {
    /// Play a move given as move text.
    Move {
        /// Move text, e.g. `TE4:0`.
        text: String,
    },
    /// Give up.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Turn down the opponent's draw offer.
    DeclineDraw,
    /// Ask to take back a move, or grant the opponent's request (at once against the computer
    /// and on one screen).
    Takeback,
    /// Turn down the opponent's takeback request.
    DeclineTakeback,
    /// Once the game is over: ask for a new game with the colours swapped, or accept the
    /// opponent's offer of one (at once against the computer and on one screen).
    Rematch,
    /// Turn down the opponent's rematch offer.
    DeclineRematch,
}

impl Action {
    /// Whether `repeat` asks for this action again: the same action, a move in any spelling
    /// of the same move (this one is remembered as played, in canonical text).
    pub fn is_repeated_by(&self, repeat: &Action) -> bool {
        match (self, repeat) {
            (Action::Move { text }, Action::Move { text: again }) => {
                let read = |t: &str| punct_core::Move::parse(t.trim()).ok();
                text == again || read(text).is_some_and(|m| read(again) == Some(m))
            }
            _ => self == repeat,
        }
    }
}

/// An action as sent. Read through this rather than as an internally tagged enum, whose
/// variants without fields would ignore any fields they are sent.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionFields {
    action: ActionKind,
    /// `None` without the field, `Some(None)` for `"move": null`.
    #[serde(
        rename = "move",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    text: Option<Option<String>>,
    /// The state the request was made on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
}

/// An action as a client asks for it: with the number of the state it was made on, when the
/// client gives it, so that the same request sent again (its answer was lost) is carried out
/// once and answered with the first outcome.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ActionFields")]
pub struct Request {
    /// What is asked.
    pub action: Action,
    /// The `seq` of the state the client saw when it asked.
    pub seq: Option<u64>,
}

impl From<Action> for Request {
    fn from(action: Action) -> Request {
        Request { action, seq: None }
    }
}

/// A field that is there, even if null: serde alone reads a null as a missing field.
fn present<'de, D: serde::Deserializer<'de>>(field: D) -> Result<Option<Option<String>>, D::Error> {
    Option::deserialize(field).map(Some)
}

/// The name of an action.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActionKind {
    Move,
    Resign,
    OfferDraw,
    DeclineDraw,
    Takeback,
    DeclineTakeback,
    Rematch,
    DeclineRematch,
}

impl TryFrom<ActionFields> for Action {
    type Error = &'static str;

    fn try_from(fields: ActionFields) -> Result<Action, Self::Error> {
        Request::try_from(fields).map(|r| r.action)
    }
}

impl TryFrom<ActionFields> for Request {
    type Error = &'static str;

    fn try_from(fields: ActionFields) -> Result<Request, Self::Error> {
        let seq = fields.seq;
        let action = match fields.action {
            ActionKind::Move => {
                let text = fields
                    .text
                    .ok_or("a `move` action needs the field `move`")?
                    .ok_or("the field `move` must be move text, e.g. `TE4:0`")?;
                return Ok(Request {
                    action: Action::Move { text },
                    seq,
                });
            }
            ActionKind::Resign => Action::Resign,
            ActionKind::OfferDraw => Action::OfferDraw,
            ActionKind::DeclineDraw => Action::DeclineDraw,
            ActionKind::Takeback => Action::Takeback,
            ActionKind::DeclineTakeback => Action::DeclineTakeback,
            ActionKind::Rematch => Action::Rematch,
            ActionKind::DeclineRematch => Action::DeclineRematch,
        };
        match fields.text {
            Some(_) => Err("only a `move` action has the field `move`"),
            None => Ok(Request { action, seq }),
        }
    }
}

impl From<Action> for ActionFields {
    fn from(action: Action) -> ActionFields {
        let (action, text) = match action {
            Action::Move { text } => (ActionKind::Move, Some(Some(text))),
            Action::Resign => (ActionKind::Resign, None),
            Action::OfferDraw => (ActionKind::OfferDraw, None),
            Action::DeclineDraw => (ActionKind::DeclineDraw, None),
            Action::Takeback => (ActionKind::Takeback, None),
            Action::DeclineTakeback => (ActionKind::DeclineTakeback, None),
            Action::Rematch => (ActionKind::Rematch, None),
            Action::DeclineRematch => (ActionKind::DeclineRematch, None),
        };
        ActionFields {
            action,
            text,
            seq: None,
        }
    }
}

/// A change made at a seat holder's request, as a game remembers it for a while.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Made {
    /// The number of the state the change made.
    pub seq: u64,
    /// The side that asked (0 White, 1 Black).
    pub by: u8,
    /// What was asked.
    pub action: Action,
}

/// A change to a game, as its event names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The open seat, of this colour, was taken.
    Joined(Colour),
    /// A move was played.
    Move,
    /// A side resigned.
    Resign,
    /// A draw was agreed.
    Draw,
    /// A side offered a draw.
    DrawOffer,
    /// The draw offer was turned down.
    DrawDeclined,
    /// Moves were taken back.
    Takeback,
    /// A side asked to take back a move.
    TakebackRequest,
    /// The takeback request was turned down.
    TakebackDeclined,
    /// A flag fell.
    Timeout,
    /// The game was called off: a side never made its first move, or nobody took up the
    /// invitation.
    Aborted,
    /// Nobody played on for a long time.
    Abandoned,
    /// A side offered a rematch of the finished game.
    RematchOffer,
    /// The rematch offer was turned down.
    RematchDeclined,
    /// The rematch was agreed: the new game exists.
    Rematch,
}

impl Change {
    /// The changes' names in the API, in the order of [`Change::index`].
    pub const NAMES: [&'static str; 15] = [
        "joined",
        "move",
        "resign",
        "draw",
        "draw_offer",
        "draw_declined",
        "takeback",
        "takeback_request",
        "takeback_declined",
        "timeout",
        "aborted",
        "abandoned",
        "rematch_offer",
        "rematch_declined",
        "rematch",
    ];

    /// The change's place in [`Change::NAMES`].
    pub fn index(self) -> usize {
        match self {
            Change::Joined(_) => 0,
            Change::Move => 1,
            Change::Resign => 2,
            Change::Draw => 3,
            Change::DrawOffer => 4,
            Change::DrawDeclined => 5,
            Change::Takeback => 6,
            Change::TakebackRequest => 7,
            Change::TakebackDeclined => 8,
            Change::Timeout => 9,
            Change::Aborted => 10,
            Change::Abandoned => 11,
            Change::RematchOffer => 12,
            Change::RematchDeclined => 13,
            Change::Rematch => 14,
        }
    }

    /// The event's name in the API.
    pub fn name(self) -> &'static str {
        Change::NAMES[self.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_has_its_own_name() {
        let all = [
            Change::Joined(Colour::White),
            Change::Move,
            Change::Resign,
            Change::Draw,
            Change::DrawOffer,
            Change::DrawDeclined,
            Change::Takeback,
            Change::TakebackRequest,
            Change::TakebackDeclined,
            Change::Timeout,
            Change::Aborted,
            Change::Abandoned,
            Change::RematchOffer,
            Change::RematchDeclined,
            Change::Rematch,
        ];
        let mut indices: Vec<usize> = all.iter().map(|c| c.index()).collect();
        indices.dedup();
        assert_eq!(indices, (0..Change::NAMES.len()).collect::<Vec<_>>());
        assert_eq!(Change::Joined(Colour::Black).name(), "joined");
        assert_eq!(Change::TakebackDeclined.name(), "takeback_declined");
    }
}
