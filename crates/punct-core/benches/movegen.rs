//! Move generation, make / unmake, random games and perft.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use punct_core::{Position, Variant, perft};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn main() {
    divan::main();
}

/// Four pieces placed.
const OPENING: &str = "standard w 4 wTE4:0@1,wTH4:0@1,bTK5:0@1,bEM12:3@1";
/// 18 pieces, stacks three high and bridges, from 40 plies of random play.
const MIDGAME: &str = "standard w 40 bTC7:3@1,wCD3:1@1,wED7:1@1,bTE3:5@1,bMF14:3@1,wEH4:4@1,bEJ2:4@1,bTJ4:0@1,wTJ12:5@1,bMK16:2@1,bCL6:2@1,wLL10:1@1,wLM15:1@1,bEO10:4@1,wEC2:4@2,bLK3:2@2,bRL16:3@2,bLJ4:5@3";
/// 34 pieces, one left in each reserve.
const LATE: &str = "standard w 34 wTA2:3@1,bTA4:4@1,wTA5:3@1,wTA8:4@1,bTB2:4@1,bTB7:4@1,wCC1:2@1,bTC10:4@1,wEC11:4@1,wCD4:0@1,bTD6:4@1,wED7:3@1,bCE2:0@1,wEE11:4@1,wEF1:3@1,wTF6:3@1,wTF9:4@1,bCF10:1@1,bEF13:4@1,bEG1:3@1,wLG5:4@1,wLG15:4@1,wMH2:2@1,bEH5:5@1,bLH13:4@1,bEI3:5@1,wMI12:1@1,wRJ4:0@1,bLJ7:4@1,wRJ15:0@1,bMK12:1@1,bML5:2@1,bRL10:0@1,bRL15:0@1";

const POSITIONS: [&str; 3] = ["opening", "midgame", "late"];

fn position(name: &str) -> Position {
    let text = match name {
        "opening" => OPENING,
        "midgame" => MIDGAME,
        _ => LATE,
    };
    Position::from_text(text).unwrap()
}

#[divan::bench(args = POSITIONS, name = "legal_moves")]
fn legal_moves(bencher: Bencher, name: &str) {
    let pos = position(name);
    let mut out = Vec::with_capacity(8192);
    bencher
        .counter(ItemsCount::new(pos.count_legal_moves()))
        .bench_local(|| {
            out.clear();
            black_box(&pos).extend_legal_moves(&mut out);
            out.len()
        });
}

#[divan::bench(args = POSITIONS)]
fn count_legal_moves(bencher: Bencher, name: &str) {
    let pos = position(name);
    bencher
        .counter(ItemsCount::new(pos.count_legal_moves()))
        .bench_local(|| black_box(&pos).count_legal_moves());
}

/// The fast legality test, over every legal move of the position (the server's check of a
/// move sent to it).
#[divan::bench(args = POSITIONS)]
fn is_legal(bencher: Bencher, name: &str) {
    let pos = position(name);
    let moves = pos.legal_moves();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| {
            moves
                .iter()
                .filter(|&&m| black_box(&pos).is_legal(m))
                .count()
        });
}

/// Whether the side to move has a legal move: asked after every move played, to see
/// whether the game can go on.
#[divan::bench(args = POSITIONS)]
fn has_legal_move(bencher: Bencher, name: &str) {
    let pos = position(name);
    bencher.bench_local(|| black_box(&pos).has_legal_move());
}

#[divan::bench(args = POSITIONS)]
fn random_move(bencher: Bencher, name: &str) {
    let pos = position(name);
    let mut rng = SmallRng::seed_from_u64(1);
    bencher.bench_local(|| black_box(&pos).random_move(&mut rng));
}

#[divan::bench]
fn make_unmake(bencher: Bencher) {
    let mut pos = Position::from_text(MIDGAME).unwrap();
    let moves = pos.legal_moves();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| {
            for &mv in &moves {
                let undo = pos.make(mv);
                pos.unmake(black_box(undo));
            }
        });
}

/// The alternative to make / unmake: copy the position, then make on the copy.
#[divan::bench]
fn copy_make(bencher: Bencher) {
    let pos = position("midgame");
    let moves = pos.legal_moves();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| {
            for &mv in &moves {
                let mut child = black_box(&pos).clone();
                child.make(mv);
                black_box(&child);
            }
        });
}

#[divan::bench]
fn decisive_outcome(bencher: Bencher) {
    let pos = Position::from_text(MIDGAME).unwrap();
    bencher.bench_local(|| black_box(&pos).decisive_outcome());
}

/// A uniformly random game from the empty board until it ends.
#[divan::bench]
fn random_game(bencher: Bencher) {
    let mut rng = SmallRng::seed_from_u64(2);
    bencher.bench_local(|| {
        let mut pos = Position::new(Variant::Standard);
        while pos.decisive_outcome().is_none() {
            match pos.random_move(&mut rng) {
                Some(mv) => {
                    pos.make(mv);
                }
                None => break,
            }
        }
        pos.ply()
    });
}

#[divan::bench(args = [Variant::Basic, Variant::Standard])]
fn perft_2(variant: Variant) -> u64 {
    perft(&Position::new(variant), 2)
}

#[divan::bench(args = POSITIONS)]
fn position_text_write(bencher: Bencher, name: &str) {
    let pos = position(name);
    bencher.bench_local(|| black_box(&pos).to_string());
}

#[divan::bench(args = POSITIONS)]
fn position_text_read(bencher: Bencher, name: &str) {
    let text = position(name).to_string();
    bencher.bench_local(|| Position::from_text(black_box(&text)));
}
