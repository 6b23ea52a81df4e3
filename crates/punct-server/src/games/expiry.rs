//! Games nobody plays: ended without a result once they have waited longer than the
//! server's lifetimes allow (a side that never made its first move, an invitation nobody
//! took up, a game nobody played on), each the one way a change goes.

use std::sync::{Arc, Weak};
use std::time::Duration;

use super::cell::RoomCell;
use super::{Hub, Inner};
use crate::error::ErrorKind;
use crate::ops::outage::Outage;
use crate::room::Room;

/// Ends the games due to end, looking every `check_every` (and whenever the time source
/// moves on) until the hub is gone.
pub(super) async fn end_expired(hub: Weak<Inner>) {
    let Some((lifetimes, mut time_moved)) = hub
        .upgrade()
        .map(|inner| (inner.lifetimes, inner.time.changed()))
    else {
        return;
    };
    // An interval of zero would panic.
    let mut every = tokio::time::interval(lifetimes.check_every.max(Duration::from_millis(1)));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut outage = Outage::new("ending a game that waited too long");
    loop {
        // The time source moving on (a test's clock) is a moment to look too.
        tokio::select! {
            _ = every.tick() => {}
            () = time_moved.next() => {}
        }
        let Some(inner) = hub.upgrade() else {
            return;
        };
        let hub = Hub { inner };
        let now = hub.now();
        let due: Vec<Arc<RoomCell>> = hub
            .rooms()
            .values()
            .filter(|cell| cell.is_owned() && cell.glance().expires_ms.is_some_and(|at| at <= now))
            .cloned()
            .collect();
        for cell in due {
            let mut room = match hub.lock(&cell).await {
                Ok(room) => room,
                Err(e) => {
                    hub.retrying(&mut outage, &cell.id, &e);
                    continue;
                }
            };
            let expire = |r: &mut Room| r.expire(hub.now(), &lifetimes);
            match hub.apply(&cell, &mut room, expire).await {
                Ok(_) => outage.worked(Some(&cell.id)),
                // Changed meanwhile: no longer due.
                Err(e) if e.kind == ErrorKind::Conflict => {}
                Err(e) => hub.retrying(&mut outage, &cell.id, &e),
            }
        }
    }
}
