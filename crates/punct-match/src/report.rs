//! What a match found, game by game and in sum, and how it is told.

use std::fmt;
use std::time::Duration;

use punct_core::Record;

use crate::stats::{Pentanomial, Sprt, Tally, Verdict};

/// One of the two players of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The player measured (named first).
    First,
    /// The opponent.
    Second,
}

impl Side {
    /// 0 for the first player, 1 for the second.
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// What a player searched over some moves, for those that say: each move's nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Searched {
    /// Nodes of each move that reported them, in the order played.
    pub nodes: Vec<u64>,
}

impl Searched {
    /// Counts one move's search.
    pub fn add(&mut self, nodes: u64) {
        self.nodes.push(nodes);
    }

    /// Counts another's moves too.
    pub fn merge(&mut self, other: Searched) {
        self.nodes.extend(other.nodes);
    }

    /// The median nodes of a move, when any move reported them. The median, not the mean:
    /// a few moves whose tree is almost all proven run thousands of nearly free playouts
    /// and would swamp the mean (at 100 ms a move on a loaded machine, means of 847 and 75
    /// for the same engine attached two ways).
    pub fn median(&self) -> Option<u64> {
        let mut sorted = self.nodes.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied()
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The pair it belongs to, from 0 (its opening).
    pub pair: usize,
    /// Whether the first player had White (the pair's first game).
    pub first_white: bool,
    /// The first player's score.
    pub first_score: f64,
    /// The record.
    pub record: Record,
    /// What went wrong, if a player failed (illegal move, crash, time).
    pub fault: Option<String>,
    /// Who lost on time, if anyone.
    pub time_loss: Option<Side>,
    /// What the first and the second player searched.
    pub searched: [Searched; 2],
}

impl GameReport {
    /// The game's number in the match, from 1.
    pub fn number(&self) -> usize {
        2 * self.pair + usize::from(!self.first_white) + 1
    }
}

/// The result of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Names of the two players.
    pub names: [String; 2],
    /// Every finished game, from the first player's view.
    pub tally: Tally,
    /// The complete pairs: the statistics are theirs.
    pub pairs: Pentanomial,
    /// Finished games whose pair was not completed (the match stopped between them).
    pub unpaired: u32,
    /// Games lost on time, by the first and the second player.
    pub time_losses: [u32; 2],
    /// What the first and the second player searched: at equal time, an attachment or a
    /// load that slows one side shows here.
    pub searched: [Searched; 2],
    /// Faults, one line per game that had one, and players that could not start.
    pub faults: Vec<String>,
    /// The test, its log-likelihood ratio and its verdict, when one was asked for.
    pub sprt: Option<(Sprt, f64, Verdict)>,
    /// Whether the match was interrupted before its end.
    pub interrupted: bool,
    /// Why the records file stopped being written, if it did (the match stopped there).
    pub records_error: Option<String>,
    /// Wall time.
    pub time: Duration,
}

impl MatchReport {
    /// One line for a progress bar.
    pub fn progress_line(&self) -> String {
        let t = &self.tally;
        let (elo, _, _) = self.pairs.elo();
        let mut line = format!(
            "+{} ={} -{}  Elo {} ± {}",
            t.wins,
            t.draws,
            t.losses,
            signed(elo),
            unsigned(self.pairs.elo_error())
        );
        if let Some((_, llr, _)) = self.sprt {
            line.push_str(&format!("  LLR {llr:.2}"));
        }
        line
    }

    /// One line for a table of matches against several opponents (a gauntlet).
    pub fn summary(&self) -> String {
        let p = &self.pairs;
        let (lo, hi) = p.score_interval();
        let (elo, elo_lo, elo_hi) = p.elo();
        format!(
            "vs {:<24} {:>5} games  score {:5.1}% ({:.1}–{:.1}%)  Elo {} ({} to {})",
            self.names[1],
            self.tally.games(),
            100.0 * p.score(),
            100.0 * lo,
            100.0 * hi,
            signed(elo),
            signed(elo_lo),
            signed(elo_hi)
        )
    }

    /// The test's decision in words.
    fn decision(&self, sprt: &Sprt, verdict: Verdict) -> String {
        let [first, second] = &self.names;
        match verdict {
            Verdict::AcceptH1 => format!(
                "H1 accepted: {first} is stronger than {second} by ≥ {} nElo",
                sprt.nelo1
            ),
            Verdict::AcceptH0 => format!(
                "H0 accepted: {first} is not stronger than {second} by {} nElo (≤ {} nElo)",
                sprt.nelo1, sprt.nelo0
            ),
            Verdict::Continue => "no decision yet".to_owned(),
        }
    }
}

/// An Elo figure with its sign, ±∞ where infinite.
fn signed(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".to_owned()
    } else if x == f64::NEG_INFINITY {
        "-∞".to_owned()
    } else {
        // Rounded first, so that a small negative figure is not written "-0".
        format!("{:+.0}", x.round() + 0.0)
    }
}

/// A width, ∞ where infinite.
fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.0}")
    } else {
        "∞".to_owned()
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.tally;
        let p = &self.pairs;
        let [first, second] = &self.names;
        writeln!(
            f,
            "{first} vs {second}: {} games ({} pairs) in {:.1?}",
            t.games(),
            p.pairs(),
            self.time
        )?;
        if self.interrupted {
            writeln!(f, "interrupted: a partial result")?;
        }
        writeln!(f, "W/D/L {}/{}/{}", t.wins, t.draws, t.losses)?;
        let [ll, ld, dd, wd, ww] = p.counts;
        writeln!(
            f,
            "pairs LL {ll}, LD {ld}, WL+DD {dd}, WD {wd}, WW {ww}{}",
            match self.unpaired {
                0 => String::new(),
                n => format!(" ({n} game(s) of unfinished pairs left out)"),
            }
        )?;
        let (lo, hi) = p.score_interval();
        writeln!(
            f,
            "score {:.1}% (95% CI {:.1}%–{:.1}%)",
            100.0 * p.score(),
            100.0 * lo,
            100.0 * hi
        )?;
        let (elo, elo_lo, elo_hi) = p.elo();
        let (nelo, nelo_error) = p.nelo();
        writeln!(
            f,
            "Elo {} ± {} (95% CI {} to {}), nElo {} ± {}",
            signed(elo),
            unsigned(p.elo_error()),
            signed(elo_lo),
            signed(elo_hi),
            signed(nelo),
            unsigned(nelo_error)
        )?;
        writeln!(
            f,
            "time losses: {first} {}, {second} {}",
            self.time_losses[0], self.time_losses[1]
        )?;
        if let [Some(a), Some(b)] = self.searched.each_ref().map(Searched::median) {
            writeln!(f, "nodes a move: {first} {a}, {second} {b} (medians)")?;
        }
        if let Some((sprt, llr, verdict)) = &self.sprt {
            let (lower, upper) = sprt.bounds();
            writeln!(
                f,
                "{sprt}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}); {}",
                self.decision(sprt, *verdict)
            )?;
        }
        if let Some(e) = &self.records_error {
            writeln!(f, "records: writing stopped the match: {e}")?;
        }
        for fault in &self.faults {
            writeln!(f, "fault: {fault}")?;
        }
        Ok(())
    }
}
