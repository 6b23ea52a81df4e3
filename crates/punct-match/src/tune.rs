//! Tuning search settings by SPSA (simultaneous perturbation stochastic approximation), as
//! fishtest tunes Stockfish: every iteration shifts all tuned settings at once by ±c in a
//! random direction, plays one opening twice between the two shifted engines (colours
//! swapped), and moves the settings towards the side that scored better. Noisy game results
//! average out over thousands of pairs; what the tuner ends with is a candidate, to be
//! confirmed by an SPRT (`punct match`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use punct_core::{Move, Outcome};
use punct_engine::players::{EnginePlayer, Player};
use punct_engine::search::params::{Params, TUNABLES, Tunable};
use punct_engine::{Level, Options};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::openings;
use crate::runner::{MatchConfig, play};

/// One setting to tune: where it starts and how far it is shifted.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The setting, as [`TUNABLES`] names it.
    pub name: String,
    /// Its first value.
    pub start: f64,
    /// Its shift in the last iteration (fishtest's `c_end`): about the smallest change
    /// worth a few Elo.
    pub c_end: f64,
}

impl std::str::FromStr for Tuned {
    type Err = String;

    /// `name,start,c_end`, such as `exploration,1.6,0.2`.
    fn from_str(s: &str) -> Result<Tuned, String> {
        let parts: Vec<&str> = s.split(',').collect();
        let [name, start, c_end] = parts[..] else {
            return Err(format!("`{s}`: expected name,start,c_end"));
        };
        let tunable = tunable(name)?;
        let number = |what: &str, v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("`{s}`: {what} must be a number, not `{v}`"))
        };
        let (start, c_end) = (number("start", start)?, number("c_end", c_end)?);
        let (lo, hi) = tunable.range;
        if !(lo..=hi).contains(&start) {
            return Err(format!("`{s}`: {} must be {lo} to {hi}", tunable.name));
        }
        if c_end <= 0.0 {
            return Err(format!("`{s}`: c_end must be above 0"));
        }
        Ok(Tuned {
            name: tunable.name.to_owned(),
            start,
            c_end,
        })
    }
}

fn tunable(name: &str) -> Result<&'static Tunable, String> {
    TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
            format!(
                "unknown setting `{name}`: expected one of {}",
                names.join(", ")
            )
        })
}

/// How a tuning run goes.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The settings tuned.
    pub tuned: Vec<Tuned>,
    /// The settings of the engine the tuned ones start from (the others stay as they are).
    pub base: Params,
    /// Iterations: one pair of games each.
    pub iterations: usize,
    /// Learning rate at the last iteration (fishtest's `r_end`).
    pub r_end: f64,
    /// How games are played (variant, per-move budget, pairs at once, seed, openings).
    pub games: MatchConfig,
}

/// Where the run stands: the iterations done and the settings now.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Iterations done.
    pub done: usize,
    /// Current value of each tuned setting, in the order given.
    pub values: Vec<f64>,
    /// Sum over the pairs of the first (plus-shifted) engine's wins minus losses.
    pub balance: f64,
}

impl Progress {
    /// The engine with the current settings, as `punct match` names it.
    pub fn spec(&self, tuned: &[Tuned]) -> String {
        let settings: Vec<String> = tuned
            .iter()
            .zip(&self.values)
            .map(|(t, v)| format!("{}={v:.4}", t.name.to_ascii_lowercase()))
            .collect();
        format!("full:{}", settings.join(","))
    }
}

/// fishtest's exponents: the step shrinks as 1/k^0.602, the shift as 1/k^0.101.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// Runs SPSA until every iteration is played or `interrupt` is set, calling `report` after
/// each pair; returns where it ended.
pub fn run(
    config: &TuneConfig,
    interrupt: &AtomicBool,
    report: &(dyn Fn(&Progress) + Sync),
) -> Result<Progress, String> {
    if config.tuned.is_empty() {
        return Err("nothing to tune: name at least one setting".to_owned());
    }
    if config.iterations == 0 {
        return Err("tuning needs at least one iteration".to_owned());
    }
    let suite = match &config.games.openings {
        Some(list) => list.clone(),
        None => openings::suite(config.games.variant)?,
    };
    if suite.is_empty() {
        return Err("the opening list is empty".to_owned());
    }
    let mut order: Vec<usize> = (0..suite.len()).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(config.games.seed));
    let n = config.iterations as f64;
    let big_a = 0.1 * n;
    let schedule: Vec<(f64, f64)> = config
        .tuned
        .iter()
        .map(|t| {
            let c = t.c_end * n.powf(GAMMA);
            let a_end = config.r_end * t.c_end * t.c_end;
            (c, a_end * (big_a + n).powf(ALPHA))
        })
        .collect();
    let state = Mutex::new((
        Progress {
            done: 0,
            values: config.tuned.iter().map(|t| t.start).collect(),
            balance: 0.0,
        },
        0usize,
    ));
    let failure = Mutex::new(None);
    let workers = config.games.concurrency.clamp(1, config.iterations);
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let (state, failure, suite, order, schedule) =
                (&state, &failure, &suite, &order, &schedule);
            scope.spawn(move || {
                loop {
                    if interrupt.load(Ordering::SeqCst) {
                        return;
                    }
                    // Take the next iteration and the shifted settings under the lock.
                    let (k, flips, plus, minus) = {
                        let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                        let (progress, next) = &mut *guard;
                        if *next >= config.iterations {
                            return;
                        }
                        *next += 1;
                        let k = *next;
                        let mut rng = SmallRng::seed_from_u64(
                            config.games.seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                        );
                        let flips: Vec<f64> = config
                            .tuned
                            .iter()
                            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
                            .collect();
                        let shifted = |sign: f64| -> Result<Params, String> {
                            let mut params = config.base;
                            for (i, t) in config.tuned.iter().enumerate() {
                                let c_k = schedule[i].0 / (k as f64).powf(GAMMA);
                                let (lo, hi) = tunable(&t.name)?.range;
                                let v = (progress.values[i] + sign * c_k * flips[i]).clamp(lo, hi);
                                params.set(&t.name, v)?;
                            }
                            Ok(params)
                        };
                        match shifted(1.0).and_then(|p| Ok((p, shifted(-1.0)?))) {
                            Ok((plus, minus)) => (k, flips, plus, minus),
                            Err(e) => {
                                *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                                return;
                            }
                        }
                    };
                    let opening = &suite[order[k % order.len()]];
                    let seed = config
                        .games
                        .seed
                        .wrapping_add(1000 * worker as u64 + k as u64);
                    let Some(result) =
                        play_pair(&config.games, plus, minus, opening, seed, interrupt)
                    else {
                        return;
                    };
                    let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                    let (progress, _) = &mut *guard;
                    for (i, t) in config.tuned.iter().enumerate() {
                        let (c, a) = schedule[i];
                        let c_k = c / (k as f64).powf(GAMMA);
                        let a_k = a / (big_a + k as f64).powf(ALPHA);
                        let (lo, hi) = tunable(&t.name).map_or((f64::MIN, f64::MAX), |t| t.range);
                        let step = a_k / (c_k * c_k) * c_k * result * flips[i];
                        progress.values[i] = (progress.values[i] + step).clamp(lo, hi);
                    }
                    progress.done += 1;
                    progress.balance += result;
                    report(progress);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let (progress, _) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(progress)
}

/// Plays `opening` twice, `plus` with White first; returns `plus`'s wins minus losses.
fn play_pair(
    games: &MatchConfig,
    plus: Params,
    minus: Params,
    opening: &[Move],
    seed: u64,
    interrupt: &AtomicBool,
) -> Option<f64> {
    let engine = |params, seed| {
        EnginePlayer::with_options(Options {
            level: Level::FULL,
            seed,
            threads: 1,
        })
        .with_params(params)
    };
    let stopped = || interrupt.load(Ordering::SeqCst);
    let mut balance = 0.0;
    for plus_white in [true, false] {
        let (mut a, mut b) = (engine(plus, seed), engine(minus, seed + 1));
        a.new_game();
        b.new_game();
        let (white, black): (&mut dyn Player, &mut dyn Player) = if plus_white {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let played = play(games, white, black, opening, &stopped)?;
        let white_score = played.game.outcome().map_or(0.5, Outcome::white_score);
        let plus_score = if plus_white {
            white_score
        } else {
            1.0 - white_score
        };
        balance += 2.0 * plus_score - 1.0;
    }
    Some(balance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_engine::SearchLimits;

    #[test]
    fn settings_to_tune_are_read_and_checked() {
        let t: Tuned = "exploration,1.6,0.2".parse().unwrap();
        assert_eq!(t.name, "Exploration");
        assert_eq!((t.start, t.c_end), (1.6, 0.2));
        for (text, says) in [
            ("exploration,1.6", "expected name,start,c_end"),
            ("depth,1,1", "unknown setting `depth`"),
            ("exploration,x,0.2", "start must be a number"),
            ("exploration,1.6,0", "c_end must be above 0"),
            ("exploration,99,0.2", "Exploration must be"),
        ] {
            let e = text.parse::<Tuned>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn a_short_run_moves_the_settings_and_stays_in_range() {
        let config = TuneConfig {
            tuned: vec!["exploration,1.6,0.4".parse().unwrap()],
            base: Params::default(),
            iterations: 4,
            r_end: 0.5,
            games: MatchConfig {
                per_move: SearchLimits::nodes(8),
                concurrency: 2,
                ..MatchConfig::default()
            },
        };
        let reports = Mutex::new(0);
        let end = run(&config, &AtomicBool::new(false), &|p| {
            *reports.lock().unwrap() += 1;
            assert!(p.done <= 4);
        })
        .unwrap();
        assert_eq!(end.done, 4);
        assert_eq!(*reports.lock().unwrap(), 4);
        let (lo, hi) = tunable("exploration").unwrap().range;
        assert!((lo..=hi).contains(&end.values[0]));
        assert!(end.spec(&config.tuned).starts_with("full:exploration="));
        let e = run(
            &TuneConfig {
                tuned: Vec::new(),
                ..config
            },
            &AtomicBool::new(false),
            &|_| {},
        )
        .unwrap_err();
        assert!(e.contains("nothing to tune"));
    }
}
