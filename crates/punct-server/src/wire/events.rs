//! An account's event stream (`GET /api/stream/events`, API.md, "Bots"): one JSON object a
//! line, what a program playing the account acts on. A game's moves come on the game's own
//! WebSocket, as for every player.

use serde::Serialize;

use crate::wire::lobby::ChallengeView;
use crate::wire::profile::GameEntry;

/// One line of the stream.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AccountEvent {
    /// A challenge to or from the account is open (each open one once after connecting, then
    /// each new one).
    Challenge {
        /// The challenge.
        challenge: ChallengeView,
    },
    /// A challenge told of is no longer open.
    ChallengeGone {
        /// Its id.
        id: String,
        /// accepted, declined, cancelled or expired.
        status: String,
    },
    /// A game of the account is being played (each live one once after connecting, then
    /// each new one).
    GameStart {
        /// The game, as the account's list of games shows it.
        game: GameEntry,
    },
    /// A game told of ended.
    GameFinish {
        /// The game, with its result.
        game: GameEntry,
    },
}
