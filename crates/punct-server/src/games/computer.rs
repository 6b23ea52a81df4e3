//! The computer's turn: the engine is asked for its move in the state it is to move in,
//! and the [`Move`](punct_core::Move) it finds is played if nothing has changed meanwhile.

use std::pin::Pin;
use std::sync::Arc;

use super::cell::RoomCell;
use super::{Hub, RETRY};
use crate::engine::ComputerClock;
use crate::error::{Error, ErrorKind};
use crate::ops::outage::Outage;
use crate::room::{Change, Room};

/// A spawned background task.
type Task = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Asks the engine for the computer's move in the state of `cell` numbered `seq`, and plays
/// it if nothing has changed meanwhile.
///
/// Boxed because playing the move may start the next search: the future refers to itself
/// through `apply`, and a named type lets the compiler see it is `Send`.
pub(super) fn play(hub: Hub, cell: Arc<RoomCell>, seq: u64) -> Task {
    Box::pin(async move { hub.computer_move(cell, seq).await })
}

impl Hub {
    async fn computer_move(self, cell: Arc<RoomCell>, seq: u64) {
        let (game, level, clock) = {
            let room = match self.lock(&cell).await {
                Ok(room) => room,
                Err(e) => return self.read_back(&cell, &e).await,
            };
            let Some(level) = room.computer_to_move().filter(|_| room.seq == seq) else {
                return;
            };
            let clock = room.clock.as_ref().and_then(|c| {
                Some(ComputerClock {
                    deadline_ms: c.deadline(room.turn())?,
                    increment_ms: c.increment_ms,
                })
            });
            (room.game.clone(), level, clock)
        };
        // Asked by the engine thread as the search starts: a game that changed while its
        // search waited (a takeback, a resignation, a flag) no longer wants it. A room being
        // changed right then is taken to still want it; the move is checked again below.
        let waiting = cell.clone();
        let wanted = move || waiting.room.try_lock().map_or(true, |r| r.seq == seq);
        let searched = self
            .inner
            .engine
            .search((&cell.id, seq), game, level, clock, wanted);
        let result = match searched.await {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(e) => {
                self.inner.metrics.error(e.kind);
                tracing::error!(game = %cell.id, "computer move failed: {e}");
                punct_engine::SearchResult::default()
            }
        };
        let mut room = match self.lock(&cell).await {
            Ok(room) => room,
            Err(e) => return self.read_back(&cell, &e).await,
        };
        if room.seq != seq {
            return;
        }
        // An engine that finds nothing (or fails) must not leave the game stuck.
        let fallback = || room.game.position().legal_moves().first().copied();
        let Some(mv) = result.best_move.or_else(fallback) else {
            tracing::error!(game = %room.id, "no move for the computer in a live game");
            return;
        };
        let now = self.now();
        let play = |r: &mut Room| {
            if r.check_flag(now) {
                Ok(Change::Timeout)
            } else {
                r.play_computer(mv, now)
            }
        };
        match self.apply(&cell, &mut room, play).await {
            Ok(_) => {}
            Err(e) if e.kind == ErrorKind::Storage => {
                drop(room);
                self.read_back(&cell, &e).await;
            }
            Err(e) => {
                self.inner.metrics.error(e.kind);
                tracing::error!(game = %room.id, "the engine's move {mv} was refused: {e}");
            }
        }
    }

    /// Waits until the stale room of `cell` can be read back from the database. Reading it
    /// back starts what follows from its state (the computer's search among it), so a
    /// computer move that could not be stored is looked for again then, unless the database
    /// committed it after all.
    async fn read_back(&self, cell: &Arc<RoomCell>, failure: &Error) {
        let mut outage = Outage::new("the computer's move");
        self.retrying(&mut outage, &cell.id, failure);
        loop {
            tokio::time::sleep(RETRY).await;
            match self.lock(cell).await {
                Ok(_) => return outage.worked(Some(&cell.id)),
                Err(e) => self.retrying(&mut outage, &cell.id, &e),
            }
        }
    }
}
