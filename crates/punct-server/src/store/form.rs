//! What the store knows of a game's stored form: JSON in its row, with a sequence number and
//! the time of its last change, into which a pending move can be folded. The form itself is
//! the room's; the store is handed it as a type ([`Form`]) and knows nothing else of games.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A move as the store first keeps it: what the move changed in its game's stored form, so
/// that storing a move appends a small row rather than writing the whole game again. The
/// store folds these into the stored form later ([`Form::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMove {
    /// The game's id.
    pub game: String,
    /// The game's sequence number after the move.
    pub seq: u64,
    /// When the move was made, ms since the epoch.
    pub at_ms: i64,
    /// The side that moved (0 White, 1 Black).
    pub mover: u8,
    /// The move text.
    pub text: String,
    /// The mover's time left after the move (with the increment), if the game is timed.
    pub left_ms: Option<i64>,
}

/// A game's stored form, as the store reads and writes it.
pub trait Form: Serialize + DeserializeOwned + Send + 'static {
    /// The game's sequence number: how many changes made it.
    fn seq(&self) -> u64;
    /// When the game last changed, ms since the epoch.
    fn updated_ms(&self) -> i64;
    /// Makes `m` part of the form, as the move changed the game. A move already in it (a
    /// sequence number not above its own) changes nothing; one that does not follow it is
    /// refused, saying why.
    fn apply(&mut self, m: &PendingMove) -> Result<(), String>;
}
