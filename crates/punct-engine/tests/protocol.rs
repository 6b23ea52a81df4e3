//! The engine protocol, driven through the real loop with in-memory input and output.

use std::io::Cursor;

use punct_core::{Move, Position, Variant};

fn session(input: &str) -> Vec<String> {
    session_bytes(input.as_bytes())
}

fn session_bytes(input: &[u8]) -> Vec<String> {
    let out = punct_engine::protocol::run(Cursor::new(input.to_owned()), Vec::new()).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The moves of the `bestmove` answers, without their `ponder` parts.
fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|answer| answer.split_whitespace().next().unwrap_or(""))
        .collect()
}

#[test]
fn handshake() {
    let lines = session("pei\nisready\nquit\n");
    assert!(lines[0].starts_with("id name punct"));
    assert!(lines.iter().any(|l| l.starts_with("option name Level")));
    let ok = lines.iter().position(|l| l == "peiok").unwrap();
    assert_eq!(lines[ok + 1], "readyok");
}

#[test]
fn searches_and_answers_a_legal_move() {
    let lines = session("position startpos moves TE4:0\ngo movetime 100\nisready\n");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    let mut pos = Position::new(Variant::Standard);
    pos.play(Move::parse("TE4:0").unwrap()).unwrap();
    assert!(pos.is_legal(Move::parse(best[0]).unwrap()));
}

#[test]
fn isready_and_stop_during_an_infinite_search() {
    let lines = session("go infinite\nisready\nstop\nisready\n");
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(ready < best, "readyok comes while searching: {lines:?}");
    assert_eq!(bestmoves(&lines).len(), 1);
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn quit_ends_a_running_search() {
    let lines = session("go infinite\nquit\nisready\n");
    assert!(
        !lines.iter().any(|l| l == "readyok"),
        "nothing is read after quit"
    );
}

#[test]
fn malformed_input_is_reported_and_the_loop_goes_on() {
    let input = "frobnicate\ngo movetime\ngo sideways 3\nsetoption name Level value 99\n\
                 setoption bogus\nnewgame chess\nperft x\nposition pos standard w\nisready\n";
    let lines = session(input);
    let errors = lines.iter().filter(|l| l.starts_with("error ")).count();
    assert_eq!(errors, 8, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn after_a_refused_position_none_is_held_until_a_valid_one() {
    // The second `position` is refused: the first must not be searched in its place.
    let lines = session(
        "position startpos moves TE4:0\nposition startpos moves TK5:0 TK5:0\ngo nodes 10\n\
         show\nvalidmoves\nperft 1\nisready\nposition startpos moves TK5:0\ngo nodes 10\n",
    );
    assert_eq!(
        lines[0],
        "error move 2 of the list: illegal move TK5:0: a piece can only be placed on empty \
         board, and K5 is not empty (position refused: none is held until a valid `position`)",
        "{lines:?}"
    );
    let none = "error no position: the last `position` was refused; send a valid `position` \
                (or `newgame`) first";
    assert_eq!(lines[1..5], [none, none, none, none], "{lines:?}");
    assert_eq!(lines[5], "readyok");
    let best = bestmoves(&lines);
    assert_eq!(
        best.len(),
        1,
        "only the valid position is searched: {lines:?}"
    );
    let mut after_k5 = Position::new(Variant::Standard);
    after_k5.play(Move::parse("TK5:0").unwrap()).unwrap();
    assert!(after_k5.is_legal(Move::parse(best[0]).unwrap()));
    // A bad move text, or a bad position text, refuses the same way; `newgame` sets one.
    let lines = session("position startpos moves XX\ngo\nnewgame basic\nshow\n");
    assert!(
        lines[0].starts_with("error move 1 of the list: malformed move `XX`"),
        "{lines:?}"
    );
    assert_eq!(lines[1], none);
    assert_eq!(lines[2], "basic w 0 -");
}

#[test]
fn position_text_with_moves() {
    let lines = session(
        "position pos standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2 moves TB4:1\nshow\n",
    );
    assert!(lines[0].starts_with("standard w 6 "), "{lines:?}");
    assert!(lines.iter().any(|l| l == "status White to move"));
}

#[test]
fn validmoves_and_perft() {
    let lines = session("newgame basic\nvalidmoves\nperft 1\n");
    let pos = Position::new(Variant::Basic);
    assert_eq!(lines[0], pos.legal_move_texts().join(" "));
    assert_eq!(lines[1], pos.count_legal_moves().to_string());
}

#[test]
fn multipv_reports_several_lines() {
    let lines = session("setoption name MultiPV value 3\ngo nodes 300\n");
    assert!(lines.iter().any(|l| l.contains(" multipv 3 ")), "{lines:?}");
}

#[test]
fn a_finished_game_has_no_move() {
    // A position where White connects with its next move, and that move.
    let text = "basic w 10 bCC2:0@1,wEC7:1@1,wEF10:1@1,bEH8:3@1,wCH11:2@1,wCJ10:2@1,\
                bCJ12:0@1,bTK7:0@1,bEK8:5@1,wEN12:1@1";
    let mut pos = Position::from_text(text).unwrap();
    let win = pos
        .legal_moves()
        .into_iter()
        .find(|&mv| {
            let undo = pos.make(mv);
            let won = pos.decisive_outcome().is_some();
            pos.unmake(undo);
            won
        })
        .unwrap();
    let lines = session(&format!("position pos {text} moves {win}\ngo nodes 10\n"));
    assert_eq!(bestmoves(&lines), ["none"], "{lines:?}");
}

#[test]
fn a_line_that_is_not_utf8_is_an_error_and_the_session_goes_on() {
    let lines = session_bytes(b"isready\nposition startpos moves TE4:0 \xff\xfe\nshow\nisready\n");
    assert_eq!(lines[0], "readyok");
    assert_eq!(
        lines[1], "error input line 2 is not UTF-8 text",
        "{lines:?}"
    );
    assert_eq!(
        lines[2], "standard w 0 -",
        "the bad line changed nothing: {lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "readyok");
}

/// The `nodes` of the last `info` line before the first `bestmove`.
fn searched_nodes(lines: &[String]) -> u64 {
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let info = lines[..best]
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn commands_during_a_search_wait_for_its_bestmove() {
    let lines = session(
        "position startpos moves TE4:0\ngo nodes 400\nposition startpos\nsetoption name MultiPV value 2\n\
         show\ngo nodes 50\n",
    );
    assert_eq!(
        searched_nodes(&lines),
        400,
        "the search ran to its end: {lines:?}"
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 2, "the waiting `go` ran after: {lines:?}");
    let mut after_e4 = Position::new(Variant::Standard);
    after_e4.play(Move::parse("TE4:0").unwrap()).unwrap();
    assert!(after_e4.is_legal(Move::parse(best[0]).unwrap()));
    let first_best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let shown = lines.iter().position(|l| l == "standard w 0 -").unwrap();
    assert!(
        first_best < shown,
        "`show` waited and saw the new position: {lines:?}"
    );
    assert!(
        lines[shown..].iter().any(|l| l.contains(" multipv 2 ")),
        "the option applied to the second search: {lines:?}"
    );
}

#[test]
fn isready_is_answered_at_once_during_a_search() {
    let lines = session("go nodes 300\nisready\n");
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(ready < best, "{lines:?}");
}

#[test]
fn the_end_of_input_stops_an_infinite_search_and_runs_what_waits() {
    let lines = session("go infinite\ngo nodes 20\nisready\n");
    assert_eq!(bestmoves(&lines).len(), 2, "{lines:?}");
}

#[test]
fn perft_can_be_stopped_and_is_bounded() {
    // Depth 4 from the start is days of counting: only `stop` ends it.
    let lines = session("perft 4\nisready\nstop\nisready\n");
    assert_eq!(
        lines,
        ["readyok", "info string perft stopped", "readyok"],
        "{lines:?}"
    );
    let lines = session("perft 4\nquit\n");
    assert_eq!(lines, ["info string perft stopped"]);
    let lines = session("perft 5\n");
    assert_eq!(lines, ["error perft depth must be 0 to 4, not `5`"]);
}

#[test]
fn perft_counts_as_the_core_does() {
    let text = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";
    let lines = session(&format!("position pos {text}\nperft 2\n"));
    let pos = Position::from_text(text).unwrap();
    assert_eq!(lines, [punct_core::perft(&pos, 2).to_string()]);
}

#[test]
fn the_policy_options_choose_the_priors_and_refuse_bad_values() {
    let lines = session(
        "setoption name Policy value learned\nsetoption name PolicyShortlist value 0\n\
         position startpos moves TE4:0\ngo nodes 100\nsetoption name Policy value alphazero\n\
         setoption name PolicyShortlist value 401\nisready\n",
    );
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 1, "{lines:?}");
    let mut pos = Position::new(Variant::Standard);
    pos.play(Move::parse("TE4:0").unwrap()).unwrap();
    assert!(pos.is_legal(Move::parse(moves[0]).unwrap()), "{lines:?}");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(errors[0].contains("Policy must be handset or learned"));
    assert!(errors[1].contains("PolicyShortlist must be 0 to 400"));
}

#[test]
fn every_level_is_offered_and_plays_and_others_are_refused() {
    let lines = session("pei\n");
    assert!(
        lines.contains(&"option name Level type spin default 9 min 1 max 9".to_owned()),
        "{lines:?}"
    );
    let mut input = String::from("setoption name Level value 0\nsetoption name Level value 10\n");
    for level in 1..=9 {
        input.push_str(&format!(
            "setoption name Level value {level}\nposition startpos\ngo nodes 30\n"
        ));
    }
    let lines = session(&input);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(
        errors,
        [
            "error Level must be 1 to 9, not `0`",
            "error Level must be 1 to 9, not `10`"
        ],
        "{lines:?}"
    );
    let start = Position::new(Variant::Standard);
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 9, "{lines:?}");
    for mv in moves {
        assert!(start.is_legal(Move::parse(mv).unwrap()), "{mv}");
    }
}

#[test]
fn threads_are_offered_set_and_bounded() {
    let most = 2 * std::thread::available_parallelism().map_or(1, usize::from);
    let lines = session("pei\n");
    let offered = format!("option name Threads type spin default 1 min 1 max {most}");
    assert!(lines.contains(&offered), "{lines:?}");
    for bad in [
        "0".to_owned(),
        (most + 1).to_string(),
        "two".to_owned(),
        String::new(),
    ] {
        let lines = session(&format!("setoption name Threads value {bad}\nisready\n"));
        assert!(
            lines[0].starts_with("error Threads must be 1 to"),
            "{bad}: {lines:?}"
        );
        assert_eq!(lines[1], "readyok");
    }
    let lines = session(
        "setoption name Threads value 2\nposition startpos moves TE4:0\ngo nodes 300\nisready\n",
    );
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    assert_eq!(searched_nodes(&lines), 300);
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    let mut pos = Position::new(Variant::Standard);
    pos.play(Move::parse("TE4:0").unwrap()).unwrap();
    assert!(pos.is_legal(Move::parse(best[0]).unwrap()));
}

/// A session driven line by line through pipes, as a program on the other side drives it:
/// commands are sent when the test chooses, and the answers read as they come.
struct Live {
    to: Option<std::io::PipeWriter>,
    from: std::sync::mpsc::Receiver<String>,
    session: Option<std::thread::JoinHandle<()>>,
}

impl Live {
    fn start() -> Live {
        let (input, to) = std::io::pipe().unwrap();
        let (answers, output) = std::io::pipe().unwrap();
        let session = std::thread::spawn(move || {
            punct_engine::protocol::run(std::io::BufReader::new(input), output).unwrap();
        });
        let (lines, from) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(answers)) {
                let Ok(line) = line else { return };
                if lines.send(line).is_err() {
                    return;
                }
            }
        });
        Live {
            to: Some(to),
            from,
            session: Some(session),
        }
    }

    fn send(&mut self, line: &str) {
        use std::io::Write as _;
        writeln!(self.to.as_mut().unwrap(), "{line}").unwrap();
    }

    /// The lines up to and with the first that starts with `prefix` (20 s at most).
    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.from.recv_timeout(left) {
                Ok(line) => {
                    let last = line.starts_with(prefix);
                    lines.push(line);
                    if last {
                        return lines;
                    }
                }
                Err(_) => panic!("no `{prefix}` within 20 s: {lines:?}"),
            }
        }
    }

    /// The lines that come within `ms` milliseconds.
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
}

impl Drop for Live {
    fn drop(&mut self) {
        // The end of the input ends the session.
        drop(self.to.take());
        if let Some(session) = self.session.take() {
            let _ = session.join();
        }
    }
}

#[test]
fn go_infinite_answers_only_after_stop_at_every_level() {
    for level in 1..=9 {
        let mut live = Live::start();
        live.send(&format!("setoption name Level value {level}"));
        live.send("position startpos moves TE4:0");
        live.send("go infinite");
        live.send("isready");
        let before = live.until("readyok");
        // Levels 1-3 choose at once, 4-8 after a few playouts: still they wait.
        let waited = live.within(200);
        assert!(
            !before
                .iter()
                .chain(&waited)
                .any(|l| l.starts_with("bestmove")),
            "level {level} answered before stop: {before:?} {waited:?}"
        );
        live.send("stop");
        let answer = live.until("bestmove");
        let best = bestmoves(&answer);
        let mut pos = Position::new(Variant::Standard);
        pos.play(Move::parse("TE4:0").unwrap()).unwrap();
        assert!(pos.is_legal(Move::parse(best[0]).unwrap()), "level {level}");
        // `quit` answers a held search too.
        live.send("go infinite");
        live.send("quit");
        assert_eq!(bestmoves(&live.until("bestmove")).len(), 1, "level {level}");
    }
}

#[test]
fn go_ponder_waits_for_ponderhit_then_thinks_within_its_limits() {
    // A level that chooses at once: ponderhit answers with that move at once.
    let mut live = Live::start();
    live.send("setoption name Level value 2");
    live.send("position startpos moves TE4:0 TK5:0");
    live.send("go ponder movetime 100");
    live.send("isready");
    live.until("readyok");
    assert!(!live.within(200).iter().any(|l| l.starts_with("bestmove")));
    live.send("ponderhit");
    assert_eq!(bestmoves(&live.until("bestmove")).len(), 1);
    // A second ponderhit has no search to go on with.
    live.send("ponderhit");
    assert!(live.until("error")[0].contains("`ponderhit` with no `go ponder` thinking"));

    // Full strength: it thinks on, then searches its 30 playouts after ponderhit.
    let mut live = Live::start();
    live.send("position startpos moves TE4:0");
    live.send("go ponder nodes 30");
    live.send("isready");
    live.until("readyok");
    assert!(!live.within(700).iter().any(|l| l.starts_with("bestmove")));
    live.send("ponderhit");
    let answer = live.until("bestmove");
    assert_eq!(searched_nodes(&answer), 30, "{answer:?}");
    let words: Vec<&str> = answer.last().unwrap().split_whitespace().collect();
    assert_eq!(words.len(), 4, "bestmove <move> ponder <reply>: {words:?}");
    assert_eq!(words[2], "ponder");
    let mut pos = Position::new(Variant::Standard);
    for mv in ["TE4:0", words[1]] {
        pos.play(Move::parse(mv).unwrap()).unwrap();
    }
    assert!(pos.is_legal(Move::parse(words[3]).unwrap()), "{words:?}");

    // `stop` instead of ponderhit answers at once.
    live.send("go ponder movetime 60000");
    live.send("isready");
    live.until("readyok");
    live.send("stop");
    assert_eq!(bestmoves(&live.until("bestmove")).len(), 1);
}

#[test]
fn a_search_answers_with_the_reply_it_expects_and_depth_bounds_its_playouts() {
    let lines = session("position startpos moves TE4:0\ngo depth 8\n");
    assert_eq!(
        searched_nodes(&lines),
        256,
        "depth 8 is 2^8 playouts: {lines:?}"
    );
    let answer = lines.last().unwrap();
    assert!(
        answer.starts_with("bestmove ") && answer.contains(" ponder "),
        "{answer}"
    );
    let lines = session("go depth 8 nodes 100\n");
    assert_eq!(searched_nodes(&lines), 100, "the smaller budget: {lines:?}");
    // A clock shared among the moves to go, and `go ponder` and `go movetime -5` each
    // with its own message.
    let lines = session(
        "go wtime 2000 btime 2000 movestogo 40\ngo ponder 5\ngo movetime -5\ngo movetime\n",
    );
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(
        errors,
        [
            "error unknown `go` argument `5` (`help` lists them)",
            "error `go movetime` takes a whole number of milliseconds, 0 or more, not `-5`",
            "error `go movetime` needs a number of milliseconds after it",
        ]
    );
}

#[test]
fn whole_number_options_are_spins_and_the_others_say_their_range() {
    let lines = session("pei\n");
    for line in [
        "option name Branching type spin default 40 min 4 max 128",
        "option name RefineAt type spin default 2 min 0 max 1000",
        "option name ThreatsAtLeaves type spin default 0 min 0 max 1",
        "option name Exploration type string default 1.175 min 0.05 max 10",
        "option name Ponder type check default false",
        "option name Seed type spin default 24301 min 0 max 4294967295",
    ] {
        assert!(lines.contains(&line.to_owned()), "{line}: {lines:?}");
    }
    let lines = session(
        "setoption name Branching value 4.5\nsetoption name Branching value 129\n\
         setoption name Branching value 48\nsetoption name Exploration value 1.5\n\
         setoption name Ponder value true\nsetoption name Ponder value maybe\ngo nodes 20\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(
        errors,
        [
            "error Branching must be a whole number 4 to 128, not `4.5`",
            "error Branching must be 4 to 128, not 129",
            "error Ponder must be true or false, not `maybe`",
        ],
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn help_lists_every_command() {
    let lines = session("help\nisready\n");
    assert_eq!(lines.last().unwrap(), "readyok");
    let text = lines.join("\n");
    for command in [
        "pei",
        "isready",
        "setoption",
        "newgame",
        "position startpos",
        "position pos",
        "go",
        "movetime",
        "nodes",
        "depth",
        "wtime",
        "movestogo",
        "infinite",
        "ponder",
        "ponderhit",
        "stop",
        "quit",
        "validmoves",
        "perft",
        "show",
        "help",
        "about one second",
    ] {
        assert!(text.contains(command), "{command}: {text}");
    }
    assert_eq!(
        lines[..lines.len() - 1].join("\n"),
        punct_engine::protocol::COMMANDS
    );
}

#[test]
fn long_lines_and_control_characters_are_not_echoed_back() {
    let mut input = format!("frob{}\n", "x".repeat(600_000)).into_bytes();
    input.extend(vec![b'y'; 10 << 20]);
    input.extend_from_slice(b"\n\x1b[2J\x07bell\nposition startpos moves TE4:0\x1b[31m\nisready\n");
    let lines = session_bytes(&input);
    assert_eq!(
        lines[0],
        format!(
            "error unknown command `frob{}…` (600004 bytes) (`help` lists the commands)",
            "x".repeat(36)
        )
    );
    assert_eq!(
        lines[1],
        format!(
            "error input line 2 is {} bytes long, more than the {} a line may have: it was not read",
            10 << 20,
            punct_engine::protocol::LONGEST_LINE
        )
    );
    assert_eq!(
        lines[2],
        "error unknown command `\\u{1b}[2J\\u{7}bell` (`help` lists the commands)"
    );
    assert!(
        lines[3].starts_with("error move 1 of the list: malformed move `TE4:0\\u{1b}[31m`"),
        "{lines:?}"
    );
    assert_eq!(lines[4], "readyok");
    assert!(
        lines
            .iter()
            .all(|l| l.len() < 500 && !l.chars().any(char::is_control))
    );
}

#[test]
fn a_stop_after_a_bestmove_and_a_new_go_stops_the_new_search() {
    // A program that has read `bestmove` sends the next `go` and its `stop` at once: the
    // `stop` is for the new search, however late the session hears that the old one ended.
    let mut live = Live::start();
    live.send("setoption name Level value 1");
    for _ in 0..300 {
        live.send("go nodes 1");
        live.until("bestmove");
        live.send("go infinite");
        live.send("stop");
        live.until("bestmove");
    }
}
