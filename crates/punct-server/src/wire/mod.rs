//! Every message on the wire as a serde type, each with its one home here: what clients send
//! on a game's WebSocket ([`client::ClientMessage`], lila-ws's `ClientOut`) and what the
//! server sends there ([`server::ServerMessage`], lila-ws's `ClientIn`); a game's state as
//! each audience sees it ([`view`], the one place that decides who sees what); and the
//! bodies of the JSON API's answers. Nothing else writes JSON for a client.

pub mod account;
pub mod analysis;
pub mod chat;
pub mod client;
pub mod error;
pub mod events;
pub mod health;
pub mod legal;
pub mod list;
pub mod lobby;
pub mod profile;
pub mod records;
pub mod replay;
pub mod seat;
pub mod server;
pub mod view;
