//! The chaos run (examples/chaos/driver) at a small size: games of every mode against the
//! real server binary, HTTP clients hanging up at random moments with FIN and RST,
//! WebSockets dropped, kill -9 of the server at random moments, and with PostgreSQL the
//! database stopped and started; every acknowledged change must be in what the server
//! holds, none applied twice, no game half-done; and the same with three nodes and two
//! engine workers on one PostgreSQL. The large run is the `chaos` example.

#[path = "../examples/chaos/driver/mod.rs"]
mod driver;

use std::time::Duration;

use driver::{Options, Stats, postgres_bin, run};

fn options(seconds: u64, games: usize, postgres: bool, odd_spellings: f64) -> Options {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs());
    Options {
        bin: env!("CARGO_BIN_EXE_punct-server").into(),
        seconds,
        games,
        postgres,
        seed,
        disrupt_every: (Duration::from_millis(1500), Duration::from_millis(5000)),
        movetime_ms: 20,
        odd_spellings,
        nodes: 1,
        workers: 0,
    }
}

/// The run found nothing wrong, and the chaos it promises happened.
fn assert_clean_and_chaotic(stats: &Stats, postgres: bool) {
    println!("{stats}");
    assert_eq!(stats.half_done, 0, "half-done games\n{stats}");
    assert_eq!(stats.lost, 0, "acknowledged changes lost\n{stats}");
    assert_eq!(stats.twice, 0, "changes applied twice\n{stats}");
    assert!(stats.clean(), "{stats}");
    for mode in ["computer", "friend", "local"] {
        assert!(
            stats.games.keys().any(|k| k.starts_with(mode)),
            "no {mode} game\n{stats}"
        );
    }
    for kind in ["move", "takeback", "resign", "offer_draw", "decline_draw"] {
        assert!(
            stats.acked.contains_key(kind),
            "no {kind} acknowledged\n{stats}"
        );
    }
    assert!(stats.hangups_fin > 0 && stats.hangups_rst > 0, "{stats}");
    assert!(stats.ws_drops > 0 && stats.ws_attempts > 0, "{stats}");
    assert!(stats.kills > 1 && stats.restarts == stats.kills, "{stats}");
    assert!(stats.computer_moves > 0, "{stats}");
    if postgres {
        assert!(stats.pg_restarts > 0, "{stats}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_on_sqlite_loses_nothing_and_applies_nothing_twice() {
    let stats = run(&options(30, 8, false, 0.0)).await.unwrap();
    assert_clean_and_chaotic(&stats, false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_on_postgres_loses_nothing_and_applies_nothing_twice() {
    if postgres_bin().is_none() {
        eprintln!(
            "SKIPPED PostgreSQL chaos: no PostgreSQL server installed (apt-get install -y postgresql)"
        );
        return;
    }
    let stats = run(&options(25, 6, true, 0.0)).await.unwrap();
    assert_clean_and_chaotic(&stats, true);
}

/// A client may spell a move otherwise than canonically (the server trims its text): sent
/// again after a hang-up, it must still get the first outcome, also after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_with_moves_spelt_otherwise_still_applies_each_once() {
    let stats = run(&options(20, 6, false, 0.3)).await.unwrap();
    assert_clean_and_chaotic(&stats, false);
}

/// Three nodes on one PostgreSQL, each request sent to the next, the engine in two workers:
/// nodes, workers and the database killed or restarted at random; nothing lost or applied
/// twice, no watcher on any node sees a gap or a repeat, every computer move made once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_with_three_nodes_and_two_workers_loses_nothing_and_applies_nothing_twice() {
    if postgres_bin().is_none() {
        eprintln!(
            "SKIPPED cluster chaos: no PostgreSQL server installed (apt-get install -y postgresql)"
        );
        return;
    }
    let stats = run(&Options {
        nodes: 3,
        workers: 2,
        ..options(30, 6, true, 0.0)
    })
    .await
    .unwrap();
    assert_clean_and_chaotic(&stats, true);
    assert!(stats.worker_kills > 0, "{stats}");
    println!(
        "longest wait for the computer, takeovers included: {:.1} s",
        stats.slowest_computer.as_secs_f64()
    );
}
