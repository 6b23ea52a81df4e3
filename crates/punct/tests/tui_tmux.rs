//! End to end: `punct play` and `punct review` driven in a real terminal, tmux, the way a
//! person would: keys in with send-keys, the screen read back with capture-pane.
//!
//! Skipped, with a message, when tmux is not installed.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::server::{Server, account_with_token, http};

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A server with one 80×24 window running `command` through `sh` in `dir`; the shell
    /// prints the exit status and the terminal's line settings afterwards and keeps the
    /// window open, so the test can see both that the program ended cleanly and that the
    /// terminal was given back.
    fn start(name: &str, dir: &Path, command: &str) -> Tmux {
        // `stty -a` lists `icanon` and `echo` when the terminal is back in its normal mode,
        // `-icanon` and `-echo` while it is still raw; `stty -g` before and after compares
        // every setting.
        let script = format!(
            "before=$(stty -g); {command}; echo EXIT=$?; \
             if [ \"$(stty -g)\" = \"$before\" ]; then echo STTY=same; else echo STTY=changed; fi; \
             stty -a | tr ' ' '\\n' | grep -x -e '-*icanon' -e '-*echo' | tr '\\n' ' '; echo; \
             sleep 60"
        );
        Tmux::session(name, dir, &["sh", "-c", &script])
    }

    /// A server with one 80×24 window running an interactive shell in `dir`, with job
    /// control as a person's shell has it; commands are typed into it.
    fn shell(name: &str, dir: &Path) -> Tmux {
        Tmux::session(name, dir, &["bash", "--norc", "--noprofile", "-i"])
    }

    /// A server of our own with one 80×24 window running `program` in `dir`.
    fn session(name: &str, dir: &Path, program: &[&str]) -> Tmux {
        let tmux = Tmux {
            socket: format!("punct-e2e-{}-{name}", std::process::id()),
        };
        let dir = dir.to_str().unwrap();
        let mut args = vec![
            "new-session",
            "-d",
            "-s",
            "e2e",
            "-x",
            "80",
            "-y",
            "24",
            "-c",
            dir,
        ];
        args.extend_from_slice(program);
        tmux.run(&args);
        tmux
    }

    /// Types `line` into the shell and presses Enter.
    fn command(&self, line: &str) {
        self.type_text(line);
        self.keys(&["Enter"]);
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Presses keys given by tmux's key names (`Left`, `Enter`, `C-u`, `T`).
    fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", "-t", "e2e", key]);
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Types text literally.
    fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", "e2e", "-l", text]);
        std::thread::sleep(Duration::from_millis(40));
    }

    fn resize(&self, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        self.run(&["resize-window", "-t", "e2e", "-x", &w, "-y", &h]);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "e2e"])
    }

    /// Waits until the screen shows `needle`, and returns the screen.
    fn wait_for(&self, needle: &str) -> String {
        self.wait_until(&format!("`{needle}`"), |screen| screen.contains(needle))
    }

    /// Waits for the program to end, and checks that it ended well and gave the terminal
    /// back: out of the alternate screen (`gone` no longer shown) and out of raw mode.
    fn expect_exit(&self, status: &str, gone: &str) -> String {
        let screen = self.wait_until("the exit status and terminal mode", |screen| {
            screen.contains("EXIT=") && screen.contains("icanon")
        });
        assert!(screen.contains(&format!("EXIT={status}")), "{screen}");
        assert!(
            screen.contains("icanon echo") && !screen.contains("-icanon"),
            "the terminal was left in raw mode:\n{screen}"
        );
        assert!(
            screen.contains("STTY=same"),
            "the terminal's settings differ from before:\n{screen}"
        );
        assert!(
            !screen.contains(gone),
            "the terminal was not restored:\n{screen}"
        );
        screen
    }

    /// The process id of the program the window's shell runs.
    fn program_pid(&self) -> String {
        let shell = self.run(&["display-message", "-p", "-t", "e2e", "#{pane_pid}"]);
        let shell = shell.trim();
        // The fourth field of /proc/PID/stat is the parent's id; the second, the name in
        // parentheses, has no spaces here.
        let children: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|entry| {
                let pid = entry.ok()?.file_name().into_string().ok()?;
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let fields: Vec<&str> = stat.split_whitespace().collect();
                (fields.get(1) == Some(&"(punct)") && fields.get(3) == Some(&shell)).then_some(pid)
            })
            .collect();
        assert_eq!(children.len(), 1, "the program under the shell {shell}");
        children[0].clone()
    }

    /// Sends `signal` (such as `TERM`) to the program, as `kill` from another shell does.
    fn signal(&self, signal: &str) {
        let pid = self.program_pid();
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(&pid)
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} {pid}");
    }

    /// Waits until the screen passes `test` (described by `what`), and returns the screen.
    fn wait_until(&self, what: &str, test: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
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
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// Whether tmux is missing, in which case the test says it is skipped.
fn tmux_missing() -> bool {
    let missing = Command::new("tmux").arg("-V").output().is_err();
    if missing {
        eprintln!(
            "SKIPPED: tmux is not installed (apt-get install -y tmux) — the terminal UI was not driven"
        );
    }
    missing
}

/// A directory of its own for one test's files.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-e2e-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The character drawn for `cell` (such as `E4`) on the compact board of an 80×24 screen.
fn compact_cell(screen: &str, cell: &str) -> char {
    let column = i32::from(cell.as_bytes()[0] - b'A');
    let row: i32 = cell[1..].parse::<i32>().unwrap() - 1;
    // As the board widget lays it out: three columns of row numbers, then a half cell per
    // step of 2·column − row.
    let x = 3 + 2 * column - row + 7;
    let line = screen.lines().nth((16 - row) as usize).unwrap_or("");
    line.chars().nth(x as usize).unwrap_or(' ')
}

/// The parameters of every SGR escape sequence (`ESC [ 1 ; 4 m`) in `styled`.
fn sgr_parameters(styled: &str) -> Vec<u16> {
    styled
        .split("\x1b[")
        .skip(1)
        .filter_map(|rest| rest.split_once('m'))
        .flat_map(|(codes, _)| codes.split(';').filter_map(|code| code.parse().ok()))
        .collect()
}

#[test]
fn play_against_the_computer_take_back_save_and_review() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = std::env::temp_dir().join(format!("punct-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.pgn");

    let play = Tmux::start(
        "play",
        &dir,
        &format!("{punct} play --level 1 --colour white --movetime 50"),
    );
    play.wait_for("to move · ply 0");

    // With the cursor: a triangle from the reserve (the cursor leaves the central hexagon
    // for E6), one step left, placed on D6.
    play.keys(&["T", "Left"]);
    play.wait_for("Placing T, rotation 0");
    play.wait_for("TD6:0: Enter plays it");
    play.keys(&["Enter"]);
    // The computer answers at once, so the screen may already show its move.
    play.wait_for("to move · ply 2");

    // A larger window gets the wide board, which names the owner of each dot (W1: White's
    // PÜNCT on level 1); a big one the large board, with a line between rows; back at 80×24
    // the compact board returns.
    play.resize(130, 30);
    play.wait_for("W1");
    play.resize(160, 50);
    let screen = play.wait_until("the large board", |screen| {
        let lines: Vec<&str> = screen.lines().collect();
        lines.len() >= 3
            && lines[0].contains("17  -")
            && lines[1].chars().take(60).all(|c| c == ' ')
    });
    assert!(screen.contains("W1"), "{screen}");
    play.resize(80, 24);
    play.wait_until("the compact board", |screen| !screen.contains("W1"));

    // By typed move text; one of these is free whatever the computer answered.
    let mut typed = None;
    for mv in ["TB5:0", "TO14:0", "TE12:0"] {
        play.keys(&["Escape"]);
        while play.screen().contains("Refused") {
            std::thread::sleep(Duration::from_millis(20));
        }
        play.keys(&[":"]);
        play.type_text(mv);
        play.keys(&["Enter"]);
        let deadline = Instant::now() + Duration::from_secs(20);
        let screen = loop {
            let screen = play.screen();
            if screen.contains("Refused") || screen.contains("ply 3") || screen.contains("ply 4") {
                break screen;
            }
            assert!(Instant::now() < deadline, "no answer to {mv}:\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        };
        if !screen.contains("Refused") {
            typed = Some(mv);
            break;
        }
    }
    let typed = typed.expect("one of the typed moves is legal");
    let screen = play.wait_for("to move · ply 4");
    assert!(screen.contains("Computer: level 1"), "{screen}");

    // An illegal typed move is refused with the reason.
    play.keys(&[":"]);
    play.type_text("TI9:0");
    play.keys(&["Enter"]);
    play.wait_for("central hexagon");

    // Takeback: the computer's answer and our move.
    play.keys(&["u"]);
    play.wait_for(&format!("took back {typed}"));
    play.wait_for("to move · ply 2");

    // Save, replacing the suggested file name.
    play.keys(&["s"]);
    play.wait_for("save as> punct-");
    play.keys(&["C-u"]);
    play.type_text(record.to_str().unwrap());
    play.keys(&["Enter"]);
    play.wait_for("saved to");
    play.keys(&["q"]);
    play.expect_exit("0", "PÜNCT · standard game");
    drop(play);

    let text = std::fs::read_to_string(&record).expect("the record was saved");
    assert!(text.contains("1. TD6:0 "), "{text}");
    assert!(text.contains("[Black \"punct level 1\"]"), "{text}");

    let review = Tmux::start(
        "review",
        &dir,
        &format!("{punct} review {} --movetime 100", record.display()),
    );
    review.wait_for("After move 2 of 2");
    review.keys(&["Left"]);
    review.wait_for("After move 1 of 2: TD6:0 by White");
    review.keys(&["a"]);
    review.wait_for("Best line: ");
    // The stack viewer starts on the piece moved last.
    review.keys(&["x"]);
    review.wait_for("Stack on D6, bottom to top:");
    review.wait_for("1 White T PÜNCT (TD6:0)");
    review.keys(&["Escape"]);
    // Ctrl-C quits cleanly too.
    review.keys(&["C-c"]);
    review.expect_exit("0", "PÜNCT review");
    drop(review);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_colours_the_compact_board_still_tells_the_owners_apart() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("mono");
    // NO_COLOR makes the terminal library leave out every colour, as a monochrome terminal
    // would show the screen; capture-pane without -e drops the remaining attributes too.
    let play = Tmux::start("mono", &dir, &format!("NO_COLOR=1 {punct} play --human"));
    play.wait_for("to move · ply 0");
    // White's triangle jumps onto its twin at E4 (level 2); Black has a T and an E at level 1.
    for mv in ["TE4:0", "TK5:0", "TE7:0", "EM12:3", "E7-E4:0"] {
        play.keys(&[":"]);
        play.type_text(mv);
        play.keys(&["Enter"]);
        play.wait_for(&format!("played {mv}"));
    }
    let screen = play.screen();
    for (cell, glyph) in [
        ("E4", '2'),
        ("E3", '2'),
        ("D3", '2'),
        ("K5", 'a'),
        ("K4", 'a'),
        ("J4", 'a'),
        ("M12", 'a'),
        ("E7", '.'),
    ] {
        assert_eq!(compact_cell(&screen, cell), glyph, "{cell} in\n{screen}");
    }
    // The list of keys explains them, and names the marks in a list, not in colours.
    play.keys(&["?"]);
    play.wait_for("White 1 2 3, Black a b c: top dot's level");
    play.wait_for("Marks, reversed or ▐ ▌ beside a dot:");
    play.wait_for("last move, targets, in hand, at cursor,");
    play.keys(&["Escape"]);
    play.wait_until("the board again", |screen| !screen.contains(" Keys "));
    // With escape sequences: no colour at all, and the PÜNCT dots still underlined.
    let styled = play.run(&["capture-pane", "-p", "-e", "-t", "e2e"]);
    let parameters = sgr_parameters(&styled);
    let colours: Vec<u16> = parameters
        .iter()
        .copied()
        .filter(|&p| matches!(p, 30..=38 | 40..=48 | 90..=97 | 100..=107))
        .collect();
    assert!(
        colours.is_empty(),
        "colour codes {colours:?} in\n{styled:?}"
    );
    assert!(
        parameters.contains(&4),
        "no underlined PÜNCT in\n{styled:?}"
    );
    // A piece in hand: its legal destinations, shown in colour by their background, are
    // reversed instead (SGR 7).
    play.keys(&["T"]);
    play.wait_for("Placing T, rotation 0");
    // Black's triangle in hand, at E6 where the cursor went: all three of its dots are
    // drawn, as Black's level-1 dots, where it would be placed.
    let screen = play.wait_for("TE6:0: Enter plays it");
    for cell in ["E6", "E5", "D5"] {
        assert_eq!(compact_cell(&screen, cell), 'a', "{cell} in\n{screen}");
    }
    let styled = play.run(&["capture-pane", "-p", "-e", "-t", "e2e"]);
    assert!(
        sgr_parameters(&styled).contains(&7),
        "the destinations are not shown in\n{styled:?}"
    );
    play.keys(&["Escape", "q", "q"]);
    play.expect_exit("0", "PÜNCT · standard game");
    drop(play);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_and_sighup_give_the_terminal_back() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("signals");
    // `kill` from another shell while the computer thinks: the shell sees the program
    // killed by SIGTERM (128 + 15), with the terminal as it was before.
    let play = Tmux::start(
        "sigterm",
        &dir,
        &format!("{punct} play --level 9 --colour black --movetime 60000"),
    );
    play.wait_for("Thinking");
    play.signal("TERM");
    play.expect_exit("143", "PÜNCT · standard game");
    drop(play);

    // A dropped connection: SIGHUP (128 + 1), here to the review of a saved game.
    let record = dir.join("short.pgn");
    std::fs::write(&record, "[Variant \"basic\"]\n\n1. TE4:0 TM12:0 *\n").unwrap();
    let review = Tmux::start(
        "sighup",
        &dir,
        &format!("{punct} review {}", record.display()),
    );
    review.wait_for("After move 2 of 2");
    review.signal("HUP");
    review.expect_exit("129", "PÜNCT review");
    drop(review);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reviewing_a_file_of_match_games_goes_from_game_to_game() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("match");
    let records = dir.join("match.pgn");
    let matched = Command::new(punct)
        .args([
            "match",
            "random",
            "greedy",
            "--games",
            "4",
            "--concurrency",
            "1",
        ])
        .args(["--movetime", "10", "--records"])
        .arg(&records)
        .output()
        .unwrap();
    assert!(matched.status.success(), "{matched:?}");
    let text = std::fs::read_to_string(&records).unwrap();
    let games = punct_core::Record::parse_all(&text).unwrap();
    assert_eq!(games.len(), 4);
    let players = |k: usize| {
        let tag = |name| games[k].tag(name).unwrap();
        format!("{} (White) – {} (Black)", tag("White"), tag("Black"))
    };

    let review = Tmux::start(
        "match",
        &dir,
        &format!("{punct} review {} --game 3", records.display()),
    );
    let moves = games[2].game.moves().len();
    review.wait_for("Game 3 of 4 · [ ] other games");
    review.wait_for(&players(2));
    review.wait_for(&format!("After move {moves} of {moves}"));
    review.keys(&["]"]);
    review.wait_for("Game 4 of 4");
    review.wait_for(&players(3));
    // No game after the last: still the fourth.
    review.keys(&["]", "Left"]);
    let moves = games[3].game.moves().len();
    let screen = review.wait_for(&format!("After move {} of {moves}", moves - 1));
    assert!(screen.contains("Game 4 of 4"), "{screen}");
    review.keys(&["[", "["]);
    review.wait_for("Game 2 of 4");
    review.wait_for(&players(1));
    review.keys(&["q"]);
    review.expect_exit("0", "PÜNCT review");
    drop(review);

    // A game the file does not hold, and a broken game further down: refused before the
    // screen opens, the second with the line in the whole file.
    let refused = |args: &[&str]| {
        let out = Command::new(punct).args(args).output().unwrap();
        assert!(!out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let path = records.to_str().unwrap();
    let error = refused(&["review", path, "--game", "9"]);
    assert!(
        error.contains("no game 9") && error.contains("holds 4 games"),
        "{error}"
    );
    let error = refused(&["review", path, "--game", "0"]);
    assert!(error.contains("--game"), "{error}");
    // A damaged game further down: the others open, and the screen names the one skipped
    // with the line of the whole file where it breaks.
    let lines = text.lines().count();
    let broken = dir.join("broken.pgn");
    std::fs::write(
        &broken,
        format!("{text}\n[Variant \"basic\"]\n\n1. TE4:0 TE4:0 *\n"),
    )
    .unwrap();
    let review = Tmux::start(
        "damaged",
        &dir,
        &format!("{punct} review {}", broken.display()),
    );
    review.wait_for("Game 1 of 5 · [ ] other games");
    review.wait_for(&players(0));
    review.wait_for(&format!("Skipped game 5: record line {}:", lines + 4));
    // The brackets pass over it: the fourth game is the last one shown.
    review.keys(&["]", "]", "]", "]"]);
    review.wait_for("Game 4 of 5");
    review.keys(&["]"]);
    review.wait_for(&players(3));
    assert!(review.screen().contains("Game 4 of 5"));
    review.keys(&["q"]);
    review.expect_exit("0", "PÜNCT review");
    drop(review);
    // Asked for by number, the damaged game is refused with the reason.
    let error = refused(&["review", broken.to_str().unwrap(), "--game", "5"]);
    assert!(
        error.contains("game 5")
            && error.contains("does not read")
            && error.contains(&format!("record line {}", lines + 4)),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_new_game_is_set_up_without_leaving_the_program() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("new-game");
    let play = Tmux::start(
        "new-game",
        &dir,
        &format!("{punct} play --human --movetime 50"),
    );
    play.wait_for("Two players at this keyboard");
    play.keys(&[":"]);
    play.type_text("TE4:0");
    play.keys(&["Enter"]);
    play.wait_for("to move · ply 1");

    // n opens the dialog over the board; Esc goes back to the game as it was.
    play.keys(&["n"]);
    play.wait_for("The game on the board is not saved");
    play.keys(&["Escape"]);
    play.wait_until("the dialog closed", |screen| !screen.contains("New game"));
    assert!(play.screen().contains("to move · ply 1"));

    // The computer at level 1, you with Black, the basic game: the computer opens at once.
    play.keys(&["n", "Right", "Down"]);
    play.wait_for("> Level");
    play.keys(&[
        "Left", "Left", "Left", "Left", "Down", "Right", "Down", "Right",
    ]);
    play.wait_for("< basic >");
    let dialog = play.screen();
    assert!(dialog.contains("< 1 > first steps"), "{dialog}");
    assert!(dialog.contains("< Black > the computer starts"), "{dialog}");
    play.keys(&["Enter"]);
    play.wait_for("PÜNCT · basic game");
    let screen = play.wait_for("Black  to move · ply 1");
    assert!(screen.contains("punct level 1"), "{screen}");
    // The new game has a move of the computer's, not saved: q twice.
    play.keys(&["q", "q"]);
    play.expect_exit("0", "PÜNCT · basic game");
    drop(play);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_resumes_the_game() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("suspend");
    let shell = Tmux::shell("suspend", &dir);
    shell.command(&format!("{punct} play --human"));
    shell.wait_for("to move · ply 0");
    shell.keys(&[":"]);
    shell.type_text("TE4:0");
    shell.keys(&["Enter"]);
    shell.wait_for("to move · ply 1");

    // The shell reports the program stopped, with the terminal out of raw mode (`stty -a`
    // lists `icanon`, not `-icanon`) and off the alternate screen.
    shell.keys(&["C-z"]);
    let screen = shell.wait_for("Stopped");
    assert!(!screen.contains("to move · ply 1"), "{screen}");
    shell.command("echo RAW=$(stty -a | grep -c -- -icanon)");
    shell.wait_for("RAW=0");

    // fg brings the game back as it was, and it goes on.
    shell.command("fg");
    shell.wait_for("to move · ply 1");
    shell.keys(&[":"]);
    shell.type_text("TM12:0");
    shell.keys(&["Enter"]);
    shell.wait_for("to move · ply 2");
    shell.keys(&["q", "q"]);
    shell.wait_until("the shell's prompt", |screen| !screen.contains("ply 2"));
    shell.command("echo EXIT=$?");
    shell.wait_for("EXIT=0");
    drop(shell);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` has ended (gone, or a zombie waiting to be reaped).
fn ended(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        // The state follows the name in parentheses.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
    })
}

/// Kills the tmux session, as closing the window or losing the SSH connection does, and
/// checks that the program ends within a second.
fn close_the_terminal(tmux: Tmux, doing: &str) {
    let pid = tmux.program_pid();
    let closed = Instant::now();
    tmux.run(&["kill-session", "-t", "e2e"]);
    while !ended(&pid) && closed.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = closed.elapsed();
    if !ended(&pid) {
        // Not left behind spinning after the test.
        let _ = Command::new("kill").args(["-KILL", &pid]).status();
        panic!("the program outlived its terminal {doing}");
    }
    assert!(
        took < Duration::from_secs(1),
        "the program took {took:?} to end after its terminal went away {doing}"
    );
}

#[test]
fn the_program_ends_when_its_terminal_goes_away() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("hangup");

    let idle = Tmux::start("hangup-idle", &dir, &format!("{punct} play --human"));
    idle.wait_for("to move · ply 0");
    close_the_terminal(idle, "while idle");

    let thinking = Tmux::start(
        "hangup-thinking",
        &dir,
        &format!("{punct} play --level 9 --colour black --movetime 60000"),
    );
    thinking.wait_for("Thinking");
    close_the_terminal(thinking, "while the computer thinks");

    let dialog = Tmux::start("hangup-dialog", &dir, &format!("{punct} play --human"));
    dialog.wait_for("to move · ply 0");
    dialog.keys(&["n"]);
    dialog.wait_for("New game");
    close_the_terminal(dialog, "with a dialog open");

    let prompt = Tmux::start("hangup-prompt", &dir, &format!("{punct} play --human"));
    prompt.wait_for("to move · ply 0");
    prompt.keys(&[":"]);
    prompt.wait_for("move> ");
    close_the_terminal(prompt, "with the text field open");

    let record = dir.join("short.pgn");
    std::fs::write(&record, "[Variant \"basic\"]\n\n1. TE4:0 TM12:0 *\n").unwrap();
    let review = Tmux::start(
        "hangup-review",
        &dir,
        &format!("{punct} review {} --movetime 60000", record.display()),
    );
    review.wait_for("After move 2 of 2");
    review.keys(&["a"]);
    review.wait_for("Analysing");
    close_the_terminal(review, "in the review, while the engine analyses");
    let _ = std::fs::remove_dir_all(&dir);
}

/// White's chain A8 … P8 P9 Q10 links column A to column Q with the last move, LP8:3.
const WHITE_CONNECTS: [&str; 11] = [
    "EA8:5", "TE3:0", "ED8:5", "TH3:0", "EG8:5", "TK5:0", "EJ8:5", "TL13:0", "CN8:2", "TH13:0",
    "LP8:3",
];

/// The basic game of `WHITE_CONNECTS` but its last move.
fn one_move_from_the_end() -> punct_core::Game {
    let mut game = punct_core::Game::new(punct_core::Variant::Basic);
    for mv in &WHITE_CONNECTS[..10] {
        game.play(punct_core::Move::parse(mv).unwrap()).unwrap();
    }
    game
}

#[test]
fn a_saved_game_and_a_position_are_played_on_to_the_end() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("resume");
    let record = dir.join("saved.pgn");
    let saved = punct_core::Record::from_game(one_move_from_the_end(), "Ada", "Bob", "2026.11.22");
    std::fs::write(&record, saved.to_string()).unwrap();

    // The record as `s` saved it, played on by two people: the last move wins, and saving
    // again replaces the file it came from.
    let play = Tmux::start(
        "resume",
        &dir,
        &format!("{punct} play --human --resume {}", record.display()),
    );
    play.wait_for("PÜNCT · basic game");
    play.wait_for("White  to move · ply 10");
    play.keys(&[":"]);
    play.type_text("LP8:3");
    play.keys(&["Enter"]);
    play.wait_for("Game over: White wins");
    play.keys(&["s"]);
    play.wait_for(&format!("save as> {}", record.display()));
    play.keys(&["Enter"]);
    play.wait_for("saved to");
    play.keys(&["q"]);
    play.expect_exit("0", "PÜNCT · basic game");
    drop(play);
    let text = std::fs::read_to_string(&record).unwrap();
    let replayed = punct_core::Record::parse(&text).unwrap();
    assert_eq!(replayed.game.moves().len(), 11, "{text}");
    assert_eq!(replayed.tag("Result"), Some("1-0"), "{text}");

    // Against the computer, which has White to move: it plays at once.
    std::fs::write(&record, saved.to_string()).unwrap();
    let play = Tmux::start(
        "resume-computer",
        &dir,
        &format!(
            "{punct} play --level 1 --colour black --movetime 50 --resume {}",
            record.display()
        ),
    );
    play.wait_for("punct level 1");
    play.wait_until("the computer's move", |screen| {
        screen.contains("ply 11") || screen.contains("Game over")
    });
    play.keys(&["q", "q"]);
    play.expect_exit("0", "PÜNCT · basic game");
    drop(play);

    // From a position text, the winning move typed in lower case.
    let position = one_move_from_the_end().position().to_string();
    let play = Tmux::start(
        "position",
        &dir,
        &format!("{punct} play --human --position '{position}'"),
    );
    play.wait_for("White  to move · ply 10");
    play.keys(&[":"]);
    play.type_text("lp8:3");
    play.keys(&["Enter"]);
    play.wait_for("Game over: White wins");
    play.keys(&["q", "q"]);
    play.expect_exit("0", "PÜNCT · basic game");
    drop(play);

    // What cannot be played on is refused before the screen opens, with the reason.
    let refused = |args: &[&str]| {
        let out = Command::new(punct).args(args).output().unwrap();
        assert!(!out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let path = record.to_str().unwrap();
    let error = refused(&["play", "--resume", path, "--game", "2"]);
    assert!(error.contains("no game 2"), "{error}");
    let error = refused(&["play", "--position", "standard x 0"]);
    assert!(error.contains("bad --position"), "{error}");
    let error = refused(&["play", "--resume", path, "--variant", "basic"]);
    assert!(error.contains("--variant"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn review_switches_into_play_from_the_shown_position() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("play-on");
    let record = dir.join("game.pgn");
    std::fs::write(
        &record,
        "[Variant \"standard\"]\n\n1. TE4:0 TM12:0 2. TD6:1 TK5:0 *\n",
    )
    .unwrap();
    let review = Tmux::start(
        "play-on",
        &dir,
        &format!("{punct} review {} --movetime 50", record.display()),
    );
    review.wait_for("After move 4 of 4");
    review.keys(&["Left", "Left"]);
    review.wait_for("After move 2 of 4");
    // p opens the dialog: the computer by default, here two people instead.
    review.keys(&["p"]);
    review.wait_for("Play on from here");
    review.wait_for("standard (the record's)");
    review.keys(&["Left", "Enter"]);
    review.wait_for("Two players at this keyboard");
    review.wait_for("White  to move · ply 2");
    review.keys(&[":"]);
    review.type_text("TB5:0");
    review.keys(&["Enter"]);
    review.wait_for("Black  to move · ply 3");
    // The record's moves before the position stay in the game: two take-backs reach TM12:0.
    review.keys(&["u", "u"]);
    review.wait_for("took back TM12:0");
    // q (twice: the game is not saved) goes back to the review, and q there quits.
    review.keys(&["q", "q"]);
    review.wait_for("After move 2 of 4");
    review.keys(&["q"]);
    review.expect_exit("0", "PÜNCT review");
    drop(review);
    let _ = std::fs::remove_dir_all(&dir);
}

/// How often `text` is on `screen`.
fn count(screen: &str, text: &str) -> usize {
    screen.matches(text).count()
}

/// Checks that `screen` shows the game played on from a review and nothing of the review.
fn only_the_game_played_on(screen: &str) {
    assert_eq!(count(screen, "Centre hexagon:"), 1, "one status:\n{screen}");
    assert_eq!(
        count(screen, "Reserve T C E L M R"),
        1,
        "one reserve table:\n{screen}"
    );
    for review_only in [
        "PÜNCT review",
        "After move",
        "Best line",
        "Analys",
        "a analyse",
    ] {
        assert!(
            !screen.contains(review_only),
            "`{review_only}` is left:\n{screen}"
        );
    }
}

#[test]
fn playing_on_from_a_review_draws_the_game_alone_and_q_comes_back() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("play-on-clean");
    let record = dir.join("won.pgn");
    let mut game = one_move_from_the_end();
    game.play(punct_core::Move::parse(WHITE_CONNECTS[10]).unwrap())
        .unwrap();
    let won = punct_core::Record::from_game(game, "Ada", "punct level 1", "2026.11.22");
    std::fs::write(&record, won.to_string()).unwrap();
    let review = Tmux::start(
        "play-on-clean",
        &dir,
        &format!("{punct} review {} --movetime 50", record.display()),
    );
    // At the end the game is over: p is not offered, and says why when pressed.
    let screen = review.wait_for("After move 11 of 11");
    assert!(!screen.contains("p play on"), "{screen}");
    review.keys(&["p"]);
    review.wait_for("Nothing to play on here: White wins by connection");
    assert!(!review.screen().contains("Play on from here"));
    // Two moves back, with the analysis shown, p offers the record's computer, level 1.
    review.keys(&["Left", "Left"]);
    let screen = review.wait_for("After move 9 of 11");
    assert!(screen.contains("p play on"), "{screen}");
    review.keys(&["a"]);
    review.wait_for("Best line: ");
    review.keys(&["p"]);
    review.wait_for("Play on from here");
    review.wait_for("< 1 > first steps");
    review.keys(&["Enter"]);
    let screen = review.wait_for("punct level 1");
    only_the_game_played_on(&screen);
    assert!(screen.contains("q review"), "{screen}");
    // A move, the computer's answer, Ctrl-L and resizes: still the game alone.
    let mut position = one_move_from_the_end();
    position.undo();
    let mv = position.position().legal_moves()[0];
    review.keys(&[":"]);
    review.type_text(&mv.to_string());
    review.keys(&["Enter"]);
    let screen = review.wait_until("the computer's move", |screen| {
        (screen.contains("ply 11") || screen.contains("Game over")) && !screen.contains("Thinking")
    });
    only_the_game_played_on(&screen);
    review.keys(&["C-l"]);
    std::thread::sleep(Duration::from_millis(200));
    let screen = review.screen();
    only_the_game_played_on(&screen);
    assert!(!screen.contains("does nothing"), "Ctrl-L redraws: {screen}");
    for (width, height) in [(120, 30), (64, 22), (80, 24)] {
        review.resize(width, height);
        std::thread::sleep(Duration::from_millis(300));
        only_the_game_played_on(&review.screen());
    }
    // q asks again (the game is not saved), then the review is back as it was.
    review.keys(&["q"]);
    review.wait_for("q again goes back to the review");
    review.keys(&["q"]);
    let screen = review.wait_for("After move 9 of 11");
    assert!(screen.contains("PÜNCT review"), "{screen}");
    assert_eq!(count(&screen, "Centre hexagon:"), 1, "{screen}");
    review.keys(&["q"]);
    review.expect_exit("0", "PÜNCT review");
    drop(review);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The moves of game `id` as its page sees it on the WebSocket (a watcher's `hello`, the
/// state that answers it).
fn moves_on_the_socket(server: &str, id: &str) -> Vec<String> {
    let url = format!("{}/api/games/{id}/ws", server.replace("http://", "ws://"));
    let (mut socket, _) = tungstenite::connect(url).unwrap();
    socket
        .send(tungstenite::Message::text(r#"{"type":"hello"}"#))
        .unwrap();
    loop {
        if let tungstenite::Message::Text(text) = socket.read().unwrap() {
            let message: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
            if message["type"] == "state" {
                return moves_of(&message["state"]);
            }
        }
    }
}

fn moves_of(state: &serde_json::Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// Waits until game `id`'s moves, as the other player's page reads them, are `expected`.
fn wait_for_moves(server: &str, id: &str, token: &str, expected: &[&str]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, state, _) = http(
            "GET",
            &format!("{server}/api/games/{id}"),
            &[("Authorization", &format!("Bearer {token}"))],
            None,
        );
        if status == 200 && moves_of(&state) == expected {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the game's moves are not {expected:?}: {status} {state}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_terminal_plays_a_correspondence_game_on_a_server_through_its_restart() {
    if tmux_missing() {
        return;
    }
    let punct = env!("CARGO_BIN_EXE_punct");
    let dir = scratch_dir("online");
    let config = dir.join("config");
    let server = Server::start(&dir.join("online.db"));
    let url = server.url();

    // Ada has an account and a token; she makes a correspondence game and Bob, without an
    // account, takes the other seat by the invitation, as the link in a browser does.
    let token = account_with_token(&url, "Ada");
    let (status, made, _) = http(
        "POST",
        &format!("{url}/api/games"),
        &[("Authorization", &format!("Bearer {token}"))],
        Some(serde_json::json!({"mode": "friend", "days": 3})),
    );
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let (status, joined, _) = http(
        "POST",
        &format!("{url}/api/games/{id}/join"),
        &[],
        Some(serde_json::json!({"invite": made["invite"], "name": "Bob"})),
    );
    assert_eq!(status, 200, "{joined}");
    let bob = joined["token"].as_str().unwrap().to_owned();
    let bob_moves = |text: &str| {
        let (status, state, _) = http(
            "POST",
            &format!("{url}/api/games/{id}/move"),
            &[("Authorization", &format!("Bearer {bob}"))],
            Some(serde_json::json!({ "move": text })),
        );
        assert_eq!(status, 200, "{state}");
    };

    // A wrong token is refused at login, in words; the right one is kept, readable by Ada
    // alone.
    let login = |token: &str| {
        Command::new(punct)
            .args(["login", "--server", &url, "--token", token])
            .env("XDG_CONFIG_HOME", &config)
            .output()
            .unwrap()
    };
    let wrong = login("punct_not_a_token");
    assert!(!wrong.status.success());
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(said.contains("does not accept this sign-in"), "{said}");
    let right = login(&token);
    assert!(
        right.status.success(),
        "{}",
        String::from_utf8_lossy(&right.stderr)
    );
    assert!(String::from_utf8_lossy(&right.stdout).contains("Signed in to"));
    let kept = config.join("punct").join("logins.json");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&kept).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);

    let term = Tmux::start(
        "online",
        &dir,
        &format!(
            "XDG_CONFIG_HOME={} {punct} play --server {url}",
            config.display()
        ),
    );
    let screen = term.wait_for("your turn");
    assert!(screen.contains("Bob"), "{screen}");
    term.keys(&["Enter"]);
    term.wait_for("connected");
    // Ada's move, typed in the terminal, is in the game as Bob's page sees it.
    term.keys(&[":"]);
    term.type_text("TE4:0");
    term.keys(&["Enter"]);
    wait_for_moves(&url, &id, &bob, &["TE4:0"]);
    assert_eq!(moves_on_the_socket(&url, &id), ["TE4:0"]);
    // Bob's move, made over HTTP, arrives on the board.
    bob_moves("TM12:0");
    term.wait_for("Bob played TM12:0");

    // The server goes down: the terminal says so and keeps the move typed meanwhile.
    let (addr, db) = server.kill();
    term.wait_for("connection lost");
    term.keys(&[":"]);
    term.type_text("TE7:0");
    term.keys(&["Enter"]);
    term.wait_for("sent once the connection");
    // Back up: the terminal reconnects, sends the move, and the game goes on.
    let server = Server::on(&addr, &db);
    wait_for_moves(&url, &id, &bob, &["TE4:0", "TM12:0", "TE7:0"]);
    term.wait_for("● connected");
    bob_moves("TE10:0");
    term.wait_for("Bob played TE10:0");
    let screen = term.screen();
    assert!(
        screen.contains("your turn") || screen.contains("ply 4"),
        "{screen}"
    );

    // q goes back to the list, q again quits.
    term.keys(&["q"]);
    term.wait_for("n new game");
    term.keys(&["q"]);
    term.expect_exit("0", "n new game");
    drop(term);
    drop(server);

    // A revoked or unknown sign-in is refused before the screen opens.
    let out = Command::new(punct)
        .args(["play", "--server", "http://127.0.0.1:9"])
        .env("XDG_CONFIG_HOME", &config)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("not signed in"));
    let _ = std::fs::remove_dir_all(&dir);
}
