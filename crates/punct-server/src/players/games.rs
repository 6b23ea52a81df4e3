//! The games of accounts (`account_games`), one row per seat an account holds: the lists of
//! its profile (finished games with their filters, current games), the "your turn" list
//! and the correspondence time-outs any server can find. The rows are written by statements
//! that go with the game's own row ([`crate::store::Store::save_with`]), so that they never
//! disagree with it.

use punct_core::Colour;

use super::accounts::AccountId;
use super::glicko2::Score;
use super::speed::Speed;
use crate::store::sql::{Row, Sql, Statement, args};

/// `white` or `black`, as stored.
pub fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// An account's seat in a game, as it begins.
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    /// The game's id.
    pub game: String,
    /// The seat's colour.
    pub colour: Colour,
    /// Whose seat it is.
    pub account: AccountId,
    /// The other seat's account, if a person with an account holds it.
    pub opponent: Option<AccountId>,
    /// The speed the game is played at.
    pub speed: Speed,
    /// Whether it is rated.
    pub rated: bool,
    /// When it began.
    pub started_ms: i64,
}

/// The statement that records `seat` (once: written again, it changes nothing).
pub fn joined(seat: &Seat) -> Statement {
    Statement::new(
        "INSERT INTO account_games (game, colour, account, opponent, speed, rated, live,
             to_move, started_ms)
         VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7, $8)
         ON CONFLICT (game, colour) DO NOTHING",
        args![
            seat.game.as_str(),
            colour_name(seat.colour),
            seat.account.as_str(),
            seat.opponent.as_ref().map(AccountId::as_str),
            seat.speed.name(),
            seat.rated,
            seat.colour == Colour::White,
            seat.started_ms
        ],
    )
}

/// The statement that records whose turn it is in live game `game`, and for a
/// correspondence game when they run out of time. (The deadline is cast: PostgreSQL would
/// otherwise take a `NULL` one, in a `CASE`, for text.)
pub fn turn(game: &str, to_move: Colour, deadline_ms: Option<i64>) -> Statement {
    Statement::new(
        "UPDATE account_games SET to_move = (colour = $2),
             deadline_ms = CASE WHEN colour = $2 THEN CAST($3 AS BIGINT) ELSE NULL END
         WHERE game = $1 AND live = TRUE",
        args![game, colour_name(to_move), deadline_ms],
    )
}

/// The statement that records the end of game `game` at `at_ms`: `white_score` is White's
/// result, `None` for a game that ended without one (aborted).
pub fn ended(game: &str, white_score: Option<Score>, at_ms: i64) -> Statement {
    let name = |s: Option<Score>| match s {
        Some(Score::Win) => "win",
        Some(Score::Draw) => "draw",
        Some(Score::Loss) => "loss",
        None => "aborted",
    };
    Statement::new(
        "UPDATE account_games SET live = FALSE, to_move = FALSE, deadline_ms = NULL,
             ended_ms = $2, result = CASE WHEN colour = 'white' THEN $3 ELSE $4 END
         WHERE game = $1",
        args![
            game,
            at_ms,
            name(white_score),
            name(white_score.map(Score::opposite))
        ],
    )
}

/// A game in an account's lists.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The game's id.
    pub game: String,
    /// The account's colour.
    pub colour: String,
    /// The opponent's name: `None` for none with an account, "deleted" once deleted.
    pub opponent: Option<String>,
    /// Whether the opponent's account is deleted.
    pub opponent_deleted: bool,
    /// Whether a program plays the opponent's account.
    pub opponent_bot: bool,
    /// The speed.
    pub speed: String,
    /// Whether it is rated.
    pub rated: bool,
    /// Whether it is still played.
    pub live: bool,
    /// Whether it is the account's turn.
    pub to_move: bool,
    /// When the account runs out of time (correspondence).
    pub deadline_ms: Option<i64>,
    /// The account's result: win, loss, draw or aborted.
    pub result: Option<String>,
    /// Its rating change, if rated and ended.
    pub rating_change: Option<f64>,
    /// When it began.
    pub started_ms: i64,
    /// When it ended.
    pub ended_ms: Option<i64>,
}

const ENTRY: &str = "SELECT g.game, g.colour, g.speed, g.rated, g.live, g.to_move, g.deadline_ms,
        g.result, g.rating_change, g.started_ms, g.ended_ms, g.opponent AS opponent_id,
        o.username AS opponent_name, COALESCE(o.bot, FALSE) AS opponent_bot
    FROM account_games g LEFT JOIN accounts o ON o.id = g.opponent";

fn entry(r: &Row) -> anyhow::Result<Entry> {
    let opponent_deleted =
        r.opt_text("opponent_id")?.is_some() && r.opt_text("opponent_name")?.is_none();
    let opponent = match r.opt_text("opponent_id")? {
        Some(_) => Some(
            r.opt_text("opponent_name")?
                .unwrap_or_else(|| "deleted".to_owned()),
        ),
        None => None,
    };
    Ok(Entry {
        game: r.text("game")?,
        colour: r.text("colour")?,
        opponent,
        opponent_deleted,
        opponent_bot: r.bool("opponent_bot")?,
        speed: r.text("speed")?,
        rated: r.bool("rated")?,
        live: r.bool("live")?,
        to_move: r.bool("to_move")?,
        deadline_ms: r.opt_int("deadline_ms")?,
        result: r.opt_text("result")?,
        rating_change: r.opt_real("rating_change")?,
        started_ms: r.int("started_ms")?,
        ended_ms: r.opt_int("ended_ms")?,
    })
}

/// The live games where it is `account`'s turn, the nearest deadline first.
pub fn your_turn(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<Vec<Entry>> {
    db.query(
        &format!(
            "{ENTRY} WHERE g.account = $1 AND g.to_move = TRUE
             ORDER BY g.deadline_ms IS NULL, g.deadline_ms, g.started_ms"
        ),
        &args![account.as_str()],
    )?
    .iter()
    .map(entry)
    .collect()
}

/// Game `game` of `account`, if it plays it.
pub fn one(db: &mut dyn Sql, account: &AccountId, game: &str) -> anyhow::Result<Option<Entry>> {
    db.query_opt(
        &format!("{ENTRY} WHERE g.account = $1 AND g.game = $2"),
        &args![account.as_str(), game],
    )?
    .map(|r| entry(&r))
    .transpose()
}

/// Which of an account's games a profile lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Live games (`Some(true)`), finished ones (`Some(false)`), or both.
    pub live: Option<bool>,
    /// Rated or casual only.
    pub rated: Option<bool>,
    /// One result only (win, loss, draw, aborted).
    pub result: Option<String>,
    /// One speed only.
    pub speed: Option<Speed>,
    /// Against one opponent only.
    pub opponent: Option<AccountId>,
    /// Only games begun before this (the next page).
    pub before_ms: Option<i64>,
}

/// The games of `account` that `filter` lets through, the latest first, at most `limit`.
pub fn of_account(
    db: &mut dyn Sql,
    account: &AccountId,
    filter: &Filter,
    limit: i64,
) -> anyhow::Result<Vec<Entry>> {
    // Each filter is a parameter that, when NULL, lets everything through (compared first,
    // so that PostgreSQL learns its type from the column).
    db.query(
        &format!(
            "{ENTRY} WHERE g.account = $1
               AND (g.live = $2 OR $2 IS NULL) AND (g.rated = $3 OR $3 IS NULL)
               AND (g.result = $4 OR $4 IS NULL) AND (g.speed = $5 OR $5 IS NULL)
               AND (g.opponent = $6 OR $6 IS NULL) AND (g.started_ms < $7 OR $7 IS NULL)
             ORDER BY g.started_ms DESC LIMIT $8"
        ),
        &args![
            account.as_str(),
            filter.live,
            filter.rated,
            filter.result.as_deref(),
            filter.speed.map(Speed::name),
            filter.opponent.as_ref().map(AccountId::as_str),
            filter.before_ms,
            limit
        ],
    )?
    .iter()
    .map(entry)
    .collect()
}

/// The live correspondence games whose player to move ran out of time by `now_ms`: each
/// game's id and the colour that lost on time, the oldest deadline first.
pub fn timed_out(
    db: &mut dyn Sql,
    now_ms: i64,
    limit: i64,
) -> anyhow::Result<Vec<(String, String)>> {
    db.query(
        "SELECT game, colour FROM account_games
         WHERE deadline_ms IS NOT NULL AND deadline_ms <= $1 AND live = TRUE
         ORDER BY deadline_ms LIMIT $2",
        &args![now_ms, limit],
    )?
    .iter()
    .map(|r| Ok((r.text("game")?, r.text("colour")?)))
    .collect()
}

/// Wins, draws and losses of `account` (finished games with a result).
pub fn record(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<[i64; 3]> {
    let mut counts = [0; 3];
    for r in db.query(
        "SELECT result, COUNT(*) AS n FROM account_games
         WHERE account = $1 AND live = FALSE GROUP BY result",
        &args![account.as_str()],
    )? {
        let slot = match r.opt_text("result")?.as_deref() {
            Some("win") => 0,
            Some("draw") => 1,
            Some("loss") => 2,
            _ => continue,
        };
        counts[slot] = r.int("n")?;
    }
    Ok(counts)
}

/// White's and Black's rating changes in rated game `game`, once it has ended rated.
pub fn rating_changes(db: &mut dyn Sql, game: &str) -> anyhow::Result<Option<[f64; 2]>> {
    let mut changes = [None, None];
    for r in db.query(
        "SELECT colour, rating_change FROM account_games
         WHERE game = $1 AND rating_change IS NOT NULL",
        &args![game],
    )? {
        let slot = usize::from(r.text("colour")? == "black");
        changes[slot] = r.opt_real("rating_change")?;
    }
    Ok(match changes {
        [Some(white), Some(black)] => Some([white, black]),
        _ => None,
    })
}
