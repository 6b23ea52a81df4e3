//! Reading a password at the terminal without showing it, as `sudo` and `ssh` do.

use std::io::{self, BufRead as _, IsTerminal as _, Write as _};

/// Asks for a password with `prompt` and reads a line. At a terminal, what is typed is not
/// shown (echo is turned off until the line is read, and back on however the read ends);
/// from a pipe, the line is read as it comes.
pub fn read_password(prompt: &str) -> io::Result<String> {
    let stdin = io::stdin();
    let mut err = io::stderr();
    write!(err, "{prompt}")?;
    err.flush()?;
    let mut line = String::new();
    if stdin.is_terminal() {
        let _quiet = Quiet::start()?;
        // ECHONL still shows the Enter that ends the line.
        stdin.lock().read_line(&mut line)?;
    } else {
        stdin.lock().read_line(&mut line)?;
    }
    Ok(line.trim_end_matches(['\n', '\r']).to_owned())
}

/// The terminal with echo off, restored when dropped.
struct Quiet {
    before: libc::termios,
}

impl Quiet {
    fn start() -> io::Result<Quiet> {
        // SAFETY: tcgetattr writes a termios for the descriptor, which is open (stdin);
        // zeroed is a valid termios to be overwritten.
        let mut before: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut before) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut quiet = before;
        quiet.c_lflag &= !libc::ECHO;
        quiet.c_lflag |= libc::ECHONL;
        // SAFETY: a termios read from the same descriptor, with one flag changed.
        if unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &quiet) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Quiet { before })
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        // SAFETY: restores the settings read in `start`.
        unsafe {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &self.before);
        }
    }
}
