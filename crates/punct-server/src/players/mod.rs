//! Players: accounts, sessions, API tokens, recovery codes, ratings (Glicko-2, one per
//! speed), and what they meet opponents with (seeks, quick-pairing pools, challenges), their
//! notifications, chat, blocks and reports.
//!
//! The pure rules each have a module ([`glicko2`], [`speed`], [`username`], [`password`],
//! [`secrets`], [`pool`]); [`hashing`] runs the password hashes off the async threads. The
//! tables are made by the store's migrations; each concern's statements live with it. The
//! database is the truth: nothing here is kept only in one server's memory, so that several
//! servers on one PostgreSQL see the same players.

pub mod glicko2;
pub mod hashing;
pub mod password;
pub mod pool;
pub mod secrets;
pub mod speed;
pub mod username;
