//! Challenges (`challenges`): from one account to another, with the terms of a seek; open
//! until the challenged accepts or declines, the challenger cancels, or it expires, and
//! waiting for them when they come back. Accepting is conditional on the challenge being
//! open, so it is accepted once; a blocked challenger cannot challenge.

use super::accounts::AccountId;
use super::secrets::new_id;
use super::seeks::Terms;
use crate::store::sql::{Row, Sql, args};

/// How long a challenge stays open: a week.
pub const LIFE_MS: i64 = 7 * 86_400_000;

/// A challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// Who challenges.
    pub challenger: AccountId,
    /// Who is challenged.
    pub challenged: AccountId,
    /// The game offered.
    pub terms: Terms,
    /// open, accepted, declined or cancelled.
    pub status: String,
    /// The game made when it was accepted.
    pub game: Option<String>,
    /// When it was made.
    pub created_ms: i64,
    /// When it ends if nobody answers.
    pub expires_ms: i64,
}

/// Why a challenge cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChallengeError {
    /// To oneself.
    #[error("you cannot challenge yourself")]
    Yourself,
    /// The challenged account blocked the challenger, or is not open.
    #[error("this player does not take challenges from you")]
    Refused,
}

const COLUMNS: &str = "id, challenger, challenged, initial_ms, increment_ms, days_per_move,
    rated, colour, status, game, created_ms, expires_ms";

fn challenge(r: &Row) -> anyhow::Result<Challenge> {
    Ok(Challenge {
        id: r.text("id")?,
        challenger: AccountId(r.text("challenger")?),
        challenged: AccountId(r.text("challenged")?),
        terms: Terms::of_row(r)?,
        status: r.text("status")?,
        game: r.opt_text("game")?,
        created_ms: r.int("created_ms")?,
        expires_ms: r.int("expires_ms")?,
    })
}

/// `from` challenges `to` to a game of `terms`.
pub fn create(
    db: &mut dyn Sql,
    from: &AccountId,
    to: &AccountId,
    terms: Terms,
    now_ms: i64,
) -> anyhow::Result<Result<Challenge, ChallengeError>> {
    if from == to {
        return Ok(Err(ChallengeError::Yourself));
    }
    let open = super::accounts::by_id(db, to)?.is_some_and(|a| a.is_open());
    if !open || super::blocks::is_blocked(db, to, from)? {
        return Ok(Err(ChallengeError::Refused));
    }
    let c = Challenge {
        id: new_id(now_ms)?,
        challenger: from.clone(),
        challenged: to.clone(),
        terms,
        status: "open".to_owned(),
        game: None,
        created_ms: now_ms,
        expires_ms: now_ms + LIFE_MS,
    };
    let (initial, increment, days) = terms.time_columns();
    db.execute(
        &format!(
            "INSERT INTO challenges (speed, {COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', NULL, $10, $11)"
        ),
        &args![
            terms.speed().name(),
            c.id.as_str(),
            from.as_str(),
            to.as_str(),
            initial,
            increment,
            days,
            terms.rated,
            terms.colour.name(),
            now_ms,
            c.expires_ms
        ],
    )?;
    Ok(Ok(c))
}

/// `by` (the challenged) accepts challenge `id`, game `game` being made for it: the
/// challenge, if it was open (once only).
pub fn accept(
    db: &mut dyn Sql,
    id: &str,
    by: &AccountId,
    game: &str,
    now_ms: i64,
) -> anyhow::Result<Option<Challenge>> {
    db.query_opt(
        &format!(
            "UPDATE challenges SET status = 'accepted', game = $3, decided_ms = $4
             WHERE id = $1 AND challenged = $2 AND status = 'open' AND expires_ms > $4
             RETURNING {COLUMNS}"
        ),
        &args![id, by.as_str(), game, now_ms],
    )?
    .map(|r| challenge(&r))
    .transpose()
}

/// `by` declines (the challenged) or cancels (the challenger) open challenge `id`.
pub fn decline(db: &mut dyn Sql, id: &str, by: &AccountId, now_ms: i64) -> anyhow::Result<bool> {
    Ok(db.execute(
        "UPDATE challenges SET decided_ms = $3,
             status = CASE WHEN challenged = $2 THEN 'declined' ELSE 'cancelled' END
         WHERE id = $1 AND (challenged = $2 OR challenger = $2) AND status = 'open'",
        &args![id, by.as_str(), now_ms],
    )? == 1)
}

/// The open challenges to or from `account`, oldest first.
pub fn open_for(
    db: &mut dyn Sql,
    account: &AccountId,
    now_ms: i64,
) -> anyhow::Result<Vec<Challenge>> {
    db.query(
        &format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE (challenged = $1 OR challenger = $1) AND status = 'open' AND expires_ms > $2
             ORDER BY created_ms, id"
        ),
        &args![account.as_str(), now_ms],
    )?
    .iter()
    .map(challenge)
    .collect()
}

/// Open challenge `id` at `now_ms`, if it is.
pub fn open_by_id(db: &mut dyn Sql, id: &str, now_ms: i64) -> anyhow::Result<Option<Challenge>> {
    db.query_opt(
        &format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE id = $1 AND status = 'open' AND expires_ms > $2"
        ),
        &args![id, now_ms],
    )?
    .map(|r| challenge(&r))
    .transpose()
}

/// What became of challenge `id` at `now_ms`: open, accepted, declined, cancelled or
/// expired; `None` if there is none.
pub fn status_of(db: &mut dyn Sql, id: &str, now_ms: i64) -> anyhow::Result<Option<String>> {
    db.query_opt(
        "SELECT status, expires_ms FROM challenges WHERE id = $1",
        &args![id],
    )?
    .map(|r| {
        let status = r.text("status")?;
        Ok(if status == "open" && r.int("expires_ms")? <= now_ms {
            "expired".to_owned()
        } else {
            status
        })
    })
    .transpose()
}

/// Records the game made for accepted challenge `id`.
pub fn made(db: &mut dyn Sql, id: &str, game: &str) -> anyhow::Result<()> {
    db.execute(
        "UPDATE challenges SET game = $2 WHERE id = $1 AND status = 'accepted'",
        &args![id, game],
    )?;
    Ok(())
}

/// Opens accepted challenge `id` again: its game could not be made.
pub fn reopen(db: &mut dyn Sql, id: &str) -> anyhow::Result<()> {
    db.execute(
        "UPDATE challenges SET status = 'open', game = NULL, decided_ms = NULL
         WHERE id = $1 AND status = 'accepted'",
        &args![id],
    )?;
    Ok(())
}
