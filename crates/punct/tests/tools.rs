//! The measuring and protocol commands as a user runs them: `match`, `bench`, `perft`,
//! `moves` and `engine` on bad input.

mod common;

use common::{punct, stderr, stdout};

#[test]
fn perft_refuses_a_depth_it_could_never_finish() {
    let out = punct(&["perft", "--depth", "1000"], b"");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("1000 is not in 0..=4"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn moves_answers_every_line_even_after_one_that_is_not_utf8() {
    let out = punct(
        &["moves"],
        b"standard w 0 -\nstandard \xff w 0 -\nstandard w 0 -\n",
    );
    assert!(!out.status.success());
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], "");
    assert_eq!(lines[0], lines[2]);
    assert!(
        stderr(&out).contains("line 2: not UTF-8"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_engine_answers_a_line_that_is_not_utf8_with_an_error_and_goes_on() {
    let out = punct(&["engine"], b"isready\n\xc3\x28\nisready\n");
    let text = stdout(&out);
    assert_eq!(
        text,
        "readyok\nerror input line 2 is not UTF-8 text\nreadyok\n"
    );
}

#[test]
fn match_refuses_no_games() {
    let out = punct(&["match", "greedy", "random", "--games", "0"], b"");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("a match needs at least one game"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn match_takes_sprt_bounds_with_a_comma_or_a_space() {
    for sprt in [&["--sprt", "0,50"][..], &["--sprt", "0", "50"]] {
        let mut args = vec![
            "match",
            "greedy",
            "random",
            "--games",
            "2",
            "--concurrency",
            "1",
        ];
        args.extend_from_slice(sprt);
        let text = stdout(&punct(&args, b""));
        assert!(text.contains("GSPRT [0, 50] nElo: LLR "), "{text}");
    }
    let out = punct(&["match", "greedy", "random", "--sprt", "50,0"], b"");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--sprt"), "{}", stderr(&out));
}

/// The engine as a program against itself in this process, at a fixed number of playouts:
/// the same moves whoever has White and however attached, so every pair is split.
#[test]
fn the_engine_as_a_program_against_itself_in_process_splits_every_pair() {
    let program = format!("cmd:{} engine", env!("CARGO_BIN_EXE_punct"));
    let args = [
        "match",
        "full",
        &program,
        "--games",
        "4",
        "--nodes",
        "30",
        "--concurrency",
        "2",
    ];
    let text = stdout(&punct(&args, b""));
    assert!(
        text.contains("pairs LL 0, LD 0, WL+DD 2, WD 0, WW 0"),
        "{text}"
    );
    assert!(text.contains("score 50.0%"), "{text}");
}

#[test]
fn a_gauntlet_meets_each_opponent_and_sums_up() {
    let args = [
        "match",
        "greedy",
        "random",
        "alphabeta",
        "--games",
        "2",
        "--nodes",
        "1",
    ];
    let text = stdout(&punct(&args, b""));
    assert!(text.contains("greedy vs random"), "{text}");
    assert!(text.contains("gauntlet of greedy"), "{text}");
    assert_eq!(text.matches("  vs ").count(), 2, "{text}");
}

#[test]
fn bench_prints_the_same_signature_every_time() {
    let signature = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("nodes ") || l.starts_with("signature "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let a = stdout(&punct(&["bench", "--nodes", "10"], b""));
    let b = stdout(&punct(&["bench", "--nodes", "10"], b""));
    assert_eq!(signature(&a).len(), 2, "{a}");
    assert_eq!(signature(&a), signature(&b));
}
