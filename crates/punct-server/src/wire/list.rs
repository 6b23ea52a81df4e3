//! The list of games (`GET /api/games`).

use serde::Serialize;

use super::error::Ended;
use super::view::Seats;
use crate::room::{Mode, Summary};

/// The list of games: the live ones, then the finished ones, each newest first.
#[derive(Serialize)]
pub struct GameList<'a> {
    games: Vec<GameLine<'a>>,
}

impl<'a> GameList<'a> {
    /// The list of `games`, in that order.
    pub fn of(games: &'a [Summary]) -> GameList<'a> {
        GameList {
            games: games.iter().map(GameLine::of).collect(),
        }
    }
}

/// A game's line.
#[derive(Serialize)]
struct GameLine<'a> {
    id: &'a str,
    mode: Mode,
    live: bool,
    white: &'a str,
    black: &'a str,
    moves: usize,
    result: Option<&'a str>,
    /// Who holds each seat, as the game's state says it.
    seats: Seats<'a>,
    /// How it ended, as the game's state says it (`winner`, `termination`, `result`).
    outcome: Option<Ended>,
    /// The position text now, for live games only.
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<&'a str>,
    updated_ms: i64,
}

impl<'a> GameLine<'a> {
    fn of(s: &'a Summary) -> GameLine<'a> {
        GameLine {
            id: &s.id,
            mode: s.mode,
            live: s.live,
            white: &s.white,
            black: &s.black,
            moves: s.moves,
            result: s.result.as_deref(),
            seats: Seats::of(&s.seats),
            outcome: s.outcome.map(Ended::from),
            position: s.position.as_deref(),
            updated_ms: s.updated_ms,
        }
    }
}
