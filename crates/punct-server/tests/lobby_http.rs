//! Games between signed-in players through the real server, on SQLite and on a real
//! PostgreSQL: a seat holds its account, whose session stands for the seat token; a rated
//! game's end moves both Glicko-2 ratings (checked against the paper's formulas) and shows
//! the change in the end's state, the game view read back and the record; the profile
//! lists the game with its result. A game joined anonymously, or against the computer, is
//! never rated; stored games of the older form still load (`room::seat`'s unit tests).

mod common;

use common::browser::Browser;
use common::pg_cluster::databases;
use common::start_in_process;
use punct_server::players::glicko2::{Rating, Score, rate_game};
use serde_json::{Value, json};

/// The profile's rating in `name`.
fn speed<'a>(profile: &'a Value, name: &str) -> &'a Value {
    let ratings = profile["ratings"].as_array().expect("ratings");
    ratings.iter().find(|r| r["speed"] == name).expect(name)
}

/// Ada makes a rated friend game of 5+3, Bo joins it signed in: the game's id.
async fn rated_game(ada: &mut Browser, bo: &mut Browser) -> String {
    let (status, made) = ada
        .post(
            "/api/games",
            json!({"mode": "friend", "clock": {"minutes": 5, "increment": 3}, "rated": true}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    assert_eq!(made["state"]["rated"], true, "{made}");
    let invite = made["invite"].as_str().unwrap();
    let (status, joined) = bo
        .post(&format!("/api/games/{id}/join"), json!({"invite": invite}))
        .await;
    assert_eq!(status, 200, "{joined}");
    id
}

async fn a_rated_game_between_accounts_moves_both_ratings(base: &str) {
    let mut ada = Browser::signed_up(base, "ada").await;
    let mut bo = Browser::signed_up(base, "bo_2").await;
    let id = rated_game(&mut ada, &mut bo).await;

    // The seats carry the accounts' names, and the sessions stand for the seat tokens.
    let (_, state) = ada.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["seats"]["white"]["name"], "ada", "{state}");
    assert_eq!(state["seats"]["black"]["name"], "bo_2", "{state}");
    assert_eq!(state["you"], json!(["white"]), "{state}");
    let (status, moved) = ada
        .post(&format!("/api/games/{id}/move"), json!({"move": "TE4:0"}))
        .await;
    assert_eq!(status, 200, "{moved}");
    let (status, refused) = ada
        .post(&format!("/api/games/{id}/move"), json!({"move": "TD4:0"}))
        .await;
    assert_eq!(status, 409, "not Ada's turn: {refused}");

    // The profile lists the live game, Bo's turn.
    let (_, games) = bo.get("/api/players/bo_2/games?live=true").await;
    let listed = &games["games"][0];
    assert_eq!(listed["game"], id.as_str(), "{games}");
    assert_eq!(listed["live"], true, "{games}");
    assert_eq!(listed["rated"], true, "{games}");

    // Bo resigns: the end carries both changes, as Glicko-2 computes them from new ratings.
    let (status, ended) = bo.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, 200, "{ended}");
    let (white, black) = rate_game(Rating::NEW, Rating::NEW, Score::Win);
    let change = &ended["rating_change"];
    let near = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-6;
    assert!(near(&change["white"], white.rating - 1500.0), "{ended}");
    assert!(near(&change["black"], black.rating - 1500.0), "{ended}");
    assert!(white.rating > 1600.0 && black.rating < 1400.0);

    // Read back from the database (the game left memory once it ended), and in the record.
    let (_, state) = ada.get(&format!("/api/games/{id}")).await;
    assert!(
        near(&state["rating_change"]["white"], white.rating - 1500.0),
        "{state}"
    );
    let record = reqwest::get(format!("{base}/api/games/{id}/record"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let diff = format!("[WhiteRatingDiff \"{:+.0}\"]", white.rating - 1500.0);
    assert!(record.contains(&diff), "{record}");
    assert!(record.contains("[BlackRatingDiff \"-"), "{record}");

    // Both profiles hold the new ratings, and the game with its result.
    let (_, profile) = ada.get("/api/players/ada").await;
    let blitz = speed(&profile, "blitz");
    assert_eq!(blitz["games"], 1, "{profile}");
    assert_eq!(
        blitz["rating"].as_f64().unwrap().round(),
        white.rating.round()
    );
    let (_, games) = bo.get("/api/players/bo_2/games").await;
    assert_eq!(games["games"][0]["result"], "loss", "{games}");
    let (_, again) = bo.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert!(again["error"].as_str().unwrap().contains("over"), "{again}");
    let (_, profile) = bo.get("/api/players/bo_2").await;
    assert_eq!(
        speed(&profile, "blitz")["games"],
        1,
        "rated once: {profile}"
    );
}

async fn casual_computer_and_anonymous_games_are_never_rated(base: &str) {
    let mut cy = Browser::signed_up(base, "cy_3").await;
    let (status, refused) = cy
        .post(
            "/api/games",
            json!({"mode": "computer", "clock": {"minutes": 5, "increment": 0}, "rated": true}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let mut anonymous = Browser {
        base: base.to_owned(),
        session: None,
        csrf: None,
    };
    let (status, refused) = anonymous
        .post(
            "/api/games",
            json!({"mode": "friend", "days": 3, "rated": true}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");

    // A rated game taken by an anonymous player is played casual.
    let (_, made) = cy
        .post(
            "/api/games",
            json!({"mode": "friend", "days": 3, "rated": true}),
        )
        .await;
    let id = made["id"].as_str().unwrap();
    assert_eq!(made["state"]["clock"]["days_per_move"], 3, "{made}");
    let invite = made["invite"].as_str().unwrap();
    let (_, joined) = anonymous
        .post(&format!("/api/games/{id}/join"), json!({"invite": invite}))
        .await;
    assert_eq!(joined["state"]["rated"], false, "{joined}");
    let (status, ended) = cy.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, 200, "{ended}");
    assert!(ended.get("rating_change").is_none(), "{ended}");
    let (_, profile) = cy.get("/api/players/cy_3").await;
    assert_eq!(speed(&profile, "correspondence")["games"], 0, "{profile}");
    let (_, games) = cy.get("/api/players/cy_3/games").await;
    assert_eq!(games["games"][0]["result"], "loss", "{games}");
    assert_eq!(games["games"][0]["rated"], false, "{games}");
}

#[tokio::test]
async fn games_of_signed_in_players_on_sqlite_and_postgres() {
    let (dbs, _cluster) = databases("lobby_http");
    for db in &dbs {
        let base = start_in_process(db).await;
        a_rated_game_between_accounts_moves_both_ratings(&base).await;
        casual_computer_and_anonymous_games_are_never_rated(&base).await;
    }
}
