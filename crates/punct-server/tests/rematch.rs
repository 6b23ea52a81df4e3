//! A rematch once a game is over: made at once against the computer and on one screen,
//! offered and accepted (or declined) between people, over HTTP and the WebSocket. The new
//! game has the colours swapped and the old one's mode, variant, level and clock; each person
//! keeps their token. It is made once, however often and by however many it is asked for.

mod common;

use common::*;
use serde_json::{Value, json};

async fn act(base: &str, id: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    post(&format!("{base}/api/games/{id}/action"), token, body).await
}

async fn resign(base: &str, id: &str, token: &str) {
    let (status, v) = act(base, id, Some(token), json!({ "action": "resign" })).await;
    assert_eq!(status, 200, "{v}");
    assert!(v["outcome"].is_object(), "{v}");
}

async fn state(base: &str, id: &str, token: Option<&str>) -> Value {
    let (status, v) = get(&format!("{base}/api/games/{id}"), token).await;
    assert_eq!(status, 200, "{v}");
    v
}

#[tokio::test]
async fn against_the_computer_the_rematch_starts_at_once_with_the_colours_swapped() {
    let base = start_in_process(&temp_db("rematch-computer")).await;
    let (id, token) = create(
        &base,
        json!({ "mode": "computer", "level": 1, "variant": "basic", "name": "Ada",
                "clock": { "minutes": 5, "increment": 3 } }),
    )
    .await;
    resign(&base, &id, &token).await;

    let (status, old) = act(&base, &id, Some(&token), json!({ "action": "rematch" })).await;
    assert_eq!(status, 200, "{old}");
    let new_id = old["rematch"]
        .as_str()
        .expect("the rematch's id")
        .to_owned();
    assert_ne!(new_id, id);
    assert_eq!(old["rematch_offer"], Value::Null);

    let new = state(&base, &new_id, Some(&token)).await;
    assert_eq!(
        new["you"],
        json!(["black"]),
        "the player's token holds Black now"
    );
    assert_eq!(new["seats"]["white"]["computer"], 1);
    assert_eq!(new["seats"]["black"]["name"], "Ada");
    assert_eq!(new["mode"], "computer");
    assert_eq!(new["variant"], "basic");
    assert_eq!(new["clock"]["initial_ms"], 300_000);
    assert_eq!(new["clock"]["increment_ms"], 3_000);
    assert!(new["outcome"].is_null());

    // Asked again: the same rematch, nothing changed.
    let (status, again) = act(&base, &id, Some(&token), json!({ "action": "rematch" })).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["rematch"], new_id.as_str());
    assert_eq!(again["seq"], old["seq"]);

    // The computer, now White, makes the first move of the rematch.
    for _ in 0..200 {
        if !state(&base, &new_id, None).await["moves"]
            .as_array()
            .unwrap()
            .is_empty()
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the computer never moved in the rematch");
}

#[tokio::test]
async fn on_one_screen_the_rematch_starts_at_once_with_the_names_swapped() {
    let base = start_in_process(&temp_db("rematch-local")).await;
    let (id, token) = create(&base, json!({ "mode": "local", "name": "Ada" })).await;
    resign(&base, &id, &token).await;
    let (status, old) = act(&base, &id, Some(&token), json!({ "action": "rematch" })).await;
    assert_eq!(status, 200, "{old}");
    let new = state(&base, old["rematch"].as_str().unwrap(), Some(&token)).await;
    assert_eq!(new["you"], json!(["white", "black"]));
    assert_eq!(new["seats"]["white"]["name"], "Ada 2");
    assert_eq!(new["seats"]["black"]["name"], "Ada");
}

#[tokio::test]
async fn between_people_the_rematch_is_offered_and_accepted_over_the_websocket() {
    let base = start_in_process(&temp_db("rematch-friend")).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 3, "increment": 2 }))).await;
    resign(&base, &id, &white).await;
    let mut ws_black = connect(&base, &id, Some(&black)).await;
    let mut ws_white = connect(&base, &id, Some(&white)).await;
    wait_for(&mut ws_black, 10, |m| m["type"] == "state").await;
    wait_for(&mut ws_white, 10, |m| m["type"] == "state").await;

    // White offers over HTTP; Black's socket hears of it.
    let (status, offered) = act(&base, &id, Some(&white), json!({ "action": "rematch" })).await;
    assert_eq!(status, 200, "{offered}");
    assert_eq!(offered["rematch_offer"], "white");
    assert_eq!(offered["rematch"], Value::Null);
    let event = wait_for(&mut ws_black, 10, |m| m["type"] == "event").await;
    assert_eq!(event["event"], "rematch_offer");
    assert_eq!(event["state"]["rematch_offer"], "white");
    let (status, v) = act(&base, &id, Some(&white), json!({ "action": "rematch" })).await;
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("already offered"),
        "{v}"
    );

    // Black accepts over the socket, naming the state it saw; both sockets hear the new id.
    let seq = offered["seq"].as_u64().unwrap();
    send(
        &mut ws_black,
        json!({ "type": "action", "action": "rematch", "seq": seq }),
    )
    .await;
    let ok = wait_for(&mut ws_black, 10, |m| {
        m["type"] != "event" || m["event"] == "rematch"
    })
    .await;
    assert_eq!(ok["type"], "ok", "{ok}");
    let made = wait_for(&mut ws_white, 10, |m| m["event"] == "rematch").await;
    let new_id = made["detail"]["game"].as_str().unwrap().to_owned();
    assert_eq!(made["state"]["rematch"], new_id.as_str());

    // The accept sent again on the same state (its answer lost) gets the same outcome.
    let (status, again) = act(
        &base,
        &id,
        Some(&black),
        json!({ "action": "rematch", "seq": seq }),
    )
    .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["rematch"], new_id.as_str());
    assert_eq!(again["seq"], seq + 1);

    // Colours swapped, each token holding its person's new seat; the clock waits for the
    // first move.
    let as_white = state(&base, &new_id, Some(&black)).await;
    assert_eq!(as_white["you"], json!(["white"]));
    assert_eq!(as_white["seats"]["white"]["name"], "Bo");
    assert_eq!(as_white["seats"]["black"]["name"], "Ada");
    assert_eq!(as_white["clock"]["initial_ms"], 180_000);
    assert_eq!(as_white["clock"]["running"], Value::Null);
    assert_eq!(as_white["invite"], Value::Null);
    let as_black = state(&base, &new_id, Some(&white)).await;
    assert_eq!(as_black["you"], json!(["black"]));
    let (status, v) = play_move(&base, &new_id, &black, "TE4:0").await;
    assert_eq!(status, 200, "the new White plays: {v}");
    assert_eq!(v["clock"]["running"], "black", "{v}");
}

#[tokio::test]
async fn a_declined_offer_is_withdrawn_and_can_be_made_again() {
    let base = start_in_process(&temp_db("rematch-decline")).await;
    let (id, white, black) = friend_game(&base, None).await;
    resign(&base, &id, &black).await;
    let (status, v) = act(
        &base,
        &id,
        Some(&black),
        json!({ "action": "decline_rematch" }),
    )
    .await;
    assert_eq!(status, 409, "nothing to decline: {v}");
    assert!(
        v["error"].as_str().unwrap().contains("no rematch offer"),
        "{v}"
    );

    let (status, _) = act(&base, &id, Some(&black), json!({ "action": "rematch" })).await;
    assert_eq!(status, 200);
    // The offer is kept with the game, read back from the database.
    assert_eq!(state(&base, &id, None).await["rematch_offer"], "black");
    let (status, v) = act(
        &base,
        &id,
        Some(&black),
        json!({ "action": "decline_rematch" }),
    )
    .await;
    assert_eq!(status, 409, "one's own offer is not declined: {v}");
    let (status, v) = act(
        &base,
        &id,
        Some(&white),
        json!({ "action": "decline_rematch" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rematch_offer"], Value::Null);
    assert_eq!(v["rematch"], Value::Null);

    let (status, v) = act(&base, &id, Some(&white), json!({ "action": "rematch" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rematch_offer"], "white");
}

#[tokio::test]
async fn a_rematch_is_refused_while_the_game_runs_and_to_watchers() {
    let base = start_in_process(&temp_db("rematch-refused")).await;
    let (id, white, black) = friend_game(&base, None).await;
    let (status, v) = act(&base, &id, Some(&white), json!({ "action": "rematch" })).await;
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("still being played"),
        "{v}"
    );
    resign(&base, &id, &black).await;
    let (status, v) = act(&base, &id, None, json!({ "action": "rematch" })).await;
    assert_eq!(status, 403, "{v}");
    let (status, v) = act(
        &base,
        &id,
        Some(&white),
        json!({ "action": "rematch", "move": "TE4:0" }),
    )
    .await;
    assert!(
        status == 400 || status == 422,
        "a rematch has no move: {status} {v}"
    );
}

#[tokio::test]
async fn asked_for_by_both_at_once_the_rematch_is_made_once() {
    let base = start_in_process(&temp_db("rematch-race")).await;
    for _ in 0..5 {
        // Against the computer, three requests at once; between people, both sides at once
        // after an offer.
        let (id, token) = create(&base, json!({ "mode": "computer", "level": 1 })).await;
        resign(&base, &id, &token).await;
        let ask = || act(&base, &id, Some(&token), json!({ "action": "rematch" }));
        let (a, b, c) = tokio::join!(ask(), ask(), ask());
        for (status, v) in [&a, &b, &c] {
            assert_eq!(*status, 200, "{v}");
        }
        assert_eq!(a.1["rematch"], b.1["rematch"]);
        assert_eq!(b.1["rematch"], c.1["rematch"]);

        let (id, white, black) = friend_game(&base, None).await;
        resign(&base, &id, &white).await;
        let (status, _) = act(&base, &id, Some(&white), json!({ "action": "rematch" })).await;
        assert_eq!(status, 200);
        let (w, b) = tokio::join!(
            act(&base, &id, Some(&white), json!({ "action": "rematch" })),
            act(&base, &id, Some(&black), json!({ "action": "rematch" })),
        );
        // White's repeat either finds its offer still open (already offered) or the
        // rematch Black's accept made; there is one rematch in the end.
        assert_eq!(b.0, 200, "{}", b.1);
        let made = b.1["rematch"].as_str().expect("black's accept makes it");
        assert!(
            (w.0 == 200 && w.1["rematch"] == made) || w.0 == 409,
            "{} {}",
            w.0,
            w.1
        );
        assert_eq!(state(&base, &id, None).await["rematch"], made);
    }
}
