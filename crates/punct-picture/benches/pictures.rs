//! How long a picture takes: a position's PNG (drawing, then encoding) and a 60-move game's
//! GIF, at the sizes the server serves.

use punct_core::{Game, Move, Variant};
use punct_picture::{Animation, Options, Scene};

fn main() {
    divan::main();
}

/// A game of `plies` moves made by a fixed sequence of choices (xorshift), preferring moves
/// of pieces on the board so that it runs past the 36 placements.
fn game(plies: usize) -> Game {
    for seed in 1u64.. {
        let mut game = Game::new(Variant::Standard);
        let mut rng = seed;
        while game.moves().len() < plies && game.outcome().is_none() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let moves = game.position().legal_moves();
            let shifts: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| !m.is_placement())
                .collect();
            let pool = if !shifts.is_empty() && rng % 3 != 0 {
                &shifts
            } else {
                &moves
            };
            game.play(pool[(rng >> 8) as usize % pool.len()]).unwrap();
        }
        if game.moves().len() == plies {
            return game;
        }
    }
    unreachable!("some seed gives a long game")
}

#[divan::bench]
fn png_1200x630(bencher: divan::Bencher) {
    let game = game(60);
    let last = game.moves().last().copied();
    bencher.bench(|| punct_picture::png(game.position(), last, &Options::default()).unwrap());
}

#[divan::bench]
fn drawing_only_1200x630(bencher: divan::Bencher) {
    let game = game(60);
    let last = game.moves().last().copied();
    let scene = Scene::new(&Options::default()).unwrap();
    bencher.bench_local(|| scene.picture(game.position(), last));
}

#[divan::bench(sample_count = 10)]
fn gif_60_moves_800x420(bencher: divan::Bencher) {
    let game = game(60);
    bencher.bench(|| punct_picture::gif(&game, &Animation::default()).unwrap());
}
