//! Small matches: against the random player, and on a tight clock.

use std::time::Duration;

use punct_core::Variant;
use punct_engine::matches::{MatchConfig, PlayerSpec, run};
use punct_engine::{Level, SearchLimits};

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
    assert_eq!(report.time_losses, 0, "{report}");
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
    assert!("level9".parse::<PlayerSpec>().is_err());
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
