//! Snapshots of the screens drawn into ratatui's `TestBackend`: the characters only (the
//! colours are not part of the snapshot).

use std::time::Duration;

use punct_core::Colour;
use punct_core::{Cell, Game, Record, Variant};
use punct_tui::{BoardView, Level, Marks, Opponent, Play, PlayOptions, Review, Scale, Screen};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// White's chain A8 … P8 P9 Q10 links column A to column Q on White's sixth placement.
const WHITE_CONNECTS: [&str; 11] = [
    "EA8:5", "TE3:0", "ED8:5", "TH3:0", "EG8:5", "TK5:0", "EJ8:5", "TL13:0", "CN8:2", "TH13:0",
    "LP8:3",
];

/// Moves that leave White's triangle jumped onto its twin at E4.
const STACKED: [&str; 5] = ["TE4:0", "TK5:0", "TE7:0", "EM12:3", "E7-E4:0"];

/// Moves that pile five of White's triangles on E4, Black placing elsewhere meanwhile.
const TALL: [&str; 17] = [
    "TE4:0", "TK5:0", "TE7:0", "EM12:3", "E7-E4:0", "TO14:0", "TE7:0", "TC10:0", "E7-E4:0",
    "TP12:0", "TE7:0", "EB7:0", "E7-E4:0", "TN10:0", "TE7:0", "EH15:0", "E7-E4:0",
];

fn draw(screen: &dyn Screen, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| screen.draw(frame)).unwrap();
    terminal.backend().to_string()
}

fn press(play: &mut Play, code: KeyCode) {
    play.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn two_people(variant: Variant, moves: &[&str]) -> Play {
    let mut play = Play::new(PlayOptions {
        variant,
        opponent: Opponent::Human,
        movetime: Duration::from_millis(10),
        seed: 1,
        threads: 1,
    });
    for mv in moves {
        press(&mut play, KeyCode::Char(':'));
        for c in mv.chars() {
            press(&mut play, KeyCode::Char(c));
        }
        press(&mut play, KeyCode::Enter);
    }
    assert_eq!(
        play.game().moves().len(),
        moves.len(),
        "{:?}",
        play.message()
    );
    play
}

/// Moves the cursor with the arrow keys: along the columns of rows, then along the row.
fn go_to(play: &mut Play, name: &str) {
    let target = Cell::parse(name).unwrap();
    for _ in 0..40 {
        let (c, r) = play.cursor().coords();
        let (tc, tr) = target.coords();
        let key = if r > tr {
            KeyCode::Down
        } else if r < tr {
            KeyCode::Up
        } else if c > tc {
            KeyCode::Left
        } else if c < tc {
            KeyCode::Right
        } else {
            return;
        };
        press(play, key);
    }
    panic!("the cursor did not reach {name}");
}

#[test]
fn start_of_a_game_in_80_by_24() {
    let play = two_people(Variant::Standard, &[]);
    let screen = draw(&play, 80, 24);
    // The bottom line says how to quit as well as how to play.
    let keys = screen.lines().last().unwrap();
    assert!(keys.contains("q quit") && keys.contains("? keys"), "{keys}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_reserve_piece_being_placed() {
    let mut play = two_people(Variant::Standard, &["TE4:0", "TK5:0"]);
    press(&mut play, KeyCode::Char('L'));
    press(&mut play, KeyCode::Char('r'));
    press(&mut play, KeyCode::Char('r'));
    insta::assert_snapshot!(draw(&play, 80, 24));
    // In the smallest screen laid out, the panel's lines about the piece wrap rather than
    // lose their ends.
    let screen = draw(&play, 64, 22);
    // The panel right of the compact board, whose drawing is 37 columns wide; each line of
    // the screen starts with a quote.
    let panel: Vec<String> = screen
        .lines()
        .map(|line| line.chars().skip(1 + 37).collect::<String>())
        .map(|text| text.trim_end_matches(['"', ' ']).to_owned())
        .collect();
    let head = panel.iter().position(|l| l == "Placing L, rotation 2: 137");
    assert_eq!(
        head.map(|i| panel[i + 1].as_str()),
        Some("places"),
        "{screen}"
    );
}

#[test]
fn stacks_with_the_stack_viewer_in_both_sizes() {
    let mut play = two_people(Variant::Standard, &STACKED);
    go_to(&mut play, "E4");
    insta::assert_snapshot!("stacks_compact", draw(&play, 80, 24));
    insta::assert_snapshot!("stacks_wide", draw(&play, 120, 28));
}

#[test]
fn a_tall_stack_keeps_its_top_dot_in_view_in_80_by_24() {
    // Black holds a reserve piece over the stack: the panel also explains why it cannot go
    // there, and the stack still fits below.
    let mut play = two_people(Variant::Standard, &TALL);
    press(&mut play, KeyCode::Char('T'));
    go_to(&mut play, "E4");
    let screen = draw(&play, 80, 24);
    assert!(screen.contains("E4 is not empty"), "{screen}");
    assert!(
        screen.contains("5 White T PÜNCT (TE4:0)"),
        "the top of the stack is cut off:\n{screen}"
    );
    insta::assert_snapshot!("tall_stack_compact", screen);
}

#[test]
fn a_board_piece_picked_up_by_a_minor_dot_shows_where_it_can_go() {
    // White to move; White's triangle on E7 covers E7 E6 D6.
    let mut play = two_people(Variant::Standard, &STACKED[..4]);
    go_to(&mut play, "E6");
    press(&mut play, KeyCode::Enter);
    assert_eq!(
        play.cursor().to_string(),
        "E7",
        "the cursor goes to the PÜNCT"
    );
    go_to(&mut play, "E4");
    insta::assert_snapshot!("picked_up_compact", draw(&play, 80, 24));
    insta::assert_snapshot!("picked_up_large", draw(&play, 160, 50));
    press(&mut play, KeyCode::Enter);
    assert_eq!(play.game().moves().last().unwrap().to_string(), "E7-E4:0");
}

#[test]
fn the_computer_thinking_is_shown_and_the_screen_answers_meanwhile() {
    let mut play = Play::new(PlayOptions {
        variant: Variant::Standard,
        opponent: Opponent::Computer {
            level: Level::FULL,
            human: Colour::White,
        },
        movetime: Duration::from_secs(60),
        seed: 1,
        threads: 1,
    });
    press(&mut play, KeyCode::Char(':'));
    for c in "TE4:0".chars() {
        press(&mut play, KeyCode::Char(c));
    }
    press(&mut play, KeyCode::Enter);
    let screen = draw(&play, 80, 24);
    assert!(screen.contains("Thinking"), "{screen}");
    press(&mut play, KeyCode::Right);
    press(&mut play, KeyCode::Char('T'));
    let screen = draw(&play, 80, 24);
    assert!(screen.contains("it is the computer's turn"), "{screen}");
    assert!(
        screen.contains("J9: empty board"),
        "the cursor moved:\n{screen}"
    );
}

#[test]
fn a_finished_game_shows_the_result_and_refuses_moves() {
    let mut play = two_people(Variant::Basic, &WHITE_CONNECTS);
    press(&mut play, KeyCode::Char('T'));
    insta::assert_snapshot!(draw(&play, 100, 24));
}

#[test]
fn reviewing_a_finished_game() {
    let game = two_people(Variant::Basic, &WHITE_CONNECTS).game().clone();
    let record = Record::from_game(game, "Ada", "Bob", "2026.11.22");
    let mut review =
        Review::new(vec![record], 0, "ada-bob.pgn", Duration::from_millis(10), 1).unwrap();
    insta::assert_snapshot!("review_end", draw(&review, 120, 30));
    review.key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
    review.key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
    insta::assert_snapshot!("review_two_back", draw(&review, 80, 24));
    insta::assert_snapshot!("review_large", draw(&review, 160, 50));
    review.key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE));
    insta::assert_snapshot!("review_keys", draw(&review, 80, 24));
}

#[test]
fn a_game_played_on_from_a_review_has_the_screen_to_itself() {
    let game = two_people(Variant::Basic, &WHITE_CONNECTS[..6])
        .game()
        .clone();
    let record = Record::from_game(game, "Ada", "punct level 1", "2026.11.22");
    let mut review = Review::new(vec![record], 0, "ada.pgn", Duration::from_millis(10), 1).unwrap();
    let key = |review: &mut Review, code| {
        Screen::key(review, KeyEvent::new(code, KeyModifiers::NONE));
    };
    key(&mut review, KeyCode::Left);
    key(&mut review, KeyCode::Left);
    key(&mut review, KeyCode::Char('a'));
    let reviewed = draw(&review, 80, 24);
    assert!(reviewed.contains("PÜNCT review"), "{reviewed}");
    key(&mut review, KeyCode::Char('p'));
    assert!(draw(&review, 80, 24).contains("< 1 > first steps"));
    key(&mut review, KeyCode::Left);
    key(&mut review, KeyCode::Enter);
    let count = |screen: &str, text: &str| screen.matches(text).count();
    for (width, height) in [(80, 24), (64, 22), (120, 30), (160, 50)] {
        let screen = draw(&review, width, height);
        assert_eq!(count(&screen, "to move"), 1, "{screen}");
        assert_eq!(count(&screen, "Reserve T C E L M R"), 1, "{screen}");
        for review_only in [
            "PÜNCT review",
            "After move",
            "Analys",
            "a: the engine",
            "p play on",
        ] {
            assert!(!screen.contains(review_only), "{review_only}: {screen}");
        }
        assert!(screen.contains("Two players"), "{screen}");
    }
    let screen = draw(&review, 80, 24);
    assert!(screen.contains("q review"), "{screen}");
    insta::assert_snapshot!("played_on_from_a_review", screen);
    // A move there, then q q (the game is not saved): the review as it was.
    key(&mut review, KeyCode::Char(':'));
    for c in "TK12:0".chars() {
        key(&mut review, KeyCode::Char(c));
    }
    key(&mut review, KeyCode::Enter);
    let screen = draw(&review, 80, 24);
    assert_eq!(count(&screen, "to move"), 1, "{screen}");
    key(&mut review, KeyCode::Char('q'));
    key(&mut review, KeyCode::Char('q'));
    let back = draw(&review, 80, 24);
    assert!(
        back.contains("PÜNCT review") && back.contains("After move 4 of 6"),
        "{back}"
    );
}

#[test]
fn reviewing_a_file_of_many_games() {
    let won = two_people(Variant::Basic, &WHITE_CONNECTS).game().clone();
    let stacked = two_people(Variant::Standard, &STACKED).game().clone();
    let games = vec![
        Record::from_game(won.clone(), "greedy", "random", "2026.11.22"),
        Record::from_game(stacked, "random", "greedy", "2026.11.22"),
        Record::from_game(won, "greedy", "random", "2026.11.22"),
    ];
    let mut review = Review::new(games, 1, "match.pgn", Duration::from_millis(10), 1).unwrap();
    insta::assert_snapshot!("review_games", draw(&review, 80, 24));
    review.key(KeyEvent::new(KeyCode::Char(']'), KeyModifiers::NONE));
    let screen = draw(&review, 80, 24);
    assert!(screen.contains("Game 3 of 3"), "{screen}");
    assert!(
        screen.contains("greedy (White) – random (Black)"),
        "{screen}"
    );
    review.key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE));
    insta::assert_snapshot!("review_games_keys", draw(&review, 80, 24));
}

/// A game whose shifts are long to write (`K12-J11:5`, `P14-H14:2`).
const LONG_MOVES: [&str; 11] = [
    "EL16:2",
    "TN11:2",
    "LP11:5",
    "TL15:0",
    "RK12:5",
    "LP14:3",
    "K12-J11:5",
    "N11-N14:0",
    "J11-H11:1",
    "P14-H14:2",
    "P11-Q11:1",
];

/// Checks that no two moves of `moves` stand side by side without a space on `screen`.
fn assert_moves_apart(screen: &str, moves: &[&str]) {
    for pair in moves.windows(2) {
        let joined = format!("{}{}", pair[0], pair[1]);
        assert!(!screen.contains(&joined), "{joined} in\n{screen}");
    }
}

#[test]
fn long_moves_keep_their_columns_apart() {
    let play = two_people(Variant::Standard, &LONG_MOVES);
    let record = Record::from_game(play.game().clone(), "Ada", "Bob", "2026.11.22");
    let mut review =
        Review::new(vec![record], 0, "long.pgn", Duration::from_millis(10), 1).unwrap();
    for (width, height) in [(64, 22), (80, 24), (120, 30), (160, 50)] {
        let screen = draw(&review, width, height);
        assert_moves_apart(&screen, &LONG_MOVES);
        assert!(screen.contains("4. K12-J11:5 N11-N14:0"), "{screen}");
        let screen = draw(&play, width, height);
        assert_moves_apart(&screen, &LONG_MOVES);
    }
    insta::assert_snapshot!("review_long_moves", draw(&review, 80, 24));
    insta::assert_snapshot!("play_long_moves", draw(&play, 120, 40));
    // A long move being the current one keeps its highlight within its own column.
    review.key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
    let screen = draw(&review, 80, 24);
    assert!(screen.contains("5. J11-H11:1 P14-H14:2"), "{screen}");
}

/// The basic game of `WHITE_CONNECTS` from the position after its first five moves, Black
/// to move, as a record with a `Position` tag.
fn from_a_set_position() -> Record {
    let start = two_people(Variant::Basic, &WHITE_CONNECTS[..5])
        .game()
        .position()
        .clone();
    let mut game = punct_core::Game::from_position(start);
    for mv in &WHITE_CONNECTS[5..] {
        game.play(punct_core::Move::parse(mv).unwrap()).unwrap();
    }
    let record = Record::from_game(game, "Ada", "Bob", "2026.11.22");
    // Read back from its text, as a review of a file does.
    Record::parse(&record.to_string()).unwrap()
}

#[test]
fn a_game_from_a_set_position_is_numbered_as_its_record() {
    let record = from_a_set_position();
    assert!(record.tag("Position").is_some());
    assert!(record.to_string().contains("3... TK5:0 4. EJ8:5"));
    let review = Review::new(
        vec![record.clone()],
        0,
        "set.pgn",
        Duration::from_millis(10),
        1,
    )
    .unwrap();
    let screen = draw(&review, 80, 24);
    assert!(screen.contains("3...       TK5:0"), "{screen}");
    assert!(screen.contains("4. EJ8:5   TL13:0"), "{screen}");
    insta::assert_snapshot!("review_set_position", screen);
    // Played on from the same position: the move list counts the same way.
    let options = PlayOptions {
        variant: Variant::Standard,
        opponent: Opponent::Human,
        movetime: Duration::from_millis(10),
        seed: 1,
        threads: 1,
    };
    let mut play = Play::resume(
        options,
        Game::from_position(record.game.start().clone()),
        None,
    );
    assert_eq!(
        play.options().variant,
        Variant::Basic,
        "the position's variant"
    );
    for mv in ["TK5:0", "EJ8:5"] {
        press(&mut play, KeyCode::Char(':'));
        for c in mv.chars() {
            press(&mut play, KeyCode::Char(c));
        }
        press(&mut play, KeyCode::Enter);
    }
    let screen = draw(&play, 120, 40);
    assert!(screen.contains("3...       TK5:0"), "{screen}");
    assert!(screen.contains("4. EJ8:5"), "{screen}");
    insta::assert_snapshot!("play_set_position", screen);
}

#[test]
fn the_board_widget_alone_and_a_tiny_terminal() {
    let play = two_people(Variant::Standard, &STACKED);
    let marks = Marks::default();
    for scale in Scale::LARGEST_FIRST {
        let board = BoardView {
            position: play.game().position(),
            marks: &marks,
            scale,
        };
        let mut terminal = Terminal::new(TestBackend::new(scale.width(), scale.height())).unwrap();
        terminal
            .draw(|frame| frame.render_widget(board, frame.area()))
            .unwrap();
        insta::assert_snapshot!(
            format!("board_{scale:?}").to_lowercase(),
            terminal.backend().to_string()
        );
    }
    insta::assert_snapshot!("too_small", draw(&play, 40, 10));
}

#[test]
fn the_new_game_dialog_in_80_by_24() {
    let mut play = two_people(Variant::Standard, &["TE4:0"]);
    press(&mut play, KeyCode::Char('n'));
    insta::assert_snapshot!("new_game_two_people", draw(&play, 80, 24));
    press(&mut play, KeyCode::Right);
    press(&mut play, KeyCode::Down);
    press(&mut play, KeyCode::Down);
    insta::assert_snapshot!("new_game_computer", draw(&play, 80, 24));
    press(&mut play, KeyCode::Right);
    press(&mut play, KeyCode::Enter);
    let screen = draw(&play, 80, 24);
    assert!(
        screen.contains("New standard game: you play Black"),
        "{screen}"
    );
    assert!(screen.contains("punct level 5"), "{screen}");
}

#[test]
fn the_list_of_keys() {
    let mut play = two_people(Variant::Standard, &[]);
    press(&mut play, KeyCode::Char('?'));
    insta::assert_snapshot!(draw(&play, 80, 24));
}

#[test]
fn random_keys_never_panic_at_any_size() {
    let keys: Vec<KeyCode> = [
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Backspace,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::Tab,
    ]
    .into_iter()
    .chain("TCELMRprr[]:/u?qxa0123E4-:Z én".chars().map(KeyCode::Char))
    .collect();
    let sizes = [(1, 1), (20, 8), (64, 22), (80, 24), (101, 25), (160, 50)];
    let mut play = two_people(Variant::Basic, &[]);
    let records = Record::parse_all(
        "[Variant \"basic\"]\n\n1. TE4:0 TM12:0 2. TD6:1 *\n\n[Variant \"standard\"]\n\n*\n",
    )
    .unwrap();
    let mut review = Review::new(records, 1, "r.pgn", Duration::from_millis(1), 1).unwrap();
    // A small linear congruential generator: the same sequence on every run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in 0..3000 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let key = KeyEvent::new(
            keys[(state >> 33) as usize % keys.len()],
            KeyModifiers::NONE,
        );
        // `s` would save a file; the save prompt is tested elsewhere.
        play.key(key);
        review.key(key);
        review.tick();
        if i % 50 == 0 {
            let (w, h) = sizes[(i / 50) % sizes.len()];
            draw(&play, w, h);
            draw(&review, w, h);
        }
    }
}
