//! A PÜNCT player: the search behind the computer opponent of the web app and the terminal
//! client, and behind `punct engine` for other programs.
//!
//! The public face is [`Engine`]: give it a [`punct_core::Game`] and [`SearchLimits`], get a
//! [`SearchResult`]. Strength is set with a [`Level`].
//!
//! Inside: [`evaluation`] judges positions (connection distances, centre, reserves) and
//! single moves (priors); [`tactics`] finds wins in one and the moves that stop them;
//! [`search`] grows a PUCT tree over the few moves the priors favour, with the evaluation
//! at the leaves; [`time`] shares out the clock, which the engine reads from [`clock`] (the
//! system's, or the page's in the browser).

#![warn(missing_docs)]

pub mod clock;
mod draw;
mod engine;
pub mod evaluation;
pub mod learned;
mod level;
mod limits;
pub mod novice;
pub mod players;
pub mod protocol;
pub mod search;
pub mod tactics;
pub mod time;

pub use engine::{Engine, Options, Score, SearchInfo, SearchResult, static_score};
pub use level::{Level, Play};
pub use limits::{Clock, SearchLimits};
