//! The terminal as a client of a punct server (`punct play --server URL`): the player's
//! games listed, each played on the same play screen and board as local games, its moves
//! going to the server and coming from it over the game's WebSocket, the connection kept
//! up through drops and server restarts.
//!
//! - [`config`]: the sign-ins kept between runs (`punct login`, `punct logout`);
//! - [`api`]: the JSON API over HTTP;
//! - [`wire`]: the messages, as this client reads and writes them;
//! - [`link`]: a game's WebSocket on its own thread, reconnecting with backoff;
//! - [`remote`]: a game on the server as the play screen sees it (the seam's server side);
//! - `games`, `new_online`: the list of games and the new-game dialog.

pub mod api;
pub mod config;
mod games;
pub mod link;
mod new_online;
mod password;
pub mod remote;
pub mod wire;

pub use api::{Api, ApiError};
pub use games::{Games, duration as clock_text};
pub use password::read_password;
pub use remote::{Connection, Note, RemoteGame};
pub use wire::Action;
