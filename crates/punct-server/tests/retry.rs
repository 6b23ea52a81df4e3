//! Retrying is safe: an action that names the state it was made on (`seq`) and is sent again
//! is carried out once, and the repeat gets the first outcome, over HTTP and the WebSocket
//! and across a restart. A friend's seat is the friend's: it needs the invitation. One
//! database file serves one server.

mod common;

use std::process::{Command, Stdio};

use common::*;
use serde_json::json;

#[tokio::test]
async fn a_repeated_action_is_carried_out_once_and_answered_as_the_first() {
    let base = start_in_process(&temp_db("retry")).await;
    let (id, white, black) = friend_game(&base, None).await;
    let url = format!("{base}/api/games/{id}");
    let (_, state) = get(&url, None).await;
    let seq = state["seq"].as_u64().unwrap();

    let first = post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0", "seq": seq }),
    )
    .await;
    assert_eq!(first.0, 200, "{}", first.1);
    assert_eq!(first.1["seq"], seq + 1);
    // The same move on the same state: the first outcome again, nothing played twice.
    let again = post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0", "seq": seq }),
    )
    .await;
    assert_eq!(again.0, 200, "{}", again.1);
    assert_eq!(again.1["seq"], seq + 1);
    assert_eq!(again.1["moves"], json!(["TE4:0"]));
    // Another action on that old state is refused, changing nothing.
    let (status, v) = post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TC3:0", "seq": seq }),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("has changed since"),
        "{v}"
    );
    // So is the same action by the other side, and a state that does not exist yet.
    let (status, _) = post(
        &format!("{url}/move"),
        Some(&black),
        json!({ "move": "TE4:0", "seq": seq }),
    )
    .await;
    assert_eq!(status, 409);
    let (status, v) = post(
        &format!("{url}/draw"),
        Some(&black),
        json!({ "seq": seq + 5 }),
    )
    .await;
    assert_eq!(status, 409, "{v}");

    // Over the one action endpoint and the WebSocket alike.
    for _ in 0..2 {
        let (status, v) = post(
            &format!("{url}/action"),
            Some(&black),
            json!({ "action": "offer_draw", "seq": seq + 1 }),
        )
        .await;
        assert_eq!((status, v["seq"].as_u64()), (200, Some(seq + 2)), "{v}");
    }
    let mut ws = connect(&base, &id, Some(&white)).await;
    next_json(&mut ws, 5).await.unwrap();
    for _ in 0..2 {
        send(
            &mut ws,
            json!({ "type": "action", "action": "decline_draw", "seq": seq + 2 }),
        )
        .await;
        let ok = wait_for(&mut ws, 5, |v| v["type"] == "ok").await;
        assert_eq!(ok["seq"], seq + 3);
    }
    let (_, state) = get(&url, None).await;
    assert_eq!(state["seq"], seq + 3);
    assert_eq!(state["moves"], json!(["TE4:0"]));
    assert_eq!(state["draw_offer"], json!(null));
}

/// The changes a repeat is checked against are stored with the game: a move whose answer
/// was lost in a crash is recognised when it is sent again to the restarted server.
#[tokio::test]
async fn a_repeat_after_a_restart_gets_the_first_outcome() {
    let db = temp_db("retry-restart");
    let addr = free_addr();
    let base = format!("http://{addr}");
    let mut server = Process::start(addr, &db).await;
    let (id, white, _) = friend_game(&base, Some(json!({ "minutes": 5, "increment": 0 }))).await;
    let url = format!("{base}/api/games/{id}");
    let (_, state) = get(&url, None).await;
    let seq = state["seq"].as_u64().unwrap();
    // Spelt otherwise than the canonical `TE4:0`, which is what the restarted server reads.
    let body = json!({ "move": " TE4:0 ", "seq": seq });
    let (status, v) = post(&format!("{url}/move"), Some(&white), body.clone()).await;
    assert_eq!(status, 200, "{v}");
    server.kill();
    let _server = Process::start(addr, &db).await;
    let (status, v) = post(&format!("{url}/move"), Some(&white), body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["seq"], seq + 1);
    assert_eq!(v["moves"], json!(["TE4:0"]));
}

#[tokio::test]
async fn a_friends_seat_needs_the_invitation_and_is_not_listed() {
    let base = start_in_process(&temp_db("invite")).await;
    let (status, created) = post(
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "friend", "name": "Ada" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let invite = created["invite"].as_str().unwrap();
    assert_eq!(invite.len(), 32);
    // The creator sees the invitation (to send it again); a watcher does not.
    let (_, mine) = get(&format!("{base}/api/games/{id}"), created["token"].as_str()).await;
    assert_eq!(mine["invite"], invite);
    let (_, theirs) = get(&format!("{base}/api/games/{id}"), None).await;
    assert!(theirs.get("invite").is_none_or(|v| v.is_null()), "{theirs}");
    let listed = |list: &serde_json::Value| {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id)
    };
    let (_, list) = get(&format!("{base}/api/games"), None).await;
    assert!(
        !listed(&list),
        "a seat waiting for a friend is listed: {list}"
    );

    let join = format!("{base}/api/games/{id}/join");
    for body in [json!({}), json!({ "invite": "0".repeat(32) })] {
        let (status, v) = post(&join, None, body).await;
        assert_eq!(status, 403, "{v}");
        assert!(v["error"].as_str().unwrap().contains("invitation"), "{v}");
    }
    let request = "join-1f3a9c";
    let (status, v) = post(
        &join,
        None,
        json!({ "name": "Bo", "invite": invite, "request": request }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["colours"], json!(["black"]));
    // A repeat of the join (its answer was lost) gets the same seat back; nobody else does,
    // not even someone the link was passed on to.
    let (status, again) = post(&join, None, json!({ "invite": invite, "request": request })).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        (&again["token"], &again["colours"]),
        (&v["token"], &v["colours"])
    );
    for other in [
        json!({ "invite": invite }),
        json!({ "invite": invite, "request": "another" }),
        json!({}),
    ] {
        let (status, v) = post(&join, None, other).await;
        assert_eq!(status, 409, "the seat is taken once: {v}");
    }
    // A game is listed as being played once its first move is made.
    let (_, list) = get(&format!("{base}/api/games"), None).await;
    assert!(!listed(&list), "a game with no move is listed: {list}");
    let (status, v) = post(
        &format!("{base}/api/games/{id}/move"),
        created["token"].as_str(),
        json!({ "move": "TE4:0" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (_, list) = get(&format!("{base}/api/games"), None).await;
    assert!(listed(&list), "{list}");
}

/// Two servers on one SQLite file would each keep their own pending moves and clash: the
/// second refuses to start, saying why.
#[tokio::test]
async fn a_second_server_on_the_same_sqlite_file_refuses_to_start() {
    let db = temp_db("twice");
    let _first = Process::start(free_addr(), &db).await;
    let second = Command::new(env!("CARGO_BIN_EXE_punct-server"))
        .args([free_addr().to_string(), db.display().to_string()])
        .stdin(Stdio::null())
        .output()
        .expect("the server binary runs");
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains("in use by another punct server"),
        "the second server said: {said}"
    );
    assert!(!said.contains("serving on"), "{said}");
}

/// A watcher that falls behind (here: it sends no `hello`, so it is not served for its
/// first seconds while a game moves on) gets the whole state, then the events after it,
/// never an event older than a state or an event it already had.
#[tokio::test]
async fn a_watcher_that_falls_behind_sees_every_state_in_order() {
    let base = start_in_process(&temp_db("lagging")).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    // The moves are chosen beforehand, so that they are all made well within the time the
    // watcher is not served, and more of them than a socket's events are kept for.
    let mut game = punct_core::Game::new(punct_core::Variant::Standard);
    let mut moves = Vec::new();
    while moves.len() < 30 && game.outcome().is_none() {
        let legal = game.position().legal_moves();
        let mv = legal[(moves.len() * 7) % legal.len()];
        game.play(mv).unwrap();
        moves.push(mv.to_string());
    }
    let mut watcher = connect(&base, &id, None).await;
    let client = reqwest::Client::new();
    for mv in &moves {
        let answer = client
            .post(format!("{base}/api/games/{id}/move"))
            .bearer_auth(&token)
            .json(&json!({ "move": mv }))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
    }
    let (_, last) = get(&format!("{base}/api/games/{id}"), None).await;
    let last = last["seq"].as_u64().unwrap();
    let mut seen = 0;
    // Everything the watcher is sent, until it has the last state and a moment more.
    let wait = |seen| if seen < last { 10 } else { 1 };
    while let Some(message) = next_json(&mut watcher, wait(seen)).await {
        let seq = message["seq"].as_u64().unwrap();
        match message["type"].as_str() {
            Some("state") => assert!(seq >= seen, "state {seq} after {seen}"),
            Some("event") => assert_eq!(seq, seen + 1, "event {seq} after {seen}"),
            other => panic!("unexpected {other:?}: {message}"),
        }
        seen = seq;
    }
    assert_eq!(seen, last);
}
