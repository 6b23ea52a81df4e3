//! A timed game's clock timer: it ends the game on time when the side to move's clock runs
//! out, waiting for the deadline by the server's time source and looking again whenever a
//! change may have moved it.

use std::sync::Arc;

use super::cell::RoomCell;
use super::{Hub, RETRY};
use crate::ops::outage::Outage;
use crate::room::{Change, Room};

impl Hub {
    /// Ends the game of `cell` on time when the side to move's clock runs out; returns once
    /// the game is over.
    pub(super) async fn watch_clock(self, cell: Arc<RoomCell>) {
        let mut outage = Outage::new("the game's clock timer");
        loop {
            // Another node took the game over: its timer runs there.
            if !cell.is_owned() {
                return;
            }
            let deadline = match self.lock(&cell).await {
                Ok(room) if !room.is_live() => return,
                Ok(room) => {
                    outage.worked(Some(&cell.id));
                    room.clock.as_ref().and_then(|c| c.deadline(room.turn()))
                }
                Err(e) => {
                    self.retrying(&mut outage, &cell.id, &e);
                    Some(self.now() + RETRY.as_millis() as i64)
                }
            };
            match deadline {
                None => cell.clock_changed.notified().await,
                Some(d) => {
                    tokio::select! {
                        () = self.inner.time.sleep_until(d) => {}
                        () = cell.clock_changed.notified() => continue,
                    }
                }
            }
            // A failure to read the room back is logged by the next turn's lock.
            let Ok(mut room) = self.lock(&cell).await else {
                continue;
            };
            let now = self.now();
            if room.flag_fell(now) {
                let flag = |r: &mut Room| {
                    r.check_flag(now);
                    Ok(Change::Timeout)
                };
                if let Err(e) = self.apply(&cell, &mut room, flag).await {
                    drop(room);
                    self.retrying(&mut outage, &cell.id, &e);
                    tokio::time::sleep(RETRY).await;
                }
            }
        }
    }
}
