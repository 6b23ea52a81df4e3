//! The one way a request's change is run: on a task of its own, so that it goes on to its
//! end whatever its caller does (a client that hangs up while its change is being stored),
//! and is stored, applied, announced and followed up whole.

use std::future::Future;

use super::Hub;
use crate::error::Error;

impl Hub {
    /// Runs `work`, a change of game `game` (if it has one yet), on a task of its own and
    /// waits for its result, counting its error ([`Hub::counted`]). A panic of the work is
    /// answered and logged as an internal error of the game.
    pub(super) async fn detached<T: Send + 'static>(
        &self,
        game: Option<&str>,
        work: impl Future<Output = Result<T, Error>> + Send + 'static,
    ) -> Result<T, Error> {
        let hub = self.clone();
        let id = game.map(str::to_owned);
        let task = tokio::spawn(async move { hub.counted(id.as_deref(), work).await });
        task.await.unwrap_or_else(|e| {
            let e = Error::internal(format!("the change failed and was not made: {e}"));
            self.failed(game, &e);
            Err(e)
        })
    }
}
