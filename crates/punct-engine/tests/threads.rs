//! The search on several threads: a legal move heading its line, the limits honoured, the
//! node budget counted over all threads. (That their proofs hold is checked with the other
//! proofs, in `search.rs`.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use punct_core::{Game, Move, Variant};
use punct_engine::{Engine, Options, SearchInfo, SearchLimits};

fn engine(threads: usize, seed: u64) -> Engine {
    Engine::new(Options {
        seed,
        threads,
        ..Options::default()
    })
}

fn game_of(moves: &str) -> Game {
    let mut game = Game::new(Variant::Standard);
    for text in moves.split_whitespace() {
        game.play(Move::parse(text).unwrap()).unwrap();
    }
    game
}

/// A middle game with threats on both sides, where the threads' trees hold proofs.
const MIDDLE: &str = "TE6:1 TF5:1 EK14:0 MC2:1 K14-K15:0 CM12:1 EC4:1 RQ15:4 CH6:2 TJ7:5 LK8:4 EI5:2 MO10:4 CM10:2 E6-I6:4 LJ5:4 K15-K8:0 F5-G5:3 EF6:1 LF5:0 RQ10:3 G5-H5:2";

#[test]
fn two_threads_play_a_legal_move_heading_the_last_line_reported() {
    let stop = AtomicBool::new(false);
    for moves in ["", "TE6:1 TF5:1 EK14:0", MIDDLE] {
        let mut game = game_of(moves);
        let mut engine = engine(2, 5);
        // Three moves in a row, so that the kept trees are moved on as well.
        for _ in 0..3 {
            if game.outcome().is_some() {
                break;
            }
            let mut last: Option<SearchInfo> = None;
            let result = engine.search(&game, &SearchLimits::nodes(300), &stop, &mut |info| {
                if info.multipv == 1 {
                    last = Some(info.clone());
                }
            });
            let best = result.best_move.expect("a move");
            assert!(game.position().is_legal(best), "{moves}: {best}");
            assert_eq!(result.pv.first(), Some(&best), "{moves}");
            assert_eq!(last.expect("a line reported").pv, result.pv, "{moves}");
            game.play(best).unwrap();
        }
    }
}

#[test]
fn a_node_budget_counts_the_playouts_of_every_thread() {
    let game = game_of("TE6:1 TF5:1");
    let stop = AtomicBool::new(false);
    for threads in [1, 2, 3] {
        let result =
            engine(threads, 1).search(&game, &SearchLimits::nodes(500), &stop, &mut |_| {});
        assert_eq!(result.nodes, 500, "{threads} threads");
    }
}

#[test]
fn a_set_stop_flag_ends_a_search_on_two_threads_at_once() {
    let game = Game::new(Variant::Standard);
    let stop = AtomicBool::new(true);
    let limits = SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    };
    let result = engine(2, 1).search(&game, &limits, &stop, &mut |_| {});
    assert!(result.best_move.is_some());
    assert_eq!(result.nodes, 0);
}

#[test]
fn stop_ends_an_infinite_search_on_two_threads() {
    let game = game_of("TE6:1 TF5:1");
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    };
    let mut engine = engine(2, 1);
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        engine.search(&game, &limits, &stop, &mut |_| {})
    });
    assert!(game.position().is_legal(result.best_move.unwrap()));
    assert!(result.nodes > 0);
}

#[test]
fn a_movetime_ends_a_search_on_two_threads() {
    let game = game_of(MIDDLE);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let limits = SearchLimits::movetime(Duration::from_millis(200));
    let result = engine(2, 1).search(&game, &limits, &stop, &mut |_| {});
    assert!(game.position().is_legal(result.best_move.unwrap()));
    // A bound on correctness, not on speed: a search that ignored its time would run on
    // to its tree's capacity, minutes away.
    assert!(started.elapsed() < Duration::from_secs(20));
}
