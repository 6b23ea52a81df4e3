//! Password hashes: Argon2id with OWASP's parameters (19 MiB of memory, 2 passes, 1 lane),
//! kept as PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), which carry their
//! parameters: a hash made under other ones still verifies.
//!
//! Hashing is slow on purpose (tens of ms of one core's time), so it never runs on the
//! async threads: [`Hasher`] runs it on the blocking pool, at most a few at once, so that a
//! burst of sign-ins waits its turn rather than taking every core from the games. A wrong
//! password and an unknown user cost the same (the latter is checked against a dummy hash),
//! so the time of an answer does not tell which names exist.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

use super::password::Password;

/// Memory per hash, KiB (OWASP: 19 MiB).
pub const MEMORY_KIB: u32 = 19 * 1024;

/// Passes over the memory (OWASP: 2).
pub const PASSES: u32 = 2;

/// Lanes (OWASP: 1).
pub const LANES: u32 = 1;

/// A made-up hash under the same parameters (no known password matches it), verified
/// against when the user is unknown so that the answer takes as long as for a known one.
const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$ZHVtbXlzYWx0ZHVtbXk$1mVO7VbpmQ6ZV9aClb4uAzIyydmZCnXmk5Ed5vWkD1I";

/// Why a hash could not be made or checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// Too many hashes are waiting already: try again in a moment.
    #[error("too many sign-ins at once: try again in a moment")]
    Busy,
    /// The hashing failed (a stored hash that cannot be read, or no random salt).
    #[error("password hashing failed: {0}")]
    Failed(String),
}

fn argon2() -> Argon2<'static> {
    let params =
        Params::new(MEMORY_KIB, PASSES, LANES, None).expect("OWASP's parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes `password` with a fresh random salt, on this thread: a PHC string.
pub fn hash_now(password: &Password) -> Result<String, HashError> {
    argon2()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| HashError::Failed(e.to_string()))
}

/// Whether `password` matches the PHC string `stored`, on this thread; with no stored hash
/// (an unknown user) it is checked against a dummy one, taking as long, and never matches.
pub fn verify_now(password: &Password, stored: Option<&str>) -> Result<bool, HashError> {
    let hash = PasswordHash::new(stored.unwrap_or(DUMMY))
        .map_err(|e| HashError::Failed(format!("a stored hash cannot be read: {e}")))?;
    let matched = argon2().verify_password(password.as_bytes(), &hash).is_ok();
    Ok(matched && stored.is_some())
}

/// Runs hashes on the blocking pool, a bounded number at once, with a bounded queue.
#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    /// Hashes waiting or running.
    queued: Arc<AtomicUsize>,
    /// The most hashes waiting or running; past it, [`HashError::Busy`].
    max_queued: usize,
}

/// Gives back a place in the queue when dropped.
struct Place(Arc<AtomicUsize>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Hasher {
    /// At most `at_once` hashes run at once and `max_queued` wait or run.
    pub fn new(at_once: usize, max_queued: usize) -> Hasher {
        Hasher {
            permits: Arc::new(Semaphore::new(at_once.max(1))),
            queued: Arc::new(AtomicUsize::new(0)),
            max_queued: max_queued.max(1),
        }
    }

    /// The bound for this machine: a quarter of the cores, at least one (one on 2 cores),
    /// so that three quarters are always the games' and the engine's; 64 waiting at most
    /// (about two seconds of work on one core).
    pub fn for_this_machine() -> Hasher {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Hasher::new((cores / 4).max(1), 64)
    }

    /// Runs `work` on the blocking pool once a permit is free.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, HashError> + Send + 'static,
    ) -> Result<T, HashError> {
        if self.queued.fetch_add(1, Ordering::AcqRel) >= self.max_queued {
            self.queued.fetch_sub(1, Ordering::AcqRel);
            return Err(HashError::Busy);
        }
        let _place = Place(self.queued.clone());
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| HashError::Failed(e.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| HashError::Failed(e.to_string()))?
    }

    /// A new hash of `password`.
    pub async fn hash(&self, password: Password) -> Result<String, HashError> {
        self.run(move || hash_now(&password)).await
    }

    /// Whether `password` matches `stored` (see [`verify_now`]).
    pub async fn verify(
        &self,
        password: Password,
        stored: Option<String>,
    ) -> Result<bool, HashError> {
        self.run(move || verify_now(&password, stored.as_deref()))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let p = Password::new("correct horse battery").unwrap();
        let hash = hash_now(&p).unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(verify_now(&p, Some(&hash)).unwrap());
        let wrong = Password::typed("correct horse batterY").unwrap();
        assert!(!verify_now(&wrong, Some(&hash)).unwrap());
        // Salted: the same password hashes differently each time.
        assert_ne!(hash_now(&p).unwrap(), hash);
    }

    #[test]
    fn an_unknown_user_never_matches() {
        let p = Password::typed("anything").unwrap();
        assert!(!verify_now(&p, None).unwrap());
        assert!(PasswordHash::new(DUMMY).is_ok());
    }

    #[test]
    fn a_damaged_hash_is_an_error_not_a_match() {
        let p = Password::typed("anything").unwrap();
        assert!(matches!(
            verify_now(&p, Some("not a hash")),
            Err(HashError::Failed(_))
        ));
    }

    #[tokio::test]
    async fn past_the_queue_a_hash_is_refused_as_busy() {
        let hasher = Hasher::new(1, 2);
        let p = Password::typed("anything").unwrap();
        let (a, b, c) = tokio::join!(
            hasher.verify(p.clone(), None),
            hasher.verify(p.clone(), None),
            hasher.verify(p.clone(), None),
        );
        assert_eq!((a, b), (Ok(false), Ok(false)));
        assert_eq!(c, Err(HashError::Busy));
        // The places are given back.
        assert_eq!(hasher.verify(p, None).await, Ok(false));
    }
}
