//! The server's messages as this client reads them, and what it sends (the server's API.md:
//! "The game state", "WebSocket", "Accounts", "Players").
//!
//! The server's own wire types (`punct-server`'s `wire/`) are written for one direction
//! only: the state and the socket's messages are `Serialize` views that borrow the server's
//! rooms, and what clients send is `Deserialize` only. Reading them here would mean making
//! every one of them owned and two-way, and the terminal library would link the whole server
//! (axum, tokio, SQLite, PostgreSQL) to read a dozen fields. So the client keeps its own
//! reading of the same JSON, each message one type with its home here, and the end-to-end
//! tests (`crates/punct/tests/online.rs`) read the real server's answers with them.
//!
//! Fields the client does not use are left out, and unknown fields are ignored, so that a
//! newer server that adds a field is still understood.

use serde::{Deserialize, Serialize};

/// A game's state (`GET /api/games/{id}`, and in every `state` and `event` message).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// The number of the change that made this state.
    pub seq: u64,
    /// `computer`, `local` or `friend`.
    pub mode: String,
    /// The position the game started from, as position text.
    pub start: String,
    /// The moves played since, as move text.
    pub moves: Vec<String>,
    /// The seats.
    pub seats: Seats,
    /// The clock, for timed and correspondence games.
    pub clock: Option<ClockState>,
    /// The side offering a draw.
    pub draw_offer: Option<String>,
    /// The side asking to take a move back.
    pub takeback_request: Option<String>,
    /// Whether the computer is thinking.
    #[serde(default)]
    pub thinking: bool,
    /// How the game ended.
    pub outcome: Option<OutcomeState>,
    /// The colours the caller holds.
    #[serde(default)]
    pub you: Vec<String>,
    /// The invitation to the open seat, shown to seat holders until it is taken.
    #[serde(default)]
    pub invite: Option<String>,
}

/// Both seats of a game.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Seats {
    /// White's seat.
    pub white: Seat,
    /// Black's seat.
    pub black: Seat,
}

/// A seat as everyone sees it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Seat {
    /// Who sits there.
    pub name: String,
    /// The computer's level, when the computer plays this seat.
    pub computer: Option<u8>,
    /// Whether the seat waits for a friend.
    #[serde(default)]
    pub open: bool,
}

/// A clock's figures at the moment of the answer.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ClockState {
    /// White's time left, in milliseconds.
    pub white_ms: i64,
    /// Black's time left, in milliseconds.
    pub black_ms: i64,
    /// The time added after each move, in milliseconds.
    #[serde(default)]
    pub increment_ms: i64,
    /// The side whose time runs.
    pub running: Option<String>,
    /// A correspondence game's days per move.
    #[serde(default)]
    pub days_per_move: Option<u32>,
}

/// How a game ended.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct OutcomeState {
    /// The winner, `null` for a draw or a game ended without a result.
    pub winner: Option<String>,
    /// Why it ended (`connection`, `resignation`, `timeout`, …).
    pub termination: String,
    /// The ending in words (`white wins by connection`).
    pub text: String,
}

/// A message from the server on a game's WebSocket.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The whole state: replaces everything held.
    State {
        /// Its number.
        seq: u64,
        /// The state.
        state: GameState,
    },
    /// A change, `seq` one more than the last.
    Event {
        /// The number of the state it made.
        seq: u64,
        /// Its name: `move`, `resign`, `draw_offer`, …
        event: String,
        /// The state it made.
        state: GameState,
    },
    /// An action sent on the socket was carried out; its event follows.
    Ok {
        /// The state it made.
        seq: u64,
    },
    /// An action or message was refused.
    Error {
        /// The HTTP status that fits the refusal.
        status: u16,
        /// Why, for people.
        error: String,
    },
    /// The answer to a ping.
    Pong,
}

/// An action for the caller's seat, as the socket's `action` message and `POST …/action`
/// take it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Play a move.
    Move {
        /// Its text.
        #[serde(rename = "move")]
        text: String,
    },
    /// Resign the game.
    Resign,
    /// Offer a draw, or accept the other side's offer.
    OfferDraw,
    /// Decline the other side's draw offer.
    DeclineDraw,
    /// Ask to take a move back, or grant the other side's request.
    Takeback,
    /// Decline the other side's takeback request.
    DeclineTakeback,
}

/// A message from the client on a game's WebSocket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Send the state again.
    Sync {},
    /// Keep-alive.
    Ping {},
    /// An action, made on the state numbered `seq` so that a repeat is carried out once.
    Action {
        /// What is asked.
        #[serde(flatten)]
        action: Action,
        /// The state it was made on.
        seq: u64,
    },
}

/// A refusal's body (`{"error", "status"}`).
#[derive(Clone, Debug, Deserialize)]
pub struct ErrorBody {
    /// Why.
    pub error: String,
}

/// `GET /api/account`: who the token belongs to.
#[derive(Clone, Debug, Deserialize)]
pub struct Me {
    /// The account, or `null` for nobody.
    pub account: Option<AccountView>,
}

/// An account as the API shows it.
#[derive(Clone, Debug, Deserialize)]
pub struct AccountView {
    /// Its name.
    pub username: String,
}

/// `POST /api/session` and `POST /api/account/tokens`' bodies.
#[derive(Clone, Debug, Serialize)]
pub struct Credentials<'a> {
    /// The account's name.
    pub username: &'a str,
    /// Its password.
    pub password: &'a str,
}

/// `POST /api/session`'s answer: the session's CSRF token (its cookie comes beside it).
#[derive(Clone, Debug, Deserialize)]
pub struct SignedIn {
    /// The session's CSRF token.
    pub csrf: String,
}

/// `POST /api/account/tokens`' answer.
#[derive(Clone, Debug, Deserialize)]
pub struct TokenMade {
    /// The token's id, by which it is revoked.
    pub id: String,
    /// The token.
    pub token: String,
}

/// `GET /api/players/{name}/games`.
#[derive(Clone, Debug, Deserialize)]
pub struct PlayerGames {
    /// The latest games first.
    pub games: Vec<PlayerGame>,
}

/// A line of a player's games.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct PlayerGame {
    /// The game's id.
    pub game: String,
    /// The player's colour there.
    pub colour: String,
    /// The other player's account name, when a person with an account holds it.
    pub opponent: Option<String>,
    /// Whether a program plays the opponent's account.
    #[serde(default)]
    pub opponent_bot: bool,
    /// `blitz`, `rapid`, `classical` or `correspondence`.
    pub speed: String,
    /// Whether it is rated.
    #[serde(default)]
    pub rated: bool,
    /// Whether the game is being played.
    pub live: bool,
    /// `win`, `draw`, `loss` or `aborted` once it ended.
    #[serde(default)]
    pub result: Option<String>,
}

/// A challenge as the server lists it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The challenger's name.
    pub from: String,
    /// Whether a program plays the challenger's account.
    #[serde(default)]
    pub from_bot: bool,
    /// The challenged's name.
    pub to: String,
    /// `blitz`, `rapid`, `classical` or `correspondence`.
    pub speed: String,
    /// Rated or casual.
    pub rated: bool,
}

/// One line of an account's event stream (`GET /api/stream/events`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AccountEvent {
    /// A challenge to or from the account is open.
    Challenge {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge told of is no longer open.
    ChallengeGone {
        /// Its id.
        id: String,
        /// accepted, declined, cancelled or expired.
        status: String,
    },
    /// A game of the account is being played.
    GameStart {
        /// The game.
        game: PlayerGame,
    },
    /// A game told of ended.
    GameFinish {
        /// The game, with its result.
        game: PlayerGame,
    },
    /// An event a newer server sends that this client does not know.
    #[serde(other)]
    Other,
}

/// `POST /api/challenges`' body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengeRequest {
    /// Whom to challenge.
    pub to: String,
    /// A clock, or else `days`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockTerms>,
    /// Days per move, or else `clock`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// Rated or casual.
    pub rated: bool,
}

/// A clock as the lobby takes it: seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockTerms {
    /// Each side's initial time, seconds.
    pub initial: i64,
    /// Seconds added after each move.
    pub increment: i64,
}

/// `POST /api/games`' body: the games the API lets a terminal make today.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NewGame {
    /// `computer` or `friend`.
    pub mode: &'static str,
    /// The computer's level, against the computer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// `white`, `black` or `random`.
    pub colour: &'static str,
    /// Days per move, for a correspondence game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// `POST /api/games`' answer.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatGrant {
    /// The game's id.
    pub id: String,
    /// The friend's invitation, for a friend game.
    #[serde(default)]
    pub invite: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_written_as_the_server_reads_them() {
        let text = |m: &ClientMessage| serde_json::to_string(m).unwrap();
        let mv = ClientMessage::Action {
            action: Action::Move {
                text: "TE4:0".into(),
            },
            seq: 7,
        };
        assert_eq!(
            text(&mv),
            r#"{"type":"action","action":"move","move":"TE4:0","seq":7}"#
        );
        let draw = ClientMessage::Action {
            action: Action::OfferDraw,
            seq: 2,
        };
        assert_eq!(
            text(&draw),
            r#"{"type":"action","action":"offer_draw","seq":2}"#
        );
        assert_eq!(text(&ClientMessage::Sync {}), r#"{"type":"sync"}"#);
    }
}
