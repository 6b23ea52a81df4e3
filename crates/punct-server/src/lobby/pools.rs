//! Quick pairing: a player joins a pool with their rating in its speed; the pool is paired
//! ([`crate::players::pool::pair`]) as they join and on every sweep, since the ranges widen
//! as players wait. A pair is claimed in the database before its game is made, so that
//! several servers pairing at once never pair anyone twice. Pool games are rated.

use std::collections::HashSet;

use super::{Lobby, storage};
use crate::error::Error;
use crate::players::accounts::AccountId;
use crate::players::pool::pair;
use crate::players::queue::{self, SLOTS, Slot};
use crate::players::seeks::{ColourChoice, Terms};
use crate::players::{blocks, ratings};
use crate::wire::lobby::PoolAnswer;

/// The pool named `name`, or 404 naming them.
fn slot(name: &str) -> Result<Slot, Error> {
    Slot::named(name).ok_or_else(|| {
        let names: Vec<&str> = SLOTS.iter().map(|s| s.name).collect();
        Error::not_found(format!(
            "no pool `{name}`: the pools are {}",
            names.join(", ")
        ))
    })
}

impl Lobby {
    /// `account` waits in pool `name`: paired at once if an opponent is in range.
    pub async fn join_pool(&self, account: &AccountId, name: &str) -> Result<PoolAnswer, Error> {
        let slot = slot(name)?;
        self.people_only(account, "wait in a quick-pairing pool")
            .await?;
        let (who, now) = (account.clone(), self.now());
        self.hub()
            .database()
            .transact(move |db| {
                let rating = ratings::stored(db, &who, slot.time.speed())?
                    .unwrap_or(ratings::Record::NEW)
                    .at(now)
                    .rating;
                queue::join(db, slot, &who, rating, now)
            })
            .await
            .map_err(storage)?;
        let mine = self
            .pair(slot)
            .await?
            .into_iter()
            .find(|(_, first, second, _)| first == account || second == account);
        Ok(match mine {
            Some((game, first, _, colour)) => PoolAnswer {
                pool: slot.name,
                waiting: false,
                game: Some(game),
                seat: Some(super::games::seat_name(if &first == account {
                    colour
                } else {
                    !colour
                })),
            },
            None => PoolAnswer {
                pool: slot.name,
                waiting: true,
                game: None,
                seat: None,
            },
        })
    }

    /// `account` stops waiting in pool `name`.
    pub async fn leave_pool(&self, account: &AccountId, name: &str) -> Result<(), Error> {
        let slot = slot(name)?;
        let who = account.clone();
        let left = self
            .hub()
            .database()
            .transact(move |db| queue::leave(db, slot, &who))
            .await
            .map_err(storage)?;
        if !left {
            return Err(Error::not_found(format!("you are not waiting in `{name}`")));
        }
        Ok(())
    }

    /// Pairs `slot` now: the games made, each with its first and second player and the
    /// first's colour.
    pub(super) async fn pair(
        &self,
        slot: Slot,
    ) -> Result<Vec<(String, AccountId, AccountId, punct_core::Colour)>, Error> {
        let now = self.now();
        let pairs = self
            .hub()
            .database()
            .query(move |db| {
                let entries = queue::waiting(db, slot, now)?;
                if entries.len() < 2 {
                    return Ok(Vec::new());
                }
                let mut blocked = HashSet::new();
                for e in &entries {
                    for whom in blocks::blocked_by(db, &e.player)? {
                        blocked.insert((e.player.clone(), whom));
                    }
                }
                let apart = |a: &AccountId, b: &AccountId| {
                    !blocked.contains(&(a.clone(), b.clone()))
                        && !blocked.contains(&(b.clone(), a.clone()))
                };
                Ok(pair(&entries, now, apart)
                    .into_iter()
                    .map(|(i, j)| (entries[i].player.clone(), entries[j].player.clone()))
                    .collect::<Vec<_>>())
            })
            .await
            .map_err(storage)?;
        let mut made = Vec::new();
        for (a, b) in pairs {
            let (ka, kb) = (a.clone(), b.clone());
            let claimed = self
                .hub()
                .database()
                .transact(move |db| queue::claim(db, slot, &ka, &kb))
                .await;
            // Paired by another server meanwhile (or the database failed: the next sweep
            // tries again).
            if claimed.is_err() {
                continue;
            }
            let terms = Terms {
                time: slot.time,
                rated: true,
                colour: ColourChoice::Random,
            };
            let (game, colour) = self.start_game(terms, &a, &b).await?;
            made.push((game, a, b, colour));
        }
        Ok(made)
    }
}
