//! What clients ask a game to do: create it, join it, act in it. Each runs detached
//! ([`Hub::detached`]) and changes the game the one way ([`Hub::apply`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Hub;
use super::cell::RoomCell;
use super::reads::Viewed;
use crate::error::refusal::Refusal;
use crate::error::{Error, ErrorKind};
use crate::players::accounts::AccountId;
use crate::room::new::{self, Creator, NewGame, random_hex};
use crate::room::{Action, Audience, Change, Request, Room, Snapshot};

/// Tries of a request whose change another server sharing the database made first.
const CHANGED_ELSEWHERE_TRIES: usize = 3;

/// A seat granted to the creator or joiner of a game.
pub struct Seated {
    /// The game's id.
    pub id: String,
    /// The secret seat token.
    pub token: String,
    /// The seats the token holds.
    pub audience: Audience,
    /// The secret that gives a friend the open seat (friend games, until it is taken).
    pub invite: Option<String>,
    /// The game's state then.
    pub snapshot: Snapshot,
}

/// What an action did: the number of the state it made and, if asked for, that state as
/// the caller sees it.
pub struct Acted {
    /// The number of the state the action made (or had made, for a repeat).
    pub seq: u64,
    /// The state, as the caller sees it.
    pub state: Option<Viewed>,
}

impl Hub {
    /// Creates a game, returning the creator's seat; `creator` is the signed-in player
    /// making it, if any.
    pub async fn create(&self, req: NewGame, creator: Option<Creator>) -> Result<Seated, Error> {
        let hub = self.clone();
        self.detached(None, async move {
            let (token, game, seats, clock) = new::build(&req, creator.as_ref())?;
            let now = hub.now();
            let mut room = Room::new(random_hex::<8>(), req.mode, game, seats, clock, now);
            room.rated = req.rated;
            hub.save_new(&room).await?;
            let seated = Seated {
                id: room.id.clone(),
                audience: room.audience(Some(&token)),
                token,
                invite: room.invite.clone(),
                snapshot: Snapshot::of(&room, now),
            };
            hub.insert(room);
            Ok(seated)
        })
        .await
    }

    /// Gives the open seat of game `id` to the caller, who shows the game's invitation;
    /// `request` is the id the caller gave this request, so that a repeat of it (its answer
    /// was lost) gets the same seat. A signed-in caller (`account`) takes it with their
    /// account.
    pub async fn join(
        &self,
        id: &str,
        name: &str,
        account: Option<AccountId>,
        invite: Option<&str>,
        request: Option<&str>,
    ) -> Result<Seated, Error> {
        let (hub, game, name) = (self.clone(), id.to_owned(), name.to_owned());
        let (invite, request) = (invite.map(str::to_owned), request.map(str::to_owned));
        self.detached(Some(id), async move {
            let (invite, request) = (invite.as_deref(), request.as_deref());
            let cell = hub.room(&game).await?;
            let mut room = hub.lock(&cell).await?;
            let now = hub.now();
            let repeated = invite.and_then(|i| room.repeated_join(i, request, now));
            let (colour, token) = match repeated {
                Some(colour) => {
                    let token = room.seats[colour.index()].token().unwrap_or_default();
                    (colour, token.to_owned())
                }
                None => {
                    let token = random_hex::<16>();
                    let join = |r: &mut Room| {
                        r.join(token.clone(), &name, account.clone(), invite, request, now)
                            .map(Change::Joined)
                    };
                    let Change::Joined(colour) = hub.apply(&cell, &mut room, join).await? else {
                        return Err(Error::internal("a join made another change"));
                    };
                    (colour, token)
                }
            };
            Ok(Seated {
                id: game.clone(),
                token,
                audience: Audience::Seat(colour),
                invite: None,
                snapshot: Snapshot::of(&room, now),
            })
        })
        .await
    }

    /// Carries out `request` for the holder of `token`, returning the number of the state it
    /// made and, if `want_state`, that state as the caller sees it. A request that names the
    /// state it was made on and was carried out already gets the first outcome again. A
    /// refusal changes nothing (except that a side found out of time loses first). A
    /// signed-in caller's `account` stands for the seat token.
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        account: Option<&AccountId>,
        request: Request,
        want_state: bool,
    ) -> Result<Acted, Error> {
        let (hub, game) = (self.clone(), id.to_owned());
        let token = token.map(str::to_owned);
        let account = account.cloned();
        self.detached(Some(id), async move {
            let cell = hub.room(&game).await?;
            let mut tries = 0;
            loop {
                let acted = hub
                    .act_once(
                        &cell,
                        token.as_deref(),
                        account.as_ref(),
                        &request,
                        want_state,
                    )
                    .await;
                tries += 1;
                match acted {
                    Err(e)
                        if tries < CHANGED_ELSEWHERE_TRIES
                            && hub.changed_elsewhere(&cell, &e).await => {}
                    acted => return acted,
                }
            }
        })
        .await
    }

    /// Whether `e`, met changing the game of `cell`, may come from another server sharing
    /// the database having changed it first: its write refused as stale, or the request
    /// refused on a state the database has moved on from. The room is then read back, and
    /// the request is made again on the state as it truly is.
    async fn changed_elsewhere(&self, cell: &Arc<RoomCell>, e: &Error) -> bool {
        if self.membership().is_none() {
            return false;
        }
        match e.kind {
            ErrorKind::Conflict if cell.is_stale() => true,
            ErrorKind::Conflict | ErrorKind::Illegal | ErrorKind::Forbidden => {
                self.catch_up_before_read(cell).await.unwrap_or(false)
            }
            _ => false,
        }
    }

    /// [`Hub::act`] on the state the game of `cell` is in.
    async fn act_once(
        &self,
        cell: &Arc<RoomCell>,
        token: Option<&str>,
        account: Option<&AccountId>,
        request: &Request,
        want_state: bool,
    ) -> Result<Acted, Error> {
        let hub = self;
        let mut room = hub.lock(cell).await?;
        if hub.membership().is_some() && request.seq.is_some_and(|s| s > room.seq) {
            // Made on a state another server committed and this one has not heard of yet.
            cell.stale.store(true, Ordering::Release);
            drop(room);
            room = hub.lock(cell).await?;
        }
        let now = hub.now();
        let audience = room.audience_of(token, account);
        let colours = audience.colours();
        let answered = request
            .seq
            .and_then(|made_on| room.answered(colours, &request.action, made_on));
        let seq = match answered {
            Some(first) => first?,
            None if room.flag_fell(now) => {
                hub.apply(cell, &mut room, |r| {
                    r.check_flag(now);
                    Ok(Change::Timeout)
                })
                .await?;
                return Err(match room.game.outcome() {
                    Some(outcome) => Error::refused(Refusal::GameOver {
                        outcome: outcome.into(),
                    }),
                    None => Error::conflict("the game is over"),
                });
            }
            None if request.action == Action::Rematch => {
                hub.rematch(cell, &mut room, colours, now).await?
            }
            None => {
                hub.apply(cell, &mut room, |r| r.act(colours, &request.action, now))
                    .await?;
                room.seq
            }
        };
        let state = want_state.then(|| Viewed {
            snapshot: Arc::new(Snapshot::of(&room, now)),
            audience,
            now,
        });
        Ok(Acted { seq, state })
    }
}
