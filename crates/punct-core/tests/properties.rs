//! Properties over positions reached by random play, biased towards moving pieces, jumping
//! and bridging so that most positions have stacks.

use std::collections::BTreeSet;

use proptest::prelude::*;
use punct_core::{Bitboard, Cell, Move, PieceType, Position, Variant};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// A game of random length from a seed: prefers moves of board pieces, and among those the
/// ones that land above the board.
fn random_position(seed: u64) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let variant = if rng.random_bool(0.5) {
        Variant::Standard
    } else {
        Variant::Basic
    };
    let mut pos = Position::new(variant);
    let plies = rng.random_range(0..90);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let shifts: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_placement())
            .collect();
        let mv = if !shifts.is_empty() && rng.random_bool(0.75) {
            let raised: Vec<Move> = shifts
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = pos.clone();
                    after.make(m);
                    after.height(m.destination()) > 1
                })
                .collect();
            if !raised.is_empty() && rng.random_bool(0.7) {
                raised[rng.random_range(0..raised.len())]
            } else {
                shifts[rng.random_range(0..shifts.len())]
            }
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        pos.make(mv);
        if pos.decisive_outcome().is_some() {
            break;
        }
    }
    pos
}

/// Every cell's stack, as a fingerprint of the whole internal state.
fn stacks(pos: &Position) -> Vec<Vec<punct_core::Dot>> {
    Cell::all().map(|c| pos.stack(c)).collect()
}

/// Every move text worth asking about: all placements, and every move of every piece on
/// the board (either colour, frozen or not) to every cell in every rotation.
fn candidates(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for kind in PieceType::ALL {
        for at in Cell::all() {
            for r in 0..6 {
                out.push(Move::place(kind, at, r));
            }
        }
    }
    let froms: BTreeSet<Cell> = pos.pieces().iter().map(|p| p.at).collect();
    for &from in &froms {
        for to in Cell::all() {
            for rotation in 0..6 {
                out.push(Move::Shift { from, to, rotation });
            }
        }
    }
    out
}

#[test]
fn random_play_reaches_stacks_and_bridges() {
    let (mut stacked, mut bridged) = (0, 0);
    let n = 60;
    for seed in 0..n {
        let pos = random_position(seed);
        stacked += pos.pieces().iter().any(|p| p.level > 1) as u32;
        // A bridge: some cell of the piece has nothing directly below it.
        let has_bridge = pos.pieces().iter().any(|p| {
            p.cells().unwrap().iter().any(|&c| {
                let stack = pos.stack(c);
                let i = stack.iter().position(|d| d.piece == *p).unwrap();
                let below = if i == 0 { 0 } else { stack[i - 1].piece.level };
                p.level > 1 && below + 1 < p.level
            })
        });
        bridged += has_bridge as u32;
    }
    assert!(
        stacked > n as u32 / 2,
        "only {stacked} of {n} positions have stacks"
    );
    assert!(
        bridged > n as u32 / 10,
        "only {bridged} of {n} positions have bridges"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn generator_and_its_legality_test_equal_the_rules_checker(seed in any::<u64>()) {
        let pos = random_position(seed);
        let generated = pos.legal_moves();
        let set: BTreeSet<Move> = generated.iter().copied().collect();
        prop_assert_eq!(set.len(), generated.len(), "duplicate moves generated");
        let mut accepted = BTreeSet::new();
        for m in candidates(&pos) {
            let checked = pos.check(m);
            prop_assert_eq!(pos.is_legal(m), checked.is_ok(), "{}: {} is {:?}", pos, m, checked);
            accepted.extend(checked.ok());
        }
        let missing: Vec<String> = accepted.difference(&set).map(|m| m.to_string()).collect();
        let extra: Vec<String> = set.difference(&accepted).map(|m| m.to_string()).collect();
        prop_assert!(missing.is_empty() && extra.is_empty(),
            "{}: generator misses {:?}, generator adds {:?}", pos, missing, extra);
        prop_assert_eq!(pos.count_legal_moves(), generated.len() as u64);
        prop_assert_eq!(pos.has_legal_move(), !generated.is_empty());
    }

    #[test]
    fn moves_within_the_cells_covering_a_set_are_the_legal_moves_landing_there(
        seed in any::<u64>(),
        words in any::<[[u64; 4]; 4]>(),
        few in any::<bool>(),
    ) {
        let pos = random_position(seed);
        // About 26 cells, or about 13.
        let [a, b, c, d] = words;
        let cells = Bitboard(std::array::from_fn(|i| {
            a[i] & b[i] & c[i] & if few { d[i] } else { u64::MAX }
        }));
        let lands = |mv: Move| {
            let (kind, at, rotation) = match mv {
                Move::Place { piece, at, rotation } => (piece, at, rotation),
                Move::Shift { from, to, rotation } => (pos.piece_at(from).unwrap().kind, to, rotation),
            };
            kind.footprint(at, rotation).unwrap().iter().any(|&c| cells.contains(c))
        };
        let expected: Vec<Move> = pos.legal_moves().into_iter().filter(|&mv| lands(mv)).collect();
        let mut onto = vec![Move::place(PieceType::T, Cell::parse("E4").unwrap(), 0)];
        pos.extend_legal_moves_within(|kind, r, _| kind.covering(cells, r), &mut onto);
        prop_assert_eq!(&onto[1..], &expected[..], "{}", pos);
    }

    #[test]
    fn make_unmake_restores_and_hashes_stay_exact(seed in any::<u64>()) {
        let pos = random_position(seed);
        prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
        let passed = pos.passed();
        prop_assert_eq!(passed.turn(), !pos.turn());
        prop_assert_eq!(passed.hash(), passed.hash_from_scratch());
        prop_assert_eq!(passed.passed().hash(), pos.hash());
        let before = stacks(&pos);
        let moves = pos.legal_moves();
        let mut rng = SmallRng::seed_from_u64(seed ^ 0xabcdef);
        let mut work = pos.clone();
        for _ in 0..moves.len().min(200) {
            let mv = moves[rng.random_range(0..moves.len())];
            let undo = work.make(mv);
            prop_assert_eq!(work.hash(), work.hash_from_scratch(), "after {}", mv);
            let reread = Position::from_text(&work.to_string());
            prop_assert!(reread.is_ok(), "{} does not read back: {:?}", work, reread.err());
            let reread = reread.unwrap();
            prop_assert_eq!(reread.hash(), work.hash());
            prop_assert_eq!(stacks(&reread), stacks(&work));
            work.unmake(undo);
            prop_assert_eq!(&work, &pos);
            prop_assert_eq!(work.hash(), pos.hash());
            prop_assert_eq!(stacks(&work), before.clone());
        }
    }

    #[test]
    fn texts_round_trip(seed in any::<u64>()) {
        let pos = random_position(seed);
        let text = pos.to_string();
        let reread = Position::from_text(&text).unwrap();
        prop_assert_eq!(reread.to_string(), text);
        for mv in pos.legal_moves() {
            let t = mv.to_string();
            prop_assert_eq!(pos.canonical(Move::parse(&t).unwrap()), mv);
        }
    }

    #[test]
    fn the_sampler_draws_only_legal_moves_and_indexes_all_of_them(seed in any::<u64>()) {
        let pos = random_position(seed);
        let moves = pos.legal_moves();
        for (i, &mv) in moves.iter().enumerate() {
            prop_assert_eq!(pos.nth_legal_move(i as u64), Some(mv));
        }
        prop_assert_eq!(pos.nth_legal_move(moves.len() as u64), None);
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..50 {
            let mv = pos.random_move(&mut rng);
            prop_assert_eq!(mv.is_some(), !moves.is_empty());
            if let Some(mv) = mv {
                prop_assert!(pos.check(mv).is_ok(), "{} drew illegal {}", pos, mv);
            }
        }
    }
}

#[test]
fn the_sampler_returns_every_legal_move() {
    // A few thousand moves: drawing thirty times as many must hit every one.
    let pos = Position::from_text("standard w 20 wEE4:3@1,wTH4:0@1,bTK5:0@1,bEM12:3@1").unwrap();
    let shifts: BTreeSet<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| !m.is_placement())
        .collect();
    let total = pos.count_legal_moves();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut seen = BTreeSet::new();
    for _ in 0..total * 30 {
        seen.insert(pos.random_move(&mut rng).unwrap());
    }
    assert_eq!(
        seen.len() as u64,
        total,
        "some legal moves were never drawn"
    );
    assert!(shifts.is_subset(&seen));
}
