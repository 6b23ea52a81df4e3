//! An account's events (API.md, "Bots"): its challenges as they open and close, its games
//! as they start and end. The database is the truth: whenever the lobby's feed tells of a
//! change for the account (from any server), or may have missed one, or a little time
//! passed (a challenge expires silently), the account's open challenges and live games are
//! read again and the difference with what was told is the next events. A stream that
//! connects again is told everything open again, so nothing is lost across servers.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;

use super::challenging::open_views;
use super::{Heard, Lobby};
use crate::players::accounts::AccountId;
use crate::players::challenges;
use crate::players::games::{self as account_games, Filter};
use crate::wire::events::AccountEvent;
use crate::wire::lobby::ChallengeView;
use crate::wire::profile::GameEntry;

/// How often the account is read again when nothing was heard.
const EVERY: Duration = Duration::from_secs(10);

/// Events on their way to the client before the reader waits for it.
const QUEUED: usize = 64;

/// The live games of one account read at once (far more than anyone plays).
const LIVE_GAMES: i64 = 500;

/// What one look at the account found.
struct Look {
    challenges: BTreeMap<String, ChallengeView>,
    games: BTreeMap<String, GameEntry>,
}

/// What the stream told as open.
#[derive(Default)]
struct Told {
    challenges: BTreeSet<String>,
    games: BTreeSet<String>,
}

impl Lobby {
    /// The events of `account` from now on, until the receiver is dropped. Failures to read
    /// the database are logged and tried again at the next change or beat.
    pub fn events(&self, account: AccountId) -> mpsc::Receiver<AccountEvent> {
        let (tx, rx) = mpsc::channel(QUEUED);
        let lobby = self.clone();
        tokio::spawn(async move { follow(lobby, account, tx).await });
        rx
    }

    /// The account's open challenges and live games now.
    async fn look(&self, account: &AccountId) -> anyhow::Result<Look> {
        let (who, now) = (account.clone(), self.now());
        self.hub()
            .database()
            .query(move |db| {
                let live = Filter {
                    live: Some(true),
                    ..Filter::default()
                };
                let playing = account_games::of_account(db, &who, &live, LIVE_GAMES)?;
                Ok(Look {
                    challenges: open_views(db, &who, now)?
                        .into_iter()
                        .map(|(c, v)| (c.id, v))
                        .collect(),
                    games: playing
                        .into_iter()
                        .map(|e| (e.game.clone(), GameEntry::of(e)))
                        .collect(),
                })
            })
            .await
    }

    /// What became of the challenges and games told of that `look` no longer has.
    async fn gone(
        &self,
        account: &AccountId,
        challenges: Vec<String>,
        games: Vec<String>,
    ) -> anyhow::Result<Vec<AccountEvent>> {
        let (who, now) = (account.clone(), self.now());
        self.hub()
            .database()
            .query(move |db| {
                let mut out = Vec::new();
                for id in challenges {
                    let status = challenges::status_of(db, &id, now)?
                        .unwrap_or_else(|| "cancelled".to_owned());
                    out.push(AccountEvent::ChallengeGone { id, status });
                }
                for game in games {
                    if let Some(e) = account_games::one(db, &who, &game)? {
                        out.push(AccountEvent::GameFinish {
                            game: GameEntry::of(e),
                        });
                    }
                }
                Ok(out)
            })
            .await
    }
}

/// Whether `heard` may change what `account` is told.
fn concerns(heard: &Heard, account: &AccountId) -> bool {
    match heard {
        Heard::Notified(accounts) => accounts.contains(account),
        Heard::GameStarted { white, black, .. } => white == account || black == account,
        Heard::Missed => true,
        Heard::SeekAdded(_) | Heard::SeekRemoved(_) => false,
    }
}

async fn follow(lobby: Lobby, account: AccountId, tx: mpsc::Sender<AccountEvent>) {
    // Followed before the first look, so that nothing between the two is missed.
    let mut heard = lobby.listen();
    let mut beats = tokio::time::interval(EVERY);
    beats.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut told = Told::default();
    loop {
        tokio::select! {
            got = heard.recv() => match got {
                Ok(h) if concerns(&h, &account) => {}
                Ok(_) => continue,
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            _ = beats.tick() => {}
            () = tx.closed() => return,
        }
        let events = match news(&lobby, &account, &mut told).await {
            Ok(events) => events,
            Err(e) => {
                tracing::warn!(account = %account, "cannot read an account's events: {e}");
                continue;
            }
        };
        for event in events {
            if tx.send(event).await.is_err() {
                return;
            }
        }
    }
}

/// The events since `told`, which is brought up to date.
async fn news(
    lobby: &Lobby,
    account: &AccountId,
    told: &mut Told,
) -> anyhow::Result<Vec<AccountEvent>> {
    let look = lobby.look(account).await?;
    let closed: Vec<String> = told
        .challenges
        .iter()
        .filter(|id| !look.challenges.contains_key(*id))
        .cloned()
        .collect();
    let ended: Vec<String> = told
        .games
        .iter()
        .filter(|id| !look.games.contains_key(*id))
        .cloned()
        .collect();
    // Read before anything is marked told, so that a failure tells it all next time.
    let gone = if closed.is_empty() && ended.is_empty() {
        Vec::new()
    } else {
        lobby.gone(account, closed.clone(), ended.clone()).await?
    };
    for id in &closed {
        told.challenges.remove(id);
    }
    for id in &ended {
        told.games.remove(id);
    }
    // A game started from a challenge is told before the challenge goes, so that a client
    // that accepted knows where to play by the time it hears it was accepted.
    let mut events = Vec::new();
    for (id, game) in look.games {
        if told.games.insert(id) {
            events.push(AccountEvent::GameStart { game });
        }
    }
    for (id, challenge) in look.challenges {
        if told.challenges.insert(id) {
            events.push(AccountEvent::Challenge { challenge });
        }
    }
    events.extend(gone);
    Ok(events)
}
