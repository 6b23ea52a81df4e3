//! The players' public pages' messages (API.md, "Players"): a profile, its games, a
//! leaderboard and the search by name.

use serde::Serialize;

use crate::players::games::Entry;
use crate::players::glicko2::Rating;
use crate::players::ratings::{Point, Record};
use crate::players::speed::Speed;

/// One speed's rating as shown: rounded, and provisional (`1500?`) while the deviation is
/// over 110.
#[derive(Clone, Debug, Serialize)]
pub struct RatingView {
    /// `blitz`, `rapid`, `classical` or `correspondence`.
    pub speed: &'static str,
    /// The rating, rounded.
    pub rating: i64,
    /// The deviation as of now (grown for inactivity), rounded.
    pub rd: i64,
    /// Whether it is provisional.
    pub provisional: bool,
    /// Rated games played at this speed.
    pub games: i64,
}

impl RatingView {
    /// The view of `record` in `speed`, as of `now_ms`.
    pub fn of(speed: Speed, record: &Record, now_ms: i64) -> RatingView {
        let now: Rating = record.at(now_ms);
        RatingView {
            speed: speed.name(),
            rating: now.rating.round() as i64,
            rd: now.rd.round() as i64,
            provisional: now.provisional(),
            games: record.games,
        }
    }
}

/// A point of the rating graph.
#[derive(Clone, Debug, Serialize)]
pub struct PointView {
    /// When the game ended.
    pub at_ms: i64,
    /// The rating after it, rounded.
    pub rating: i64,
    /// The change, rounded.
    pub change: i64,
}

impl PointView {
    /// The view of `point`.
    pub fn of(point: &Point) -> PointView {
        PointView {
            at_ms: point.at_ms,
            rating: point.rating.round() as i64,
            change: point.change.round() as i64,
        }
    }
}

/// `GET /api/players/{name}`.
#[derive(Debug, Serialize)]
pub struct Profile {
    /// The name as its owner typed it.
    pub username: String,
    /// When the account was made.
    pub created_ms: i64,
    /// Whether a program plays it (API.md, "Bots").
    pub bot: bool,
    /// Every speed's rating.
    pub ratings: Vec<RatingView>,
    /// Wins, draws and losses.
    pub wins: i64,
    /// Draws.
    pub draws: i64,
    /// Losses.
    pub losses: i64,
}

/// `GET /api/players/{name}/history?speed=`: the rating graph.
#[derive(Debug, Serialize)]
pub struct History {
    /// Its speed.
    pub speed: &'static str,
    /// Its points, oldest first.
    pub points: Vec<PointView>,
}

/// One game of a player's list.
#[derive(Debug, Serialize)]
pub struct GameEntry {
    /// The game's id (its page is `/g/{id}`).
    pub game: String,
    /// The player's colour.
    pub colour: String,
    /// The opponent's name (`deleted` once deleted), or `null` without an account.
    pub opponent: Option<String>,
    /// Who the opponent is, for a page to word it: `account`, `deleted` or `anonymous`
    /// (no account).
    pub opponent_kind: &'static str,
    /// Whether a program plays the opponent's account.
    pub opponent_bot: bool,
    /// The speed.
    pub speed: String,
    /// Whether it is rated.
    pub rated: bool,
    /// Whether it is being played.
    pub live: bool,
    /// `win`, `draw`, `loss`, `aborted`, or `null` while live.
    pub result: Option<String>,
    /// The player's rating change, rounded, for a rated end.
    pub rating_change: Option<i64>,
    /// When it began.
    pub started_ms: i64,
    /// When it ended.
    pub ended_ms: Option<i64>,
}

impl GameEntry {
    /// A player's game as the lists show it.
    pub fn of(e: Entry) -> GameEntry {
        GameEntry {
            game: e.game,
            colour: e.colour,
            opponent_kind: match (e.opponent_deleted, &e.opponent) {
                (true, _) => "deleted",
                (false, Some(_)) => "account",
                (false, None) => "anonymous",
            },
            opponent: e.opponent,
            opponent_bot: e.opponent_bot,
            speed: e.speed,
            rated: e.rated,
            live: e.live,
            result: e.result,
            rating_change: e.rating_change.map(|c| c.round() as i64),
            started_ms: e.started_ms,
            ended_ms: e.ended_ms,
        }
    }
}

/// `GET /api/players/{name}/games`.
#[derive(Debug, Serialize)]
pub struct GameList {
    /// The games, latest first.
    pub games: Vec<GameEntry>,
}

/// One place of a leaderboard.
#[derive(Debug, Serialize)]
pub struct Place {
    /// The player's name.
    pub username: String,
    /// Whether a program plays it.
    pub bot: bool,
    /// The rating, rounded.
    pub rating: i64,
    /// Rated games played at this speed.
    pub games: i64,
}

/// `GET /api/leaderboard/{speed}`.
#[derive(Debug, Serialize)]
pub struct Leaderboard {
    /// Its speed.
    pub speed: &'static str,
    /// The best players, best first (provisional ratings left out).
    pub players: Vec<Place>,
}

/// `GET /api/players?prefix=`.
#[derive(Debug, Serialize)]
pub struct Found {
    /// The names that begin with the prefix (ignoring case), in order.
    pub players: Vec<String>,
}
