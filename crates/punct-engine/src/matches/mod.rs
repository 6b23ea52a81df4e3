//! `punct match`: two players play a series of games from balanced openings, colours
//! alternating, in parallel; every game is kept as a record and the result is reported
//! with its statistical uncertainty.

pub mod external;
pub mod openings;
pub mod stats;

use std::fmt;
use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use punct_core::{Colour, Game, Move, Outcome, Record, Termination, Variant};

use crate::level::Level;
use crate::limits::{Clock, SearchLimits};
use crate::players::{AlphaBeta, EnginePlayer, Greedy, Player, Random};
use external::External;
use stats::{Sprt, Tally, Verdict};

/// Who plays: a built-in player or another program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The one-move greedy reference player.
    Greedy,
    /// The three-ply alpha-beta reference player.
    AlphaBeta,
    /// This engine at a level.
    Level(Level),
    /// A program speaking the engine protocol: the command line to start it.
    External(String),
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// `random`, `greedy`, `alphabeta`, `level1` … `level6` (or `full`), or `cmd:<command line>`.
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let lower = s.to_ascii_lowercase();
        if let Some(command) = s.strip_prefix("cmd:") {
            return if command.trim().is_empty() {
                Err("`cmd:` needs a command line after it".to_owned())
            } else {
                Ok(PlayerSpec::External(command.to_owned()))
            };
        }
        match lower.as_str() {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            "alphabeta" => Ok(PlayerSpec::AlphaBeta),
            "full" | "punct" => Ok(PlayerSpec::Level(Level::FULL)),
            _ => lower
                .strip_prefix("level")
                .and_then(|n| n.parse().ok())
                .and_then(Level::new)
                .map(PlayerSpec::Level)
                .ok_or_else(|| {
                    format!(
                        "unknown player `{s}`: expected random, greedy, alphabeta, level1 to level{}, full, \
                         or cmd:<program>",
                        Level::MAX
                    )
                }),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::AlphaBeta => f.write_str("alphabeta"),
            PlayerSpec::Level(l) => write!(f, "level{}", l.number()),
            PlayerSpec::External(c) => write!(f, "cmd:{c}"),
        }
    }
}

impl PlayerSpec {
    /// A fresh player.
    pub fn create(&self, seed: u64) -> Result<Box<dyn Player>, String> {
        Ok(match self {
            PlayerSpec::Random => Box::new(Random::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy),
            PlayerSpec::AlphaBeta => Box::new(AlphaBeta),
            PlayerSpec::Level(level) => Box::new(EnginePlayer::new(*level, seed)),
            PlayerSpec::External(command) => Box::new(External::start(command)?),
        })
    }
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The player measured.
    pub first: PlayerSpec,
    /// The opponent.
    pub second: PlayerSpec,
    /// Games to play (rounded up to pairs, each opening once with each colour).
    pub games: usize,
    /// The game played.
    pub variant: Variant,
    /// Per-move budget: `movetime` and/or `nodes`.
    pub per_move: SearchLimits,
    /// A clock per player: starting time and increment. A flag fall loses.
    pub clock: Option<(Duration, Duration)>,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed for openings and players.
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

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its number, from 0.
    pub index: usize,
    /// Whether the first player had White.
    pub first_white: bool,
    /// The first player's score.
    pub first_score: f64,
    /// The record.
    pub record: Record,
    /// What went wrong, if a player failed (illegal move, crash, time).
    pub fault: Option<String>,
    /// Whether a player lost on time.
    pub time_loss: bool,
}

/// The result of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Games from the first player's view.
    pub tally: Tally,
    /// Games lost on time by either player.
    pub time_losses: u32,
    /// Faults, one line per game that had one.
    pub faults: Vec<String>,
    /// The SPRT's verdict, when it stopped the match.
    pub verdict: Option<Verdict>,
    /// Names of the two players.
    pub names: [String; 2],
    /// Wall time.
    pub time: Duration,
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.tally;
        let (lo, hi) = t.score_interval();
        let (_, err) = t.elo();
        writeln!(
            f,
            "{} vs {}: {} games in {:.1?}",
            self.names[0],
            self.names[1],
            t.games(),
            self.time
        )?;
        writeln!(f, "W/D/L {}/{}/{}", t.wins, t.draws, t.losses)?;
        writeln!(
            f,
            "score {:.1}% (95% CI {:.1}%–{:.1}%)",
            100.0 * t.score(),
            100.0 * lo,
            100.0 * hi
        )?;
        let bound = |s: f64| {
            if s >= 1.0 {
                "+∞".to_owned()
            } else if s <= 0.0 {
                "−∞".to_owned()
            } else {
                format!("{:+.0}", stats::elo(s))
            }
        };
        // The ± form only where the interval is finite on both sides.
        let spread = if lo > 0.0 && hi < 1.0 {
            format!(" ± {err:.0}")
        } else {
            String::new()
        };
        writeln!(
            f,
            "Elo {}{spread} (95% CI {} to {})",
            bound(t.score()),
            bound(lo),
            bound(hi)
        )?;
        writeln!(f, "time losses {}", self.time_losses)?;
        if let Some(v) = self.verdict {
            writeln!(f, "SPRT stopped the match: {v:?}")?;
        }
        for fault in &self.faults {
            writeln!(f, "fault: {fault}")?;
        }
        Ok(())
    }
}

/// Plays the match.
pub fn run(config: &MatchConfig) -> Result<MatchReport, String> {
    let started = Instant::now();
    let pairs = config.games.div_ceil(2);
    let games = pairs * 2;
    let openings = openings::openings(config.variant, pairs, config.seed);
    let names = [
        config.first.create(config.seed)?.name(),
        config.second.create(config.seed)?.name(),
    ];
    let mut records = match &config.records {
        Some(path) => Some(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    let bar = if config.progress {
        ProgressBar::new(games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = channel();
    let mut report = MatchReport {
        names: names.clone(),
        ..MatchReport::default()
    };
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (next, halt, openings, names) = (&next, &halt, &openings, &names);
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
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= games || halt.load(Ordering::SeqCst) {
                        break;
                    }
                    let first_white = index % 2 == 0;
                    first.new_game();
                    second.new_game();
                    let (white, black, white_name, black_name) = if first_white {
                        (&mut first, &mut second, &names[0], &names[1])
                    } else {
                        (&mut second, &mut first, &names[1], &names[0])
                    };
                    let played = play(config, white.as_mut(), black.as_mut(), &openings[index / 2]);
                    let outcome = played.game.outcome();
                    let white_score = outcome.map_or(0.5, Outcome::white_score);
                    let mut record =
                        Record::from_game(played.game, white_name, black_name, &today());
                    record.intro = played.fault.clone();
                    let game = GameReport {
                        index,
                        first_white,
                        first_score: if first_white {
                            white_score
                        } else {
                            1.0 - white_score
                        },
                        record,
                        fault: played.fault,
                        time_loss: outcome.is_some_and(|o| o.termination == Termination::Timeout),
                    };
                    if tx.send(Ok(game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            let game = match message {
                Ok(game) => game,
                Err(e) => {
                    report.faults.push(e);
                    halt.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            report.tally.add(game.first_score);
            report.time_losses += u32::from(game.time_loss);
            if let Some(fault) = &game.fault {
                report
                    .faults
                    .push(format!("game {}: {fault}", game.index + 1));
            }
            if let Some(file) = records.as_mut() {
                let _ = writeln!(file, "{}", game.record);
            }
            let (elo, err) = report.tally.elo();
            let t = report.tally;
            bar.set_message(format!(
                "+{} ={} -{}  {:.1}%  Elo {elo:+.0}±{err:.0}",
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            ));
            bar.inc(1);
            if let Some(sprt) = config.sprt {
                let verdict = sprt.verdict(&report.tally);
                if verdict != Verdict::Continue && report.verdict.is_none() {
                    report.verdict = Some(verdict);
                    halt.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    bar.finish_and_clear();
    report.time = started.elapsed();
    if report.tally.games() == 0 && !report.faults.is_empty() {
        return Err(report.faults.join("; "));
    }
    Ok(report)
}

/// A game played out, with what went wrong if a player failed.
struct Played {
    game: Game,
    fault: Option<String>,
}

/// Plays one game from `opening`.
fn play<'a>(
    config: &MatchConfig,
    white: &'a mut dyn Player,
    black: &'a mut dyn Player,
    opening: &[Move],
) -> Played {
    let mut game = Game::new(config.variant);
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut clocks = config.clock.map(|(base, _)| [base, base]);
    let increment = config.clock.map_or(Duration::ZERO, |(_, inc)| inc);
    let mut fault = None;
    while game.outcome().is_none() {
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
    Played { game, fault }
}

/// Today's date as records write it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    jiff::Timestamp::now().strftime("%Y.%m.%d").to_string()
}
