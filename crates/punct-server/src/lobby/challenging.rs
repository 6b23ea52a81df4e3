//! Challenges: from one account to another by name, with the terms of a seek; the
//! challenged is told (a notification, and their open pages woken). Accepting claims the
//! challenge in the database first (once only), then makes the game; declining or
//! cancelling closes it.

use std::collections::HashMap;

use super::{Lobby, storage};
use crate::error::Error;
use crate::players::accounts::{self, AccountId};
use crate::players::challenges::{self, Challenge, ChallengeError};
use crate::players::lobby_notice::LobbyNotice;
use crate::players::notifications::{self, Kind};
use crate::players::username;
use crate::store::sql::Attached;
use crate::wire::lobby::{ChallengeList, ChallengeRequest, ChallengeView, Started, TimeView};

/// The open challenges one account may have sent at once.
pub const MAX_OPEN: usize = 20;

/// The view of `c`, its players named by `names`.
fn view(c: &Challenge, names: &Names) -> ChallengeView {
    let name = |a: &AccountId| {
        names
            .get(a)
            .map_or_else(|| "deleted".into(), |(name, _)| name.clone())
    };
    let bot = |a: &AccountId| names.get(a).is_some_and(|(_, bot)| *bot);
    ChallengeView {
        id: c.id.clone(),
        from: name(&c.challenger),
        from_bot: bot(&c.challenger),
        to: name(&c.challenged),
        to_bot: bot(&c.challenged),
        time: TimeView::of(c.terms.time),
        speed: c.terms.speed().name().to_owned(),
        rated: c.terms.rated,
        colour: c.terms.colour.name().to_owned(),
        status: c.status.clone(),
        game: c.game.clone(),
        created_ms: c.created_ms,
        expires_ms: c.expires_ms,
    }
}

/// The open challenges to and from `who` at `now_ms`, oldest first, each with its view.
pub(super) fn open_views(
    db: &mut dyn crate::store::sql::Sql,
    who: &AccountId,
    now_ms: i64,
) -> anyhow::Result<Vec<(Challenge, ChallengeView)>> {
    let open = challenges::open_for(db, who, now_ms)?;
    let names = names_of(
        db,
        open.iter()
            .flat_map(|c| [c.challenger.clone(), c.challenged.clone()]),
    )?;
    Ok(open
        .into_iter()
        .map(|c| {
            let v = view(&c, &names);
            (c, v)
        })
        .collect())
}

/// Accounts' shown names, and whether each is a bot.
type Names = HashMap<AccountId, (String, bool)>;

/// The shown names of `ids`.
fn names_of(
    db: &mut dyn crate::store::sql::Sql,
    ids: impl IntoIterator<Item = AccountId>,
) -> anyhow::Result<Names> {
    let mut names = HashMap::new();
    for id in ids {
        if !names.contains_key(&id)
            && let Some(a) = accounts::by_id(db, &id)?
        {
            names.insert(id, (a.shown_name().to_owned(), a.bot));
        }
    }
    Ok(names)
}

impl Lobby {
    /// `from` challenges the player `req` names.
    pub async fn challenge(
        &self,
        from: &AccountId,
        req: &ChallengeRequest,
    ) -> Result<ChallengeView, Error> {
        let (to, terms) = req.checked().map_err(Error::bad_request)?;
        let (who, key, now) = (from.clone(), username::key(&to), self.now());
        let made = self
            .hub()
            .database()
            .transact(move |db| {
                let Some(target) = accounts::by_name(db, &key)?.filter(accounts::Account::is_open)
                else {
                    return Ok(Err(None));
                };
                let sent = challenges::open_for(db, &who, now)?
                    .iter()
                    .filter(|c| c.challenger == who)
                    .count();
                if sent >= MAX_OPEN {
                    return Ok(Err(Some(Error::conflict(format!(
                        "you have {MAX_OPEN} open challenges already: wait for answers"
                    )))));
                }
                let c = match challenges::create(db, &who, &target.id, terms, now)? {
                    Ok(c) => c,
                    Err(ChallengeError::Yourself) => {
                        return Ok(Err(Some(Error::bad_request(
                            ChallengeError::Yourself.to_string(),
                        ))));
                    }
                    Err(ChallengeError::Refused) => {
                        return Ok(Err(Some(Error::forbidden(
                            ChallengeError::Refused.to_string(),
                        ))));
                    }
                };
                notifications::tell(&target.id, Kind::Challenge, None, Some(&who), now)?
                    .apply(db)?;
                let names = names_of(db, [who.clone(), target.id.clone()])?;
                Ok(Ok((view(&c, &names), target.id)))
            })
            .await
            .map_err(storage)?;
        let (made, target) = made
            .map_err(|e| e.unwrap_or_else(|| Error::not_found(format!("no player named {to}"))))?;
        self.tell(LobbyNotice::Notified {
            accounts: vec![target],
        })
        .await;
        Ok(made)
    }

    /// The open challenges to and from `account`.
    pub async fn challenges(&self, account: &AccountId) -> Result<ChallengeList, Error> {
        let (who, now) = (account.clone(), self.now());
        self.hub()
            .database()
            .query(move |db| {
                let (incoming, outgoing): (Vec<_>, Vec<_>) = open_views(db, &who, now)?
                    .into_iter()
                    .partition(|(c, _)| c.challenged == who);
                Ok(ChallengeList {
                    incoming: incoming.into_iter().map(|(_, v)| v).collect(),
                    outgoing: outgoing.into_iter().map(|(_, v)| v).collect(),
                })
            })
            .await
            .map_err(storage)
    }

    /// `account` (the challenged) accepts challenge `id`: the game, both players seated.
    pub async fn accept_challenge(&self, account: &AccountId, id: &str) -> Result<Started, Error> {
        let (key, who, now) = (id.to_owned(), account.clone(), self.now());
        let claimed = self
            .hub()
            .database()
            .transact(move |db| challenges::accept(db, &key, &who, "", now))
            .await
            .map_err(storage)?;
        let c =
            claimed.ok_or_else(|| Error::not_found(format!("no open challenge `{id}` to you")))?;
        let started = self
            .started_for_second(c.terms, &c.challenger, account)
            .await;
        let key = id.to_owned();
        let recorded = match &started {
            Ok(s) => {
                let game = s.game.clone();
                self.hub()
                    .database()
                    .transact(move |db| challenges::made(db, &key, &game))
                    .await
            }
            Err(_) => {
                self.hub()
                    .database()
                    .transact(move |db| challenges::reopen(db, &key))
                    .await
            }
        };
        if let Err(e) = recorded {
            tracing::warn!(challenge = %id, "cannot record the challenge's game: {e}");
        }
        self.tell(LobbyNotice::Notified {
            accounts: vec![c.challenger.clone(), c.challenged.clone()],
        })
        .await;
        started
    }

    /// `account` declines (the challenged) or cancels (the challenger) challenge `id`.
    pub async fn close_challenge(&self, account: &AccountId, id: &str) -> Result<(), Error> {
        let (key, who, now) = (id.to_owned(), account.clone(), self.now());
        let closed = self
            .hub()
            .database()
            .transact(move |db| {
                let found = challenges::open_by_id(db, &key, now)?;
                let closed = challenges::decline(db, &key, &who, now)?;
                Ok(found.filter(|_| closed))
            })
            .await
            .map_err(storage)?;
        let c =
            closed.ok_or_else(|| Error::not_found(format!("no open challenge `{id}` of yours")))?;
        self.tell(LobbyNotice::Notified {
            accounts: vec![c.challenger, c.challenged],
        })
        .await;
        Ok(())
    }
}
