//! Players: accounts, sessions, API tokens, recovery codes, ratings (Glicko-2, one per
//! speed), and what they meet opponents with (seeks, quick-pairing pools, challenges), their
//! notifications, chat, blocks and reports.
//!
//! The pure rules each have a module ([`glicko2`], [`speed`], [`username`], [`password`],
//! [`secrets`], [`pool`]); [`hashing`] runs the password hashes off the async threads. The
//! tables are made by the store's migrations; each concern's statements live with it
//! ([`accounts`], [`sessions`], [`tokens`], [`recovery`], [`throttle`], [`ratings`],
//! [`games`], [`house`], [`seeks`], [`queue`], [`presence`], [`challenges`], [`notifications`], [`chat`],
//! [`blocks`]), as
//! functions over a transaction or a connection ([`crate::store::sql::Sql`]), run by the
//! store's threads. [`auth`] puts them together into the account flows. The database is the
//! truth: nothing here is kept only in one server's memory, so that several servers on one
//! PostgreSQL see the same players.

pub mod accounts;
pub mod auth;
pub mod blocks;
pub mod challenges;
pub mod chat;
pub mod games;
pub mod glicko2;
pub mod hashing;
pub mod house;
pub mod lobby_notice;
pub mod notifications;
pub mod password;
pub mod pool;
pub mod presence;
pub mod queue;
pub mod ratings;
pub mod recovery;
pub mod secrets;
pub mod seeks;
pub mod sessions;
pub mod settings;
pub mod speed;
pub mod throttle;
pub mod tokens;
pub mod username;
