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
