//! The real server binary killed with SIGKILL mid-game and restarted on the same database:
//! every move, whose turn it is and the clocks survive, and play goes on.

mod common;

use std::net::SocketAddr;
use std::path::PathBuf;

use common::*;
use serde_json::json;

#[tokio::test]
async fn play_continues_after_kill_9_with_no_move_lost() {
    let db = temp_db("restart");
    let addr = free_addr();
    let base = format!("http://{addr}");
    let mut server = Process::start(addr, &db).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 10, "increment": 5 }))).await;
    let (vs_id, vs_token) = create(&base, json!({ "mode": "computer", "level": 1 })).await;

    let mut played = Vec::new();
    for i in 0..6 {
        let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
        let token = if state["turn"] == "white" {
            &white
        } else {
            &black
        };
        let mv = pick_move(&base, state["position"].as_str().unwrap(), i).await;
        let (status, v) = play_move(&base, &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        played.push(mv);
    }
    let (_, before) = get(&format!("{base}/api/games/{id}"), None).await;
    // The computer is to move as the server dies.
    let (status, _) = play_move(&base, &vs_id, &vs_token, "TE4:0").await;
    assert_eq!(status, 200);
    server.kill();

    let _server = Process::start(addr, &db).await;
    let (status, after) = get(&format!("{base}/api/games/{id}"), Some(&white)).await;
    assert_eq!(status, 200);
    assert_eq!(after["moves"], json!(played));
    assert_eq!(after["seq"], before["seq"]);
    assert_eq!(after["turn"], before["turn"]);
    assert_eq!(after["you"], json!(["white"]));
    let clock_before = before["clock"]["white_ms"].as_i64().unwrap();
    let clock_after = after["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        (clock_before - clock_after).abs() < 2_000,
        "{clock_before} vs {clock_after}"
    );
    assert_eq!(after["clock"]["running"], before["turn"]);

    // A page reconnecting catches up from the state message and play goes on.
    let mut ws = connect(&base, &id, Some(&black)).await;
    let hello = next_json(&mut ws, 5).await.unwrap();
    assert_eq!(hello["seq"], before["seq"]);
    let token = if after["turn"] == "white" {
        &white
    } else {
        &black
    };
    let mv = pick_move(&base, after["position"].as_str().unwrap(), 99).await;
    let (status, v) = play_move(&base, &id, token, &mv).await;
    assert_eq!(status, 200, "{v}");
    let ev = next_json(&mut ws, 5).await.unwrap();
    assert_eq!(ev["seq"].as_u64(), before["seq"].as_u64().map(|s| s + 1));

    // The computer's pending move is made after the restart.
    let mut vs_ws = connect(&base, &vs_id, None).await;
    wait_for(&mut vs_ws, 30, |v| {
        v["state"]["moves"].as_array().is_some_and(|m| m.len() == 2)
    })
    .await;
}

/// The real server on a fresh database, with a friend game of 10 minutes a side where
/// White has just moved: (database, address, server, game id).
async fn black_to_think(name: &str) -> (PathBuf, SocketAddr, Process, String) {
    let db = temp_db(name);
    let addr = free_addr();
    let base = format!("http://{addr}");
    let server = Process::start(addr, &db).await;
    let (id, white, _black) =
        friend_game(&base, Some(json!({ "minutes": 10, "increment": 0 }))).await;
    let (status, _) = play_move(&base, &id, &white, "TE4:0").await;
    assert_eq!(status, 200);
    (db, addr, server, id)
}

#[tokio::test]
async fn a_crash_charges_the_thinking_time_before_it_but_not_the_downtime() {
    let (db, addr, mut server, id) = black_to_think("restart-clock").await;
    let base = format!("http://{addr}");
    // Black thinks for 3 s, then the server dies and stays down for 2 s.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let (_, before) = get(&format!("{base}/api/games/{id}"), None).await;
    server.kill();
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let _server = Process::start(addr, &db).await;
    let (_, after) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(after["clock"]["white_ms"], before["clock"]["white_ms"]);
    let before = before["clock"]["black_ms"].as_i64().unwrap();
    let after_ms = after["clock"]["black_ms"].as_i64().unwrap();
    assert!(before < 597_500, "black thought for 3 s: {before}");
    // Charged up to the last sign of life (at most a second before the crash), not for the
    // downtime, and not given the thinking time back.
    assert!(
        after_ms <= before + 1_300 && after_ms >= before - 500,
        "black had {before} ms before the crash and {after_ms} ms after the restart"
    );
    assert_eq!(after["clock"]["running"], "black");
}

/// Two crashes in a row: each charges the thinking before it, neither its downtime (the
/// clock resumed at the first restart is stored as resumed, so the second restart does not
/// charge from the original start of the turn).
#[tokio::test]
async fn two_crashes_in_a_row_charge_neither_downtime() {
    let (db, addr, mut server, id) = black_to_think("restart-twice").await;
    let base = format!("http://{addr}");
    let pause = std::time::Duration::from_millis;
    // Black thinks 2 s, the server is down 3 s; Black thinks 1 s more, down 3 s again.
    tokio::time::sleep(pause(2_000)).await;
    server.kill();
    tokio::time::sleep(pause(3_000)).await;
    server = Process::start(addr, &db).await;
    tokio::time::sleep(pause(1_000)).await;
    server.kill();
    tokio::time::sleep(pause(3_000)).await;
    let _server = Process::start(addr, &db).await;
    let (_, after) = get(&format!("{base}/api/games/{id}"), None).await;
    let charged = 600_000 - after["clock"]["black_ms"].as_i64().unwrap();
    // 3 s of thinking, less up to a second before each crash (the last sign of life), and
    // a little for the restarts themselves; 6 s or more if a downtime were charged.
    assert!(
        (1_000..=4_000).contains(&charged),
        "black thought for 3 s and was charged {charged} ms"
    );
}
