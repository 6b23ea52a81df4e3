//! The ladder of levels: every level plays legal moves, the searching levels never miss a
//! win in one or a threat, the lowest rungs miss them with some chance but always the same
//! way for the same seed, and the ladder is ordered.

use std::sync::atomic::AtomicBool;

use punct_core::{Game, Move, Position, Variant};
use punct_engine::novice::{Habits, choose};
use punct_engine::{Engine, Level, Options, Play, SearchLimits};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// The side to move wins at once (from the tactics suite).
const WINS: &[&str] = &[
    "basic w 10 bCC2:0@1,wEC7:1@1,wEF10:1@1,bEH8:3@1,wCH11:2@1,wCJ10:2@1,bCJ12:0@1,bTK7:0@1,bEK8:5@1,wEN12:1@1",
    "standard b 15 wCB2:0@1,wCB5:0@1,wEB9:0@1,bRD12:1@1,wEE10:1@1,bCH15:0@1,wTI11:0@1,bCI13:2@1,wEI16:0@1,bEK5:0@1,bMK6:1@1,bLK14:5@1,bEL10:0@1,wEL16:1@1",
];

/// The opponent threatens to win at once, and a placement stops it.
const BLOCKS: &[&str] = &[
    "basic b 9 bCC2:0@1,wEC7:1@1,wEF10:1@1,bEH8:3@1,wCH11:2@1,wCJ10:2@1,bCJ12:0@1,bEK8:5@1,wEN12:1@1",
    "standard w 14 wCB2:0@1,bCB4:2@1,wLB6:5@1,wCD5:0@1,bEE3:2@1,wEF9:1@1,bMG5:4@1,wEH3:4@1,wEI12:1@1,bEK8:1@1,bML12:1@1,wLM15:2@1,bCP12:2@1,bRP16:4@1",
];

fn wins(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    let me = after.turn();
    after.make(mv);
    after
        .decisive_outcome()
        .is_some_and(|o| o.winner == Some(me))
}

/// Whether the opponent has a win in one after `mv` (or `mv` loses at once).
fn lets_the_opponent_win(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    let me = after.turn();
    after.make(mv);
    if let Some(o) = after.decisive_outcome() {
        return o.winner == Some(!me);
    }
    after
        .legal_moves()
        .into_iter()
        .any(|reply| wins(&after, reply))
}

fn engine_move(level: Level, seed: u64, pos: &Position) -> Move {
    let mut engine = Engine::new(Options {
        level,
        seed,
        ..Options::default()
    });
    let stop = AtomicBool::new(false);
    let game = Game::from_position(pos.clone());
    let mv = engine
        .search(&game, &SearchLimits::nodes(40), &stop, &mut |_| {})
        .best_move
        .expect("a move");
    assert!(pos.is_legal(mv), "{level}: illegal {mv} in {pos}");
    mv
}

#[test]
fn every_level_plays_legal_moves() {
    let starts = [
        Position::new(Variant::Standard),
        Position::new(Variant::Basic),
    ];
    let suite = WINS
        .iter()
        .chain(BLOCKS)
        .map(|t| Position::from_text(t).unwrap());
    let positions: Vec<Position> = starts.into_iter().chain(suite).collect();
    for level in Level::all() {
        for pos in &positions {
            engine_move(level, 1, pos);
        }
    }
}

#[test]
fn the_searching_levels_take_wins_and_stop_threats() {
    for level in Level::all().filter(|l| matches!(l.play(), Play::Search { .. })) {
        for text in WINS {
            let pos = Position::from_text(text).unwrap();
            assert!(wins(&pos, engine_move(level, 2, &pos)), "{level}: {text}");
        }
        for text in BLOCKS {
            let pos = Position::from_text(text).unwrap();
            let mv = engine_move(level, 2, &pos);
            assert!(!lets_the_opponent_win(&pos, mv), "{level}: {text}: {mv}");
        }
    }
}

fn habits(miss_win: f32, miss_threat: f32) -> Habits {
    Habits {
        miss_win,
        miss_threat,
        glance: 12,
        look_ahead: false,
        sharpness: 1.0,
    }
}

fn novice_move(habits: &Habits, seed: u64, text: &str) -> (Position, Move) {
    let pos = Position::from_text(text).unwrap();
    let mv = choose(&mut pos.clone(), habits, &mut SmallRng::seed_from_u64(seed)).unwrap();
    assert!(pos.is_legal(mv), "{text}: illegal {mv}");
    (pos, mv)
}

#[test]
fn a_player_who_misses_nothing_wins_and_defends() {
    let alert = habits(0.0, 0.0);
    for seed in 0..8 {
        for text in WINS {
            let (pos, mv) = novice_move(&alert, seed, text);
            assert!(wins(&pos, mv), "{text}: {mv}");
        }
        for text in BLOCKS {
            let (pos, mv) = novice_move(&alert, seed, text);
            assert!(!lets_the_opponent_win(&pos, mv), "{text}: {mv}");
        }
    }
}

#[test]
fn a_win_overlooked_is_never_played() {
    let blind = habits(1.0, 0.0);
    for seed in 0..8 {
        for text in WINS {
            let (pos, mv) = novice_move(&blind, seed, text);
            assert!(!wins(&pos, mv), "{text}: {mv}");
        }
    }
}

#[test]
fn the_lowest_level_misses_some_wins_and_threats_the_same_way_for_the_same_seed() {
    let level = Level::new(1).unwrap();
    let Play::Glance(habits) = level.play() else {
        panic!("level 1 does not search");
    };
    let seeds = 0..40;
    let taken = seeds
        .clone()
        .filter(|&s| {
            let (pos, mv) = novice_move(&habits, s, WINS[1]);
            wins(&pos, mv)
        })
        .count();
    assert!(0 < taken && taken < 40, "{taken} wins of 40 taken");
    let stopped = seeds
        .clone()
        .filter(|&s| {
            let (pos, mv) = novice_move(&habits, s, BLOCKS[1]);
            !lets_the_opponent_win(&pos, mv)
        })
        .count();
    assert!(
        0 < stopped && stopped < 40,
        "{stopped} threats of 40 stopped"
    );
    for seed in seeds {
        let pos = Position::from_text(BLOCKS[1]).unwrap();
        assert_eq!(
            engine_move(level, seed, &pos),
            engine_move(level, seed, &pos)
        );
    }
}

#[test]
fn the_ladder_is_ordered_from_the_first_game_to_full_strength() {
    let levels: Vec<Level> = Level::all().collect();
    assert_eq!(levels.len(), usize::from(Level::MAX));
    assert_eq!(levels.last(), Some(&Level::FULL));
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(Level::MAX + 1), None);
    let mut last_lapses = f32::INFINITY;
    let mut last_visits = 0;
    let mut searching = false;
    for level in levels {
        match level.play() {
            Play::Glance(h) => {
                assert!(!searching, "{level} glances above a searching level");
                let lapses = h.miss_win + h.miss_threat;
                assert!(
                    lapses < last_lapses,
                    "{level} misses no less than the level below"
                );
                last_lapses = lapses;
            }
            Play::Search { visits, .. } => {
                searching = true;
                let visits = visits.unwrap_or(u64::MAX);
                assert!(
                    visits > last_visits,
                    "{level} searches no more than the level below"
                );
                last_visits = visits;
            }
        }
    }
    assert_eq!(
        Level::FULL.play(),
        Play::Search {
            visits: None,
            temperature: 0.0
        }
    );
}
