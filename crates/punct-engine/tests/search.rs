//! The search tree: reuse between moves, bounded by its limits.

use std::sync::atomic::AtomicBool;

use punct_core::{Game, Variant};
use punct_engine::search::Tree;
use punct_engine::{Engine, Level, Options, SearchLimits};

#[test]
fn the_tree_is_kept_between_moves() {
    let mut game = Game::new(Variant::Standard);
    let mut tree = Tree::new(game.position().clone());
    assert!(tree.prepare(None));
    let mut scratch = game.position().clone();
    for _ in 0..300 {
        tree.playout(&mut scratch);
    }
    let pv = tree.root.pv();
    assert!(pv.len() >= 2, "{pv:?}");
    game.play(pv[0]).unwrap();
    game.play(pv[1]).unwrap();
    let tree = tree.advance(&game);
    assert_eq!(&tree.position, game.position());
    assert!(
        tree.root.visits > 0,
        "the subtree searched before is reused"
    );
}

#[test]
fn levels_respect_their_playout_budgets() {
    let game = Game::new(Variant::Basic);
    let stop = AtomicBool::new(false);
    for level in Level::all().take(3) {
        let mut engine = Engine::new(Options { level, seed: 3 });
        let result = engine.search(&game, &SearchLimits::default(), &stop, &mut |_| {});
        assert!(result.nodes <= level.visits().unwrap(), "{level}");
        assert!(game.position().is_legal(result.best_move.unwrap()));
    }
}

#[test]
fn a_set_stop_flag_ends_the_search_at_once() {
    let game = Game::new(Variant::Standard);
    let stop = AtomicBool::new(true);
    let mut engine = Engine::new(Options::default());
    let limits = SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    };
    let result = engine.search(&game, &limits, &stop, &mut |_| {});
    assert!(result.best_move.is_some());
    assert_eq!(result.nodes, 0);
}
