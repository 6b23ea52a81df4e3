//! Game records: writing, reading back, and refusing what is wrong with a reason and a line.

use punct_core::{Game, Move, Outcome, Position, Record, Termination, Variant};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn random_game(seed: u64, variant: Variant) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(variant);
    let plies = rng.random_range(1..120);
    play_random(&mut game, &mut rng, plies);
    game
}

#[test]
fn written_records_read_back_to_the_same_text_and_game() {
    for seed in 0..40 {
        let variant = if seed % 2 == 0 {
            Variant::Standard
        } else {
            Variant::Basic
        };
        let game = random_game(seed, variant);
        let text =
            Record::from_game(game.clone(), "Ada", "Bob \"the builder\"", "2026.11.22").to_string();
        let read = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read.to_string(), text);
        assert_eq!(read.game.moves(), game.moves());
        assert_eq!(read.game.outcome(), game.outcome());
        assert_eq!(read.tag("Black"), Some("Bob \"the builder\""));
    }
}

#[test]
fn a_record_looks_like_pgn() {
    let mut game = Game::new(Variant::Standard);
    for m in ["TE4:0", "TK5:0", "E4-E7:3"] {
        game.play(Move::parse(m).unwrap()).unwrap();
    }
    let mut record = Record::from_game(game, "Ada", "Bob", "2026.11.22");
    record.moves[1].comment = Some("a quiet reply".into());
    record.intro = Some("opening".into());
    let text = record.to_string();
    assert_eq!(
        text,
        "[Game \"PÜNCT\"]\n[Variant \"standard\"]\n[White \"Ada\"]\n[Black \"Bob\"]\n\
         [Date \"2026.11.22\"]\n[Result \"*\"]\n\n\
         {opening} 1. TE4:0 TK5:0 {a quiet reply} 2. E4-E7:3 *\n"
    );
    assert_eq!(Record::parse(&text).unwrap().to_string(), text);
}

#[test]
fn a_record_from_a_set_up_position_carries_it_in_a_tag() {
    let start = Position::from_text("standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2").unwrap();
    let mut game = Game::from_position(start);
    game.play(Move::parse("K5-K9:0").unwrap()).unwrap();
    game.play(Move::parse("TC2:0").unwrap()).unwrap();
    let text = Record::from_game(game, "a", "b", "?").to_string();
    assert!(text.contains("[Position \"standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2\"]"));
    assert!(text.contains("3... K5-K9:0 4. TC2:0 *"), "{text}");
    assert_eq!(Record::parse(&text).unwrap().to_string(), text);
}

#[test]
fn resignation_is_kept_from_the_tags() {
    let mut game = Game::new(Variant::Basic);
    game.play(Move::parse("TE4:0").unwrap()).unwrap();
    game.end(Outcome {
        winner: Some(punct_core::Colour::White),
        termination: Termination::Resignation,
    });
    let text = Record::from_game(game, "a", "b", "?").to_string();
    assert!(text.contains("[Termination \"resignation\"]"));
    let read = Record::parse(&text).unwrap();
    assert_eq!(
        read.game.outcome().unwrap().termination,
        Termination::Resignation
    );
}

#[test]
fn a_game_ended_without_a_result_reads_back_with_a_star() {
    for termination in [Termination::Aborted, Termination::Abandoned] {
        let mut game = Game::new(Variant::Basic);
        game.play(Move::parse("TE4:0").unwrap()).unwrap();
        let outcome = Outcome {
            winner: None,
            termination,
        };
        game.end(outcome);
        assert_eq!(outcome.result_token(), "*");
        assert_eq!(outcome.to_string(), format!("game {}", termination.name()));
        let text = Record::from_game(game, "a", "b", "?").to_string();
        assert!(text.contains("[Result \"*\"]"), "{text}");
        let read = Record::parse(&text).unwrap();
        assert_eq!(read.game.outcome(), Some(outcome));
        assert_eq!(read.to_string(), text);
    }
    // A `*` without such a termination is a game still going.
    let text = "[Variant \"basic\"]\n\n1. TE4:0 *\n";
    assert_eq!(Record::parse(text).unwrap().game.outcome(), None);
}

#[test]
fn bad_records_name_the_problem_and_the_line() {
    let cases = [
        (
            "[Variant \"standard\"]\n\n1. TI9:0 *\n",
            3,
            "central hexagon",
        ),
        (
            "[Variant \"standard\"]\n\n1. TE4:0 TE4:0 *\n",
            3,
            "move 2 `TE4:0`",
        ),
        (
            "[Variant \"standard\"]\n\n1. TE4:0\n2. TK5:0 *\n",
            4,
            "move number `2.` should be `1...`",
        ),
        (
            "[Variant \"standard\"]\n\n1. TE4:0 TK5:0\n",
            3,
            "missing result",
        ),
        (
            "[Variant \"standard\"]\n[Result \"1-0\"]\n\n1. TE4:0 *\n",
            4,
            "differs from the Result tag",
        ),
        ("[Variant \"chess\"]\n\n*\n", 1, "unknown Variant"),
        ("[Variant standard]\n\n*\n", 1, "double quotes"),
        (
            "[Variant \"standard\"]\n\n1. TE4:0 {never closed *\n",
            3,
            "never closed",
        ),
        (
            "[Variant \"standard\"]\n\n1. TE4:0 * TK5:0\n",
            3,
            "after the result",
        ),
        ("[Variant \"standard\"]\n\n1. XX:0 *\n", 3, "malformed move"),
        (
            "[Variant \"standard\"]\n[Position \"standard w 0 wTA1:0@1\"]\n\n*\n",
            1,
            "bad Position tag",
        ),
    ];
    for (text, line, needle) in cases {
        let err = Record::parse(text).unwrap_err();
        assert!(err.message.contains(needle), "{text:?}: {err}");
        assert_eq!(err.line, line, "{text:?}: {err}");
    }
}

#[test]
fn a_result_that_contradicts_the_board_is_refused() {
    // White connects with the last move, so the record must say 1-0.
    let start =
        "standard w 14 wTA8:5@1,wEB9:5@1,wEE9:5@1,wEH9:5@1,bTK5:0@1,wCL9:2@1,wCO9:2@1,wEH9:5@2";
    let text = format!("[Variant \"standard\"]\n[Position \"{start}\"]\n\n8. TQ10:2 0-1\n");
    let err = Record::parse(&text).unwrap_err();
    assert!(err.message.contains("White wins by connection"), "{err}");
    assert!(Record::parse(&text.replace("0-1", "1-0")).is_ok());
}

#[test]
fn a_file_of_records_reads_game_by_game() {
    let records: Vec<Record> = (0..5)
        .map(|seed| {
            let mut record = Record::from_game(
                random_game(100 + seed, Variant::Standard),
                "Ada",
                "Bo",
                "2026.11.22",
            );
            // A comment with a line starting like a tag must not split a game.
            record.intro = Some(format!("game {seed}\n[not a tag]"));
            record
        })
        .collect();
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let read = Record::parse_all(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.len(), 5);
    for (a, b) in read.iter().zip(&records) {
        assert_eq!(a.to_string(), b.to_string());
    }
    // An error in the third game names its line in the whole file.
    let third = text.match_indices("[Game").nth(2).unwrap().0;
    let line = text[..third].lines().count() + 1;
    let broken = format!("{}[Game \"PÜNCT\"\n{}", &text[..third], &text[third + 15..]);
    let e = Record::parse_all(&broken).unwrap_err();
    assert_eq!(e.line, line, "{e}");
    assert!(Record::parse_all("").is_err());
    assert!(Record::parse_all("[Game \"PÜNCT\"]\n").is_err());
    // Read game by game, the broken one is named and the other four are read.
    let each = Record::read_each(&broken);
    assert_eq!(each.len(), 5);
    assert_eq!(each[2].as_ref().unwrap_err().line, line);
    for i in [0, 1, 3, 4] {
        assert_eq!(
            each[i].as_ref().unwrap().to_string(),
            records[i].to_string()
        );
    }
    // Tags with no game after them are a game that could not be read.
    let each = Record::read_each(&format!("{text}[Game \"PÜNCT\"]\n"));
    assert_eq!(each.len(), 6);
    assert!(
        each[5]
            .as_ref()
            .unwrap_err()
            .message
            .contains("missing result")
    );
}

proptest::proptest! {
    /// Whatever people type as names or comments, the record written reads back, and
    /// writing it again gives the same text.
    #[test]
    fn any_names_and_comments_read_back(
        white in "\\PC*|.*[\\n\\r\\t}{\\\\\"\\]].*",
        black in proptest::prelude::any::<String>(),
        intro in "\\PC*|.*[\\r\\n}{].*",
        note in proptest::prelude::any::<String>(),
        seed in 0u64..20,
    ) {
        let game = random_game(seed, Variant::Standard);
        let mut record = Record::from_game(game.clone(), &white, &black, "2026.11.23");
        record.intro = Some(intro);
        if let Some(first) = record.moves.first_mut() {
            first.comment = Some(note);
        }
        let text = record.to_string();
        let read = Record::parse(&text).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
        proptest::prop_assert_eq!(read.to_string(), text);
        proptest::prop_assert_eq!(read.game.moves(), game.moves());
    }
}

/// Plays up to `plies` random moves (more moves than placements, so that stacks form).
fn play_random(game: &mut Game, rng: &mut SmallRng, plies: usize) {
    for _ in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        let moves = game.position().legal_moves();
        let shifts: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_placement())
            .collect();
        let mv = if !shifts.is_empty() && rng.random_bool(0.6) {
            shifts[rng.random_range(0..shifts.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        game.play(mv).unwrap();
    }
}

#[test]
fn move_numbers_go_up_before_each_white_move_whoever_starts() {
    let cases = [
        ("standard w 0 -", "1. TE4:0 TK5:0 2. TE6:0 *"),
        ("standard b 0 -", "1... TE4:0 2. TK5:0 TE6:0 *"),
        ("standard b 5 -", "3... TE4:0 4. TK5:0 TE6:0 *"),
        ("basic w 1 -", "2. TE4:0 TK5:0 3. TE6:0 *"),
    ];
    for (start, moves) in cases {
        let mut game = Game::from_position(Position::from_text(start).unwrap());
        for m in ["TE4:0", "TK5:0", "TE6:0"] {
            assert!(
                moves.contains(&format!("{}.", game.position().move_number())),
                "{start}"
            );
            game.play(Move::parse(m).unwrap()).unwrap();
        }
        let text = Record::from_game(game, "a", "b", "?").to_string();
        assert!(text.ends_with(&format!("\n\n{moves}\n")), "{start}: {text}");
        assert_eq!(Record::parse(&text).unwrap().to_string(), text);
    }
    // Records written before, numbered `ply / 2 + 1` after such a start, still read.
    let old = "[Position \"basic w 1 -\"]\n[Variant \"basic\"]\n\n1. TE4:0 TK5:0 2. TE6:0 *\n";
    assert_eq!(Record::parse(old).unwrap().game.moves().len(), 3);
}

/// Whether no line of a record's move text (without comments) ends with a move number, and
/// every move number is followed by its move.
fn numbers_stay_with_their_moves(text: &str) -> bool {
    let is_number = |token: &str| {
        let digits = token.trim_end_matches('.');
        digits.len() < token.len() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    text.lines()
        .filter(|line| !line.starts_with('['))
        .all(|line| line.split_whitespace().last().is_none_or(|t| !is_number(t)))
}

#[test]
fn a_move_number_and_its_move_share_a_line() {
    // Long enough for many lines, with shifts (`E4-E7:3`) and placements of either length.
    for seed in 0..40 {
        let game = random_game(1000 + seed, Variant::Standard);
        let text = Record::from_game(game.clone(), "a", "b", "?").to_string();
        assert!(numbers_stay_with_their_moves(&text), "{text}");
        assert!(
            text.lines().all(|line| line.len() <= 80),
            "lines stay within 80 columns: {text}"
        );
        let read = Record::parse(&text).unwrap();
        assert_eq!(read.game.moves(), game.moves());
        assert_eq!(read.to_string(), text);
    }
}

/// How an exported game ended, beyond what the board decides.
fn ending(kind: u8, winner: bool) -> Option<Outcome> {
    let winner = Some(if winner {
        punct_core::Colour::White
    } else {
        punct_core::Colour::Black
    });
    let (winner, termination) = match kind {
        1 => (winner, Termination::Resignation),
        2 => (winner, Termination::Timeout),
        3 => (None, Termination::Agreement),
        4 => (None, Termination::Aborted),
        _ => return None,
    };
    Some(Outcome {
        winner,
        termination,
    })
}

proptest::proptest! {
    /// Any game written reads back whole: basic or standard, from the empty board or from a
    /// position with either side to move (at a ply of either parity), with its names, date,
    /// variant, start, moves, ending and every other tag.
    #[test]
    fn any_game_from_any_start_reads_back_whole(
        basic: bool,
        seed: u64,
        before in 0usize..40,
        ply_shift in proptest::prop_oneof![proptest::strategy::Just(0u32), 1u32..3, 90u32..200],
        after in 0usize..60,
        end_kind in 0u8..5,
        white_wins: bool,
        white in "\\PC{0,24}",
        black in "\\PC{0,24}",
        date in "[0-9?]{4}\\.[0-9?]{2}\\.[0-9?]{2}",
        event in proptest::prelude::any::<String>(),
    ) {
        let variant = if basic { Variant::Basic } else { Variant::Standard };
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut opening = Game::new(variant);
        play_random(&mut opening, &mut rng, before);
        proptest::prop_assume!(opening.outcome().is_none());
        let text = opening.position().to_string();
        let mut fields: Vec<String> = text.splitn(4, ' ').map(str::to_owned).collect();
        fields[2] = (opening.position().ply() + ply_shift).to_string();
        let start = Position::from_text(&fields.join(" ")).unwrap();
        let mut game = Game::from_position(start);
        play_random(&mut game, &mut rng, after);
        if game.outcome().is_none() && let Some(outcome) = ending(end_kind, white_wins) {
            game.end(outcome);
        }
        let mut record = Record::from_game(game.clone(), &white, &black, &date);
        record.set_tag("Event", &event);
        let text = record.to_string();
        let read = Record::parse(&text)
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
        proptest::prop_assert!(numbers_stay_with_their_moves(&text), "{}", text);
        proptest::prop_assert_eq!(read.to_string(), text.clone());
        proptest::prop_assert_eq!(read.game.start().to_string(), game.start().to_string());
        proptest::prop_assert_eq!(read.game.moves(), game.moves());
        proptest::prop_assert_eq!(read.game.outcome(), game.outcome());
        let clean = |s: &str| s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>();
        proptest::prop_assert_eq!(read.tag("White").map(str::to_owned), Some(clean(&white)));
        proptest::prop_assert_eq!(read.tag("Black").map(str::to_owned), Some(clean(&black)));
        proptest::prop_assert_eq!(read.tag("Date"), Some(date.as_str()));
        proptest::prop_assert_eq!(read.tag("Event").map(str::to_owned), Some(clean(&event)));
        proptest::prop_assert_eq!(read.tag("Variant").map(str::to_owned), Some(variant.to_string()));
        proptest::prop_assert_eq!(
            read.tag("Termination"),
            game.outcome().map(|o| o.termination.name())
        );
    }
}
