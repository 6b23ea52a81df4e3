//! Noticing that the terminal has gone away (a closed window, a dropped SSH connection,
//! `tmux kill-session`), whatever the program is doing at the time.
//!
//! Once its terminal hangs up, the terminal library's wait for a key never returns: every
//! read gives end-of-file, which it takes for "no key yet" and reads again, tens of
//! thousands of times a second. So the event loop cannot notice the hang-up, nor the SIGHUP
//! that comes with it. A thread of its own waits for the hang-up instead and ends the
//! program as that SIGHUP would: there is no terminal left to restore, nor anyone to ask
//! about an unsaved game.

use std::io;
use std::os::fd::{AsFd as _, AsRawFd as _, BorrowedFd};
use std::thread;

use signal_hook::consts::SIGHUP;

use crate::signals;

/// Starts the thread that ends the program when the terminal on standard input hangs up.
pub fn watch_stdin() -> io::Result<()> {
    thread::Builder::new()
        .name("punct-hangup".to_owned())
        .spawn(|| {
            if wait_for_hangup(io::stdin().as_fd()) {
                // Only returns when the signal could not be obeyed.
                let _ = signals::obey(SIGHUP);
                std::process::exit(128 + SIGHUP);
            }
        })?;
    Ok(())
}

/// Waits until `fd` hangs up or fails (true), or the wait itself fails (false).
fn wait_for_hangup(fd: BorrowedFd<'_>) -> bool {
    // No events asked for: poll then reports only a hang-up, an error or a closed descriptor,
    // and the keys stay for the terminal library to read.
    let mut watched = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: 0,
        revents: 0,
    };
    loop {
        // SAFETY: `watched` is one valid pollfd, borrowed for the call only.
        let ready = unsafe { libc::poll(&mut watched, 1, -1) };
        if ready > 0 {
            return true;
        }
        if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    #[test]
    fn the_other_end_going_away_ends_the_wait() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let watcher = thread::spawn(move || wait_for_hangup(ours.as_fd()));
        drop(theirs);
        assert!(watcher.join().unwrap());
    }
}
