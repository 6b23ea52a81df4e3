//! One test per rule and ruling of RULINGS.md, each on a concrete position.
//!
//! Every legality question is asked three ways (the rules checker, the generator's fast test,
//! and membership in the generated list), and the three must agree.

use punct_core::{Cell, Colour, Game, Illegal, Move, Outcome, PlayError, Position, Termination};

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

/// Whether `text` is legal in `p`, after checking that all three answers agree.
fn legal(p: &Position, text: &str) -> bool {
    let m = Move::parse(text).unwrap();
    let checked = p.check(m);
    let fast = p.is_legal(m);
    let listed = p.legal_moves().contains(&p.canonical(m));
    assert_eq!(
        checked.is_ok(),
        fast,
        "{text}: checker {checked:?}, generator {fast}"
    );
    assert_eq!(fast, listed, "{text}: is_legal {fast}, in list {listed}");
    checked.is_ok()
}

/// The reason `text` is refused in `p` (panics if it is legal).
fn refused(p: &Position, text: &str) -> Illegal {
    assert!(!legal(p, text), "{text} should be illegal");
    p.check(Move::parse(text).unwrap()).unwrap_err()
}

fn played(p: &Position, text: &str) -> Position {
    let mut p = p.clone();
    p.play(Move::parse(text).unwrap())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    p
}

fn game_after(start: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_position(pos(start));
    for m in moves {
        game.play(Move::parse(m).unwrap())
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

#[test]
fn basic_game_bans_the_centre_for_the_first_placement_only() {
    let start = Position::new(punct_core::Variant::Basic);
    assert!(matches!(
        refused(&start, "TI9:0"),
        Illegal::CentreBanned(..)
    ));
    // G6 is outside, but its minor dots G7 and H7 are inside.
    assert!(matches!(refused(&start, "TG6:3"), Illegal::CentreBanned(_, c) if c == cell("G7")));
    let after = played(&start, "TE4:0");
    assert!(legal(&after, "TI9:0"));
    assert!(legal(&after, "TG6:3"));
}

#[test]
fn standard_game_bans_the_centre_for_every_placement_but_not_for_moves() {
    let start = Position::new(punct_core::Variant::Standard);
    assert!(matches!(
        refused(&start, "TI9:0"),
        Illegal::CentreBanned(..)
    ));
    let after = played(&start, "TE4:0");
    assert!(matches!(
        refused(&after, "TI9:0"),
        Illegal::CentreBanned(..)
    ));
    assert!(matches!(
        refused(&after, "TG6:3"),
        Illegal::CentreBanned(..)
    ));
    // A piece already in play may move into the centre: G4 G5 G6 to G8 G9 G10.
    let p = pos("standard w 2 wEG4:3@1,bTK5:0@1");
    assert!(legal(&p, "G4-G8:3"));
}

#[test]
fn a_piece_slides_over_other_pieces_along_a_line() {
    // White E on E4 E5 E6; a black triangle on E8 E9 F9 lies across column E.
    let p = pos("standard w 2 wEE4:3@1,bTE8:3@1");
    assert!(legal(&p, "E4-E12:0"));
    assert!(legal(&p, "E4-E13:0"));
    assert_eq!(
        refused(&p, "E4-F6:0"),
        Illegal::NotInLine(cell("E4"), cell("F6"))
    );
}

#[test]
fn a_piece_turns_on_the_spot() {
    let p = pos("standard w 2 wEE4:3@1,bTE8:3@1");
    let turned = played(&p, "E4-E4:5");
    assert_eq!(turned.to_string(), "standard b 3 wEE4:5@1,bTE8:3@1");
    assert_eq!(refused(&p, "E4-E4:3"), Illegal::NoChange);
}

#[test]
fn an_edge_rotation_must_keep_every_dot_on_the_board() {
    // E on A5 A6 A7 at the left edge: rotations 1 and 2 would put dots off the board.
    let p = pos("standard w 2 wEA5:3@1,bTK5:0@1");
    for r in [1, 2] {
        assert_eq!(refused(&p, &format!("A5-A5:{r}")), Illegal::OffBoard);
    }
    let on_the_spot: Vec<String> = p
        .legal_move_texts()
        .into_iter()
        .filter(|m| m.starts_with("A5-A5:"))
        .collect();
    assert_eq!(on_the_spot, ["A5-A5:0", "A5-A5:4", "A5-A5:5"]);
}

#[test]
fn a_piece_jumps_onto_its_own_twin() {
    let p = pos("standard w 4 wTE4:0@1,wTH4:0@1,bTK5:0@1,bEM12:3@1");
    let after = played(&p, "H4-E4:0");
    assert_eq!(
        after.to_string(),
        "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2"
    );
    assert_eq!(after.height(cell("E4")), 2);
    assert_eq!(after.stack(cell("D3")).len(), 2);
}

#[test]
fn the_punct_may_not_land_on_an_opponent_piece() {
    // The triangle would cover Black's K5 K4 J4 exactly, its PÜNCT on K4.
    let p = pos("standard w 4 wTE4:0@1,wTH4:0@1,bTK5:0@1,bEM12:3@1");
    assert_eq!(
        refused(&p, "H4-K4:2"),
        Illegal::PunctOnOpponent(cell("K4"), Colour::Black)
    );
}

#[test]
fn minor_dots_may_rest_on_an_opponent_piece() {
    // PÜNCT onto White's E at L5, minor dots onto Black's triangle at K4 and K5.
    let p = pos("standard w 4 bTK5:0@1,wEL5:3@1,wTL14:0@1,bEM12:3@1");
    let after = played(&p, "L14-L5:1");
    assert_eq!(after.height(cell("K4")), 2);
    assert_eq!(after.top(cell("K5")).unwrap().piece.colour, Colour::White);
}

#[test]
fn covered_pieces_are_frozen() {
    let p = pos("standard w 4 bTK5:0@1,wEL5:3@1,wTL14:0@1,bEM12:3@1");
    let after = played(&p, "L14-L5:1");
    assert!(matches!(refused(&after, "K5-K10:0"), Illegal::Frozen(c, _) if c == cell("K5")));
    assert!(!after.movable().contains(cell("K5")));
    assert!(after.movable().contains(cell("M12")));
}

#[test]
fn e_l_and_r_pieces_bridge_over_empty_board() {
    // White floor: D2 E2 F2 and D4 E4 F4; D3 and E3 are empty.
    let floor = "wED2:5@1,wED4:5@1";
    for (mover, mv, middle) in [
        ("wEH2:3@1", "H2-D2:3", "D3"),
        ("wLH2:3@1", "H2-D2:3", "D3"),
        ("wRH2:0@1", "H2-D2:0", "E3"),
    ] {
        let p = pos(&format!("standard w 6 {floor},{mover}"));
        let after = played(&p, mv);
        assert_eq!(after.height(cell("D2")), 2, "{mover}");
        assert_eq!(after.height(cell(middle)), 2, "{mover}");
        assert_eq!(
            after.stack(cell(middle)).len(),
            1,
            "{mover}: nothing under the middle"
        );
    }
}

/// Level-2 floor on D2 E2 F2 and D4 E4 F4, `under` on D3 at level 1, and `mover` on H3.
fn c_m_bridge(under: &str, mover: &str) -> Position {
    pos(&format!(
        "standard w 12 wED2:5@1,{under}wED4:5@1,{mover},wED2:5@2,wED4:5@2"
    ))
}

#[test]
fn c_and_m_pieces_bridge_only_with_their_punct_over_their_own_colour() {
    // C on D3 r0 has ends D2 and D4; M on D3 r3 has ends E4 and D2; the PÜNCT is the middle.
    for (mover, mv) in [("wCH3:0@1", "H3-D3:0"), ("wMH3:0@1", "H3-D3:3")] {
        let own = c_m_bridge("wTD3:1@1,", mover);
        assert_eq!(played(&own, mv).height(cell("D3")), 3, "{mover} over own");
        let theirs = c_m_bridge("bTD3:1@1,", mover);
        assert_eq!(
            refused(&theirs, mv),
            Illegal::PunctOnOpponent(cell("D3"), Colour::Black),
            "{mover} over the opponent"
        );
        let empty = c_m_bridge("", mover);
        assert_eq!(
            refused(&empty, mv),
            Illegal::PunctOverEmpty(cell("D3")),
            "{mover} over empty"
        );
    }
}

#[test]
fn a_triangle_cannot_bridge() {
    // D2 and E2 at height 1, E3 empty: a bridge shape, but triangles never bridge.
    let p = pos("standard w 6 wED2:5@1,wED4:5@1,wTH2:3@1");
    assert_eq!(refused(&p, "H2-D2:4"), Illegal::TriangleBridge([1, 0, 1]));
}

#[test]
fn pieces_under_a_high_bridge_are_frozen_even_with_a_gap_between() {
    // A C bridge at level 3 spans D2 and D4; under its middle D3 lies White's triangle
    // C2 C3 D3 at level 1, with nothing at level 2.
    let p = pos("standard w 12 wTC2:3@1,wED2:5@1,wED4:5@1,bTK5:0@1,wED2:5@2,wED4:5@2,wCD3:0@3");
    let levels: Vec<u8> = p.stack(cell("D3")).iter().map(|d| d.piece.level).collect();
    assert_eq!(levels, [1, 3]);
    assert_eq!(
        refused(&p, "C2-C6:3"),
        Illegal::Frozen(cell("C2"), cell("D3"))
    );
}

#[test]
fn no_placement_under_a_bridge() {
    let p = pos("standard w 6 wED2:5@1,wED4:5@1,wEH2:3@1,bTK5:0@1");
    let bridged = played(&p, "H2-D2:3");
    assert_eq!(refused(&bridged, "TD3:1"), Illegal::NotEmpty(cell("D3")));
    assert!(legal(&bridged, "TC2:0"));
}

fn wins(game: &Game, winner: Colour, termination: Termination) {
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(winner),
            termination
        })
    );
}

#[test]
fn connection_across_levels_between_columns_a_and_q() {
    // Row 9 from A8 to Q10, with H9 I9 J9 at level 2.
    let start =
        "standard w 14 wTA8:5@1,wEB9:5@1,wEE9:5@1,wEH9:5@1,bTK5:0@1,wCL9:2@1,wCO9:2@1,wEH9:5@2";
    assert_eq!(game_after(start, &[]).outcome(), None);
    let game = game_after(start, &["TQ10:2"]);
    wins(&game, Colour::White, Termination::Connection);
    let chain = game.position().winning_chain(Colour::White);
    assert!(
        chain.contains(cell("A8")) && chain.contains(cell("I9")) && chain.contains(cell("Q10"))
    );
}

#[test]
fn connection_across_levels_between_rows_1_and_17() {
    // Column I, with White's E on I8 I9 I10 at level 2 over Black's triangle on I9 I10.
    let start =
        "standard w 14 wTH1:2@1,wEI2:3@1,wEI5:3@1,wTI8:1@1,bTI9:3@1,wEI11:3@1,wCI15:0@1,wEI8:3@2";
    assert_eq!(game_after(start, &[]).outcome(), None);
    wins(
        &game_after(start, &["TJ17:5"]),
        Colour::White,
        Termination::Connection,
    );
}

#[test]
fn connection_across_levels_between_the_diagonal_sides() {
    // Column J from J2 to J10 (J5 J6 J7 at level 2), then row 10 to B10.
    let start = "standard w 14 wCE10:2@1,wEI10:2@1,wCJ3:0@1,wEJ5:3@1,wEJ8:3@1,bTM14:0@1,wEJ5:3@2";
    assert_eq!(game_after(start, &[]).outcome(), None);
    wins(
        &game_after(start, &["TC10:2"]),
        Colour::White,
        Termination::Connection,
    );
}

/// White's chain from B1 to J17 lacks J12; Black's from H1 to P17 is covered at P11 and P12
/// by White's triangle on Q12.
const CROSSING: &str = "standard w 30 wEB1:4@1,wEE4:4@1,bEH1:4@1,wEH7:4@1,wTJ10:3@1,wCJ14:0@1,wTJ16:3@1,bEK4:4@1,bEN7:4@1,bEP10:3@1,bCP14:0@1,bTP16:2@1,wEQ11:3@1,wTQ12:1@2";

#[test]
fn the_mover_wins_when_both_players_are_connected() {
    assert_eq!(game_after(CROSSING, &[]).outcome(), None);
    let game = game_after(CROSSING, &["Q12-J12:1"]);
    assert!(game.position().is_connected(Colour::Black));
    wins(&game, Colour::White, Termination::Connection);
}

#[test]
fn uncovering_the_opponents_line_loses() {
    let game = game_after(CROSSING, &["Q12-M12:1"]);
    assert!(!game.position().is_connected(Colour::White));
    wins(&game, Colour::Black, Termination::UncoveredConnection);
}

/// 17 pieces each, no connection; White's last triangle is placed next. Centre counts:
const CENTRE_TIE: &str = "standard w 34 wTA2:3@1,bTA4:4@1,wTA5:3@1,bTB2:4@1,wCB8:2@1,bTB9:4@1,wEB10:4@1,wCC1:2@1,bTC7:4@1,wED3:3@1,wED10:4@1,bCE2:0@1,bEE10:4@1,bEE12:4@1,wEF1:3@1,bCF5:2@1,wTF6:3@1,wTF9:4@1,wLF14:4@1,bEG1:3@1,bTG8:4@1,wLH1:3@1,wTH6:4@1,wMH12:2@1,bEH16:5@1,bLI4:3@1,bLI13:5@1,wRJ2:0@1,wRJ5:0@1,wMJ14:2@1,bRK15:0@1,bML5:1@1,bML8:1@1,bRL10:0@1";
const CENTRE_WHITE: &str = "standard w 34 wTA2:3@1,bTA4:4@1,wTA5:3@1,wTA8:4@1,bTB2:4@1,bTB7:4@1,wCC1:2@1,bTC10:4@1,wEC11:4@1,wCD4:0@1,bTD6:4@1,wED7:3@1,bCE2:0@1,wEE11:4@1,wEF1:3@1,wTF6:3@1,wTF9:4@1,bCF10:1@1,bEF13:4@1,bEG1:3@1,wLG5:4@1,wLG15:4@1,wMH2:2@1,bEH5:5@1,bLH13:4@1,bEI3:5@1,wMI12:1@1,wRJ4:0@1,bLJ7:4@1,wRJ15:0@1,bMK12:1@1,bML5:2@1,bRL10:0@1,bRL15:0@1";
const CENTRE_BLACK: &str = "standard w 34 wTA2:3@1,bTA4:4@1,wTA5:3@1,wTA8:4@1,wTB1:4@1,bTB7:4@1,bTC3:4@1,wTC5:4@1,wCD9:0@1,bTD11:4@1,wCD12:1@1,wEE1:3@1,bCF2:0@1,wEF5:3@1,bTF8:4@1,wEF9:3@1,wEG1:3@1,bEG12:4@1,wLG13:3@1,bCG15:1@1,bEH1:3@1,wLH5:4@1,wMH12:3@1,wMI2:2@1,bEI5:5@1,bEJ7:4@1,wRJ12:0@1,wRJ15:0@1,bMK3:1@1,bLK12:4@1,bLK15:4@1,bRL11:1@1,bMM6:2@1,bRN9:0@1";

#[test]
fn the_eighteenth_placement_ends_the_standard_game_on_the_centre_count() {
    assert_eq!(pos(CENTRE_WHITE).centre_count(), [2, 0]);
    wins(
        &game_after(CENTRE_WHITE, &["TE4:3"]),
        Colour::White,
        Termination::CentreMajority,
    );
    assert_eq!(pos(CENTRE_BLACK).centre_count(), [0, 2]);
    wins(
        &game_after(CENTRE_BLACK, &["TD7:4"]),
        Colour::Black,
        Termination::CentreMajority,
    );
}

#[test]
fn an_equal_centre_count_draws_the_standard_game() {
    assert_eq!(pos(CENTRE_TIE).centre_count(), [3, 3]);
    let game = game_after(CENTRE_TIE, &["TC5:3"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::CentreTie
        })
    );
}

#[test]
fn the_eighteenth_placement_draws_the_basic_game() {
    let basic = CENTRE_WHITE.replacen("standard", "basic", 1);
    let game = game_after(&basic, &["TE4:3"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::AllPlaced
        })
    );
    assert!(matches!(
        game_after(&basic, &["TE4:3"])
            .clone()
            .play(Move::parse("TK5:0").unwrap()),
        Err(PlayError::GameOver(_))
    ));
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let start = "standard w 10 wEE4:3@1,bEM12:3@1";
    let cycle = ["E4-E4:5", "M12-M12:5", "E4-E4:3", "M12-M12:3"];
    let twice = game_after(start, &cycle);
    assert_eq!(twice.repetitions(), 2);
    assert_eq!(twice.outcome(), None);
    let mut thrice = twice.clone();
    for m in cycle {
        thrice.play(Move::parse(m).unwrap()).unwrap();
    }
    assert_eq!(thrice.repetitions(), 3);
    assert_eq!(
        thrice.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::Repetition
        })
    );
    // Taking a move back reopens the game.
    thrice.undo();
    assert_eq!(thrice.outcome(), None);
}

#[test]
fn there_is_no_null_move() {
    for text in ["", "pass", "null", "0000", "--", "-:0", "E4-E4"] {
        assert!(Move::parse(text).is_err(), "{text}");
    }
    let e = pos("standard w 2 wEE4:3@1,bTE8:3@1");
    assert_eq!(refused(&e, "E4-E4:3"), Illegal::NoChange);
    // A C piece turned by half a turn covers the same cells: not a move either.
    let c = pos("standard w 2 wCE4:0@1,bTK5:0@1");
    assert_eq!(refused(&c, "E4-E4:3"), Illegal::NoChange);
    assert_eq!(refused(&c, "E4-E4:0"), Illegal::NoChange);
    assert!(legal(&c, "E4-E4:4"));
    assert!(c.legal_moves().iter().all(|m| m.to_string() != "E4-E4:0"));
}

#[test]
fn moves_of_pieces_that_are_not_yours_or_not_there_are_refused() {
    let p = pos("standard w 2 wEE4:3@1,bTE8:3@1");
    assert_eq!(
        refused(&p, "E8-E10:0"),
        Illegal::NotYours(cell("E8"), Colour::Black)
    );
    assert_eq!(refused(&p, "E5-E10:0"), Illegal::NoPiece(cell("E5")));
    assert_eq!(refused(&p, "TE5:0"), Illegal::NotEmpty(cell("E5")));
    let full = pos(CENTRE_WHITE);
    assert_eq!(
        refused(&full, "EC5:0"),
        Illegal::NotInReserve(Colour::White, punct_core::PieceType::E)
    );
}

#[test]
fn position_text_names_what_is_wrong() {
    let cases = [
        ("standard w 0", "expected `<variant> <side> <ply> <pieces>`"),
        ("standard  w 0 -", "expected"),
        ("classic w 0 -", "unknown variant"),
        ("standard x 0 -", "side to move"),
        ("standard w 01 -", "ply"),
        ("standard w -1 -", "ply"),
        ("standard w 0 wTA1:0@1", "no such cell `A1`"),
        ("standard w 0 wTE4:0@0", "level"),
        ("standard w 0 wTE4:6@1", "rotation"),
        ("standard w 0 xTE4:0@1", "colour"),
        ("standard w 0 wXE4:0@1", "type"),
        ("standard w 0 wTE4:0", "`@`"),
        ("standard w 0 wTE4:0@1,", "piece 2"),
        ("standard w 0 wTK5:0@1,wTE4:0@1", "sorted"),
        ("standard w 0 wTE4:0@1,bTE4:0@1", "overlaps"),
        ("standard w 0 wTE4:0@1,bTE5:0@1", "overlaps"),
        ("standard w 0 wTE4:0@2", "unsupported"),
        ("standard w 0 wEA2:2@1", "does not fit"),
        ("standard w 0 wTE4:0@1,bTE4:0@2", "PÜNCT"),
        (
            "standard w 0 wCB2:0@1,wCD2:0@1,wCF2:0@1",
            "more than 2 C pieces",
        ),
    ];
    for (text, needle) in cases {
        let err = Position::from_text(text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
    }
}

#[test]
fn c_rotations_three_to_five_read_as_zero_to_two() {
    let p = pos("standard w 2 wCE4:4@1,bTK5:0@1");
    assert_eq!(p.to_string(), "standard w 2 wCE4:1@1,bTK5:0@1");
    let after = played(&pos("standard w 0 -"), "CE4:5");
    assert_eq!(after.to_string(), "standard b 1 wCE4:2@1");
}
