//! The API over real HTTP and WebSocket: full games, watchers, refusals, the computer,
//! clocks.

mod common;

use common::*;
use serde_json::{Value, json};

/// Plays placements for whoever is to move until the game ends; returns the moves played.
async fn play_to_end(base: &str, id: &str, white: &str, black: &str) -> Vec<String> {
    let mut played = Vec::new();
    for i in 0..200 {
        let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
        if !state["outcome"].is_null() {
            return played;
        }
        let token = if state["turn"] == "white" {
            white
        } else {
            black
        };
        let mv = pick_move(base, state["position"].as_str().unwrap(), i).await;
        let (status, v) = play_move(base, id, token, &mv).await;
        assert_eq!(status, 200, "{mv}: {v}");
        played.push(mv);
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn two_players_finish_a_game_and_a_watcher_sees_every_move_in_order() {
    let base = start_in_process(&temp_db("full")).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 10, "increment": 5 }))).await;
    let mut watcher = connect(&base, &id, None).await;
    let first = next_json(&mut watcher, 5).await.unwrap();
    assert_eq!(first["type"], "state");
    let mut last_seq = first["seq"].as_u64().unwrap();

    let played = play_to_end(&base, &id, &white, &black).await;
    assert!(!played.is_empty());

    let mut seen = Vec::new();
    loop {
        let v = next_json(&mut watcher, 5)
            .await
            .expect("every event arrives");
        assert_eq!(v["type"], "event");
        let seq = v["seq"].as_u64().unwrap();
        assert_eq!(seq, last_seq + 1, "sequence numbers have no gaps");
        last_seq = seq;
        assert_eq!(v["event"], "move");
        seen.push(v["detail"]["move"].as_str().unwrap().to_owned());
        if !v["state"]["outcome"].is_null() {
            break;
        }
    }
    assert_eq!(seen, played);
    // The socket stays open after the end (pages must not reconnect again and again), and a
    // new one to the finished game gets its state and stays open too.
    send(&mut watcher, json!({ "type": "ping" })).await;
    let pong = next_json(&mut watcher, 5)
        .await
        .expect("an answer after the end");
    assert_eq!(pong["type"], "pong");
    let mut late = connect(&base, &id, None).await;
    let hello = next_json(&mut late, 5).await.unwrap();
    assert!(!hello["state"]["outcome"].is_null());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    send(&mut late, json!({ "type": "ping" })).await;
    assert_eq!(next_json(&mut late, 5).await.unwrap()["type"], "pong");

    let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
    assert!(state["outcome"]["text"].as_str().unwrap().len() > 3);
    assert!(
        state["clock"]["running"].is_null(),
        "the clock stops at the end"
    );
    let resp = reqwest::get(format!("{base}/api/games/{id}/record"))
        .await
        .unwrap();
    let record = resp.text().await.unwrap();
    let parsed = punct_core::Record::parse(&record).expect("the exported record reads back");
    assert_eq!(parsed.moves.len(), played.len());
    let (status, replay) = get(&format!("{base}/api/games/{id}/replay"), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        replay["positions"].as_array().unwrap().len(),
        played.len() + 1
    );
}

#[tokio::test]
async fn refused_requests_name_the_problem_and_change_nothing() {
    let base = start_in_process(&temp_db("refusals")).await;
    let (id, white, black) = friend_game(&base, None).await;
    let url = format!("{base}/api/games/{id}");
    let (_, before) = get(&url, None).await;
    let moves_url = format!("{url}/move");

    let cases: Vec<(Option<&str>, Value, u16, &str)> = vec![
        (
            Some("not-a-seat"),
            json!({ "move": "TE4:0" }),
            403,
            "no seat",
        ),
        (None, json!({ "move": "TE4:0" }), 403, "no seat"),
        (
            Some(&black),
            json!({ "move": "TE4:0" }),
            409,
            "not your turn",
        ),
        (
            Some(&white),
            json!({ "move": "TI9:0" }),
            422,
            "illegal move",
        ),
        (
            Some(&white),
            json!({ "move": "TA1:0" }),
            400,
            "no such cell",
        ),
        (Some(&white), json!({ "move": 5 }), 400, "bad JSON"),
        (Some(&white), json!({ "mv": "TE4:0" }), 400, "bad JSON"),
    ];
    for (token, body, status, needle) in cases {
        let (got, v) = post(&moves_url, token, body.clone()).await;
        assert_eq!(got, status, "{body}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(needle), "{body}: {error}");
    }
    let garbage = reqwest::Client::new()
        .post(&moves_url)
        .bearer_auth(&white)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body("{{{ not json")
        .send()
        .await
        .unwrap();
    assert_eq!(garbage.status(), 400);
    let (status, _) = post(
        &format!("{base}/api/games/ffff0000/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    assert_eq!(status, 404);
    let (status, v) = post(&format!("{url}/draw/decline"), Some(&white), json!({})).await;
    assert_eq!(
        (status, v["error"].as_str().unwrap()),
        (409, "there is no draw offer to decline")
    );
    let (status, _) = post(&format!("{url}/join"), None, json!({})).await;
    assert_eq!(status, 409, "both seats are taken");

    // Over the WebSocket: garbage, an unknown action, a stranger and a move out of turn.
    let mut stranger = connect(&base, &id, Some("nobody")).await;
    next_json(&mut stranger, 5).await.unwrap();
    for (msg, status) in [
        (json!("garbage"), 400),
        (json!({ "type": "action", "action": "fly" }), 400),
        (
            json!({ "type": "action", "action": "move", "move": "TE4:0" }),
            403,
        ),
    ] {
        send(&mut stranger, msg).await;
        let v = wait_for(&mut stranger, 5, |v| v["type"] == "error").await;
        assert_eq!(v["status"], status, "{v}");
    }
    let mut black_ws = connect(&base, &id, Some(&black)).await;
    next_json(&mut black_ws, 5).await.unwrap();
    send(
        &mut black_ws,
        json!({ "type": "action", "action": "move", "move": "TE4:0" }),
    )
    .await;
    let v = wait_for(&mut black_ws, 5, |v| v["type"] == "error").await;
    assert_eq!(v["status"], 409);

    let (_, after) = get(&url, None).await;
    assert_eq!(after["seq"], before["seq"]);
    assert_eq!(after["position"], before["position"]);

    // And a well-formed move over the WebSocket is accepted.
    let mut white_ws = connect(&base, &id, Some(&white)).await;
    next_json(&mut white_ws, 5).await.unwrap();
    send(
        &mut white_ws,
        json!({ "type": "action", "action": "move", "move": "TE4:0" }),
    )
    .await;
    let v = wait_for(&mut white_ws, 5, |v| {
        v["type"] == "ok" || v["type"] == "error"
    })
    .await;
    assert_eq!(v["type"], "ok", "{v}");
    // Its broadcast follows at once, with the same number and the mover's colour.
    let event = next_json(&mut white_ws, 5).await.unwrap();
    assert_eq!(
        (&event["type"], &event["seq"], &event["detail"]["move"]),
        (&json!("event"), &v["seq"], &json!("TE4:0"))
    );
    assert_eq!(event["state"]["you"], json!(["white"]));
    assert_eq!(event["state"]["moves"], json!(["TE4:0"]));
}

#[tokio::test]
async fn the_computer_answers_and_takebacks_are_immediate() {
    let base = start_in_process(&temp_db("computer")).await;
    let (id, token) = create(
        &base,
        json!({ "mode": "computer", "level": 1, "colour": "white" }),
    )
    .await;
    let mut ws = connect(&base, &id, Some(&token)).await;
    let hello = next_json(&mut ws, 5).await.unwrap();
    assert_eq!(hello["state"]["you"], json!(["white"]));
    let (status, _) = play_move(&base, &id, &token, "TE4:0").await;
    assert_eq!(status, 200);
    let reply = wait_for(&mut ws, 30, |v| {
        v["type"] == "event" && v["state"]["moves"].as_array().is_some_and(|m| m.len() == 2)
    })
    .await;
    assert_eq!(reply["state"]["turn"], "white");
    assert_eq!(reply["state"]["you"], json!(["white"]));
    let (status, v) = post(
        &format!("{base}/api/games/{id}/takeback"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"], json!([]));
    let (status, v) = post(
        &format!("{base}/api/games/{id}/draw"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    let (status, v) = post(
        &format!("{base}/api/games/{id}/resign"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(v["outcome"]["winner"], "black");
    assert_eq!(v["outcome"]["termination"], "resignation");
}

#[tokio::test]
async fn a_flag_falls_on_the_server_clock_and_takebacks_between_people_need_consent() {
    let base = start_in_process(&temp_db("clock")).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 0.02, "increment": 0 }))).await;
    let url = format!("{base}/api/games/{id}");
    post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    let (status, v) = post(&format!("{url}/takeback"), Some(&white), json!({})).await;
    assert_eq!(
        (status, v["takeback_request"].as_str()),
        (200, Some("white"))
    );
    let (status, v) = post(&format!("{url}/takeback"), Some(&black), json!({})).await;
    assert_eq!((status, v["moves"].clone()), (200, json!([])));
    let mut ws = connect(&base, &id, None).await;
    let v = wait_for(&mut ws, 5, |v| v["event"] == "timeout").await;
    assert_eq!(v["state"]["outcome"]["termination"], "time forfeit");
    assert_eq!(v["state"]["outcome"]["winner"], "black");
    let (status, v) = post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    assert_eq!(status, 409, "{v}");
}

#[tokio::test]
async fn import_legal_moves_analysis_and_bad_input() {
    let base = start_in_process(&temp_db("tools")).await;
    let (status, v) = post(
        &format!("{base}/api/import"),
        None,
        json!({ "text": "standard b 1 wTE4:0@1" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["games"][0]["positions"], json!(["standard b 1 wTE4:0@1"]));
    assert_eq!(v["games"][0]["name"], "Position, Black to move");
    let (status, v) = post(
        &format!("{base}/api/import"),
        None,
        json!({ "text": "nonsense" }),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not a game record"),
        "{v}"
    );
    let (status, v) = post(
        &format!("{base}/api/analyse"),
        None,
        json!({ "position": "standard w 0 " }),
    )
    .await;
    assert!(status == 200 || status == 400, "{v}");
    let (status, v) = post(
        &format!("{base}/api/analyse"),
        None,
        json!({ "position": "standard b 1 wTE4:0@1" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(v["best_move"].is_string());
    assert_eq!(
        v["move_number"], 1,
        "Black's reply to White's first move is 1..."
    );
    let (status, _) = get(&format!("{base}/api/legal?position=bad"), None).await;
    assert_eq!(status, 400);
    // One move's legality, with the reason when it is refused.
    let check = |mv: &str| format!("{base}/api/legal?position=standard%20w%200%20-&move={mv}");
    let (status, v) = get(&check("TI9:0"), None).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["legal"], false);
    assert!(
        v["reason"].as_str().unwrap().contains("central hexagon"),
        "{v}"
    );
    // Its kind and the cell it names, for saying it in other languages.
    assert_eq!(v["why"], json!({ "code": "centre_standard", "cell": "I9" }));
    let (_, v) = get(&check("CE4:4"), None).await;
    assert_eq!(
        (v["legal"].clone(), v["canonical"].clone()),
        (json!(true), json!("CE4:1"))
    );
    let (status, v) = get(&check("XE4:0"), None).await;
    assert_eq!(status, 400, "{v}");
    let (status, v) = post(
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "computer", "level": 10 }),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    let (status, v) = post(
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "chess" }),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    let (id, token) = create(
        &base,
        json!({ "mode": "local", "start": "standard b 1 wTE4:0@1" }),
    )
    .await;
    // Listed as being played once it has begun.
    let mv = pick_move(&base, "standard b 1 wTE4:0@1", 0).await;
    let (status, v) = play_move(&base, &id, &token, &mv).await;
    assert_eq!(status, 200, "{v}");
    let (_, list) = get(&format!("{base}/api/games"), None).await;
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );
    let page = reqwest::get(format!("{base}/g/{id}")).await.unwrap();
    assert_eq!(page.status(), 200);
    let rules = reqwest::get(format!("{base}/api/rules")).await.unwrap();
    assert_eq!(rules.status(), 200);
    assert!(
        rules.text().await.unwrap().contains("</"),
        "the rules are rendered as HTML"
    );
}

#[tokio::test]
async fn the_list_shows_live_and_finished_games() {
    let base = start_in_process(&temp_db("list")).await;
    let (live, live_token) = create(&base, json!({ "mode": "local" })).await;
    let (status, v) = play_move(&base, &live, &live_token, "TE4:0").await;
    assert_eq!(status, 200, "{v}");
    let (unstarted, _) = create(&base, json!({ "mode": "local" })).await;
    let (done, token) = create(&base, json!({ "mode": "local" })).await;
    let (status, _) = post(
        &format!("{base}/api/games/{done}/resign"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, list) = get(&format!("{base}/api/games"), None).await;
    let games = list["games"].as_array().unwrap();
    let find = |id: &str| games.iter().find(|g| g["id"] == id).cloned().unwrap();
    assert_eq!(find(&live)["live"], true);
    assert!(
        games.iter().all(|g| g["id"] != unstarted.as_str()),
        "a game without a move is not listed as being played: {list}"
    );
    assert_eq!(find(&done)["live"], false);
    assert_eq!(find(&done)["result"], "Black wins by resignation");
}

/// The engine's threads run in the idle scheduling class, below the network side, so that a
/// busy engine does not slow other games' moves (the load test measures it).
#[tokio::test]
async fn the_engine_threads_run_in_the_idle_class() {
    const SCHED_IDLE: u32 = 5;
    let _base = start_in_process(&temp_db("idle")).await;
    let mut found = 0;
    for _ in 0..100 {
        for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if !comm.starts_with("punct-engine") {
                continue;
            }
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            // Fields after the name: state is field 3, policy field 41.
            let policy: u32 = rest.split_whitespace().nth(38).unwrap().parse().unwrap();
            assert_eq!(policy, SCHED_IDLE, "{}", comm.trim());
            found += 1;
        }
        if found > 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("no engine thread found");
}

/// The actions without a move take no fields: a malformed body is refused like any other and
/// leaves the game as it was (it must not, say, resign the game).
#[tokio::test]
async fn malformed_bodies_of_the_other_actions_change_nothing() {
    let base = start_in_process(&temp_db("action-bodies")).await;
    let (id, white, black) = friend_game(&base, None).await;
    let url = format!("{base}/api/games/{id}");
    post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    post(&format!("{url}/draw"), Some(&white), json!({})).await;
    post(&format!("{url}/takeback"), Some(&white), json!({})).await;
    let (_, before) = get(&url, None).await;
    let client = reqwest::Client::new();
    for action in [
        "resign",
        "draw",
        "draw/decline",
        "takeback",
        "takeback/decline",
    ] {
        for body in ["garbage", "{\"really\": true}", "[]"] {
            let resp = client
                .post(format!("{url}/{action}"))
                .bearer_auth(&black)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 400, "{action} with {body}");
            let v: Value = resp.json().await.unwrap();
            assert!(v["error"].as_str().unwrap().contains("bad JSON"), "{v}");
        }
    }
    // The one endpoint for every action refuses fields an action does not have, as the
    // WebSocket does.
    for (body, needle) in [
        (
            json!({ "action": "resign", "really": true }),
            "unknown field `really`",
        ),
        (
            json!({ "action": "resign", "move": "TE4:0" }),
            "only a `move` action",
        ),
        (json!({ "action": "move" }), "needs the field `move`"),
        (
            json!({ "action": "move", "move": null }),
            "must be move text",
        ),
        (
            json!({ "action": "resign", "move": null }),
            "only a `move` action",
        ),
    ] {
        let (status, v) = post(&format!("{url}/action"), Some(&black), body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
    let mut socket = connect(&base, &id, Some(&black)).await;
    next_json(&mut socket, 5).await.unwrap();
    send(
        &mut socket,
        json!({ "type": "action", "action": "resign", "really": true }),
    )
    .await;
    let v = wait_for(&mut socket, 5, |v| v["type"] == "error").await;
    assert_eq!(v["status"], 400, "{v}");
    let (_, after) = get(&url, None).await;
    assert_eq!(after, before);
    // An empty body and `{}` are still the plain action.
    let request = client.post(format!("{url}/resign")).bearer_auth(&black);
    assert_eq!(status_of(request).await, 200);
}

/// The status of the answer to `request`.
async fn status_of(request: reqwest::RequestBuilder) -> reqwest::StatusCode {
    request.send().await.expect("the server answers").status()
}

/// Refusals made before a handler runs (wrong method, no WebSocket handshake, a body over
/// the size limit) still carry a JSON body with the reason, as API.md promises.
#[tokio::test]
async fn every_refusal_is_json_with_a_reason() {
    let base = start_in_process(&temp_db("json-errors")).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let client = reqwest::Client::new();
    let requests = [
        (
            client.get(format!("{base}/api/games/{id}/move")),
            405,
            "POST",
        ),
        (client.delete(format!("{base}/api/games")), 405, "GET"),
        (
            client.get(format!("{base}/api/games/{id}/ws")),
            400,
            "upgrade",
        ),
        (
            client
                .post(format!("{base}/api/games/{id}/move"))
                .bearer_auth(&token)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(vec![b' '; 3 << 20]),
            413,
            "",
        ),
    ];
    for (request, status, needle) in requests {
        let resp = request.send().await.unwrap();
        assert_eq!(resp.status(), status);
        let content_type = resp.headers()[reqwest::header::CONTENT_TYPE].clone();
        assert_eq!(content_type, "application/json");
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v["status"], status, "{v}");
        let reason = v["error"].as_str().unwrap();
        assert!(reason.len() > 5 && reason.contains(needle), "{v}");
    }
    let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(state["moves"], json!([]));
}

/// The scheme of `Authorization` is case-insensitive (RFC 9110 §11.1).
#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let base = start_in_process(&temp_db("bearer")).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let request = reqwest::Client::new()
        .post(format!("{base}/api/games/{id}/move"))
        .header("Authorization", format!("bearer {token}"))
        .json(&json!({ "move": "TE4:0" }));
    assert_eq!(status_of(request).await, 200);
}

/// Names are shown and written into records: line breaks and other control characters in
/// them become spaces, so that the exported record reads back.
#[tokio::test]
async fn names_with_line_breaks_still_give_a_readable_record() {
    let base = start_in_process(&temp_db("names")).await;
    let (_, created) = post(
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "friend", "name": "Ada\n[Evil \"1\"]\t\u{7}" }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let white = created["token"].as_str().unwrap().to_owned();
    let (status, v) = post(
        &format!("{base}/api/games/{id}/join"),
        None,
        json!({ "name": "Bo\r\nby\u{85}the sea", "invite": created["invite"] }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["seats"]["white"]["name"], "Ada [Evil \"1\"]");
    assert_eq!(v["state"]["seats"]["black"]["name"], "Bo by the sea");
    play_move(&base, id, &white, "TE4:0").await;
    let record = reqwest::get(format!("{base}/api/games/{id}/record"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let parsed = punct_core::Record::parse(&record).expect("the record reads back");
    assert_eq!(parsed.tag("White"), Some("Ada [Evil \"1\"]"));
    assert_eq!(parsed.moves.len(), 1);
}

/// Input echoed in a refusal is cut to a sane length, with an ellipsis: a move of 60 000
/// characters is refused in a few hundred bytes, not its whole length again, and so is any
/// other text a request names (a field, a position, a move checked alone).
#[tokio::test]
async fn echoed_input_is_cut_in_refusals() {
    let base = start_in_process(&temp_db("echo")).await;
    let (id, white, _) = friend_game(&base, None).await;
    let long = "TE4:0".repeat(12_000);
    let client = reqwest::Client::new();
    let refusal = |resp: reqwest::Response| async move {
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        (status, text)
    };
    let (status, text) = refusal(
        client
            .post(format!("{base}/api/games/{id}/move"))
            .bearer_auth(&white)
            .json(&json!({ "move": long }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400, "{text}");
    assert!(text.len() < 1_000, "a {}-byte refusal", text.len());
    let v: Value = serde_json::from_str(&text).unwrap();
    let reason = v["error"].as_str().unwrap();
    assert!(
        reason.contains("TE4:0TE4:0") && reason.contains('…'),
        "{reason}"
    );
    // A field that does not exist, named at length.
    let (status, text) = refusal(
        client
            .post(format!("{base}/api/games/{id}/move"))
            .bearer_auth(&white)
            .json(&{
                let mut body = serde_json::Map::new();
                body.insert("move".into(), json!("TE4:0"));
                body.insert(long.clone(), json!(1));
                body
            })
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400, "{text}");
    assert!(text.len() < 1_000, "a {}-byte refusal", text.len());
    // A position and a move checked alone (in an address, so shorter: 2 000 characters).
    let long = "TE4:0".repeat(400);
    for query in [
        vec![("position", long.as_str())],
        vec![("position", "standard w 0 -"), ("move", long.as_str())],
    ] {
        let url = reqwest::Url::parse_with_params(&format!("{base}/api/legal"), query).unwrap();
        let (status, text) = refusal(client.get(url).send().await.unwrap()).await;
        assert_eq!(status, 400, "{text}");
        assert!(text.len() < 1_000, "a {}-byte refusal", text.len());
    }
    // Control characters in what is echoed are written escaped.
    let (status, v) = play_move(&base, &id, &white, "TE4\n\u{7}:0").await;
    assert_eq!(status, 400, "{v}");
    let reason = v["error"].as_str().unwrap();
    assert!(
        !reason.contains('\n') && !reason.contains('\u{7}'),
        "{reason:?}"
    );
}
