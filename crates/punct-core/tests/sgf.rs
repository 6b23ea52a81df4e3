//! Boardspace.net's SGF records: the 22 records in `data/boardspace-sgf/` (written by
//! Boardspace's own code; see its README) give exactly the moves, players and results
//! listed in its `expected.tsv`, alone, as one multi-game file, and with damaged games
//! among them.

use std::path::PathBuf;

use punct_core::sgf::{looks_like_sgf, read_all};
use punct_core::{Record, Termination};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/boardspace-sgf")
}

/// One line of `expected.tsv`.
struct Expected {
    file: String,
    white: String,
    black: String,
    result: String,
    /// The termination's name, or `None` for the unfinished game.
    termination: Option<String>,
    moves: String,
    final_position: String,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(data_dir().join("expected.tsv")).unwrap();
    let rows: Vec<Expected> = text
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            // `resignation — resigned after 24 plies (derived)`, `none (game in progress)`.
            let how = f[7].split(" — ").next().unwrap();
            Expected {
                file: f[0].into(),
                white: f[4].into(),
                black: f[5].into(),
                result: f[6].into(),
                termination: (!how.starts_with("none")).then(|| how.into()),
                moves: f[9].into(),
                final_position: f[10].into(),
            }
        })
        .collect();
    assert_eq!(rows.len(), 22);
    rows
}

fn file(name: &str) -> String {
    std::fs::read_to_string(data_dir().join(name)).unwrap()
}

fn moves_of(record: &Record) -> String {
    let moves: Vec<String> = record.game.moves().iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}

/// Checks one record read against its line of `expected.tsv`.
fn check(record: &Record, want: &Expected) {
    let name = &want.file;
    assert_eq!(moves_of(record), want.moves, "{name}");
    assert_eq!(record.tag("White"), Some(want.white.as_str()), "{name}");
    assert_eq!(record.tag("Black"), Some(want.black.as_str()), "{name}");
    assert_eq!(record.tag("Result"), Some(want.result.as_str()), "{name}");
    assert_eq!(
        record.tag("Termination"),
        want.termination.as_deref(),
        "{name}"
    );
    assert_eq!(record.tag("Date"), Some("2026.11.25"), "{name}");
    assert_eq!(
        record.tag("GameName"),
        Some(name.trim_end_matches(".sgf")),
        "{name}"
    );
    // The data's final positions of finished games give the side to move as the side
    // that moved last (the tool that wrote them did not pass the turn after the ending
    // move); the rest of the text, pieces and ply, must match exactly.
    let position = record.game.position().to_string();
    if record.game.outcome().is_some() && want.termination.as_deref() != Some("resignation") {
        let strip_side = |p: &str| {
            let mut words: Vec<&str> = p.splitn(3, ' ').collect();
            words.remove(1);
            words.join(" ")
        };
        assert_eq!(
            strip_side(&position),
            strip_side(&want.final_position),
            "{name}"
        );
    } else {
        assert_eq!(position, want.final_position, "{name}");
    }
    // The record punct writes reads back to the same game and text.
    let text = record.to_string();
    let read = Record::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    assert_eq!(read.to_string(), text, "{name}");
    assert_eq!(read.game.outcome(), record.game.outcome(), "{name}");
}

#[test]
fn every_record_gives_its_moves_players_and_result() {
    for want in expected() {
        let text = file(&want.file);
        assert!(looks_like_sgf(&text));
        let games = read_all(&text);
        assert_eq!(games.len(), 1, "{}", want.file);
        let record = games[0]
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", want.file));
        check(record, &want);
    }
}

#[test]
fn ends_off_the_board_are_kept() {
    let resigned = read_all(&file(
        "PT-punct+level+6-boardspace-smartbot-2026-11-25-0625.sgf",
    ));
    let outcome = resigned[0].as_ref().unwrap().game.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Resignation);
    assert_eq!(outcome.result_token(), "0-1");
    let open = read_all(&file(
        "PT-boardspace-smartbot-punct+level+6-2026-11-25-0640.sgf",
    ));
    assert_eq!(open[0].as_ref().unwrap().game.outcome(), None);
}

/// All 22 in one file, as Boardspace's "save game collection" writes them, with Windows
/// line ends as on a Windows client.
#[test]
fn a_file_of_many_games_reads_each() {
    let rows = expected();
    let text: String = rows.iter().map(|w| file(&w.file)).collect();
    for text in [text.clone(), text.replace('\n', "\r\n")] {
        let games = read_all(&text);
        assert_eq!(games.len(), 22);
        for (game, want) in games.iter().zip(&rows) {
            check(game.as_ref().unwrap(), want);
        }
    }
}

/// In a file of games, a damaged one is reported with its line and reason, and every
/// other game is still read.
#[test]
fn damaged_games_say_why_and_the_others_still_read() {
    let rows = expected();
    let texts: Vec<String> = rows.iter().take(6).map(|w| file(&w.file)).collect();
    let mut damaged = texts.clone();
    // Game 2: a step lost (the history numbers then have a gap).
    damaged[1] = damaged[1].replace("; P1[4 Done ]TM[0]\n", "");
    // Game 4: a placement onto a cell that does not exist.
    damaged[3] = damaged[3].replacen("Dropb 1 F 1 3", "Dropb 1 A 1 3", 1);
    // Game 5: a value never closed, which swallows the rest of the file.
    let cut = damaged[4].find("P0[id").unwrap();
    damaged[4] = format!("{}P0[id \"x\"", &damaged[4][..cut]);
    damaged.truncate(5);
    let text = damaged.concat();
    let games = read_all(&text);
    assert_eq!(games.len(), 5);
    for i in [0, 2] {
        check(games[i].as_ref().unwrap(), &rows[i]);
    }
    let error = |i: usize| games[i].as_ref().unwrap_err().to_string();
    assert!(error(1).contains("step 5 follows step 3"), "{}", error(1));
    let first_line_of = |i: usize| damaged[..i].concat().lines().count() + 1;
    let e3 = games[3].as_ref().unwrap_err();
    assert!(e3.message.contains("A1"), "{e3}");
    assert!(e3.line > first_line_of(3), "{e3}");
    assert!(error(4).contains("never closed by `]`"), "{}", error(4));
}

/// Root and step problems each get a message naming them.
#[test]
fn refusals_name_the_problem() {
    let game = |root: &str, steps: &str| {
        format!("(;GM[25]VV[1]SU[Punct]P0[id \"a\"]P1[id \"b\"]{root}\n; P0[0 Start P0]\n{steps})")
    };
    let place = "; P0[1 Dropb 13 L 11 3]TM[0]\n; P0[2 Done ]TM[0]\n";
    let cases = [
        (
            "(;GM[1]P0[id \"a\"];B[aa])".to_owned(),
            "GM[1] is not PÜNCT",
        ),
        (
            game("", "").replace("SU[Punct]", "SU[Hex]"),
            "SU[Hex] is not PÜNCT's",
        ),
        (game("", "").replace("VV[1]", "VV[7]"), "VV[7] is unknown"),
        (game("RE[Game won by c]", place), "names nobody"),
        (game("RE[who knows]", place), "unknown result"),
        (
            game("", "; P1[1 Dropb 32 L 9 4]TM[0]\n"),
            "it is White's turn",
        ),
        (
            game("", "; P0[1 Dropb 32 L 9 4]TM[0]\n"),
            "piece 32 is Black's",
        ),
        (game("", "; P0[1 Dropb 19 L 9 4]TM[0]\n"), "marker"),
        (game("", "; P0[1 Dropb 13 L 9 9]TM[0]\n"), "rotation `9`"),
        (game("", "; P0[1 Done ]TM[0]\n"), "without a move"),
        (game("", "; P0[1 Edit]\n"), "edited on Boardspace"),
        (game("", "; P0[1 Fly 3]\n"), "unknown command `fly`"),
        (game("", "; P0[1 Move E 4]\n"), "wrong number of arguments"),
        (game("", "; P0[one Done]\n"), "expected `<number> <command>"),
        (
            game("", "; P0[1 Dropb 13 I 9 3]TM[0]\n; P0[2 Done ]TM[0]\n"),
            "move 1 (LI9:3): illegal",
        ),
        (
            game(
                "",
                "; P0[1 Dropb 13 L 11 3]TM[0]\n; P0[2 Dropb 14 L 13 3]TM[0]\n",
            ),
            "set down twice",
        ),
        (
            game("", "; P0[1 Pick W 13]\n; P0[2 Pick W 14]\n"),
            "a second piece",
        ),
        (
            game("", "; P0[1 Pick B 13]\n"),
            "`B` is not White's reserve",
        ),
        (
            game(
                "RE[Game won by b]",
                "; P0[1 Resign ]TM[0]\n; P0[2 Done ]TM[0]\n; P1[3 Dropb 32 L 9 4]TM[0]\n",
            ),
            "already over (resignation)",
        ),
        (
            game(
                "RE[Game won by a]",
                "; P0[1 Resign ]TM[0]\n; P0[2 Done ]TM[0]\n",
            ),
            "disagrees with its moves: White resigned",
        ),
    ];
    for (text, needle) in cases {
        let games = read_all(&text);
        assert_eq!(games.len(), 1, "{text}");
        let err = games[0].as_ref().unwrap_err().to_string();
        assert!(err.contains(needle), "{needle}: {err}\n{text}");
    }
}

/// A person's gestures: a piece set down, picked up again and set down elsewhere in the
/// same turn is one move, from where it was to where it ended.
#[test]
fn gestures_picked_up_again_make_one_move() {
    let text = "(;GM[25]P0[id \"a\"]P1[id \"b\"]
        ; P0[0 Start P0]
        ; P0[1 Pick W 13]; P0[2 Dropb 13 L 11 3]; P0[3 Pickb L 11]; P0[4 Dropb 13 L 12 2]
        ; P0[5 Done ]
        ; P1[6 Dropb 32 L 9 4]; P1[7 Done ]
        ; P0[8 Pickb L 12]; P0[9 Dropb 13 L 15 3]; P0[10 Pickb L 15]; P0[11 Dropb 13 L 15 1]
        ; P0[12 Done ]
        ; P1[13 Move L 9 L 7 4]; P1[14 Move L 7 L 6 4]; P1[15 Done ]
        ;P0[time 0:00:00 ]P1[time 0:00:00 ])";
    let games = read_all(text);
    let record = games[0].as_ref().unwrap();
    assert_eq!(moves_of(record), "LL12:2 LL9:4 L12-L15:1 L9-L6:4");
    assert_eq!(record.tag("Result"), Some("*"));
    assert_eq!(record.tag("Date"), Some("????.??.??"));
}

#[test]
fn texts_without_games_give_none() {
    assert!(read_all("").is_empty());
    assert!(read_all(" \n\t").is_empty());
    assert!(!looks_like_sgf("[Game \"PÜNCT\"]"));
    assert!(!looks_like_sgf("standard w 0 -"));
}
