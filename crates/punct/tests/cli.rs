//! The `punct` command as a user runs it.

mod common;

use std::process::{Command, Stdio};

use common::{punct, stdout};

#[test]
fn perft_prints_the_total_last() {
    for variant in ["basic", "standard"] {
        let out = stdout(&punct(&["perft", "--variant", variant, "--depth", "1"], ""));
        assert_eq!(out, "4986\n");
    }
    let basic = stdout(&punct(&["perft", "--variant", "basic", "--depth", "2"], ""));
    assert_eq!(basic.lines().last(), Some("28499958"));
    let standard = stdout(&punct(&["perft", "--depth", "2"], ""));
    assert_eq!(standard.lines().last(), Some("23841810"));
}

#[test]
fn perft_divide_lists_each_move_then_the_total() {
    let out = stdout(&punct(&["perft", "--depth", "2", "--divide"], ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4987);
    assert_eq!(lines[4986], "23841810");
    let sum: u64 = lines[..4986]
        .iter()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 23841810);
    let mut sorted = lines[..4986].to_vec();
    sorted.sort();
    assert_eq!(
        sorted,
        lines[..4986],
        "divide lists moves in canonical order"
    );
}

#[test]
fn perft_from_a_position() {
    let pos = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";
    let out = stdout(&punct(&["perft", "--position", pos, "--depth", "1"], ""));
    let moves = stdout(&punct(&["moves", "--position", pos], ""));
    assert_eq!(out.trim(), moves.lines().count().to_string());
}

#[test]
fn moves_prints_the_canonical_list() {
    let out = stdout(&punct(&["moves", "--position", "standard w 0 -"], ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4986);
    assert!(lines.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(lines[0], "CA3:0");
}

#[test]
fn moves_reads_many_positions_from_standard_input() {
    // The second position is won: no move follows, so its line is empty.
    let won = "standard b 15 wTA8:5@1,wEB9:5@1,wEE9:5@1,wEH9:5@1,bTK5:0@1,wCL9:2@1,wCO9:2@1,wTQ10:2@1,wEH9:5@2";
    let input = format!("standard w 2 wEA5:3@1,bTK5:0@1\n{won}\nstandard w 0 -\n");
    let out = stdout(&punct(&["moves"], &input));
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines.len(), 4, "three lines and the final newline");
    assert!(lines[0].split(' ').any(|m| m == "A5-A5:4"));
    assert_eq!(lines[1], "");
    assert_eq!(lines[2].split(' ').count(), 4986);
}

#[test]
fn show_draws_the_board_and_the_status() {
    let pos = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";
    let out = stdout(&punct(&["show", "--position", pos], ""));
    assert!(out.starts_with(pos));
    assert!(out.contains("W2"), "{out}");
    assert!(out.contains("White  reserve: T×4"));
    assert!(out.contains("Black to move"));
}

#[test]
fn errors_go_to_standard_error_with_a_failing_status() {
    let bad = punct(&["moves", "--position", "standard w 0 wTA1:0@1"], "");
    assert!(!bad.status.success());
    assert!(bad.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no such cell `A1`"));
    // A bad line among many: the others are still answered, each on its own line.
    let bad_line = punct(&["moves"], "standard w 0 -\nnonsense\nstandard w 0 -\n");
    assert!(!bad_line.status.success());
    assert!(String::from_utf8_lossy(&bad_line.stderr).contains("line 2"));
    let lines: Vec<String> = String::from_utf8_lossy(&bad_line.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], "");
    assert_eq!(lines[0], lines[2]);
    assert_eq!(lines[2].split(' ').count(), 4986);
}

/// The async runtime's worker threads of process `pid`, by their names in /proc.
fn runtime_workers(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .filter(|t| {
            let comm = t.as_ref().unwrap().path().join("comm");
            std::fs::read_to_string(comm).is_ok_and(|name| name.trim() == "tokio-rt-worker")
        })
        .count()
}

/// Starts `punct serve` with `args` on a free port and a fresh database, returns the number
/// of runtime workers once it serves, and stops it. A worker takes its name only once its
/// thread runs, so the count is read until it reaches `expected` (or 5 s pass), then once
/// more a moment later, so that a count above `expected` is seen too.
fn workers_of_serve(args: &[&str], expected: usize) -> usize {
    let dir = std::env::temp_dir().join(format!("punct-cli-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(format!("workers-{}.db", args.len()));
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["serve", "--addr", &addr, "--db", db.to_str().unwrap()])
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The server says where it serves once it listens; the runtime is built before that.
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert!(line.contains("serving on"), "{line}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while runtime_workers(child.id()) < expected && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    let workers = runtime_workers(child.id());
    child.kill().unwrap();
    child.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    workers
}

#[test]
#[cfg(target_os = "linux")]
fn serve_leaves_a_core_to_the_rest_unless_told_how_many_workers() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let all_but_one = (cores - 1).max(1);
    assert_eq!(workers_of_serve(&[], all_but_one), all_but_one);
    assert_eq!(workers_of_serve(&["--workers", "3"], 3), 3);
    let zero = punct(&["serve", "--workers", "0"], "");
    assert!(!zero.status.success());
    assert!(String::from_utf8_lossy(&zero.stderr).contains("invalid value '0' for '--workers"));
}

#[test]
fn serve_logs_json_lines_when_asked_and_refuses_other_formats() {
    let dir = std::env::temp_dir().join(format!("punct-cli-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("log.db");
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["serve", "--addr", &addr, "--db", db.to_str().unwrap()])
        .args(["--log-format", "json"])
        .env_remove("RUST_LOG")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut line,
    )
    .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(line.starts_with("{\"timestamp\":"), "{line}");
    assert!(line.contains("\"level\":\"INFO\""), "{line}");
    assert!(
        line.contains(&format!("\"message\":\"serving on http://{addr}\"")),
        "{line}"
    );
    let xml = punct(&["serve", "--log-format", "xml"], "");
    assert!(!xml.status.success());
    let said = String::from_utf8_lossy(&xml.stderr);
    assert!(said.contains("unknown log format `xml`"), "{said}");
}

#[test]
fn thread_counts_beyond_twice_the_cores_are_refused() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let too_many = (2 * cores + 1).to_string();
    for args in [
        ["play", "--threads", too_many.as_str()],
        ["serve", "--engine-threads", too_many.as_str()],
    ] {
        let out = punct(&args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("at most {} (twice its cores)", 2 * cores)),
            "{args:?}: {err}"
        );
    }
    let zero = punct(&["serve", "--engine-threads", "0"], "");
    assert!(!zero.status.success());
    assert!(
        String::from_utf8_lossy(&zero.stderr).contains("invalid value '0' for '--engine-threads")
    );
}

/// `punct engine` as a program that another program drives through pipes: commands written
/// when the test chooses, answers read as they come.
struct EngineProcess {
    child: std::process::Child,
    to: Option<std::process::ChildStdin>,
    from: std::sync::mpsc::Receiver<String>,
}

impl EngineProcess {
    fn start() -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_punct"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let to = child.stdin.take();
        let answers = child.stdout.take().unwrap();
        let (lines, from) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(answers)) {
                let Ok(line) = line else { return };
                if lines.send(line).is_err() {
                    return;
                }
            }
        });
        EngineProcess { child, to, from }
    }

    fn send(&mut self, text: &str) {
        use std::io::Write as _;
        let to = self.to.as_mut().unwrap();
        to.write_all(text.as_bytes()).unwrap();
        to.write_all(b"\n").unwrap();
        to.flush().unwrap();
    }

    /// The answers up to and with the first that starts with `prefix` (20 s at most).
    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let Ok(line) = self.from.recv_timeout(left) else {
                panic!("no `{prefix}` within 20 s: {lines:?}");
            };
            let last = line.starts_with(prefix);
            lines.push(line);
            if last {
                return lines;
            }
        }
    }

    /// The answers that come within `ms` milliseconds.
    fn within(&self, ms: u64) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
        let mut lines = Vec::new();
        while let Ok(line) = self
            .from
            .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
        {
            lines.push(line);
        }
        lines
    }

    /// The most memory the process has held, in kB (Linux).
    fn peak_memory_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Sends `quit` and checks that the program ends well.
    fn quit(mut self) {
        self.send("quit");
        drop(self.to.take());
        assert!(self.child.wait().unwrap().success());
    }
}

/// The move of a `bestmove` answer, and the reply it expects if it names one.
fn bestmove(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{line}");
    match words[..] {
        [_, mv] => (mv.to_owned(), None),
        [_, mv, "ponder", reply] => (mv.to_owned(), Some(reply.to_owned())),
        _ => panic!("not a bestmove answer: {line}"),
    }
}

/// Checks that `mv` is legal in the standard game after `moves`.
fn assert_legal_after(moves: &[&str], mv: &str) {
    let mut pos = punct_core::Position::new(punct_core::Variant::Standard);
    for m in moves {
        pos.play(punct_core::Move::parse(m).unwrap()).unwrap();
    }
    assert!(
        pos.is_legal(punct_core::Move::parse(mv).unwrap()),
        "{mv} after {moves:?}"
    );
}

#[test]
fn the_engine_over_a_pipe_waits_for_stop_or_ponderhit_at_every_level_below_the_search() {
    let mut engine = EngineProcess::start();
    for level in 1..=3 {
        engine.send(&format!("setoption name Level value {level}"));
        engine.send("position startpos moves TE4:0");
        for (go, word) in [("go infinite", "stop"), ("go ponder", "ponderhit")] {
            engine.send(go);
            engine.send("isready");
            let mut early = engine.until("readyok");
            early.extend(engine.within(300));
            assert!(
                !early.iter().any(|l| l.starts_with("bestmove")),
                "level {level} answered `{go}` before `{word}`: {early:?}"
            );
            engine.send(word);
            let (mv, _) = bestmove(engine.until("bestmove").last().unwrap());
            assert_legal_after(&["TE4:0"], &mv);
        }
    }
    engine.quit();
}

#[test]
fn the_engine_over_a_pipe_searches_no_position_it_was_not_sent() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves TE4:0");
    engine.send("position startpos moves TK5:0 TK5:0");
    let refused = engine.until("error");
    assert!(refused[0].contains("position refused"), "{refused:?}");
    engine.send("go nodes 20");
    let answer = engine.until("error");
    assert_eq!(
        answer,
        [
            "error no position: the last `position` was refused; send a valid `position` (or `newgame`) first"
        ]
    );
    engine.send("isready");
    assert_eq!(engine.until("readyok"), ["readyok"], "no bestmove came");
    engine.send("position startpos moves TK5:0");
    engine.send("go nodes 20");
    let (mv, _) = bestmove(engine.until("bestmove").last().unwrap());
    assert_legal_after(&["TK5:0"], &mv);
    engine.quit();
}

#[test]
fn the_engine_over_a_pipe_offers_what_a_uci_author_reaches_for() {
    let mut engine = EngineProcess::start();
    engine.send("pei");
    let options = engine.until("peiok");
    for line in [
        "option name Branching type spin default 40 min 4 max 128",
        "option name Ponder type check default false",
        "option name Widening type string default 9.7168 min 0 max 100",
    ] {
        assert!(options.contains(&line.to_owned()), "{line}: {options:?}");
    }
    engine.send("help");
    engine.send("isready");
    let help = engine.until("readyok").join("\n");
    assert!(
        help.contains("ponderhit") && help.contains("depth <d>"),
        "{help}"
    );
    // `go depth`: a playout budget, 2^d.
    engine.send("position startpos moves TE4:0");
    engine.send("go depth 8");
    let search = engine.until("bestmove");
    assert!(
        search.iter().any(|l| l.contains(" nodes 256 ")),
        "{search:?}"
    );
    // Pondering on the reply the search expects, then told it was played.
    let (mv, reply) = bestmove(search.last().unwrap());
    let reply = reply.expect("a ponder move");
    engine.send(&format!("position startpos moves TE4:0 {mv} {reply}"));
    engine.send("go ponder movetime 200");
    engine.send("isready");
    let mut pondering = engine.until("readyok");
    pondering.extend(engine.within(400));
    assert!(
        !pondering.iter().any(|l| l.starts_with("bestmove")),
        "{pondering:?}"
    );
    engine.send("ponderhit");
    bestmove(engine.until("bestmove").last().unwrap());
    // Mistakes each with their own message.
    engine.send("go movetime -5");
    assert_eq!(
        engine.until("error"),
        ["error `go movetime` takes a whole number of milliseconds, 0 or more, not `-5`"]
    );
    engine.send("uci");
    assert!(engine.until("error")[0].contains("handshake is `pei`"));
    engine.quit();
    let out = punct(&["engine", "--help"], "");
    let help = stdout(&out);
    for command in [
        "pei",
        "position startpos",
        "go [<limits>]",
        "ponderhit",
        "about one second",
    ] {
        assert!(help.contains(command), "{command}: {help}");
    }
}

#[test]
fn the_engine_over_a_pipe_reads_a_huge_line_in_bounded_memory_and_echoes_no_control_characters() {
    let mut engine = EngineProcess::start();
    engine.send("isready");
    engine.until("readyok");
    // 256 MiB on one line: refused by its length, kept in no buffer.
    let chunk = vec![b'x'; 1 << 20];
    {
        use std::io::Write as _;
        let to = engine.to.as_mut().unwrap();
        for _ in 0..256 {
            to.write_all(&chunk).unwrap();
        }
        to.write_all(b"\n").unwrap();
    }
    let refused = engine.until("error");
    assert_eq!(
        refused,
        [format!(
            "error input line 2 is {} bytes long, more than the 1048576 a line may have: it was not read",
            256 << 20
        )]
    );
    let peak = engine.peak_memory_kb();
    assert!(
        peak < 128 * 1024,
        "peak memory {peak} kB after a 256 MiB line"
    );
    // A long line within the bound is quoted by its start and its length.
    engine.send(&format!("go {}", "y".repeat(900_000)));
    let said = engine.until("error");
    assert_eq!(
        said,
        [format!(
            "error unknown `go` argument `{}…` (900000 bytes) (`help` lists them)",
            "y".repeat(40)
        )]
    );
    // Control characters come back escaped, never as the terminal would act on them.
    engine.send("\u{1b}]0;title\u{7}\u{1b}[2J");
    let said = engine.until("error");
    assert_eq!(
        said,
        ["error unknown command `\\u{1b}]0;title\\u{7}\\u{1b}[2J` (`help` lists the commands)"]
    );
    engine.quit();
}
