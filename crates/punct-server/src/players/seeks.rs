//! Seeks in the lobby (`seeks`): a time control (or days per move), rated or casual, a
//! colour or random, a rating range. Any server lists them and any can accept one: the
//! acceptance deletes the row, so a seek is accepted once however many click at once. A
//! real-time seek lives while its seeker is there: the server holding their socket pushes
//! its end on ([`keep`]), and one whose seeker left (or whose server died) ends by itself.

use super::accounts::AccountId;
use super::ratings::Record;
use super::secrets::new_id;
use super::speed::{Speed, TimeControl};
use crate::store::sql::{Row, Sql, args};

/// How long a real-time seek lives without being kept: its seeker's server keeps it every
/// few seconds while their socket is open.
pub const REAL_TIME_LIFE_MS: i64 = 30_000;

/// How long a correspondence seek lives: a week.
pub const CORRESPONDENCE_LIFE_MS: i64 = 7 * 86_400_000;

/// The colour a seeker (or challenger) asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColourChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, drawn at random when the game is made.
    Random,
}

impl ColourChoice {
    /// As stored.
    pub fn name(self) -> &'static str {
        match self {
            ColourChoice::White => "white",
            ColourChoice::Black => "black",
            ColourChoice::Random => "random",
        }
    }

    /// From its stored name.
    pub fn parse(s: &str) -> anyhow::Result<ColourChoice> {
        Ok(match s {
            "white" => ColourChoice::White,
            "black" => ColourChoice::Black,
            "random" => ColourChoice::Random,
            _ => anyhow::bail!("unknown colour choice {s:?}"),
        })
    }
}

/// What a game is to be: for a seek or a challenge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    /// Its time control.
    pub time: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The colour asked for.
    pub colour: ColourChoice,
}

impl Terms {
    /// The speed it is rated in.
    pub fn speed(&self) -> Speed {
        self.time.speed()
    }

    /// The columns `initial_ms`, `increment_ms`, `days_per_move`.
    pub(super) fn time_columns(&self) -> (Option<i64>, Option<i64>, Option<i64>) {
        match self.time {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
            } => (Some(initial_ms), Some(increment_ms), None),
            TimeControl::Correspondence { days } => (None, None, Some(days.into())),
        }
    }

    /// Read back from a row of `seeks` or `challenges`.
    pub(super) fn of_row(r: &Row) -> anyhow::Result<Terms> {
        let time = match r.opt_int("days_per_move")? {
            Some(days) => TimeControl::correspondence(u32::try_from(days)?)?,
            None => TimeControl::clock(r.int("initial_ms")?, r.int("increment_ms")?)?,
        };
        Ok(Terms {
            time,
            rated: r.bool("rated")?,
            colour: ColourChoice::parse(&r.text("colour")?)?,
        })
    }
}

/// A seek.
#[derive(Clone, Debug, PartialEq)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub account: AccountId,
    /// The game they seek.
    pub terms: Terms,
    /// The ratings they accept, if they limit them.
    pub rating_range: Option<(i64, i64)>,
    /// When it was made.
    pub created_ms: i64,
    /// When it ends unless kept.
    pub expires_ms: i64,
}

const COLUMNS: &str = "id, account, initial_ms, increment_ms, days_per_move, rated, colour,
    rating_min, rating_max, created_ms, expires_ms";

fn seek(r: &Row) -> anyhow::Result<Seek> {
    let range = match (r.opt_int("rating_min")?, r.opt_int("rating_max")?) {
        (Some(lo), Some(hi)) => Some((lo, hi)),
        _ => None,
    };
    Ok(Seek {
        id: r.text("id")?,
        account: AccountId(r.text("account")?),
        terms: Terms::of_row(r)?,
        rating_range: range,
        created_ms: r.int("created_ms")?,
        expires_ms: r.int("expires_ms")?,
    })
}

/// Puts up a seek of `account` for `terms`, returning it.
pub fn create(
    db: &mut dyn Sql,
    account: &AccountId,
    terms: Terms,
    rating_range: Option<(i64, i64)>,
    now_ms: i64,
) -> anyhow::Result<Seek> {
    let life = match terms.time {
        TimeControl::Clock { .. } => REAL_TIME_LIFE_MS,
        TimeControl::Correspondence { .. } => CORRESPONDENCE_LIFE_MS,
    };
    let seek = Seek {
        id: new_id(now_ms)?,
        account: account.clone(),
        terms,
        rating_range,
        created_ms: now_ms,
        expires_ms: now_ms + life,
    };
    let (initial, increment, days) = terms.time_columns();
    db.execute(
        &format!("INSERT INTO seeks (speed, {COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"),
        &args![
            terms.speed().name(),
            seek.id.as_str(),
            account.as_str(),
            initial,
            increment,
            days,
            terms.rated,
            terms.colour.name(),
            rating_range.map(|r| r.0),
            rating_range.map(|r| r.1),
            now_ms,
            seek.expires_ms
        ],
    )?;
    Ok(seek)
}

/// The live seeks, oldest first.
pub fn list(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<Vec<Seek>> {
    db.query(
        &format!("SELECT {COLUMNS} FROM seeks WHERE expires_ms > $1 ORDER BY created_ms, id"),
        &args![now_ms],
    )?
    .iter()
    .map(seek)
    .collect()
}

/// `by` accepts seek `id`: the seek, taken out of the lobby, if it was there, live and not
/// their own. Only one acceptance of a seek ever gets it.
pub fn accept(
    db: &mut dyn Sql,
    id: &str,
    by: &AccountId,
    now_ms: i64,
) -> anyhow::Result<Option<Seek>> {
    db.query_opt(
        &format!(
            "DELETE FROM seeks WHERE id = $1 AND account <> $2 AND expires_ms > $3
             RETURNING {COLUMNS}"
        ),
        &args![id, by.as_str(), now_ms],
    )?
    .map(|r| seek(&r))
    .transpose()
}

/// `account` withdraws its seek `id`.
pub fn cancel(db: &mut dyn Sql, id: &str, account: &AccountId) -> anyhow::Result<bool> {
    Ok(db.execute(
        "DELETE FROM seeks WHERE id = $1 AND account = $2",
        &args![id, account.as_str()],
    )? == 1)
}

/// Keeps the real-time seeks of `account` alive from `now_ms` (its seeker is still there).
pub fn keep(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<u64> {
    db.execute(
        "UPDATE seeks SET expires_ms = $2 WHERE account = $1 AND days_per_move IS NULL",
        &args![account.as_str(), now_ms + REAL_TIME_LIFE_MS],
    )
}

/// Deletes the seeks that ended by `now_ms`, returning their ids.
pub fn purge(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<Vec<String>> {
    db.query(
        "DELETE FROM seeks WHERE expires_ms <= $1 RETURNING id",
        &args![now_ms],
    )?
    .iter()
    .map(|r| r.text("id"))
    .collect()
}

/// How many live seeks `account` has up at `now_ms`.
pub fn count_of(db: &mut dyn Sql, account: &AccountId, now_ms: i64) -> anyhow::Result<i64> {
    db.query(
        "SELECT COUNT(*) AS n FROM seeks WHERE account = $1 AND expires_ms > $2",
        &args![account.as_str(), now_ms],
    )?[0]
        .int("n")
}

/// A seek as the lobby lists it: with its seeker's name and their rating in its speed.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The seek.
    pub seek: Seek,
    /// Its seeker's name.
    pub name: String,
    /// Its seeker's rating in its speed, a new player's if they have none.
    pub rating: Record,
}

/// The live seeks (all, or `only` the one with that id), oldest first, with their seekers'
/// names and ratings, in one read.
pub fn listed(db: &mut dyn Sql, only: Option<&str>, now_ms: i64) -> anyhow::Result<Vec<Listed>> {
    db.query(
        "SELECT s.id, s.account, s.initial_ms, s.increment_ms, s.days_per_move, s.rated,
             s.colour, s.rating_min, s.rating_max, s.created_ms, s.expires_ms,
             a.username AS seeker, r.rating, r.rd, r.volatility, r.games, r.updated_ms
         FROM seeks s JOIN accounts a ON a.id = s.account
             LEFT JOIN ratings r ON r.account = s.account AND r.speed = s.speed
         WHERE s.expires_ms > $1 AND (s.id = $2 OR $2 IS NULL)
         ORDER BY s.created_ms, s.id",
        &args![now_ms, only],
    )?
    .iter()
    .map(|r| {
        let rating = match r.opt_real("rating")? {
            Some(_) => super::ratings::record(r)?,
            None => Record::NEW,
        };
        Ok(Listed {
            seek: seek(r)?,
            name: r
                .opt_text("seeker")?
                .unwrap_or_else(|| "deleted".to_owned()),
            rating,
        })
    })
    .collect()
}
