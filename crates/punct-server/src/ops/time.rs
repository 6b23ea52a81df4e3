//! The server's one time source: wall-clock milliseconds since the Unix epoch, which every
//! time the server stores or compares with a stored one is read from (clocks and their
//! deadlines, expiries, the heartbeat, the age of the last commit, rate limits). Waits that
//! only bound the network (a request's head, a silent socket) keep to the monotonic clock.
//!
//! It is the system clock, unless a *clock file* is named (`Config::clock_file`, the hidden
//! `punct serve --clock-file`, `PUNCT_CLOCK_FILE` for the bare `punct-server`): a file holding
//! an offset in milliseconds that is added to the system clock. It is read at start and
//! watched while the server runs, so a test moves the server's time on by writing a larger
//! offset, across processes and restarts, without waiting. When the offset changes, every
//! wait for a moment ([`TimeSource::sleep_until`], [`TimeSource::changed`]) looks again.

use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// How often a clock file is read again for a new offset.
const WATCH_EVERY: Duration = Duration::from_millis(10);

/// Milliseconds since the Unix epoch by the system clock (0 before it).
fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The time source; clones share it.
#[derive(Clone, Debug)]
pub struct TimeSource(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    /// Added to the system clock.
    offset_ms: AtomicI64,
    /// Told of every change of the offset.
    changed: watch::Sender<()>,
}

impl Default for TimeSource {
    fn default() -> TimeSource {
        TimeSource::system()
    }
}

impl TimeSource {
    /// The system clock.
    pub fn system() -> TimeSource {
        TimeSource(Arc::new(Shared {
            offset_ms: AtomicI64::new(0),
            changed: watch::Sender::new(()),
        }))
    }

    /// The system clock plus the offset the file at `path` holds (none while there is no
    /// such file), watched from now on until the last clone of the source is gone. A file
    /// that holds something other than a whole number of milliseconds is refused; written
    /// later, such content is ignored with a warning (write the file whole: a new file
    /// renamed over it).
    pub fn with_clock_file(path: &Path) -> anyhow::Result<TimeSource> {
        let source = TimeSource::system();
        let first = read_offset(path).map_err(|text| {
            anyhow::anyhow!(
                "the clock file {} holds {text:?}, not a whole number of milliseconds",
                path.display()
            )
        })?;
        source.set_offset(first.unwrap_or(0));
        let watched = Arc::downgrade(&source.0);
        let path = path.to_owned();
        std::thread::Builder::new()
            .name("punct-clock-file".into())
            .spawn(move || watch_file(&watched, &path))?;
        Ok(source)
    }

    /// Milliseconds since the Unix epoch, now.
    pub fn now_ms(&self) -> i64 {
        system_ms().saturating_add(self.0.offset_ms.load(Ordering::Relaxed))
    }

    /// Returns once it is `at_ms` or later, looking again whenever the offset changes.
    pub async fn sleep_until(&self, at_ms: i64) {
        let mut changed = self.changed();
        loop {
            let left = at_ms.saturating_sub(self.now_ms());
            if left <= 0 {
                return;
            }
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(left as u64)) => {}
                () = changed.next() => {}
            }
        }
    }

    /// The changes of the offset from now on, for a wait that is not for one moment (a
    /// periodic look for games due to end).
    pub fn changed(&self) -> Changes {
        Changes(self.0.changed.subscribe())
    }

    fn set_offset(&self, ms: i64) {
        if self.0.offset_ms.swap(ms, Ordering::Relaxed) != ms {
            self.0.changed.send_replace(());
        }
    }
}

/// The changes of a time source's offset ([`TimeSource::changed`]).
#[derive(Debug)]
pub struct Changes(watch::Receiver<()>);

impl Changes {
    /// Returns at the next change of the offset (never, for the system clock).
    pub async fn next(&mut self) {
        if self.0.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// The offset the clock file holds: `None` for no file, the text if it is not a number.
fn read_offset(path: &Path) -> Result<Option<i64>, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let text = text.trim();
    text.parse().map(Some).map_err(|_| text.to_owned())
}

/// Reads the clock file at `path` again every [`WATCH_EVERY`] until the source is gone.
fn watch_file(source: &Weak<Shared>, path: &Path) {
    let mut refused = None;
    loop {
        std::thread::sleep(WATCH_EVERY);
        let Some(shared) = source.upgrade() else {
            return;
        };
        match read_offset(path) {
            Ok(offset) => {
                refused = None;
                TimeSource(shared).set_offset(offset.unwrap_or(0));
            }
            Err(text) if refused.as_ref() != Some(&text) => {
                tracing::warn!(
                    "the clock file {} holds {text:?}, not a whole number of milliseconds: ignored",
                    path.display()
                );
                refused = Some(text);
            }
            Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "punct-time-{name}-{}-{}",
            std::process::id(),
            system_ms()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("clock")
    }

    /// Writes `text` into `path` whole, as a test should.
    fn write(path: &Path, text: &str) {
        let next = path.with_extension("next");
        std::fs::write(&next, text).unwrap();
        std::fs::rename(&next, path).unwrap();
    }

    #[test]
    fn the_system_clock_has_no_offset() {
        let before = system_ms();
        let now = TimeSource::system().now_ms();
        assert!(now >= before && now <= system_ms());
    }

    #[test]
    fn a_clock_file_that_is_no_number_is_refused_at_start() {
        let path = temp_file("bad");
        write(&path, "soon");
        let refused = TimeSource::with_clock_file(&path).unwrap_err().to_string();
        assert!(refused.contains("\"soon\""), "{refused}");
        assert!(
            refused.contains("whole number of milliseconds"),
            "{refused}"
        );
    }

    #[tokio::test]
    async fn a_wait_ends_as_soon_as_the_clock_file_moves_past_its_moment() {
        let path = temp_file("moves");
        let time = TimeSource::with_clock_file(&path).unwrap();
        assert!(time.now_ms() - system_ms() <= 1, "no file: no offset");
        let hour = 3_600_000;
        let due = time.now_ms() + hour;
        let waiting = tokio::spawn({
            let time = time.clone();
            async move { time.sleep_until(due).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        // Not a number: ignored, the time stays.
        write(&path, "");
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        write(&path, &format!("{}\n", hour + 1_000));
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the wait ends without waiting the hour")
            .unwrap();
        assert!(time.now_ms() >= due);
        // A second source on the same file (another process, a restart) reads the same time.
        let again = TimeSource::with_clock_file(&path).unwrap();
        assert!((again.now_ms() - time.now_ms()).abs() < 1_000);
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }
}
