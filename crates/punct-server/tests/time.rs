//! The server's time is one time source, which a test controls with a clock file: moving it
//! on makes every timer waiting for a moment look again at once, in the real binary and
//! across its restart, so that what takes minutes of play is tested in seconds.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};

const MINUTE: i64 = 60_000;

/// The state of game `id`, once `done` holds of it (within 5 s).
async fn state_when(base: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (status, state) = get(&format!("{base}/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{state}");
        if done(&state) {
            return state;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "not within 5 s: {state}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_timed_game_flags_when_the_time_is_moved_on_across_a_restart() {
    let started = Instant::now();
    let db = temp_db("time-flag");
    let mut clock = ClockFile::beside(&db);
    let addr = free_addr();
    let base = format!("http://{addr}");
    let with_clock = |c: &mut std::process::Command| {
        c.env("PUNCT_CLOCK_FILE", &clock.path);
    };
    let mut server = Process::start_with(addr, &db, with_clock).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 10, "increment": 0 }))).await;
    // Each side has made its first move (a game nobody starts is aborted instead).
    let mut position = "standard w 0 -".to_owned();
    for (ply, token) in [&white, &black, &white].into_iter().enumerate() {
        let mv = pick_move(&base, &position, ply).await;
        let (status, v) = play_move(&base, &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        position = v["position"].as_str().unwrap().to_owned();
    }

    // Black thinks for six minutes, in no time.
    clock.advance(6 * MINUTE);
    let thought = |state: &Value| state["clock"]["black_ms"].as_i64().unwrap() <= 4 * MINUTE;
    let before = state_when(&base, &id, thought).await;
    let black_ms = before["clock"]["black_ms"].as_i64().unwrap();
    assert!(black_ms > 4 * MINUTE - 3_000, "{before}");
    assert_eq!(before["outcome"], Value::Null);

    // The server records that it is alive (at least once a second) in its time, which is
    // what a crash's thinking time is charged up to.
    let alive = Instant::now();
    loop {
        let (_, health) = get(&format!("{base}/healthz"), None).await;
        if health["since_commit_ms"]
            .as_i64()
            .is_some_and(|ms| ms < 1_000)
        {
            break;
        }
        assert!(alive.elapsed() < Duration::from_secs(5), "{health}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The server dies and comes back reading the same clock: the six minutes stay charged.
    server.kill();
    let with_clock = |c: &mut std::process::Command| {
        c.env("PUNCT_CLOCK_FILE", &clock.path);
    };
    let _server = Process::start_with(addr, &db, with_clock).await;
    let (_, after) = get(&format!("{base}/api/games/{id}"), None).await;
    let after_ms = after["clock"]["black_ms"].as_i64().unwrap();
    assert!(
        (black_ms - 2_000..=black_ms + 1_300).contains(&after_ms),
        "black had {black_ms} ms before the restart and {after_ms} ms after: {before} then {after}"
    );
    assert_eq!(after["clock"]["running"], "black");

    // Four minutes more and Black's flag falls, at once: the clock's timer looks again.
    let mut watcher = connect(&base, &id, None).await;
    send(&mut watcher, json!({ "type": "hello" })).await;
    next_json(&mut watcher, 5).await.expect("the state");
    clock.advance(4 * MINUTE + 1_000);
    let flag = wait_for(&mut watcher, 5, |m| m["type"] == "event").await;
    assert_eq!(flag["event"], "timeout", "{flag}");
    let outcome = &flag["state"]["outcome"];
    assert_eq!(
        (&outcome["winner"], &outcome["termination"]),
        (&json!("white"), &json!("time forfeit")),
        "{flag}"
    );
    assert_eq!(flag["state"]["clock"]["black_ms"], 0);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_game_nobody_starts_is_aborted_when_the_time_is_moved_past_its_wait() {
    let db = temp_db("time-abort");
    let mut clock = ClockFile::beside(&db);
    let path = clock.path.clone();
    let base = start_in_process_with(&db, move |c| c.clock_file = Some(path)).await;
    let (id, _) = create(&base, json!({ "mode": "local" })).await;
    let mut watcher = connect(&base, &id, None).await;
    send(&mut watcher, json!({ "type": "hello" })).await;
    next_json(&mut watcher, 5).await.expect("the state");
    // Three minutes is the wait for a first move (Config::lifetimes); the look for games
    // due to end comes every 5 s, and at once when the time moves.
    clock.advance(3 * MINUTE + 1_000);
    let aborted = wait_for(&mut watcher, 3, |m| m["type"] == "event").await;
    assert_eq!(aborted["event"], "aborted", "{aborted}");
}
