//! The options: announced after `pei`, set by `setoption`.

use std::io::Write;

use crate::engine::{Engine, Options};
use crate::learned::{DEFAULT_SHORTLIST, Priors};
use crate::level::Level;
use crate::search::params::{Params, TUNABLES, Tunable};
use crate::search::threads;

use super::Session;

/// The most lines `MultiPV` reports.
const MOST_LINES: usize = 16;

/// The most moves `PolicyShortlist` judges one ply deep.
const LONGEST_SHORTLIST: usize = 400;

/// One `option …` line per option, as `pei` lists them: whole numbers as `spin` with their
/// range, the other search settings as `string` with the range after the default.
pub(super) fn option_lines() -> Vec<String> {
    let mut lines = vec![
        format!(
            "option name Level type spin default {} min 1 max {}",
            Level::MAX,
            Level::MAX
        ),
        format!(
            "option name Seed type spin default {} min 0 max {}",
            Options::default().seed,
            u32::MAX
        ),
        format!("option name MultiPV type spin default 1 min 1 max {MOST_LINES}"),
        "option name Ponder type check default false".to_owned(),
        "option name Policy type combo default learned var handset var learned".to_owned(),
        format!(
            "option name PolicyShortlist type spin default {DEFAULT_SHORTLIST} min 0 max {LONGEST_SHORTLIST}"
        ),
        format!(
            "option name Threads type spin default 1 min 1 max {}",
            threads::most()
        ),
    ];
    let defaults = Params::default();
    for t in TUNABLES {
        let (lo, hi) = t.range;
        let kind = if t.whole { "spin" } else { "string" };
        lines.push(format!(
            "option name {} type {kind} default {} min {lo} max {hi}",
            t.name,
            (t.get)(&defaults)
        ));
    }
    lines
}

impl<W: Write + Send + 'static> Session<W> {
    /// `setoption name <name> value <value>`.
    pub(super) fn set_option(&mut self, words: &[&str]) {
        let (name, value) = match words {
            ["name", rest @ ..] => match rest.iter().position(|w| *w == "value") {
                Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => return self.error("expected `setoption name <name> value <value>`"),
        };
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse().ok().and_then(Level::new) {
                Some(level) => self.engine().set_level(level),
                None => self.error(&format!("Level must be 1 to {}, not `{value}`", Level::MAX)),
            },
            "seed" => match value.parse::<u64>() {
                Ok(seed) => {
                    let options = self.engine().options();
                    let priors = self.engine().priors();
                    let mut engine = Engine::new(Options { seed, ..options });
                    engine.set_priors(priors);
                    self.engine = Some(engine);
                }
                Err(_) => self.error(&format!("Seed must be a number, not `{value}`")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MOST_LINES).contains(&n) => self.engine().set_multipv(n),
                _ => self.error(&format!("MultiPV must be 1 to {MOST_LINES}, not `{value}`")),
            },
            // Only says whether the other side lets the engine ponder: `go ponder` works
            // either way.
            "ponder" => {
                if !matches!(value.as_str(), "true" | "false") {
                    self.error(&format!("Ponder must be true or false, not `{value}`"));
                }
            }
            "policy" => match value.to_ascii_lowercase().as_str() {
                "handset" => self.engine().set_priors(Priors::HandSet),
                "learned" => {
                    let shortlist = self.shortlist;
                    self.engine().set_priors(Priors::Learned { shortlist });
                }
                _ => self.error(&format!("Policy must be handset or learned, not `{value}`")),
            },
            "policyshortlist" => match value.parse::<usize>() {
                Ok(n) if n <= LONGEST_SHORTLIST => {
                    self.shortlist = n;
                    if let Priors::Learned { .. } = self.engine().priors() {
                        self.engine().set_priors(Priors::Learned { shortlist: n });
                    }
                }
                _ => self.error(&format!(
                    "PolicyShortlist must be 0 to {LONGEST_SHORTLIST}, not `{value}`"
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=threads::most()).contains(&n) => self.engine().set_threads(n),
                _ => self.error(&format!(
                    "Threads must be 1 to {} (twice this machine's cores), not `{value}`",
                    threads::most()
                )),
            },
            _ => match TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(&name)) {
                Some(t) => self.set_tunable(t, &value),
                None => self.error(&format!("unknown option `{name}` (`pei` lists them)")),
            },
        }
    }

    /// Sets the search setting `t` to `value`, a whole number if it holds only those.
    fn set_tunable(&mut self, t: &Tunable, value: &str) {
        let (lo, hi) = t.range;
        match value.parse::<f64>() {
            Ok(v) if t.whole && v.fract() != 0.0 => self.error(&format!(
                "{} must be a whole number {lo} to {hi}, not `{value}`",
                t.name
            )),
            Ok(v) if v.is_finite() => {
                let mut params = self.engine().params();
                match params.set(t.name, v) {
                    Ok(()) => self.engine().set_params(params),
                    Err(e) => self.error(&e),
                }
            }
            _ => self.error(&format!("{} must be a number, not `{value}`", t.name)),
        }
    }
}
