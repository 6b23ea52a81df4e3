//! Seeks: put up, withdrawn, accepted. Accepting deletes the seek's row, so only one of
//! several who click at once gets it; the game is then made by [`Lobby::start_game`].

use super::{Lobby, storage};
use crate::error::Error;
use crate::players::accounts::AccountId;
use crate::players::lobby_notice::LobbyNotice;
use crate::players::{ratings, seeks};
use crate::wire::lobby::{SeekRequest, SeekView, Started};

/// The seeks one account may have up at once.
pub const MAX_SEEKS: i64 = 5;

impl Lobby {
    /// `account` puts up the seek `req` asks for.
    pub async fn seek(&self, account: &AccountId, req: &SeekRequest) -> Result<SeekView, Error> {
        let (terms, range) = req.checked().map_err(Error::bad_request)?;
        self.people_only(account, "put up a seek").await?;
        let (who, now) = (account.clone(), self.now());
        let made = self
            .hub()
            .database()
            .transact(move |db| {
                if seeks::count_of(db, &who, now)? >= MAX_SEEKS {
                    return Ok(None);
                }
                let seek = seeks::create(db, &who, terms, range, now)?;
                Ok(seeks::listed(db, Some(&seek.id), now)?.pop())
            })
            .await
            .map_err(storage)?;
        let listed = made.ok_or_else(|| {
            Error::conflict(format!(
                "you have {MAX_SEEKS} seeks up already: withdraw one first"
            ))
        })?;
        self.tell(LobbyNotice::SeekAdded {
            id: listed.seek.id.clone(),
        })
        .await;
        Ok(SeekView::of(&listed, now))
    }

    /// `account` withdraws its seek `id`.
    pub async fn withdraw(&self, account: &AccountId, id: &str) -> Result<(), Error> {
        let (who, key) = (account.clone(), id.to_owned());
        let gone = self
            .hub()
            .database()
            .transact(move |db| seeks::cancel(db, &key, &who))
            .await
            .map_err(storage)?;
        if !gone {
            return Err(Error::not_found(format!("you have no seek `{id}`")));
        }
        self.tell(LobbyNotice::SeekRemoved {
            ids: vec![id.to_owned()],
        })
        .await;
        Ok(())
    }

    /// `account` accepts seek `id`: the game, which both players are now seated in.
    pub async fn accept_seek(&self, account: &AccountId, id: &str) -> Result<Started, Error> {
        self.people_only(account, "accept a seek").await?;
        let now = self.now();
        let (key, who) = (id.to_owned(), account.clone());
        let (listed, mine) = self
            .hub()
            .database()
            .query(move |db| {
                let listed = seeks::listed(db, Some(&key), now)?.pop();
                let speed = listed.as_ref().map(|l| l.seek.terms.speed());
                let mine = match speed {
                    Some(speed) => ratings::stored(db, &who, speed)?,
                    None => None,
                };
                Ok((listed, mine))
            })
            .await
            .map_err(storage)?;
        let listed = listed.ok_or_else(|| {
            Error::not_found(format!("no seek `{id}`: it was taken or withdrawn"))
        })?;
        if &listed.seek.account == account {
            return Err(Error::bad_request("you cannot accept your own seek"));
        }
        if let Some((lo, hi)) = listed.seek.rating_range {
            let rating = mine.unwrap_or(ratings::Record::NEW).at(now).rating.round() as i64;
            if !(lo..=hi).contains(&rating) {
                return Err(Error::forbidden(format!(
                    "this seek takes ratings {lo}–{hi}, and yours is {rating}"
                )));
            }
        }
        let (key, who) = (id.to_owned(), account.clone());
        let taken = self
            .hub()
            .database()
            .transact(move |db| seeks::accept(db, &key, &who, now))
            .await
            .map_err(storage)?;
        let seek = taken.ok_or_else(|| Error::conflict("someone else took this seek first"))?;
        self.tell(LobbyNotice::SeekRemoved {
            ids: vec![seek.id.clone()],
        })
        .await;
        self.started_for_second(seek.terms, &seek.account, account)
            .await
    }
}
