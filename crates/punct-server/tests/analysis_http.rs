//! The engine's analysis over HTTP: the fairness rule (a position of a game being played is
//! analysed for nobody, until the game is over) and the stored analysis of a finished game.

mod common;

use common::*;
use serde_json::{Value, json};

/// Plays `plies` moves of game `id` (White's token, Black's token), the moves chosen by
/// `pick_move`; returns the positions after each (the start first).
async fn play(base: &str, id: &str, tokens: [&str; 2], plies: usize) -> Vec<String> {
    let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
    let mut positions = vec![state["position"].as_str().unwrap().to_owned()];
    for i in 0..plies {
        let pos = positions.last().unwrap().clone();
        let mv = pick_move(base, &pos, i).await;
        let (status, v) = play_move(base, id, tokens[i % 2], &mv).await;
        assert_eq!(status, 200, "{v}");
        let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
        positions.push(state["position"].as_str().unwrap().to_owned());
    }
    positions
}

async fn analyse(base: &str, position: &str) -> (u16, Value) {
    post(
        &format!("{base}/api/analyse"),
        None,
        json!({ "position": position }),
    )
    .await
}

/// The position's text with another move count (its third word): the same position.
fn renumbered(position: &str) -> String {
    let mut words: Vec<String> = position.split(' ').map(str::to_owned).collect();
    let n: u32 = words[2].parse().unwrap();
    words[2] = (n + 40).to_string();
    words.join(" ")
}

#[tokio::test]
async fn a_live_games_positions_are_analysed_for_nobody_until_it_is_over() {
    let db = temp_db("fairness");
    let base = start_in_process(&db).await;
    let (id, white, black) = friend_game(&base, None).await;
    let positions = play(&base, &id, [&white, &black], 8).await;
    let current = positions.last().unwrap();

    // Anyone (no token at all) asking for the current position is refused, however the
    // position's text numbers the move.
    for asked in [current.clone(), renumbered(current)] {
        let (status, v) = analyse(&base, &asked).await;
        assert_eq!(status, 403, "{asked}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("game being played"),
            "{v}"
        );
    }
    // An earlier position of the game past the opening, too.
    let (status, v) = analyse(&base, &positions[6]).await;
    assert_eq!(status, 403, "{v}");
    // The empty board, where every game began, is everyone's.
    let (status, v) = analyse(&base, &positions[0]).await;
    assert_eq!(status, 200, "{v}");

    // Once the game is over, its whole review may be analysed.
    let (status, v) = post(
        &format!("{base}/api/games/{id}/resign"),
        Some(&white),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for asked in [current, &positions[6]] {
        let (status, v) = analyse(&base, asked).await;
        assert_eq!(status, 200, "{v}");
        assert!(v["best_move"].is_string(), "{v}");
    }
}

/// Polls game `id`'s analysis until it is done, checking that its progress only grows.
async fn until_done(base: &str, id: &str) -> Value {
    let mut seen = 0;
    for _ in 0..600 {
        let (status, v) = get(&format!("{base}/api/games/{id}/analysis"), None).await;
        assert_eq!(status, 200, "{v}");
        match v["state"].as_str().unwrap() {
            "done" => return v,
            "running" => {
                let done = v["done"].as_u64().unwrap();
                assert!(done >= seen, "progress went back: {v}");
                assert!(done <= v["total"].as_u64().unwrap(), "{v}");
                seen = done;
            }
            other => panic!("the analysis is {other}: {v}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the analysis did not finish within a minute");
}

#[tokio::test]
async fn a_finished_games_analysis_is_asked_once_kept_across_restarts_and_in_its_record() {
    let (dbs, _cluster) = common::pg_cluster::databases("game-analysis");
    for db in dbs {
        let addr = free_addr();
        let base = format!("http://{addr}");
        let mut server = Process::start(addr, &db).await;
        let (id, white, black) = friend_game(&base, None).await;
        let url = format!("{base}/api/games/{id}/analysis");

        let (status, v) = get(&url, None).await;
        assert_eq!((status, v["state"].as_str()), (200, Some("none")), "{v}");
        play(&base, &id, [&white, &black], 3).await;
        let (status, v) = post(&url, None, json!({})).await;
        assert_eq!(status, 409, "a game being played is not analysed: {v}");
        play(&base, &id, [&black, &white], 7).await;
        let (status, _) = post(
            &format!("{base}/api/games/{id}/resign"),
            Some(&white),
            json!({}),
        )
        .await;
        assert_eq!(status, 200);

        let (status, v) = post(&url, None, json!({})).await;
        assert_eq!(status, 202, "{v}");
        assert_eq!(v["state"], "running");
        assert_eq!(v["total"], 11, "ten moves, eleven positions: {v}");
        let done = until_done(&base, &id).await;
        assert_eq!(done["positions"].as_array().unwrap().len(), 11, "{done}");
        let moves = done["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 10);
        assert_eq!(moves[0]["mover"], "white");
        assert_eq!(moves[1]["mover"], "black");
        for m in moves {
            let loss = m["loss"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&loss), "{m}");
            let class = &m["class"];
            assert_eq!(class.is_null(), loss < 0.1, "{m}");
        }
        for p in done["positions"].as_array().unwrap()[..10].iter() {
            assert!(
                p["best"].is_string() && p["nodes"].as_u64().unwrap() > 0,
                "{p}"
            );
        }
        assert!(done["players"]["white"]["accuracy"].is_number(), "{done}");
        assert_eq!(done["thresholds"]["blunder"], 0.3);

        // Asked once: asking again answers the one kept.
        let (status, again) = post(&url, None, json!({})).await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again, done);

        // The record carries the evaluations as comments, and reads back.
        let (status, record) = get(&format!("{url}/record"), None).await;
        assert_eq!(status, 200);
        let record = record.as_str().unwrap().to_owned();
        assert_eq!(record.matches("{White ").count(), 10, "{record}");
        let (status, read) = post(
            &format!("{base}/api/import"),
            None,
            json!({ "text": record }),
        )
        .await;
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["games"][0]["moves"].as_array().unwrap().len(), 10);

        // Kept with the game: the server restarted has it at once.
        server.kill();
        let _server = Process::start(addr, &db).await;
        let (status, kept) = get(&url, None).await;
        assert_eq!(status, 200);
        assert_eq!(kept, done, "{}", db.display());
    }
}

#[tokio::test]
async fn a_game_one_of_whose_positions_is_in_a_live_game_is_not_analysed() {
    let db = temp_db("analysis-withheld");
    let base = start_in_process(&db).await;
    // Two games with the same moves: the first finished, the second live at its end.
    let (done_id, w1, b1) = friend_game(&base, None).await;
    let (live_id, w2, b2) = friend_game(&base, None).await;
    play(&base, &done_id, [&w1, &b1], 7).await;
    play(&base, &live_id, [&w2, &b2], 7).await;
    let (status, _) = post(
        &format!("{base}/api/games/{done_id}/resign"),
        Some(&w1),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);
    let url = format!("{base}/api/games/{done_id}/analysis");
    let (status, v) = post(&url, None, json!({})).await;
    assert_eq!(status, 403, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("game being played"),
        "{v}"
    );
    let (status, _) = post(
        &format!("{base}/api/games/{live_id}/resign"),
        Some(&b2),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, v) = post(&url, None, json!({})).await;
    assert_eq!(status, 202, "{v}");
}
