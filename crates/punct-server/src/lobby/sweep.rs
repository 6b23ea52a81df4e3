//! The lobby's sweep, run by every server: seeks, pool entries and lobby sockets that ran
//! out go (a dead server's with them), and so do ended sessions and forgotten sign-in
//! failures; the pools are paired as their ranges widen, and
//! correspondence games whose player to move ran out of time are ended even when nobody
//! is connected. Each of these is safe with several servers at once: a purge deletes what
//! is due, whoever does it; a pair is claimed in the database ([`super::pools`]); and an
//! overdue game is only brought into its owner's hands ([`crate::games::Hub::room`]: the
//! game's lease, `store::lease`), whose clock timer ends it, once. A game's clock given back
//! the time its server was down (`room::clock`) has a later deadline by then, and is left
//! alone.

use std::sync::Weak;
use std::time::Duration;

use super::{Inner, Lobby};
use crate::players::lobby_notice::LobbyNotice;
use crate::players::queue::SLOTS;
use crate::players::{games, presence, queue, seeks, sessions, throttle};

/// How often the sweep runs (and whenever the time source moves on).
const EVERY: Duration = Duration::from_secs(1);

/// Overdue games looked at per sweep.
const OVERDUE_PER_SWEEP: i64 = 100;

/// Sweeps until the lobby is gone.
pub(super) async fn run(lobby: Weak<Inner>) {
    let Some(mut time_moved) = lobby.upgrade().map(|inner| inner.hub.time().changed()) else {
        return;
    };
    let mut every = tokio::time::interval(EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            () = time_moved.next() => {}
        }
        let Some(inner) = lobby.upgrade() else {
            return;
        };
        let lobby = Lobby { inner };
        match lobby.sweep().await {
            Ok(()) => lobby.hub().database_answered(),
            Err(e) => lobby.hub().database_work_failed("the lobby's sweep", &e),
        }
    }
}

impl Lobby {
    /// One sweep.
    async fn sweep(&self) -> anyhow::Result<()> {
        let now = self.now();
        let store = self.hub().database();
        let (gone, overdue) = store
            .transact(move |db| {
                presence::purge(db, now)?;
                queue::purge(db, now)?;
                sessions::purge(db, now)?;
                throttle::purge(db, now)?;
                let gone = seeks::purge(db, now)?;
                Ok((gone, games::timed_out(db, now, OVERDUE_PER_SWEEP)?))
            })
            .await?;
        if !gone.is_empty() {
            self.tell(LobbyNotice::SeekRemoved { ids: gone }).await;
        }
        for slot in SLOTS {
            self.pair(slot).await?;
        }
        for (game, _) in overdue {
            if let Err(e) = self.hub().room(&game).await {
                tracing::warn!(%game, "cannot look at an overdue game: {e}");
            }
        }
        Ok(())
    }
}
