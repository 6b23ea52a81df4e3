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
fn a_crashing_program_loses_and_is_reported() {
    let config = MatchConfig {
        first: PlayerSpec::Random,
        second: PlayerSpec::External("/nonexistent/program".to_owned()),
        games: 2,
        ..MatchConfig::default()
    };
    assert!(run(&config).is_err());
}
