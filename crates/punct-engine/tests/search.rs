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

#[test]
fn the_move_played_is_the_first_line_reported() {
    use punct_core::Move;
    use punct_engine::search::tree::Node;

    let moves: Vec<Move> = ["TE4:0", "TE5:0", "TE6:0", "TE7:0"]
        .iter()
        .map(|t| Move::parse(t).unwrap())
        .collect();
    let child = |i: usize, visits: u32, total: f32, proven: Option<f32>| Node {
        visits,
        total,
        proven,
        ..Node::new(moves[i], 0.1 * i as f32)
    };
    let mut root = Node::new(moves[0], 1.0);
    // The most visited move turned out to lose; of the two next, equal in visits, the one
    // with the better mean is played; the unvisited one with the highest prior comes last.
    root.children = vec![
        child(0, 50, 40.0, Some(0.0)),
        child(1, 20, 10.0, None),
        child(2, 20, 12.0, None),
        child(3, 0, 0.0, None),
    ];
    assert_eq!(root.best_child().unwrap().mv, moves[2]);
    let mut ranked: Vec<&Node> = root.children.iter().collect();
    ranked.sort_by(|a, b| b.play_order(a));
    let order: Vec<Move> = ranked.iter().map(|n| n.mv).collect();
    assert_eq!(order, [moves[2], moves[1], moves[3], moves[0]]);
    // A proven win is played whatever its visits.
    root.children.push(child(1, 1, 1.0, Some(1.0)));
    assert_eq!(root.best_child().unwrap().visits, 1);
}
