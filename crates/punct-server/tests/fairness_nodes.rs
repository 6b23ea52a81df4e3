//! The fairness rule on several nodes (`games::fairness`): two servers share a real
//! PostgreSQL (Debian's `postgresql` package; without it the test is skipped with a message),
//! and a position of a game played on one is refused analysis on the other, which never held
//! the game in its memory, until the game is over.

mod common;

use std::path::Path;

use common::pg_cluster::Cluster;
use common::*;
use serde_json::{Value, json};

async fn analyse(base: &str, position: &str) -> (u16, Value) {
    post(
        &format!("{base}/api/analyse"),
        None,
        json!({ "position": position }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_live_on_another_node_is_analysed_for_nobody() {
    let Some(pg) = tokio::task::spawn_blocking(|| Cluster::start("fairness-nodes"))
        .await
        .unwrap()
    else {
        return;
    };
    let db = Path::new(&pg.url).to_owned();
    let addrs = [free_addr(), free_addr()];
    let _nodes = [
        Process::node(addrs[0], &db, "node-a").await,
        Process::node(addrs[1], &db, "node-b").await,
    ];
    let [a, b] = addrs.map(|addr| format!("http://{addr}"));

    // Made and played on A, after B started: B has never read it.
    let (id, white, black) = friend_game(&a, None).await;
    let mut positions = Vec::new();
    for i in 0..8 {
        let (_, state) = get(&format!("{a}/api/games/{id}"), None).await;
        let position = state["position"].as_str().unwrap().to_owned();
        let mv = pick_move(&a, &position, i).await;
        let token = if i % 2 == 0 { &white } else { &black };
        let (status, v) = play_move(&a, &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        positions.push(position);
    }
    let (_, state) = get(&format!("{a}/api/games/{id}"), None).await;
    let current = state["position"].as_str().unwrap().to_owned();

    // B refuses the current position and an earlier one past the opening, saying why with
    // its code; a position of no game is analysed.
    for asked in [&current, &positions[6]] {
        let (status, v) = analyse(&b, asked).await;
        assert_eq!(status, 403, "{asked}: {v}");
        assert_eq!(v["code"], "withheld", "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("game being played"),
            "{v}"
        );
    }
    let (status, v) = analyse(&b, &positions[0]).await;
    assert_eq!(status, 200, "the empty board: {v}");

    // Once the game is over, B analyses its positions.
    let (status, v) = post(
        &format!("{a}/api/games/{id}/resign"),
        Some(&white),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = analyse(&b, &current).await;
    assert_eq!(status, 200, "{v}");
    assert!(v["best_move"].is_string(), "{v}");
}
