//! Signals that end the program from outside: `kill` from another shell (SIGTERM, SIGINT) or
//! a dropped SSH connection (SIGHUP). Their default action would end the program at once,
//! leaving the terminal in raw mode on the alternate screen; instead they are noted, the
//! event loop ends as for Ctrl-C, the terminal is given back, and then the signal is obeyed.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;
use signal_hook::low_level;

/// The signals that end the program after the terminal is restored.
const ENDING: [i32; 3] = [SIGTERM, SIGHUP, SIGINT];

/// Notes the ending signals while the screen is shown.
pub struct Watch {
    /// The signal that arrived, or 0.
    caught: Arc<AtomicUsize>,
    /// Whether the next ending signal ends the program at once: after a first one, in case
    /// the way out is stuck, and once the terminal is given back, when there is nothing left
    /// to restore.
    immediate: Arc<AtomicBool>,
}

impl Watch {
    /// Starts noting the ending signals instead of dying of them.
    pub fn start() -> io::Result<Watch> {
        let caught = Arc::new(AtomicUsize::new(0));
        let immediate = Arc::new(AtomicBool::new(false));
        for signal in ENDING {
            // The shutdown goes first so that it sees `immediate` as it was before this signal.
            flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&immediate))?;
            flag::register(signal, Arc::clone(&immediate))?;
            let number = usize::try_from(signal).unwrap_or_default();
            flag::register_usize(signal, Arc::clone(&caught), number)?;
        }
        Ok(Watch { caught, immediate })
    }

    /// The ending signal that arrived, if any.
    pub fn caught(&self) -> Option<i32> {
        let number = self.caught.load(Ordering::SeqCst);
        i32::try_from(number).ok().filter(|&signal| signal != 0)
    }
}

/// Ends the program now, as `signal`'s default action does, so that the shell sees the
/// program killed by it. Returns only if that failed, with what to report.
pub fn obey(signal: i32) -> anyhow::Error {
    let name = low_level::signal_name(signal).unwrap_or("a signal");
    match low_level::emulate_default_handler(signal) {
        Ok(()) => anyhow::anyhow!("ended by {name}"),
        Err(e) => anyhow::anyhow!("ended by {name}, which could not be passed on: {e}"),
    }
}

impl Drop for Watch {
    /// Lets later signals end the program at once: the handlers stay installed (removing
    /// them would leave the signals ignored) but no longer wait for the event loop.
    fn drop(&mut self) {
        self.immediate.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_is_noted_and_named() {
        // SIGINT, not SIGTERM: the test harness's own processes do not use it, and it is
        // noted rather than fatal while the watch is on.
        let watch = Watch::start().unwrap();
        assert_eq!(watch.caught(), None);
        low_level::raise(SIGINT).unwrap();
        assert_eq!(watch.caught(), Some(SIGINT));
        assert_eq!(low_level::signal_name(SIGINT), Some("SIGINT"));
    }
}
