//! A panic while the full-screen program runs gives the terminal back before its message is
//! printed: checked in a real terminal, tmux, where this test runs itself again as the
//! program. Skipped, with a message, when tmux is not installed.

use std::process::Command;
use std::time::{Duration, Instant};

use punct_tui::Screen;
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::widgets::Paragraph;

/// Set in the copy of this test that plays the program inside tmux.
const CHILD: &str = "PUNCT_TUI_PANIC_CHILD";

/// A screen that panics at the first key, standing for a bug anywhere in the program.
struct Bomb;

impl Screen for Bomb {
    fn draw(&self, frame: &mut Frame) {
        frame.render_widget(Paragraph::new("BOMB READY"), frame.area());
    }

    fn key(&mut self, _: KeyEvent) {
        panic!("a bug, on purpose");
    }

    fn tick(&mut self) {}

    fn is_done(&self) -> bool {
        false
    }
}

fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .arg("-L")
        .arg(socket)
        .args(args)
        .output()
        .expect("tmux runs");
    assert!(out.status.success(), "tmux {args:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Kills the tmux server of the test when dropped, also when the test fails.
struct Server(String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .output();
    }
}

fn wait_until(socket: &str, what: &str, test: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let screen = tmux(socket, &["capture-pane", "-p", "-t", "panic"]);
        if test(&screen) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; the screen is:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_panic_gives_the_terminal_back() {
    if std::env::var_os(CHILD).is_some() {
        // The program inside tmux: this panics, and the test harness reports the failure.
        let _ = punct_tui::run(&mut Bomb);
        return;
    }
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed (apt-get install -y tmux)");
        return;
    }
    let me = std::env::current_exe().unwrap();
    let socket = format!("punct-panic-{}", std::process::id());
    let script = format!(
        "RUST_BACKTRACE=0 {CHILD}=1 '{}' --exact a_panic_gives_the_terminal_back --nocapture; \
         echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -e '-*icanon' -e '-*echo' \
         | tr '\\n' ' '; echo; sleep 60",
        me.display()
    );
    tmux(
        &socket,
        &[
            "new-session",
            "-d",
            "-s",
            "panic",
            "-x",
            "80",
            "-y",
            "24",
            "sh",
            "-c",
            &script,
        ],
    );
    let _server = Server(socket.clone());
    wait_until(&socket, "the program", |s| s.contains("BOMB READY"));
    tmux(&socket, &["send-keys", "-t", "panic", "x"]);
    let screen = wait_until(&socket, "the exit", |s| {
        s.contains("EXIT=") && s.contains("icanon")
    });
    assert!(screen.contains("a bug, on purpose"), "{screen}");
    assert!(!screen.contains("EXIT=0"), "{screen}");
    assert!(
        screen.contains("icanon echo") && !screen.contains("-icanon"),
        "the terminal was left in raw mode:\n{screen}"
    );
    assert!(
        !screen.contains("BOMB READY"),
        "the alternate screen was not left:\n{screen}"
    );
}
