//! The engine protocol, driven through the real loop with in-memory input and output.

use std::io::Cursor;

use punct_core::{Move, Position, Variant};

fn session(input: &str) -> Vec<String> {
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
