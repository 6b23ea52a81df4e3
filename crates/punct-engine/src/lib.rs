//! A PÜNCT player: the search behind the computer opponent of the web app and the terminal
//! client, and behind `punct engine` for other programs.
//!
//! The public face is [`Engine`]: give it a [`punct_core::Game`] and [`SearchLimits`], get a
//! [`SearchResult`]. Strength is set with a [`Level`].

#![warn(missing_docs)]

mod engine;
mod level;
mod limits;

pub use engine::{Engine, Options, Score, SearchInfo, SearchResult};
pub use level::Level;
pub use limits::{Clock, SearchLimits};
