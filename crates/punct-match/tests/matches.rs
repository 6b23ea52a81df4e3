//! Small matches: against the random player, on a tight clock, against programs that fail,
//! and the engine against itself.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use punct_core::Variant;
use punct_engine::{Level, SearchLimits};
use punct_match::stats::Sprt;
use punct_match::{MatchConfig, MatchReport, PlayerSpec};

fn run(config: &MatchConfig) -> Result<MatchReport, String> {
    punct_match::run(config, &AtomicBool::new(false))
}

#[test]
fn beats_random_every_time() {
    let config = MatchConfig {
        first: PlayerSpec::Level(Level::FULL),
        second: PlayerSpec::Random,
        games: 20,
        per_move: SearchLimits::nodes(40),
        concurrency: 2,
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.tally.games(), 20);
    assert_eq!(report.tally.wins, 20, "{report}");
    assert!(report.faults.is_empty(), "{report}");
}

#[test]
fn never_loses_on_time_at_a_tight_clock() {
    let config = MatchConfig {
        first: PlayerSpec::Level(Level::FULL),
        second: PlayerSpec::Level(Level::FULL),
        games: 2,
        variant: Variant::Basic,
        per_move: SearchLimits::default(),
        clock: Some((Duration::from_millis(1000), Duration::from_millis(100))),
        concurrency: 2,
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.time_losses, [0, 0], "{report}");
}

#[test]
fn players_are_named_on_the_command_line() {
    assert_eq!("random".parse(), Ok(PlayerSpec::Random));
    assert_eq!(
        "level3".parse(),
        Ok(PlayerSpec::Level(Level::new(3).unwrap()))
    );
    assert_eq!(
        "cmd:punct engine".parse(),
        Ok(PlayerSpec::External("punct engine".to_owned()))
    );
    assert!("level10".parse::<PlayerSpec>().is_err());
}

#[test]
fn a_program_that_cannot_start_is_an_error() {
    let config = MatchConfig {
        first: PlayerSpec::Random,
        second: PlayerSpec::External("/nonexistent/program".to_owned()),
        games: 2,
        ..MatchConfig::default()
    };
    assert!(run(&config).is_err());
}

/// A program speaking just enough of the protocol, answering `go` with `on_go` (shell).
fn fake_engine(name: &str, on_go: &str) -> PlayerSpec {
    let dir = std::env::temp_dir().join(format!("punct-fake-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "while read -r line; do case \"$line\" in \
             pei) echo 'id name {name}'; echo peiok ;; \
             go*) {on_go} ;; \
             quit) exit 0 ;; \
             esac; done\n"
        ),
    )
    .unwrap();
    PlayerSpec::External(format!("sh {}", script.display()))
}

#[test]
fn an_illegal_move_loses_the_game_and_is_reported() {
    // A placement in the central hexagon, which the standard game forbids.
    let config = MatchConfig {
        first: PlayerSpec::Random,
        second: fake_engine("liar", "echo 'bestmove TI9:0'"),
        games: 4,
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.tally.wins, 4, "{report}");
    assert_eq!(report.faults.len(), 4, "{report}");
    assert!(
        report
            .faults
            .iter()
            .all(|f| f.contains("illegal move TI9:0")),
        "{report}"
    );
}

#[test]
fn a_program_crashing_mid_game_loses_and_the_match_goes_on() {
    let config = MatchConfig {
        first: PlayerSpec::Random,
        second: fake_engine("crasher", "exit 3"),
        games: 4,
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.tally.games(), 4, "{report}");
    assert_eq!(report.tally.wins, 4, "{report}");
    assert!(
        report.faults.iter().all(|f| f.contains("crashed")),
        "{report}"
    );
}

#[test]
fn no_games_is_refused() {
    let config = MatchConfig {
        games: 0,
        ..MatchConfig::default()
    };
    assert_eq!(run(&config).unwrap_err(), "a match needs at least one game");
}

#[test]
fn games_are_counted_in_pairs_from_the_committed_openings() {
    let config = MatchConfig {
        first: PlayerSpec::Greedy,
        second: PlayerSpec::Random,
        games: 5,
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.tally.games(), 6, "rounded up to pairs: {report}");
    assert_eq!(report.pairs.pairs(), 3);
    assert_eq!(report.unpaired, 0);
}

/// The same engine on both sides, searching a fixed number of playouts, plays the same
/// moves from the same position whoever has White, so every pair is split one game each:
/// any other result would be a bias of the runner (colours, order, seeds, reuse of trees).
#[test]
fn the_engine_against_itself_splits_every_pair() {
    let config = MatchConfig {
        first: PlayerSpec::Level(Level::FULL),
        second: PlayerSpec::Level(Level::FULL),
        games: 6,
        per_move: SearchLimits::nodes(30),
        concurrency: 2,
        seed: 5,
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.pairs.counts, [0, 0, 3, 0, 0], "{report}");
    // The same searches, met in another order (each side has White in a different game).
    let sorted = |searched: &punct_match::Searched| {
        let mut nodes = searched.nodes.clone();
        nodes.sort_unstable();
        nodes
    };
    assert_eq!(
        sorted(&report.searched[0]),
        sorted(&report.searched[1]),
        "the same searches: {report}"
    );
    assert!(report.to_string().contains("nodes a move: "), "{report}");
}

#[test]
fn an_interrupted_match_reports_what_it_has() {
    let config = MatchConfig {
        first: PlayerSpec::Greedy,
        second: PlayerSpec::Random,
        games: 10,
        ..MatchConfig::default()
    };
    let report = punct_match::run(&config, &AtomicBool::new(true)).unwrap();
    assert!(report.interrupted);
    assert_eq!(report.tally.games(), 0);
    assert!(report.to_string().contains("interrupted"), "{report}");
}

#[test]
fn the_sprt_stops_a_lopsided_match_with_its_decision_in_words() {
    let config = MatchConfig {
        first: PlayerSpec::Level(Level::FULL),
        second: PlayerSpec::Random,
        games: 400,
        per_move: SearchLimits::nodes(20),
        sprt: Some(Sprt::new(0.0, 50.0).unwrap()),
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert!(report.tally.games() < 100, "{report}");
    let text = report.to_string();
    assert!(
        text.contains("H1 accepted: punct level 9 is stronger than random by ≥ 50 nElo"),
        "{text}"
    );
    assert!(text.contains("LLR "), "{text}");
}

#[test]
fn a_records_file_that_cannot_be_written_stops_the_match_and_says_so() {
    // /dev/full accepts the file's opening and refuses every write.
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let config = MatchConfig {
        first: PlayerSpec::Greedy,
        second: PlayerSpec::Random,
        games: 10,
        records: Some("/dev/full".into()),
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    let e = report.records_error.as_deref().unwrap_or_default();
    assert!(e.contains("/dev/full"), "{report}");
    assert!(report.tally.games() < 10, "{report}");
    assert!(report.to_string().contains("records:"), "{report}");
}

#[test]
fn time_losses_are_counted_by_player() {
    // A program that thinks for 300 ms on a 100 ms clock.
    let config = MatchConfig {
        first: PlayerSpec::Random,
        second: fake_engine("slow", "sleep 0.3; echo 'bestmove CA3:0'"),
        games: 2,
        per_move: SearchLimits::default(),
        clock: Some((Duration::from_millis(100), Duration::ZERO)),
        ..MatchConfig::default()
    };
    let report = run(&config).unwrap();
    assert_eq!(report.time_losses, [0, 2], "{report}");
    assert!(
        report.to_string().contains("time losses: random 0, slow 2"),
        "{report}"
    );
}
