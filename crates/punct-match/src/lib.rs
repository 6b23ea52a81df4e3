//! Measuring PÜNCT players: the tool behind `punct match` and `punct bench`, kept apart from
//! the engine it measures.
//!
//! A match plays each opening of a committed suite ([`openings`]) twice, colours swapped,
//! and counts the pairs ([`stats::Pentanomial`]) for the Elo difference and its interval and
//! for a GSPRT in normalised Elo ([`stats::Sprt`]). Players are built-in or other programs
//! speaking the engine protocol ([`external`]), such as a baseline build of an earlier
//! engine. [`bench`] prints the signature of fixed searches, which a change that only makes
//! the engine faster leaves as it was.

#![warn(missing_docs)]

pub mod bench;
pub mod external;
pub mod openings;
mod player_spec;
mod report;
mod runner;
pub mod stats;
pub mod tune;

pub use player_spec::{PlayerSpec, Settings};
pub use report::{GameReport, MatchReport, Searched, Side};
pub use runner::{MatchConfig, run};
