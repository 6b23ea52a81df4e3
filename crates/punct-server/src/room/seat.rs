//! Who plays a game and the seats they hold.

use serde::{Deserialize, Serialize};

/// Who plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Computer,
    /// Two people on one screen: one token holds both seats.
    Local,
    /// Two people online: the second seat goes to whoever opens the link first.
    Friend,
}

/// One side of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The name shown and written in records.
    pub name: String,
    /// The engine level when the computer holds the seat.
    pub computer: Option<u8>,
    /// The secret that proves a person holds the seat; `None` while the seat is open.
    pub token: Option<String>,
}

impl Seat {
    /// A seat held by the person with `token`.
    pub fn person(name: impl Into<String>, token: impl Into<String>) -> Seat {
        Seat {
            name: name.into(),
            computer: None,
            token: Some(token.into()),
        }
    }

    /// A seat nobody holds yet: the first to join a friend game takes it.
    pub fn open(name: impl Into<String>) -> Seat {
        Seat {
            name: name.into(),
            computer: None,
            token: None,
        }
    }

    /// A seat the engine plays at `level`.
    pub fn computer(name: impl Into<String>, level: u8) -> Seat {
        Seat {
            name: name.into(),
            computer: Some(level),
            token: None,
        }
    }

    /// Whether nobody holds the seat yet.
    pub fn is_open(&self) -> bool {
        self.computer.is_none() && self.token.is_none()
    }
}
