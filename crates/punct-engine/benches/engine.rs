//! Nodes per second of the search in three kinds of position (with hand-set and with learned
//! priors), and the cost of the static evaluation, of move ordering (hand-set and learned)
//! and of finding the moves that stop a threat. Run with `cargo bench -p punct-engine`.

use std::sync::atomic::AtomicBool;

use divan::Bencher;
use divan::counter::ItemsCount;
use punct_core::{Game, Position};
use punct_engine::evaluation::evaluate;
use punct_engine::evaluation::features::{MoveContext, priors};
use punct_engine::learned::{PolicyContext, Priors, learned_priors};
use punct_engine::tactics::defend;
use punct_engine::{Engine, Options, SearchLimits};

/// Playouts per timed search.
const NODES: u64 = 300;

/// Two placements in.
const OPENING: &str = "standard w 2 bLG3:3@1,wLH11:3@1";

/// Pieces stacked three high, both sides with pieces to move and to place.
const MIDGAME: &str = "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,\
                       wLH11:3@1,bEH15:0@1,wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3";

/// Most pieces placed, stacks three high, few moves left (955).
const LATE: &str = "standard w 44 bEB8:3@1,bRC6:5@1,wMD3:3@1,bCD5:2@1,wED12:4@1,bLE2:1@1,\
                    wEE9:0@1,wRE10:5@1,wCF5:0@1,bTG5:3@1,bEH2:2@1,bTH7:2@1,bLI3:2@1,wRI5:4@1,\
                    bEI10:1@1,wCJ3:0@1,bMJ5:4@1,wMJ9:5@1,bTJ11:5@1,bCL6:2@1,bRN6:0@1,bME5:3@2,\
                    wLE7:0@2,bEG8:2@2,bTH4:3@2,wEJ4:4@2,wEJ9:3@2,wLD5:5@3";

/// The positions by name, for benchmarks that run on each.
const POSITIONS: [&str; 3] = ["opening", "midgame", "late"];

fn position(name: &str) -> Position {
    let text = match name {
        "opening" => OPENING,
        "midgame" => MIDGAME,
        _ => LATE,
    };
    Position::from_text(text).expect("benchmark positions are valid")
}

fn main() {
    divan::main();
}

fn search(bencher: Bencher, name: &str) {
    search_with(bencher, name, Priors::HandSet);
}

fn search_with(bencher: Bencher, name: &str, priors: Priors) {
    let game = Game::from_position(position(name));
    let stop = AtomicBool::new(false);
    bencher.counter(ItemsCount::new(NODES)).bench_local(|| {
        let mut engine = Engine::new(Options::default());
        engine.set_priors(priors);
        engine.search(&game, &SearchLimits::nodes(NODES), &stop, &mut |_| {})
    });
}

#[divan::bench(sample_count = 10)]
fn search_midgame_learned(bencher: Bencher) {
    search_with(bencher, "midgame", Priors::Learned { shortlist: 32 });
}

#[divan::bench(sample_count = 10)]
fn search_opening(bencher: Bencher) {
    search(bencher, "opening");
}

#[divan::bench(sample_count = 10)]
fn search_midgame(bencher: Bencher) {
    search(bencher, "midgame");
}

#[divan::bench(sample_count = 10)]
fn search_late(bencher: Bencher) {
    search(bencher, "late");
}

#[divan::bench(args = POSITIONS)]
fn evaluation(bencher: Bencher, name: &str) {
    let pos = position(name);
    bencher.bench_local(|| evaluate(divan::black_box(&pos)));
}

#[divan::bench(args = POSITIONS)]
fn move_ordering(bencher: Bencher, name: &str) {
    let pos = position(name);
    let moves = pos.legal_moves();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| priors(&MoveContext::new(&pos), &moves, 24));
}

#[divan::bench(args = POSITIONS)]
fn learned_move_ordering(bencher: Bencher, name: &str) {
    let pos = position(name);
    let moves = pos.legal_moves();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| {
            let ctx = PolicyContext::new(&pos);
            moves
                .iter()
                .map(|&mv| ctx.logit(mv))
                .fold(f32::MIN, f32::max)
        });
}

/// The priors of a node inside the tree with learned priors judged lazily: the policy's
/// softmax over its 40 best of all legal moves, the position's tables built first.
#[divan::bench(args = POSITIONS)]
fn learned_move_priors(bencher: Bencher, name: &str) {
    let pos = position(name);
    let moves = pos.legal_moves();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| learned_priors(&mut pos.clone(), &moves, 0, 40, 1.0));
}

/// White threatens C2-D3:2; 16 of Black's 3 334 moves stop it (from a game greedy won in
/// eight moves because the engine gave up looking for them).
const THREATENED: &str = "standard b 13 wTC2:0@1,wEC11:0@1,bED4:1@1,wCD6:0@1,wCE3:2@1,\
                          wTE9:1@1,bLF6:0@1,bLF7:2@1,bMF9:3@1,wTH4:0@1,wMJ3:5@1,bEJ13:1@1,\
                          bEL15:4@1";

#[divan::bench(sample_count = 20)]
fn stoppers(bencher: Bencher) {
    let pos = Position::from_text(THREATENED).expect("benchmark positions are valid");
    let moves = pos.legal_moves();
    bencher.bench_local(|| defend(&mut pos.clone(), &moves, &|| false));
}
