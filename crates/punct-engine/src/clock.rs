//! The engine's clock: where the search and its time management read the time. Natively it
//! is the system's monotonic clock. `wasm32-unknown-unknown` has none (`std::time::Instant`
//! panics there), so in the browser the page gives the time: the module imports
//! `now_ms() -> f64` from the module `punct`, milliseconds since any fixed moment, which the
//! page fills with `performance.now()`.

use std::time::Duration;

/// A moment of the engine's clock, to measure the time since.
#[derive(Clone, Copy, Debug)]
pub struct Instant(Moment);

impl Instant {
    /// Now.
    #[inline]
    pub fn now() -> Instant {
        Instant(moment())
    }

    /// The time since this moment (zero if the clock went back).
    #[inline]
    pub fn elapsed(&self) -> Duration {
        since(self.0)
    }
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
type Moment = std::time::Instant;

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[inline]
fn moment() -> Moment {
    std::time::Instant::now()
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[inline]
fn since(moment: Moment) -> Duration {
    moment.elapsed()
}

/// The page's time: since its fixed moment.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
type Moment = Duration;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn moment() -> Moment {
    #[link(wasm_import_module = "punct")]
    unsafe extern "C" {
        /// Milliseconds since a fixed moment, never going back (the page's `performance.now`).
        safe fn now_ms() -> f64;
    }
    // A page that gives no number (NaN, negative) stops the clock rather than the engine.
    Duration::try_from_secs_f64(now_ms() / 1000.0).unwrap_or_default()
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn since(moment: Moment) -> Duration {
    self::moment().saturating_sub(moment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_passes_and_never_runs_back() {
        let start = Instant::now();
        let first = start.elapsed();
        std::thread::sleep(Duration::from_millis(5));
        let later = start.elapsed();
        assert!(
            later >= first + Duration::from_millis(5),
            "{first:?} then {later:?}"
        );
    }
}
