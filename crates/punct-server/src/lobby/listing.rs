//! The live seeks as this server's lobby sockets are sent them: read from the database once
//! for all the sockets that ask at about the same time (a lost notice or a database restart
//! makes every socket ask at once), and read again once the feed hears of any change of
//! seeks or [`FRESH`] has passed. A copy of rows for the sockets, never the truth: a socket
//! follows the feed before it asks, and the feed forgets the copy before it hands on a
//! change, so a socket sent an older copy hears what it lacks.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use crate::error::Error;
use crate::wire::lobby::SeekView;

/// How long a copy is used at most, whatever the feed hears: a seeker's rating as of now
/// (its deviation grows with time) is not older than this.
const FRESH: Duration = Duration::from_secs(2);

/// The copy of the live seeks, if one is kept.
#[derive(Default)]
pub(super) struct Listing {
    kept: Mutex<Option<Kept>>,
}

struct Kept {
    read: Instant,
    seeks: Arc<Vec<SeekView>>,
}

impl Listing {
    /// The copy, or what `read` reads, kept. Callers meanwhile wait for this one read.
    pub(super) async fn get(
        &self,
        read: impl Future<Output = Result<Vec<SeekView>, Error>>,
    ) -> Result<Arc<Vec<SeekView>>, Error> {
        let mut kept = self.kept.lock().await;
        if let Some(k) = kept.as_ref().filter(|k| k.read.elapsed() < FRESH) {
            return Ok(k.seeks.clone());
        }
        let seeks = Arc::new(read.await?);
        *kept = Some(Kept {
            read: Instant::now(),
            seeks: seeks.clone(),
        });
        Ok(seeks)
    }

    /// Forgets the copy (after a read under way, if any, has kept its own).
    pub(super) async fn forget(&self) {
        *self.kept.lock().await = None;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn sockets_asking_together_read_once_and_a_change_reads_again() {
        let listing = Listing::default();
        let reads = AtomicUsize::new(0);
        let read = || async {
            reads.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok(Vec::new())
        };
        let (a, b, c) = tokio::join!(
            listing.get(read()),
            listing.get(read()),
            listing.get(read())
        );
        assert!(a.is_ok() && b.is_ok() && c.is_ok());
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        listing.forget().await;
        listing.get(read()).await.unwrap();
        assert_eq!(reads.load(Ordering::SeqCst), 2);
        // A failed read keeps nothing: the next asks again.
        listing.forget().await;
        let failed = listing
            .get(async { Err(Error::storage("down".to_owned())) })
            .await;
        assert!(failed.is_err());
        listing.get(read()).await.unwrap();
        assert_eq!(reads.load(Ordering::SeqCst), 3);
    }
}
