//! Playing a match: pairs of games from the opening suite on a few threads at once, each
//! game kept as a record, the statistics updated as pairs complete.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use punct_core::{Colour, Game, Move, Outcome, Record, Termination, Variant};
use punct_engine::players::Player;
use punct_engine::{Clock, Level, SearchLimits};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use crate::openings;
use crate::player_spec::PlayerSpec;
use crate::report::{GameReport, MatchReport, Searched, Side};
use crate::stats::{Sprt, Verdict};

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The player measured.
    pub first: PlayerSpec,
    /// The opponent.
    pub second: PlayerSpec,
    /// Games to play, at least 1, rounded up to pairs (each opening once with each colour).
    pub games: usize,
    /// The game played.
    pub variant: Variant,
    /// The openings, as move lists; `None` for the committed suite of the variant.
    pub openings: Option<Vec<Vec<Move>>>,
    /// Per-move budget: `movetime` and/or `nodes`.
    pub per_move: SearchLimits,
    /// A clock per player: starting time and increment. A flag fall loses.
    pub clock: Option<(Duration, Duration)>,
    /// Pairs played at once.
    pub concurrency: usize,
    /// Seed for the order of the openings and for the players.
    pub seed: u64,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Games longer than this are drawn by adjudication.
    pub max_plies: usize,
    /// Where to write the records, one after another.
    pub records: Option<PathBuf>,
    /// Show a progress bar on the terminal.
    pub progress: bool,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            first: PlayerSpec::Level(Level::FULL),
            second: PlayerSpec::Random,
            games: 20,
            variant: Variant::Standard,
            openings: None,
            per_move: SearchLimits::movetime(Duration::from_millis(100)),
            clock: None,
            concurrency: 1,
            seed: 1,
            sprt: None,
            max_plies: 400,
            records: None,
            progress: false,
        }
    }
}

/// Plays the match until every pair is played, the SPRT decides, or `interrupt` is set
/// (games then under way are left out and the report says so).
pub fn run(config: &MatchConfig, interrupt: &AtomicBool) -> Result<MatchReport, String> {
    if config.games == 0 {
        return Err("a match needs at least one game".to_owned());
    }
    let started = Instant::now();
    let pairs = config.games.div_ceil(2);
    let suite = match &config.openings {
        Some(list) => list.clone(),
        None => openings::suite(config.variant)?,
    };
    if suite.is_empty() {
        return Err("the opening list is empty".to_owned());
    }
    let mut order: Vec<usize> = (0..suite.len()).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(config.seed));
    let names = [
        config.first.create(config.seed)?.name(),
        config.second.create(config.seed)?.name(),
    ];
    let mut records = match &config.records {
        Some(path) => Some(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    let bar = progress_bar(config.progress, pairs * 2);
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let stopped = || halt.load(Ordering::SeqCst) || interrupt.load(Ordering::SeqCst);
    let (tx, rx) = channel();
    let mut report = MatchReport {
        names: names.clone(),
        ..MatchReport::default()
    };
    // The first game of each pair whose second game is not in yet: its first player's score.
    let mut waiting: HashMap<usize, f64> = HashMap::new();
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.clamp(1, pairs) {
            let tx = tx.clone();
            let (next, stopped, suite, order, names) = (&next, &stopped, &suite, &order, &names);
            scope.spawn(move || {
                let seed = config.seed.wrapping_add(1000 * worker as u64);
                let players = config
                    .first
                    .create(seed)
                    .and_then(|a| Ok((a, config.second.create(seed + 1)?)));
                let (mut first, mut second) = match players {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let pair = next.fetch_add(1, Ordering::SeqCst);
                    if pair >= pairs || stopped() {
                        break;
                    }
                    let opening = &suite[order[pair % order.len()]];
                    for first_white in [true, false] {
                        first.new_game();
                        second.new_game();
                        let (white, black) = if first_white {
                            (&mut first, &mut second)
                        } else {
                            (&mut second, &mut first)
                        };
                        let Some(played) =
                            play(config, white.as_mut(), black.as_mut(), opening, stopped)
                        else {
                            return;
                        };
                        let game = game_report(pair, first_white, played, names);
                        if tx.send(Ok(game)).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            let mut game = match message {
                Ok(game) => game,
                Err(e) => {
                    report.faults.push(e);
                    halt.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            report.tally.add(game.first_score);
            for (total, one) in report
                .searched
                .iter_mut()
                .zip(std::mem::take(&mut game.searched))
            {
                total.merge(one);
            }
            if let Some(side) = game.time_loss {
                report.time_losses[side.index()] += 1;
            }
            if let Some(fault) = &game.fault {
                report
                    .faults
                    .push(format!("game {}: {fault}", game.number()));
            }
            if let Some(file) = records.as_mut()
                && report.records_error.is_none()
                && let Err(e) = writeln!(file, "{}", game.record)
            {
                let path = config.records.as_deref().unwrap_or_else(|| "".as_ref());
                report.records_error = Some(format!("{}: {e}", path.display()));
                halt.store(true, Ordering::SeqCst);
            }
            match waiting.remove(&game.pair) {
                Some(other) => report.pairs.add(other, game.first_score),
                None => {
                    waiting.insert(game.pair, game.first_score);
                }
            }
            if let Some(sprt) = config.sprt {
                let llr = sprt.llr(&report.pairs);
                let verdict = sprt.verdict(llr);
                report.sprt = Some((sprt, llr, verdict));
                if verdict != Verdict::Continue {
                    halt.store(true, Ordering::SeqCst);
                }
            }
            bar.set_message(report.progress_line());
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    report.unpaired = waiting.len() as u32;
    report.interrupted = interrupt.load(Ordering::SeqCst);
    report.time = started.elapsed();
    if report.tally.games() == 0 && !report.faults.is_empty() {
        return Err(report.faults.join("; "));
    }
    Ok(report)
}

fn progress_bar(shown: bool, games: usize) -> ProgressBar {
    let bar = if shown {
        ProgressBar::new(games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A finished game as the report counts it.
fn game_report(pair: usize, first_white: bool, played: Played, names: &[String; 2]) -> GameReport {
    let outcome = played.game.outcome();
    let white_score = outcome.map_or(0.5, Outcome::white_score);
    let side_of = |colour: Colour| {
        if (colour == Colour::White) == first_white {
            Side::First
        } else {
            Side::Second
        }
    };
    let time_loss = outcome
        .filter(|o| o.termination == Termination::Timeout)
        .and_then(|o| o.winner)
        .map(|winner| side_of(!winner));
    let (white_name, black_name) = if first_white {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    let [white_searched, black_searched] = played.searched;
    let searched = if first_white {
        [white_searched, black_searched]
    } else {
        [black_searched, white_searched]
    };
    let mut record = Record::from_game(played.game, white_name, black_name, &today());
    record.intro = played.fault.clone();
    GameReport {
        pair,
        first_white,
        first_score: if first_white {
            white_score
        } else {
            1.0 - white_score
        },
        record,
        fault: played.fault,
        time_loss,
        searched,
    }
}

/// A game played out, with what went wrong if a player failed.
pub(crate) struct Played {
    pub(crate) game: Game,
    fault: Option<String>,
    /// Nodes searched and moves that reported them, by colour (White first).
    searched: [Searched; 2],
}

/// Plays one game from `opening`; `None` when `stopped` says so before it ends.
pub(crate) fn play(
    config: &MatchConfig,
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &[Move],
    stopped: &dyn Fn() -> bool,
) -> Option<Played> {
    let mut game = Game::new(config.variant);
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut clocks = config.clock.map(|(base, _)| [base, base]);
    let increment = config.clock.map_or(Duration::ZERO, |(_, inc)| inc);
    let mut fault = None;
    let mut searched: [Searched; 2] = Default::default();
    while game.outcome().is_none() {
        if stopped() {
            return None;
        }
        if game.moves().len() >= config.max_plies {
            game.end(Outcome {
                winner: None,
                termination: Termination::Agreement,
            });
            fault = Some(format!(
                "drawn by adjudication after {} plies",
                config.max_plies
            ));
            break;
        }
        let side = game.position().turn();
        let mut limits = config.per_move;
        if let Some([w, b]) = clocks {
            limits.clock = Some(Clock {
                white: w,
                black: b,
                white_increment: increment,
                black_increment: increment,
            });
        }
        let player: &mut dyn Player = match side {
            Colour::White => white,
            Colour::Black => black,
        };
        let started = Instant::now();
        let choice = player.choose(&game, &limits);
        let spent = started.elapsed();
        if let Some(nodes) = player.last_nodes() {
            searched[side.index()].add(nodes);
        }
        // A move cut short by the stop (a program may have been interrupted too) is no
        // result.
        if stopped() {
            return None;
        }
        let lose = |game: &mut Game, termination| {
            game.end(Outcome {
                winner: Some(!side),
                termination,
            });
        };
        if let Some(clocks) = clocks.as_mut() {
            let left = &mut clocks[side.index()];
            if spent > *left {
                lose(&mut game, Termination::Timeout);
                fault = Some(format!(
                    "{side} lost on time ({spent:.0?} spent, {left:.0?} left)"
                ));
                break;
            }
            *left = *left - spent + increment;
        }
        let outcome = match choice {
            Ok(mv) => game
                .play(mv)
                .map(|_| ())
                .map_err(|e| format!("{side} played an illegal move: {e}")),
            Err(e) => Err(format!("{side} failed: {e}")),
        };
        if let Err(e) = outcome {
            lose(&mut game, Termination::Resignation);
            fault = Some(e);
            break;
        }
    }
    Some(Played {
        game,
        fault,
        searched,
    })
}

/// Today's date as records write it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    jiff::Timestamp::now().strftime("%Y.%m.%d").to_string()
}
