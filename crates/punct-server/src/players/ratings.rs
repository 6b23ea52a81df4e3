//! Ratings (`ratings`, `rating_history`): one Glicko-2 rating per account and speed, and
//! each rated game's result for the profile's graph.
//!
//! A rated game's end moves both ratings in the transaction that writes the game's ended
//! row: [`RatedEnd`] goes with the row ([`crate::store::Store::save_with`]), reads both
//! ratings there, computes them and writes them, so that after a crash at any moment either
//! the game is live and nobody's rating moved, or it ended and both moved, once (the
//! history's key, account and game, refuses a second time). Each rating row counts its
//! games and an update names the count it was computed from: a rating moved meanwhile by
//! another server (another game of the same player ending at once) is read again and the
//! update computed again, in the same transaction.

use std::sync::Mutex;

use punct_core::Colour;

use super::accounts::AccountId;
use super::glicko2::{Rating, Score, rate_game};
use super::speed::Speed;
use crate::store::sql::{Attached, Row, Sql, args};

/// A rating as stored: the numbers, how many rated games it has seen, and when the last
/// one ended (its deviation grows back from then).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    /// The numbers after the last rated game.
    pub rating: Rating,
    /// Rated games played in this speed.
    pub games: i64,
    /// When the last one ended.
    pub updated_ms: i64,
}

impl Record {
    /// A player who has not played this speed rated.
    pub const NEW: Record = Record {
        rating: Rating::NEW,
        games: 0,
        updated_ms: 0,
    };

    /// The rating as of `now_ms`: its deviation grown for the time since the last game
    /// (or since a house bot's rating was seeded; a new player's is at its greatest).
    pub fn at(&self, now_ms: i64) -> Rating {
        self.rating.after_inactivity(now_ms - self.updated_ms)
    }
}

/// A [`Record`] from a row holding `rating`, `rd`, `volatility`, `games` and `updated_ms`.
pub(super) fn record(r: &Row) -> anyhow::Result<Record> {
    Ok(Record {
        rating: Rating {
            rating: r.real("rating")?,
            rd: r.real("rd")?,
            volatility: r.real("volatility")?,
        },
        games: r.int("games")?,
        updated_ms: r.int("updated_ms")?,
    })
}

/// The stored rating of `account` in `speed`, if it has played it rated.
pub fn stored(
    db: &mut dyn Sql,
    account: &AccountId,
    speed: Speed,
) -> anyhow::Result<Option<Record>> {
    db.query_opt(
        "SELECT rating, rd, volatility, games, updated_ms FROM ratings
         WHERE account = $1 AND speed = $2",
        &args![account.as_str(), speed.name()],
    )?
    .map(|r| record(&r))
    .transpose()
}

/// Every speed's rating of `account`, a new player's where it has none.
pub fn of(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<Vec<(Speed, Record)>> {
    let rows = db.query(
        "SELECT speed, rating, rd, volatility, games, updated_ms FROM ratings WHERE account = $1",
        &args![account.as_str()],
    )?;
    let mut all: Vec<(Speed, Record)> = Speed::ALL.iter().map(|&s| (s, Record::NEW)).collect();
    for r in rows {
        let speed: Speed = r.text("speed")?.parse()?;
        if let Some(slot) = all.iter_mut().find(|(s, _)| *s == speed) {
            slot.1 = record(&r)?;
        }
    }
    Ok(all)
}

/// A place of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// The player's name.
    pub username: String,
    /// Whether a program plays it.
    pub bot: bool,
    /// Its rating at the speed.
    pub record: Record,
}

/// The best `limit` ratings in `speed` of open accounts whose ratings are not provisional
/// as of `now_ms`, best first, with the accounts' names.
pub fn leaderboard(
    db: &mut dyn Sql,
    speed: Speed,
    limit: usize,
    now_ms: i64,
) -> anyhow::Result<Vec<Placed>> {
    // A stored deviation at most 110 may have grown past it since: those are read and left
    // out here, so a few more than `limit` are read.
    let rows = db.query(
        "SELECT a.username, a.bot, r.rating, r.rd, r.volatility, r.games, r.updated_ms
         FROM ratings r JOIN accounts a ON a.id = r.account
         WHERE r.speed = $1 AND r.rd <= $2 AND a.deleted_ms IS NULL AND a.closed_ms IS NULL
         ORDER BY r.rating DESC LIMIT $3",
        &args![
            speed.name(),
            super::glicko2::PROVISIONAL_RD,
            (limit as i64).saturating_mul(2).saturating_add(10)
        ],
    )?;
    let mut board = Vec::new();
    for r in rows {
        let rec = record(&r)?;
        if !rec.at(now_ms).provisional() && board.len() < limit {
            board.push(Placed {
                username: r.text("username")?,
                bot: r.bool("bot")?,
                record: rec,
            });
        }
    }
    Ok(board)
}

/// One player's rating change in a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The rating the game was rated from (grown for inactivity).
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
}

impl Change {
    /// How far the rating moved (+12.3, −12.3).
    pub fn delta(&self) -> f64 {
        self.after.rating - self.before.rating
    }
}

/// A rated game's end, which goes with the game's ended row: both players' ratings move in
/// the row's transaction, each game its own rating period.
#[derive(Debug)]
pub struct RatedEnd {
    /// The game's id.
    pub game: String,
    /// The speed it is rated in.
    pub speed: Speed,
    /// White's account.
    pub white: AccountId,
    /// Black's account.
    pub black: AccountId,
    /// White's result.
    pub white_score: Score,
    /// When the game ended.
    pub at_ms: i64,
    /// Both changes (White's, Black's), once the row's transaction computed them.
    changes: Mutex<Option<[Change; 2]>>,
}

/// Another transaction moved a rating this one read: read again.
#[derive(Debug, thiserror::Error)]
#[error("a rating moved meanwhile")]
struct Moved;

/// Times a rating moved by others is read again before the game's end gives up (and fails
/// alone, to be written again).
const TRIES: usize = 8;

impl RatedEnd {
    /// The end of rated game `game` in `speed` between `white` and `black`, White scoring
    /// `white_score`, at `at_ms`.
    pub fn new(
        game: &str,
        speed: Speed,
        white: AccountId,
        black: AccountId,
        white_score: Score,
        at_ms: i64,
    ) -> RatedEnd {
        RatedEnd {
            game: game.to_owned(),
            speed,
            white,
            black,
            white_score,
            at_ms,
            changes: Mutex::new(None),
        }
    }

    /// White's and Black's rating changes, once the game's row is written (`None` before,
    /// or when the game had been rated already).
    pub fn changes(&self) -> Option<[Change; 2]> {
        *self.changes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One try: `Moved` if a rating moved since it was read.
    fn try_once(&self, db: &mut dyn Sql) -> anyhow::Result<Option<[Change; 2]>> {
        let rated = db.query_opt(
            "SELECT 1 AS found FROM rating_history WHERE game = $1 AND account IN ($2, $3)",
            &args![self.game.as_str(), self.white.as_str(), self.black.as_str()],
        )?;
        if rated.is_some() {
            // Written again after a lost answer: nobody's rating moves twice.
            return Ok(None);
        }
        let white = stored(db, &self.white, self.speed)?;
        let black = stored(db, &self.black, self.speed)?;
        let before = [
            white.unwrap_or(Record::NEW).at(self.at_ms),
            black.unwrap_or(Record::NEW).at(self.at_ms),
        ];
        let (w, b) = rate_game(before[0], before[1], self.white_score);
        let mut seats = [
            (Colour::White, &self.white, white, w),
            (Colour::Black, &self.black, black, b),
        ];
        // Always in the same order of accounts, so that two servers never wait on each other.
        seats.sort_by(|x, y| x.1.cmp(y.1));
        for (colour, account, old, new) in seats {
            let written = match old {
                Some(old) => db.execute(
                    "UPDATE ratings SET rating = $3, rd = $4, volatility = $5,
                         games = games + 1, updated_ms = $6
                     WHERE account = $1 AND speed = $2 AND games = $7",
                    &args![
                        account.as_str(),
                        self.speed.name(),
                        new.rating,
                        new.rd,
                        new.volatility,
                        self.at_ms,
                        old.games
                    ],
                )?,
                None => db.execute(
                    "INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated_ms)
                     VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (account, speed) DO NOTHING",
                    &args![
                        account.as_str(),
                        self.speed.name(),
                        new.rating,
                        new.rd,
                        new.volatility,
                        self.at_ms
                    ],
                )?,
            };
            if written != 1 {
                return Err(Moved.into());
            }
            let change = new.rating - before[colour.index()].rating;
            db.execute(
                "INSERT INTO rating_history (account, game, speed, at_ms, rating, rd, change)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &args![
                    account.as_str(),
                    self.game.as_str(),
                    self.speed.name(),
                    self.at_ms,
                    new.rating,
                    new.rd,
                    change
                ],
            )?;
            db.execute(
                "UPDATE account_games SET rating_before = $3, rating_change = $4
                 WHERE game = $1 AND colour = $2",
                &args![
                    self.game.as_str(),
                    super::games::colour_name(colour),
                    before[colour.index()].rating,
                    change
                ],
            )?;
        }
        Ok(Some([
            Change {
                before: before[0],
                after: w,
            },
            Change {
                before: before[1],
                after: b,
            },
        ]))
    }
}

impl Attached for RatedEnd {
    fn apply(&self, db: &mut dyn Sql) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.white != self.black,
            "a rated game needs two accounts, not {} twice",
            self.white
        );
        for _ in 0..TRIES {
            match db.savepoint(|db| self.try_once(db)) {
                Ok(changes) => {
                    *self.changes.lock().unwrap_or_else(|e| e.into_inner()) = changes;
                    return Ok(());
                }
                Err(e) if e.is::<Moved>() => continue,
                Err(e) => return Err(e),
            }
        }
        anyhow::bail!(
            "the ratings of game {}'s players moved under it {TRIES} times",
            self.game
        )
    }
}

/// A point of an account's rating graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// When the game ended.
    pub at_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
    /// How far it moved.
    pub change: f64,
}

/// The rating history of `account` in `speed`, oldest first.
pub fn history(db: &mut dyn Sql, account: &AccountId, speed: Speed) -> anyhow::Result<Vec<Point>> {
    db.query(
        "SELECT at_ms, rating, rd, change FROM rating_history
         WHERE account = $1 AND speed = $2 ORDER BY at_ms, game",
        &args![account.as_str(), speed.name()],
    )?
    .iter()
    .map(|r| {
        Ok(Point {
            at_ms: r.int("at_ms")?,
            rating: r.real("rating")?,
            rd: r.real("rd")?,
            change: r.real("change")?,
        })
    })
    .collect()
}
