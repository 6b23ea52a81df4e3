//! The opening suite: short openings judged balanced by a real search, committed as text
//! files (`openings/<variant>.txt`) and compiled into the binary, so that every match
//! starts from the same, known positions. [`generate`] makes them again from a seed
//! (`punct openings`); [`parse`] reads a suite back.
//!
//! Each opening is played twice, once with each colour, so what is left of an imbalance
//! cancels out within its pair; a balanced suite keeps the pairs informative (a lopsided
//! opening gives a win each and says nothing about the players).

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use punct_core::{Game, Move, Variant};
use punct_engine::{Engine, Options, SearchLimits};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// The committed suite of the standard game.
const STANDARD: &str = include_str!("../openings/standard.txt");

/// The committed suite of the basic game.
const BASIC: &str = include_str!("../openings/basic.txt");

/// The committed suite of `variant`.
pub fn suite(variant: Variant) -> Result<Vec<Vec<Move>>, String> {
    let text = match variant {
        Variant::Standard => STANDARD,
        Variant::Basic => BASIC,
    };
    parse(text, variant).map_err(|e| format!("the committed {variant} openings: {e}"))
}

/// Reads a suite: one opening per line, its moves separated by spaces; `#` starts a
/// comment, and lines with nothing else are skipped. Every opening must be legal from the
/// start of `variant` and leave the game going.
pub fn parse(text: &str, variant: Variant) -> Result<Vec<Vec<Move>>, String> {
    let mut suite = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let mut game = Game::new(variant);
        let mut moves = Vec::new();
        for word in content.split_whitespace() {
            let mv = Move::parse(word).map_err(|e| format!("line {}: {e}", i + 1))?;
            game.play(mv).map_err(|e| format!("line {}: {e}", i + 1))?;
            moves.push(mv);
        }
        if game.outcome().is_some() {
            return Err(format!("line {}: the game is over after it", i + 1));
        }
        suite.push(moves);
    }
    Ok(suite)
}

/// How a suite is generated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Generation {
    /// The game.
    pub variant: Variant,
    /// Openings wanted.
    pub count: usize,
    /// Random moves in each.
    pub plies: usize,
    /// Playouts of the search that judges each.
    pub nodes: u64,
    /// How far from ½ the search's win chance for the side to move may be.
    pub tolerance: f32,
    /// Seed of the random moves.
    pub seed: u64,
}

/// An opening with the search's win chance for the side to move after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The moves.
    pub moves: Vec<Move>,
    /// The search's expected score for the side to move, 0 to 1.
    pub score: f32,
}

/// Random openings kept when a search of `nodes` playouts by the full-strength engine
/// calls them balanced; the same for the same settings. `on_candidate` hears of each
/// candidate judged and whether it was kept. Stops after `100 · count` candidates with
/// what it has.
pub fn generate(settings: &Generation, on_candidate: &mut dyn FnMut(&Judged, bool)) -> Vec<Judged> {
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let stop = AtomicBool::new(false);
    for _ in 0..100 * settings.count {
        if kept.len() >= settings.count {
            break;
        }
        let mut game = Game::new(settings.variant);
        let mut moves = Vec::new();
        for _ in 0..settings.plies {
            let Some(mv) = game.position().random_move(&mut rng) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        if game.outcome().is_some() || moves.len() < settings.plies || !seen.insert(moves.clone()) {
            continue;
        }
        // A fresh engine for each, so that a candidate's judgement never depends on those
        // before it.
        let mut engine = Engine::new(Options::default());
        let result = engine.search(
            &game,
            &SearchLimits::nodes(settings.nodes),
            &stop,
            &mut |_| {},
        );
        let judged = Judged {
            moves,
            score: result.score.expectation(),
        };
        let keep = (judged.score - 0.5).abs() <= settings.tolerance;
        on_candidate(&judged, keep);
        if keep {
            kept.push(judged);
        }
    }
    kept
}

/// A suite as its file holds it: [`header`], then one [`line`] per opening.
pub fn to_text(settings: &Generation, suite: &[Judged]) -> String {
    let mut text = header(settings);
    for opening in suite {
        text.push_str(&line(opening));
    }
    text
}

/// The head of a suite's file: how it was made, as the command that makes it again.
pub fn header(settings: &Generation) -> String {
    let g = settings;
    format!(
        "# PÜNCT {variant} openings for `punct match`: {plies} random moves each, kept when a\n\
         # search of {nodes} playouts gives the side to move {lo:.0}–{hi:.0} %. Made by\n\
         #   punct openings --variant {variant} --count {count} --plies {plies} --nodes {nodes} \
         --tolerance {tolerance} --seed {seed}\n\
         # Each line: the moves, then the search's win chance for the side to move.\n",
        variant = g.variant,
        plies = g.plies,
        nodes = g.nodes,
        lo = 100.0 * (0.5 - g.tolerance),
        hi = 100.0 * (0.5 + g.tolerance),
        count = g.count,
        tolerance = g.tolerance,
        seed = g.seed,
    )
}

/// One opening's line: its moves, then its judgement as a comment.
pub fn line(opening: &Judged) -> String {
    let moves: Vec<String> = opening.moves.iter().map(Move::to_string).collect();
    format!("{}  # {:.3}\n", moves.join(" "), opening.score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_suites_are_legal_and_a_few_hundred_long() {
        let standard = suite(Variant::Standard).unwrap();
        assert!(standard.len() >= 200, "{}", standard.len());
        let basic = suite(Variant::Basic).unwrap();
        assert!(basic.len() >= 50, "{}", basic.len());
        let distinct: HashSet<_> = standard.iter().collect();
        assert_eq!(distinct.len(), standard.len(), "no opening twice");
    }

    #[test]
    fn a_suite_reads_back_what_was_written() {
        let settings = Generation {
            variant: Variant::Basic,
            count: 3,
            plies: 2,
            nodes: 30,
            tolerance: 0.5,
            seed: 7,
        };
        let mut heard = 0;
        let made = generate(&settings, &mut |_, _| heard += 1);
        assert_eq!(made.len(), 3);
        assert_eq!(heard, 3);
        let again = generate(&settings, &mut |_, _| {});
        assert_eq!(made, again, "the same settings make the same suite");
        let text = to_text(&settings, &made);
        let read = parse(&text, Variant::Basic).unwrap();
        let moves: Vec<Vec<Move>> = made.into_iter().map(|j| j.moves).collect();
        assert_eq!(read, moves);
    }

    #[test]
    fn a_tolerance_keeps_only_balanced_openings() {
        let settings = Generation {
            variant: Variant::Basic,
            count: 2,
            plies: 2,
            nodes: 30,
            tolerance: 0.1,
            seed: 3,
        };
        let mut judged = Vec::new();
        let kept = generate(&settings, &mut |j, keep| judged.push((j.score, keep)));
        assert!(kept.iter().all(|j| (j.score - 0.5).abs() <= 0.1));
        assert!(
            judged
                .iter()
                .all(|&(s, keep)| keep == ((s - 0.5).abs() <= 0.1))
        );
    }

    #[test]
    fn bad_suites_are_refused_with_the_line() {
        let cases = [
            ("TE4:0 XX", "line 1"),
            ("# fine\n\nTE4:0 TE4:0", "line 3"),
            ("TI9:0", "line 1"),
        ];
        for (text, line) in cases {
            let e = parse(text, Variant::Standard).unwrap_err();
            assert!(e.contains(line), "{text}: {e}");
        }
        assert_eq!(
            parse("TE4:0 TK5:0  # 0.5\n# only a comment\n", Variant::Standard)
                .unwrap()
                .len(),
            1
        );
    }

    proptest::proptest! {
        /// Any text is read or refused, never a panic.
        #[test]
        fn any_text_is_read_or_refused(text in "[A-Z0-9: #\n-]{0,60}") {
            let _ = parse(&text, Variant::Standard);
        }
    }
}
