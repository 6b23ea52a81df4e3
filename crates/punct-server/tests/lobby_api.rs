//! The lobby through the real server, on SQLite and on a real PostgreSQL: seeks put up,
//! listed, accepted once (both players seated, the seeker told on the lobby's socket) and
//! gone with their seeker's last socket; challenges declined, accepted and refused; the
//! quick-pairing pools; "your turn" and the notifications; bad input refused with a 400
//! naming the field. A correspondence game across a restart of the real binary with the
//! controlled clock: the downtime is given back, and the server ends the game on time when
//! nobody is connected.

mod common;

use std::time::{Duration, Instant};

use common::browser::Browser;
use common::pg_cluster::databases;
use common::{ClockFile, Process, free_addr, pick_move, start_in_process};
use futures_util::StreamExt;
use reqwest::Method;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const DAY: i64 = 86_400_000;

impl Browser {
    /// The lobby's WebSocket, as this browser (cookie, CSRF token in the query, Origin).
    async fn lobby(&self) -> common::Ws {
        let mut url = format!("{}/api/lobby/ws", self.base.replace("http://", "ws://"));
        if let Some(c) = &self.csrf {
            url.push_str(&format!("?csrf={c}"));
        }
        let mut req = url.into_client_request().unwrap();
        req.headers_mut()
            .insert("origin", self.base.parse().unwrap());
        if let Some(s) = &self.session {
            req.headers_mut()
                .insert("cookie", format!("punct_session={s}").parse().unwrap());
        }
        tokio::time::timeout(
            Duration::from_secs(20),
            tokio_tungstenite::connect_async(req),
        )
        .await
        .expect("the lobby's socket opens within 20 s")
        .expect("the lobby's socket opens")
        .0
    }
}

/// Reads the socket until a message of type `kind` for which `also` holds comes (10 s).
async fn heard(ws: &mut common::Ws, kind: &str, also: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} within 10 s"))
            .expect("the socket stays open")
            .unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == kind && also(&v) {
                return v;
            }
        }
    }
}

/// Waits (5 s at most) until `path`, read by `b`, satisfies `done`.
async fn until(b: &mut Browser, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (status, v) = b.get(path).await;
        assert_eq!(status, 200, "{path}: {v}");
        if done(&v) {
            return v;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "{path}: {v}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

fn ids(seeks: &Value) -> Vec<String> {
    seeks["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn bad_input_is_refused_naming_the_field(base: &str, ada: &mut Browser) {
    let mut nobody = Browser::anonymous(base);
    let (status, v) = nobody.post("/api/seeks", json!({"days": 3})).await;
    assert_eq!(status, 401, "{v}");
    let cases = [
        (json!({}), "`clock`"),
        (json!({"days": 4}), "`days`"),
        (json!({"clock": {"initial": 300}}), "increment"),
        (
            json!({"clock": {"initial": 300, "increment": 3}, "days": 1}),
            "not both",
        ),
        (json!({"days": 3, "colour": "green"}), "`colour`"),
        (
            json!({"days": 3, "rating_range": [1800, 1200]}),
            "`rating_range`",
        ),
        (json!({"days": 3, "speed": "fast"}), "speed"),
    ];
    for (body, needle) in cases {
        let (status, v) = ada.post("/api/seeks", body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        let reason = v["error"].as_str().unwrap();
        assert!(reason.contains(needle), "{body}: {reason}");
    }
    let (status, v) = ada.post("/api/challenges", json!({"days": 3})).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("`to`"), "{v}");
    let (status, v) = ada
        .post("/api/challenges", json!({"to": "nobody_here", "days": 3}))
        .await;
    assert_eq!(status, 404, "{v}");
    let (status, v) = ada
        .post("/api/challenges", json!({"to": "ada", "days": 3}))
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("yourself"), "{v}");
    let (status, v) = ada.post("/api/pool/1+0", json!({})).await;
    assert_eq!(status, 404, "{v}");
    assert!(v["error"].as_str().unwrap().contains("5+3"), "{v}");
}

async fn a_seek_is_accepted_and_both_land_in_the_game(
    base: &str,
    ada: &mut Browser,
    bo: &mut Browser,
) {
    let mut lobby = ada.lobby().await;
    let first = heard(&mut lobby, "seeks", |_| true).await;
    assert!(first["seeks"].as_array().unwrap().is_empty(), "{first}");
    heard(&mut lobby, "notifications", |_| true).await;
    let (status, seek) = ada
        .post(
            "/api/seeks",
            json!({"clock": {"initial": 300, "increment": 3}, "rated": true, "colour": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_str().unwrap().to_owned();
    assert_eq!(seek["by"], "ada", "{seek}");
    assert_eq!(seek["speed"], "blitz", "{seek}");
    assert_eq!(seek["rating"], 1500, "{seek}");
    assert_eq!(seek["clock"], json!({"initial": 300, "increment": 3}));
    // A watcher of the lobby, not signed in, sees it come up.
    let mut watcher = Browser::anonymous(base).lobby().await;
    heard(&mut watcher, "seeks", |v| {
        v["seeks"][0]["id"] == id.as_str()
    })
    .await;
    heard(&mut lobby, "seek_added", |v| v["seek"]["id"] == id.as_str()).await;
    let (_, listed) = bo.get("/api/seeks").await;
    assert_eq!(ids(&listed), std::slice::from_ref(&id), "{listed}");

    let (status, own) = ada
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 400, "{own}");
    let (status, started) = bo.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["seat"], "black", "{started}");
    let game = started["game"].as_str().unwrap().to_owned();
    let (status, again) = bo.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(status, 404, "taken once: {again}");

    // The seeker hears that the game began, and everyone that the seek went.
    let told = heard(&mut lobby, "game_started", |_| true).await;
    assert_eq!(told["game"], game.as_str(), "{told}");
    assert_eq!(told["seat"], "white", "{told}");
    heard(&mut watcher, "seek_removed", |v| v["ids"][0] == id.as_str()).await;

    // Both play it with their sessions: the seats hold their accounts.
    let (_, state) = ada.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], json!(["white"]), "{state}");
    assert_eq!(state["seats"]["black"]["name"], "bo_2", "{state}");
    assert_eq!(state["rated"], true, "{state}");
    let (status, moved) = ada
        .post(&format!("/api/games/{game}/move"), json!({"move": "TE4:0"}))
        .await;
    assert_eq!(status, 200, "{moved}");
    let (_, turn) = bo.get("/api/account/your-turn").await;
    assert_eq!(turn["games"][0]["game"], game.as_str(), "{turn}");
    assert_eq!(turn["games"][0]["colour"], "black", "{turn}");
    let (_, turn) = ada.get("/api/account/your-turn").await;
    assert!(turn["games"].as_array().unwrap().is_empty(), "{turn}");
    let (status, ended) = bo
        .post(&format!("/api/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{ended}");
    assert!(
        ended["rating_change"]["white"].as_f64().unwrap() > 0.0,
        "{ended}"
    );

    // A real-time seek goes when its seeker's last lobby socket closes.
    let (_, seek) = ada
        .post(
            "/api/seeks",
            json!({"clock": {"initial": 600, "increment": 5}}),
        )
        .await;
    let second = seek["id"].as_str().unwrap().to_owned();
    let mut other_tab = ada.lobby().await;
    heard(&mut other_tab, "seeks", |_| true).await;
    drop(lobby);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, listed) = bo.get("/api/seeks").await;
    assert_eq!(
        ids(&listed),
        std::slice::from_ref(&second),
        "another tab is open: {listed}"
    );
    other_tab.close(None).await.ok();
    until(bo, "/api/seeks", |v| ids(v).is_empty()).await;
    heard(&mut watcher, "seek_removed", |v| {
        v["ids"][0] == second.as_str()
    })
    .await;

    // A correspondence seek stays; its seeker withdraws it.
    let (_, seek) = ada.post("/api/seeks", json!({"days": 3})).await;
    let third = seek["id"].as_str().unwrap().to_owned();
    let (status, v) = bo
        .send(Method::DELETE, &format!("/api/seeks/{third}"), None)
        .await;
    assert_eq!(status, 404, "not bo's: {v}");
    let (status, _) = ada
        .send(Method::DELETE, &format!("/api/seeks/{third}"), None)
        .await;
    assert_eq!(status, 204);
    let (_, listed) = bo.get("/api/seeks").await;
    assert!(ids(&listed).is_empty(), "{listed}");
}

async fn challenges_are_declined_or_accepted(ada: &mut Browser, bo: &mut Browser) {
    let mut bo_lobby = bo.lobby().await;
    heard(&mut bo_lobby, "notifications", |_| true).await;
    let (status, first) = ada
        .post("/api/challenges", json!({"to": "BO_2", "days": 3}))
        .await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["to"], "bo_2", "{first}");
    // Bo's open page hears of it; it waits for him in his lists.
    heard(&mut bo_lobby, "notifications", |v| v["challenges"] == 1).await;
    let (_, open) = bo.get("/api/challenges").await;
    assert_eq!(open["incoming"][0]["id"], first["id"], "{open}");
    assert_eq!(open["incoming"][0]["from"], "ada", "{open}");
    assert_eq!(open["incoming"][0]["days"], 3, "{open}");
    let (_, sent) = ada.get("/api/challenges").await;
    assert_eq!(sent["outgoing"][0]["id"], first["id"], "{sent}");
    let (_, told) = bo.get("/api/notifications").await;
    let kinds: Vec<&str> = told["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"challenge"), "{told}");
    assert!(told["unread"].as_i64().unwrap() >= 1, "{told}");

    let first_id = first["id"].as_str().unwrap();
    let (status, v) = ada
        .post(&format!("/api/challenges/{first_id}/accept"), json!({}))
        .await;
    assert_eq!(status, 404, "only the challenged accepts: {v}");
    let (status, _) = bo
        .post(&format!("/api/challenges/{first_id}/decline"), json!({}))
        .await;
    assert_eq!(status, 204);
    let (_, open) = bo.get("/api/challenges").await;
    assert!(open["incoming"].as_array().unwrap().is_empty(), "{open}");

    let (_, second) = ada
        .post(
            "/api/challenges",
            json!({"to": "bo_2", "clock": {"initial": 600, "increment": 0}, "colour": "black", "rated": true}),
        )
        .await;
    let second_id = second["id"].as_str().unwrap();
    let (status, started) = bo
        .post(&format!("/api/challenges/{second_id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["seat"], "white", "ada asked for black: {started}");
    let game = started["game"].as_str().unwrap();
    let (_, state) = bo.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], json!(["white"]), "{state}");
    assert_eq!(state["seats"]["black"]["name"], "ada", "{state}");
    let (status, v) = bo
        .post(&format!("/api/challenges/{second_id}/accept"), json!({}))
        .await;
    assert_eq!(status, 404, "accepted once: {v}");
    let (_, third) = ada
        .post("/api/challenges", json!({"to": "bo_2", "days": 1}))
        .await;
    let third_id = third["id"].as_str().unwrap();
    let (status, _) = ada
        .post(&format!("/api/challenges/{third_id}/cancel"), json!({}))
        .await;
    assert_eq!(status, 204);

    let (status, v) = bo.post("/api/notifications/read", json!({})).await;
    assert_eq!(status, 200, "{v}");
    heard(&mut bo_lobby, "notifications", |v| v["unread"] == 0).await;
    let (_, told) = bo.get("/api/notifications").await;
    assert_eq!(told["unread"], 0, "{told}");
}

async fn the_pool_pairs_two_waiting_players(ada: &mut Browser, bo: &mut Browser) {
    let (status, v) = ada.send(Method::DELETE, "/api/pool/10+5", None).await;
    assert_eq!(status, 404, "not waiting: {v}");
    let mut lobby = ada.lobby().await;
    let (status, waiting) = ada.post("/api/pool/10+5", json!({})).await;
    assert_eq!(status, 200, "{waiting}");
    assert_eq!(waiting["waiting"], true, "{waiting}");
    let (status, paired) = bo.post("/api/pool/10+5", json!({})).await;
    assert_eq!(status, 200, "{paired}");
    assert_eq!(paired["waiting"], false, "{paired}");
    let game = paired["game"].as_str().unwrap().to_owned();
    let told = heard(&mut lobby, "game_started", |v| v["game"] == game.as_str()).await;
    assert_ne!(told["seat"], paired["seat"], "{told} {paired}");
    let (_, state) = ada.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["rated"], true, "{state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_on_sqlite_and_postgres() {
    let (dbs, _cluster) = databases("lobby_api");
    for db in &dbs {
        let base = start_in_process(db).await;
        let mut ada = Browser::signed_up(&base, "ada").await;
        let mut bo = Browser::signed_up(&base, "bo_2").await;
        bad_input_is_refused_naming_the_field(&base, &mut ada).await;
        a_seek_is_accepted_and_both_land_in_the_game(&base, &mut ada, &mut bo).await;
        challenges_are_declined_or_accepted(&mut ada, &mut bo).await;
        the_pool_pairs_two_waiting_players(&mut ada, &mut bo).await;
        // The name for a profile gives the same answer.
        let (_, users) = bo.get("/api/users/ada").await;
        let (_, players) = bo.get("/api/players/ada").await;
        assert_eq!(users, players);
        assert_eq!(users["username"], "ada", "{users}");
    }
}

/// The live game `id`, read by `b`, once `done` holds (10 s at most).
async fn game_when(b: &mut Browser, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    until_long(b, &format!("/api/games/{id}"), done).await
}

async fn until_long(b: &mut Browser, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (status, v) = b.get(path).await;
        if status == 200 && done(&v) {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{path}: {status} {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_across_a_restart_with_the_controlled_clock() {
    let (dbs, _cluster) = databases("lobby_days");
    for db in &dbs {
        let mut clock = ClockFile::beside(&common::temp_db("lobby-days-clock"));
        let addr = free_addr();
        let base = format!("http://{addr}");
        let path = clock.path.clone();
        let with_clock = |c: &mut std::process::Command| {
            c.env("PUNCT_CLOCK_FILE", &path);
        };
        let mut server = Process::start_with(addr, db, with_clock).await;
        let mut ada = Browser::signed_up(&base, "ada").await;
        let mut bo = Browser::signed_up(&base, "bo_2").await;
        let (_, c) = ada
            .post(
                "/api/challenges",
                json!({"to": "bo_2", "days": 1, "colour": "white", "rated": true}),
            )
            .await;
        let (status, started) = bo
            .post(
                &format!("/api/challenges/{}/accept", c["id"].as_str().unwrap()),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{started}");
        let game = started["game"].as_str().unwrap().to_owned();
        // Each side makes its first move (a game nobody starts is aborted instead).
        let mut position = "standard w 0 -".to_owned();
        for ply in 0..3 {
            let mv = pick_move(&base, &position, ply).await;
            let mover = if ply % 2 == 0 { &mut ada } else { &mut bo };
            let (status, v) = mover
                .post(&format!("/api/games/{game}/move"), json!({"move": mv}))
                .await;
            assert_eq!(status, 200, "{v}");
            position = v["position"].as_str().unwrap().to_owned();
        }
        let (_, turn) = bo.get("/api/account/your-turn").await;
        let deadline = turn["games"][0]["deadline_ms"].as_i64().unwrap();
        let (_, told) = bo.get("/api/notifications").await;
        assert_eq!(told["notifications"][0]["kind"], "your_turn", "{told}");

        // Half a day of Bo's thinking, then the server is down for three days: they are
        // not charged to him.
        clock.advance(DAY / 2);
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        server.kill();
        clock.advance(3 * DAY);
        let with_clock = |c: &mut std::process::Command| {
            c.env("PUNCT_CLOCK_FILE", &path);
        };
        let _server = Process::start_with(addr, db, with_clock).await;
        let state = game_when(&mut bo, &game, |_| true).await;
        assert_eq!(
            state["outcome"],
            Value::Null,
            "downtime given back: {state}"
        );
        let (_, turn) = bo.get("/api/account/your-turn").await;
        let moved = turn["games"][0]["deadline_ms"].as_i64().unwrap();
        assert!(
            moved >= deadline + 3 * DAY - 5_000,
            "the deadline moved on by the downtime: {deadline} → {moved}"
        );

        // Bo lets it run out with nobody connected: the server ends it on time.
        clock.advance(DAY);
        let ended = game_when(&mut ada, &game, |s| s["outcome"] != Value::Null).await;
        assert_eq!(ended["outcome"]["winner"], "white", "{ended}");
        let (_, turn) = bo.get("/api/account/your-turn").await;
        assert!(turn["games"].as_array().unwrap().is_empty(), "{turn}");
        let (_, told) = ada.get("/api/notifications").await;
        assert_eq!(told["notifications"][0]["kind"], "game_end", "{told}");
    }
}
