//! A player that is another program speaking the engine protocol on its standard input and
//! output (any `punct engine`-compatible program).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use punct_core::{Game, Move};

use punct_engine::SearchLimits;
use punct_engine::players::Player;

/// How long past its budget a program may take to answer before it is judged to hang.
const GRACE: Duration = Duration::from_secs(5);

/// How often, and how long apart, a program whose pipe closed is checked for its exit.
const CRASH_POLLS: u32 = 50;
const CRASH_POLL: Duration = Duration::from_millis(10);

/// A running program.
pub struct External {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
    /// The nodes of the last `info` line of the last search.
    last_nodes: Option<u64>,
}

impl External {
    /// Starts `command` (a program and its arguments, split on spaces) and greets it.
    pub fn start(command: &str) -> Result<External, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("empty command")?;
        let mut command_line = Command::new(program);
        command_line
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // In a process group of its own, so that Ctrl-C at the terminal reaches only the
        // match, which then stops its players itself: a game cut short by a killed program
        // would otherwise count as that program's loss.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command_line, 0);
        let mut child = command_line
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout: ChildStdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        // A reader thread, so that a silent program can be timed out.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut ext = External {
            command: command.to_owned(),
            child,
            stdin,
            lines,
            name: command.to_owned(),
            last_nodes: None,
        };
        ext.send("pei")?;
        loop {
            let line = ext.receive(GRACE)?;
            if let Some(name) = line.strip_prefix("id name ") {
                ext.name = name.trim().to_owned();
            }
            if line.trim() == "peiok" {
                break;
            }
        }
        Ok(ext)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        match writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) => Err(self
                .crash()
                .unwrap_or_else(|| format!("`{}` stopped reading: {e}", self.command))),
        }
    }

    fn receive(&mut self, wait: Duration) -> Result<String, String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!("`{}` did not answer", self.command)),
            Err(RecvTimeoutError::Disconnected) => Err(self
                .crash()
                .unwrap_or_else(|| format!("`{}` closed its output", self.command))),
        }
    }

    /// The report of the program's exit, when it has ended or ends within a moment: a
    /// closed pipe is seen a little before the exit is.
    fn crash(&mut self) -> Option<String> {
        for _ in 0..CRASH_POLLS {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(format!("`{}` crashed ({status})", self.command));
            }
            std::thread::sleep(CRASH_POLL);
        }
        None
    }
}

impl Player for External {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        // A program that crashed lost its game; it gets a fresh start for the next one.
        if matches!(self.child.try_wait(), Ok(Some(_)))
            && let Ok(fresh) = External::start(&self.command)
        {
            *self = fresh;
        }
        let _ = self.send("newgame");
    }

    fn choose(&mut self, game: &Game, limits: &SearchLimits) -> Result<Move, String> {
        let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
        let mut position = format!("position pos {}", game.start());
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        let mut go = "go".to_owned();
        let mut budget = GRACE;
        if let Some(t) = limits.movetime {
            go.push_str(&format!(" movetime {}", t.as_millis()));
            budget += t;
        }
        if let Some(n) = limits.nodes {
            go.push_str(&format!(" nodes {n}"));
            budget += Duration::from_secs(60);
        }
        if let Some(c) = limits.clock {
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                c.white.as_millis(),
                c.black.as_millis(),
                c.white_increment.as_millis(),
                c.black_increment.as_millis()
            ));
            budget += c.white.max(c.black);
        }
        self.send(&go)?;
        self.last_nodes = None;
        loop {
            let line = self.receive(budget)?;
            if line.starts_with("info ") {
                let mut words = line.split_whitespace();
                if words.any(|w| w == "nodes") {
                    self.last_nodes = words.next().and_then(|n| n.parse().ok());
                }
            }
            if let Some(answer) = line.strip_prefix("bestmove ") {
                // `bestmove <move> [ponder <reply>]`: the reply is not wanted here.
                let mv = answer.split_whitespace().next().unwrap_or("");
                return Move::parse(mv).map_err(|e| format!("bad bestmove: {e}"));
            }
            if let Some(e) = line.strip_prefix("error ") {
                return Err(format!("`{}` said: {e}", self.command));
            }
        }
    }

    fn last_nodes(&self) -> Option<u64> {
        self.last_nodes
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave on its own, then make sure.
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
