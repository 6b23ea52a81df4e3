//! Time is fair: the computer's moves are scheduled so that a queue of searches never makes
//! it lose on time, analysis waits behind games, is capped per client and stops when its
//! client hangs up, and games nobody plays end by themselves without a result.

mod common;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::*;
use punct_server::Config;
use punct_server::room::Lifetimes;
use serde_json::{Value, json};

/// Starts a server in this process with `config` changed by `tune`.
async fn start_with(name: &str, tune: impl FnOnce(&mut Config)) -> String {
    start_in_process_with(&temp_db(name), tune).await
}

/// An HTTP client whose requests come from `ip` (any address of 127.0.0.0/8), so that one
/// test can be several clients.
fn client_from(ip: u8, timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, ip)))
        .timeout(timeout)
        .build()
        .unwrap()
}

const POSITION: &str = "standard b 1 wTE4:0@1";

/// Asks for an analysis of [`POSITION`]: the status and the body.
async fn analyse(client: &reqwest::Client, base: &str) -> Result<(u16, Value), reqwest::Error> {
    let resp = client
        .post(format!("{base}/api/analyse"))
        .json(&json!({ "position": POSITION }))
        .send()
        .await?;
    let status = resp.status().as_u16();
    Ok((status, resp.json().await?))
}

/// Plays White against the computer in game `id`, moving at once, until the game ends or
/// White has made `moves` moves: returns the last state seen.
async fn play_white(base: &str, id: &str, token: &str, moves: usize) -> Value {
    let mut ws = connect(base, id, Some(token)).await;
    let mut state = next_json(&mut ws, 20).await.expect("the state")["state"].clone();
    let mut made = 0;
    loop {
        if !state["outcome"].is_null() || made == moves {
            return state;
        }
        if state["turn"] == "white" {
            let position = state["position"].as_str().unwrap().to_owned();
            let mv = pick_move(base, &position, made).await;
            let (status, v) = post(
                &format!("{base}/api/games/{id}/move"),
                Some(token),
                json!({ "move": mv, "seq": state["seq"] }),
            )
            .await;
            if status != 200 {
                // The game ended under the move (a flag, for instance): the event says how.
                assert_eq!(status, 409, "{v}");
            }
            made += 1;
        }
        let msg = wait_for(&mut ws, 60, |v| {
            v["type"] == "event" || v["type"] == "state"
        })
        .await;
        state = msg["state"].clone();
    }
}

/// Many timed games against the full-strength computer at once, on one engine thread, on a
/// clock far too short for each game to wait for every other game's search at the pace it
/// would think at alone (8 s: a 30th of it is 270 ms, times 30 games is 8 s a move): every
/// search's budget is set when it starts, smaller the more searches wait, so no game loses
/// on time.
#[tokio::test]
async fn the_computer_never_loses_on_time_with_many_games_waiting_for_one_engine_thread() {
    const GAMES: usize = 30;
    const MOVES: usize = 6;
    let base = start_with("fair", |c| c.engine_movetime = Duration::from_secs(2)).await;
    let mut games = Vec::new();
    for _ in 0..GAMES {
        let body = json!({
            "mode": "computer", "level": 6, "colour": "white",
            "clock": { "minutes": 8.0 / 60.0, "increment": 0 },
        });
        let (id, token) = create(&base, body).await;
        let base = base.clone();
        games.push(tokio::spawn(async move {
            play_white(&base, &id, &token, MOVES).await
        }));
    }
    for game in games {
        let state = game.await.unwrap();
        let outcome = &state["outcome"];
        assert!(
            !(outcome["termination"] == "time forfeit" && outcome["winner"] == "white"),
            "the computer lost on time: {state}"
        );
        let moves = state["moves"].as_array().unwrap().len();
        assert!(
            !outcome.is_null() || moves == 2 * MOVES - 1,
            "the computer answered every move: {state}"
        );
    }
}

/// A flood of analyses from one client is refused past its share, and a computer game's
/// reply overtakes the analyses waiting.
#[tokio::test]
async fn analysis_is_capped_per_client_and_waits_behind_the_computers_moves() {
    let base = start_with("analysis-lane", |c| {
        c.engine_movetime = Duration::from_millis(400);
        c.analyses_per_client = 2;
    })
    .await;
    let answered = Arc::new(AtomicUsize::new(0));
    let ask = |ip: u8| {
        let (base, answered) = (base.clone(), answered.clone());
        tokio::spawn(async move {
            let r = analyse(&client_from(ip, Duration::from_secs(60)), &base).await;
            answered.fetch_add(1, Ordering::SeqCst);
            r.unwrap()
        })
    };
    let flood: Vec<_> = (0..6).map(|_| ask(1)).collect();
    let mut statuses = Vec::new();
    for asked in flood {
        let (status, v) = asked.await.unwrap();
        if status == 503 {
            let reason = v["error"].as_str().unwrap();
            assert!(reason.contains("too many analyses"), "{v}");
        }
        statuses.push(status);
    }
    statuses.sort();
    assert_eq!(statuses, [200, 200, 503, 503, 503, 503]);

    // Six analyses from three clients: 2.4 s of the engine's time.
    answered.store(0, Ordering::SeqCst);
    let queued: Vec<_> = [2, 2, 3, 3, 4, 4].into_iter().map(ask).collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let body = json!({ "mode": "computer", "level": 1, "colour": "white" });
    let (id, token) = create(&base, body).await;
    let mut ws = connect(&base, &id, Some(&token)).await;
    let (status, v) = play_move(&base, &id, &token, "TE4:0").await;
    assert_eq!(status, 200, "{v}");
    wait_for(&mut ws, 30, |v| {
        v["event"] == "move" && v["state"]["moves"].as_array().is_some_and(|m| m.len() == 2)
    })
    .await;
    let before = answered.load(Ordering::SeqCst);
    assert!(
        before <= 1,
        "the computer's reply waited for {before} analyses queued after the one running"
    );
    for asked in queued {
        assert_eq!(asked.await.unwrap().0, 200);
    }
}

/// An analysis whose client hangs up is stopped: the engine thread is free for the next
/// search long before the analysis's ten minutes are up, and the client's share is free
/// again.
#[tokio::test]
async fn an_analysis_stops_when_its_client_hangs_up() {
    let base = start_with("analysis-hangup", |c| {
        c.engine_movetime = Duration::from_secs(600);
        c.analyses_per_client = 1;
    })
    .await;
    let impatient = client_from(1, Duration::from_millis(300));
    analyse(&impatient, &base)
        .await
        .expect_err("the client gives up");
    // A timed game: the computer's search thinks a 30th of its minute.
    let body = json!({
        "mode": "computer", "level": 6, "colour": "white",
        "clock": { "minutes": 1, "increment": 0 },
    });
    let (id, token) = create(&base, body).await;
    let mut ws = connect(&base, &id, Some(&token)).await;
    let url = format!("{base}/api/games/{id}/move");
    let (status, v) = post(&url, Some(&token), json!({ "move": "TE4:0" })).await;
    assert_eq!(status, 200, "{v}");
    let reply = tokio::time::timeout(
        Duration::from_secs(30),
        wait_for(&mut ws, 30, |v| {
            v["event"] == "move" && v["state"]["moves"].as_array().is_some_and(|m| m.len() == 2)
        }),
    )
    .await;
    assert!(
        reply.is_ok(),
        "the computer's search waited for the abandoned analysis"
    );
    // The client's share was given back: it may ask again (and hang up again).
    let again = client_from(1, Duration::from_millis(300));
    assert!(analyse(&again, &base).await.unwrap_err().is_timeout());
}

fn short_lifetimes(c: &mut Config) {
    c.lifetimes = Lifetimes {
        abort_after: Duration::from_millis(300),
        invitation: Duration::from_millis(600),
        abandon_after: Duration::from_millis(900),
        check_every: Duration::from_millis(25),
    };
}

/// Whether game `id` is among the live games listed.
async fn listed_live(base: &str, id: &str) -> bool {
    let (status, v) = get(&format!("{base}/api/games"), None).await;
    assert_eq!(status, 200, "{v}");
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id && g["live"] == true)
}

/// A timed game whose first move never comes is aborted, not lost on time: no winner, the
/// result `*`, out of the live list, still readable.
#[tokio::test]
async fn a_game_without_a_first_move_is_aborted_not_lost_on_time() {
    let base = start_with("abort", short_lifetimes).await;
    let (id, white, black) =
        friend_game(&base, Some(json!({ "minutes": 10, "increment": 0 }))).await;
    let url = format!("{base}/api/games/{id}");
    post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    assert!(listed_live(&base, &id).await);
    let mut ws = connect(&base, &id, Some(&black)).await;
    let v = wait_for(&mut ws, 10, |v| v["type"] == "event").await;
    assert_eq!(v["event"], "aborted", "{v}");
    let outcome = &v["state"]["outcome"];
    assert_eq!(outcome["termination"], "aborted");
    assert_eq!(outcome["winner"], Value::Null);
    assert_eq!(outcome["result"], "*");
    assert_eq!(outcome["text"], "game aborted");
    assert!(!listed_live(&base, &id).await);
    let (status, v) = post(
        &format!("{url}/move"),
        Some(&black),
        json!({ "move": "TK5:0" }),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    let (status, record) = get(&format!("{url}/record"), None).await;
    assert_eq!(status, 200);
    let record = record.as_str().unwrap();
    assert!(record.contains("[Result \"*\"]") && record.contains("[Termination \"aborted\"]"));
    let (status, v) = get(&format!("{url}/replay"), None).await;
    assert_eq!((status, v["moves"].clone()), (200, json!(["TE4:0"])));
}

/// An invitation nobody takes up expires: the game is aborted and its seat cannot be
/// taken any more.
#[tokio::test]
async fn an_invitation_nobody_takes_up_expires() {
    let base = start_with("invitation", short_lifetimes).await;
    let (status, created) = post(
        &format!("{base}/api/games"),
        None,
        json!({ "mode": "friend", "name": "Ada" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let mut ws = connect(&base, id, None).await;
    let v = wait_for(&mut ws, 10, |v| v["type"] == "event").await;
    assert_eq!(v["event"], "aborted", "{v}");
    let (status, v) = post(
        &format!("{base}/api/games/{id}/join"),
        None,
        json!({ "name": "Bo", "invite": created["invite"] }),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
}

/// An untimed game nobody plays on stops being live: abandoned, readable. A game that
/// goes on does not.
#[tokio::test]
async fn an_untimed_game_nobody_plays_on_is_abandoned() {
    let base = start_with("abandon", short_lifetimes).await;
    let (idle, idle_white, idle_black) = friend_game(&base, None).await;
    let (busy, white, black) = friend_game(&base, None).await;
    let moves = ["TE4:0", "TK5:0"];
    for (id, w, b) in [(&idle, &idle_white, &idle_black), (&busy, &white, &black)] {
        for (token, mv) in [w, b].into_iter().zip(moves) {
            let url = format!("{base}/api/games/{id}/move");
            let (status, v) = post(&url, Some(token), json!({ "move": mv })).await;
            assert_eq!(status, 200, "{v}");
        }
    }
    let mut ws = connect(&base, &idle, None).await;
    // The busy game plays on while the idle one waits.
    let mut seed = 0;
    let ended = loop {
        let (_, state) = get(&format!("{base}/api/games/{busy}"), None).await;
        assert!(state["outcome"].is_null(), "the busy game ended: {state}");
        let turn = if state["turn"] == "white" {
            &white
        } else {
            &black
        };
        let mv = pick_move(&base, state["position"].as_str().unwrap(), seed).await;
        seed += 1;
        play_move(&base, &busy, turn, &mv).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        if let Some(v) = next_json(&mut ws, 0).await.filter(|v| v["type"] == "event") {
            break v;
        }
        assert!(seed < 100, "the idle game was never abandoned");
    };
    assert_eq!(ended["event"], "abandoned", "{ended}");
    assert_eq!(ended["state"]["outcome"]["text"], "game abandoned");
    assert!(!listed_live(&base, &idle).await);
    let (_, busy_state) = get(&format!("{base}/api/games/{busy}"), None).await;
    assert!(busy_state["outcome"].is_null(), "{busy_state}");
    let (status, v) = get(&format!("{base}/api/games/{idle}/replay"), None).await;
    assert_eq!((status, v["moves"].clone()), (200, json!(moves)));
}

/// The list of live games shows each game's line as of its last change.
#[tokio::test]
async fn the_list_of_live_games_follows_every_change() {
    let base = start_with("list", |_| {}).await;
    let (id, white, _) = friend_game(&base, None).await;
    let line = || async {
        let (_, v) = get(&format!("{base}/api/games"), None).await;
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .cloned()
    };
    assert!(
        line().await.is_none(),
        "a game not yet begun is not listed as being played"
    );
    let url = format!("{base}/api/games/{id}");
    post(
        &format!("{url}/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    let after = line().await.expect("the game is listed once begun");
    assert_eq!(
        (after["moves"].clone(), after["live"].clone()),
        (json!(1), json!(true))
    );
    post(&format!("{url}/resign"), Some(&white), json!({})).await;
    let over = line().await.expect("listed among the finished games");
    assert_eq!(
        (over["live"].clone(), over["result"].clone()),
        (json!(false), json!("Black wins by resignation"))
    );
}
