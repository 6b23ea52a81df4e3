//! Several servers on one PostgreSQL, as real processes (Debian's `postgresql` package;
//! without it the test is skipped with a message): three nodes share a real PostgreSQL and
//! one controlled clock. A watcher on node C sees a move made on node A, made on C's copy
//! from the notification that carried it; every node accepts
//! the actions of every game, in turn, without a refusal; a computer's move is made once
//! whichever node the human's move reached; and when the node owning a game is killed with
//! SIGKILL, another takes it over once its lease has run out (the clock moved past it), the
//! computer's clock given back the time the takeover took.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use common::pg_cluster::Cluster;
use common::*;
use serde_json::{Value, json};

/// The nodes' lease in the test: a dead node's games are taken over once the controlled
/// clock is moved past it.
const LEASE_MS: i64 = 2_000;

async fn node(addr: SocketAddr, db: &Path, name: &str, clock: &ClockFile) -> Process {
    let clock = clock.path.clone();
    let name = name.to_owned();
    Process::start_with(addr, db, move |c| {
        c.env("PUNCT_NODE", name)
            .env("PUNCT_LEASE_MS", LEASE_MS.to_string())
            .env("PUNCT_CLOCK_FILE", clock);
    })
    .await
}

fn moves(v: &Value) -> usize {
    v["moves"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_nodes_are_one_site() {
    let Some(pg) = tokio::task::spawn_blocking(|| Cluster::start("cluster"))
        .await
        .unwrap()
    else {
        return;
    };
    let db = Path::new(&pg.url).to_owned();
    let mut clock = ClockFile::beside(&temp_db("cluster-clock"));
    let addrs = [free_addr(), free_addr(), free_addr()];
    let mut nodes = Vec::new();
    for (i, addr) in addrs.iter().enumerate() {
        nodes.push(node(*addr, &db, &format!("node-{i}"), &clock).await);
    }
    let [a, b, c] = addrs.map(|addr| format!("http://{addr}"));

    // A watcher on C sees each move made on A, as the move it is, in order.
    let (id, white, black) = friend_game(&a, Some(json!({ "minutes": 10, "increment": 0 }))).await;
    let mut watcher = connect(&c, &id, None).await;
    let first = next_json(&mut watcher, 5).await.expect("the state");
    let mut seq = first["seq"].as_u64().unwrap();
    for i in 0..3 {
        let token = if i % 2 == 0 { &white } else { &black };
        let position = game_state(&a, &id).await["position"]
            .as_str()
            .unwrap()
            .to_owned();
        let mv = pick_move(&a, &position, i).await;
        let (status, v) = play_move(&a, &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        let heard = wait_for(&mut watcher, 10, |v| v["seq"].as_u64() > Some(seq)).await;
        assert_eq!(heard["type"], "event", "{heard}");
        assert_eq!(heard["seq"].as_u64(), Some(seq + 1), "{heard}");
        assert_eq!(heard["detail"]["move"], mv.as_str(), "{heard}");
        seq += 1;
    }
    // C made each of those moves on its copy from the notification, reading nothing back.
    let from_notices = metric(&c, "punct_caught_up_total{from=\"notification\"}")
        .await
        .expect("punct_caught_up_total in /metrics");
    assert!(
        from_notices >= 3.0,
        "{from_notices} moves caught up from notifications"
    );

    // Any node accepts the game's actions, each named by the state it was made on, the
    // node changing at every move: never a refusal.
    let bases = [&a, &b, &c];
    for i in 3..12 {
        let base = bases[i % 3];
        let token = if i % 2 == 0 { &white } else { &black };
        let position = game_state(base, &id).await["position"]
            .as_str()
            .unwrap()
            .to_owned();
        let mv = pick_move(base, &position, i).await;
        let (status, v) = post(
            &format!("{base}/api/games/{id}/move"),
            Some(token),
            json!({ "move": mv, "seq": seq }),
        )
        .await;
        assert_eq!(status, 200, "move {i} on {base}: {v}");
        seq += 1;
        assert_eq!(v["seq"].as_u64(), Some(seq), "{v}");
    }
    for base in bases {
        game_until(base, &id, "every node at the last state", |v| {
            v["seq"].as_u64() == Some(seq)
        })
        .await;
    }

    // A computer game made on A, its human's moves sent to B and C: each computer move is
    // made once (a state each, the moves alternating).
    let (vs, human) = create(
        &a,
        json!({ "mode": "computer", "level": 1, "clock": { "minutes": 10, "increment": 0 } }),
    )
    .await;
    for (i, base) in [&b, &c, &b].into_iter().enumerate() {
        let now = game_state(base, &vs).await;
        let mv = pick_move(base, now["position"].as_str().unwrap(), i).await;
        let (status, v) = play_move(base, &vs, &human, &mv).await;
        assert_eq!(status, 200, "{v}");
        let plies = 2 * (i + 1);
        let replied = game_until(&c, &vs, "the computer's reply", |v| moves(v) == plies).await;
        assert_eq!(replied["turn"], "white", "{replied}");
    }
    let replied = game_state(&a, &vs).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let settled = game_state(&b, &vs).await;
    assert_eq!(moves(&settled), 6, "{settled}");
    assert_eq!(settled["seq"], replied["seq"], "no second reply: {settled}");

    // The node that owns the computer game (its maker, A) is killed; the human moves on B.
    // Nobody answers until the lease runs out; then another node takes the game over and
    // the computer replies, its clock charged for its thinking but not for the takeover.
    nodes[0].kill();
    let now = game_state(&b, &vs).await;
    let before_ms = now["clock"]["black_ms"].as_i64().unwrap();
    let mv = pick_move(&b, now["position"].as_str().unwrap(), 9).await;
    let (status, v) = play_move(&b, &vs, &human, &mv).await;
    assert_eq!(status, 200, "{v}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        moves(&game_state(&c, &vs).await),
        7,
        "no owner, no reply yet"
    );
    let jump = 5 * LEASE_MS;
    clock.advance(jump);
    let taken = Instant::now();
    let replied = game_until(&c, &vs, "the reply after the takeover", |v| moves(v) == 8).await;
    let takeover = taken.elapsed();
    assert!(takeover < Duration::from_secs(10), "took {takeover:?}");
    let after_ms = replied["clock"]["black_ms"].as_i64().unwrap();
    assert!(
        after_ms > before_ms - jump / 2,
        "the computer had {before_ms} ms before the takeover and {after_ms} after: the \
         takeover's {jump} ms were charged"
    );
    // The friend game lives on without its maker's node, on either of the others.
    let position = game_state(&b, &id).await["position"]
        .as_str()
        .unwrap()
        .to_owned();
    let turn = game_state(&c, &id).await["turn"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = if turn == "white" { &white } else { &black };
    let mv = pick_move(&c, &position, 3).await;
    let (status, v) = play_move(&c, &id, token, &mv).await;
    assert_eq!(status, 200, "{v}");
}
