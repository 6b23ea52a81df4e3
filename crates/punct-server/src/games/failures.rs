//! Errors of the games, as they are counted and logged: a refusal of a request is counted
//! by its kind, a failure of the server logged once, and the database's absence logged once
//! per outage however many requests it refuses (with how many when it ends).

use std::future::Future;

use super::Hub;
use crate::error::{Error, ErrorKind};
use crate::ops::metrics::StorageOp;
use crate::ops::outage::{Outage, SharedOutage};
use crate::store::WriteError;

/// The database's absence, as every request that needs it meets it.
pub(super) struct DatabaseOutage(SharedOutage);

impl Default for DatabaseOutage {
    fn default() -> DatabaseOutage {
        DatabaseOutage(SharedOutage::new("the database"))
    }
}

impl Hub {
    /// The error for a write the store did not make: a failure of the database, or a state
    /// of the game that another server changed meanwhile (the room is then read back).
    pub(super) fn write_error(&self, e: WriteError) -> Error {
        match e {
            WriteError::Failed(e) => self.storage_error(StorageOp::Write, e),
            WriteError::Stale(e) => {
                Error::conflict(format!("the game changed elsewhere, read it again: {e}"))
            }
        }
    }

    /// The error for a read or write of the database that failed, counted.
    pub(super) fn storage_error(&self, op: StorageOp, e: impl std::fmt::Display) -> Error {
        self.inner.metrics.storage_failed(op);
        Error::storage(format!("the database is not answering: {e}"))
    }

    /// The database answered: an outage, if one was going on, is over.
    pub(crate) fn database_answered(&self) {
        self.inner.outage.0.worked();
    }

    /// The server's own work `work` on the database (the lobby's sweep) failed with `e` and
    /// is tried again: logged with the database's outage, once however many fail in it.
    pub(crate) fn database_work_failed(&self, work: &str, e: &dyn std::fmt::Display) {
        self.inner.outage.0.retried_work(work, e);
    }

    /// Runs `work` for a caller and counts its error, if it ends in one, logging it if it
    /// is a failure of the server rather than a refusal of the request (naming the game,
    /// if there is one). A refusal because the database is away is logged once per outage.
    pub(super) async fn counted<T>(
        &self,
        game: Option<&str>,
        work: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let result = work.await;
        if let Err(e) = &result {
            self.failed(game, e);
        }
        result
    }

    /// Counts error `e` of a request about game `game` (if it has one), and logs it if it
    /// is a failure of the server.
    pub(super) fn failed(&self, game: Option<&str>, e: &Error) {
        self.inner.metrics.error(e.kind);
        match e.kind {
            ErrorKind::Storage => self.inner.outage.0.refused(e),
            ErrorKind::Internal => match game {
                Some(game) => tracing::error!(game = %game, kind = e.kind.name(), "{e}"),
                None => tracing::error!(kind = e.kind.name(), "{e}"),
            },
            _ => {}
        }
    }

    /// The server's own work on game `id` (its clock timer, the computer's move) failed
    /// with `e` and will be tried again: counted, and logged as the database's outage when
    /// that is the cause, else once per run of failures of that work (`outage`).
    pub(super) fn retrying(&self, outage: &mut Outage, id: &str, e: &Error) {
        self.inner.metrics.error(e.kind);
        match e.kind {
            ErrorKind::Storage => self.inner.outage.0.retried(id, e),
            _ => outage.failed(Some(id), e),
        }
    }
}
