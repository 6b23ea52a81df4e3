//! `punct picture` as a user runs it: a position to a PNG, a record to a GIF, and clear
//! refusals.

mod common;

use common::{punct, stderr};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_position_becomes_a_png_and_a_record_a_gif() {
    let png = temp("x.png");
    let out = punct(
        &[
            "picture",
            "--position",
            "standard b 1 wTE4:0@1",
            "-o",
            png.to_str().unwrap(),
            "--width",
            "600",
            "--height",
            "315",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 600);

    let record = temp("game.pgn");
    std::fs::write(
        &record,
        "[White \"Ada\"]\n[Black \"Bo\"]\n\n1. TE4:0 TK5:0 2. TC3:0 *\n",
    )
    .unwrap();
    let gif = temp("game.gif");
    let out = punct(
        &[
            "picture",
            "--record",
            record.to_str().unwrap(),
            "-o",
            gif.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
}

#[test]
fn bad_requests_are_refused_in_words() {
    let record = temp("one.pgn");
    std::fs::write(&record, "1. TE4:0 *\n").unwrap();
    let record = record.to_str().unwrap();
    for (args, words) in [
        (vec!["picture", "-o", "x.jpg"], "must end in .png or .gif"),
        (
            vec!["picture", "--position", "standard x 0 -", "-o", "x.png"],
            "in position `standard x 0 -`",
        ),
        (vec!["picture", "-o", "x.gif"], "a GIF shows a game"),
        (
            vec!["picture", "--record", record, "--game", "2", "-o", "x.png"],
            "has no game 2 (it holds 1)",
        ),
        (
            vec!["picture", "--width", "0", "-o", "x.png"],
            "16 to 4096 pixels a side, not 0×630",
        ),
    ] {
        let out = punct(&args, b"");
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(words), "{args:?}: {}", stderr(&out));
    }
}
