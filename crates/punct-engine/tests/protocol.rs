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

fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
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
fn an_illegal_move_leaves_the_position_unchanged() {
    let lines =
        session("position startpos moves TE4:0\nposition startpos moves TE4:0 TE4:0\nshow\n");
    assert!(
        lines.iter().any(|l| l.starts_with("error illegal move")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"standard b 1 wTE4:0@1".to_owned()),
        "{lines:?}"
    );
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
