//! The set-up of docs/deploy.md on this machine, as real processes: a real PostgreSQL
//! (Debian's `postgresql` package; without it the test is skipped with a message), three
//! nodes with `--engine workers`, two engine workers, and HAProxy in front with the
//! repository's `deploy/haproxy.cfg` (its ports changed to free ones) when `haproxy` is
//! installed; else the test spreads its requests over the nodes itself. A computer game is
//! played through it (the workers reply) and a watcher sees a friend game's moves, in order,
//! each of them made on the one node the balancer sends the game's requests to.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::pg_cluster::Cluster;
use common::*;
use serde_json::json;

/// HAProxy, if installed, in front of `nodes` on `front` with the repository's
/// configuration.
fn balancer(front: SocketAddr, nodes: &[SocketAddr], dir: &Path) -> Option<Process> {
    let installed = Command::new("haproxy")
        .arg("-v")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !installed {
        eprintln!(
            "haproxy is not installed (apt-get install -y haproxy): the test balances itself"
        );
        return None;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/haproxy.cfg");
    let mut config = std::fs::read_to_string(&repo).expect("deploy/haproxy.cfg is there");
    config = config.replace("bind *:8080", &format!("bind {front}"));
    // HAProxy refuses to start when it cannot raise its descriptors to twice `maxconn`,
    // and a test machine's limit may be below the site's 60 000.
    config = config.replace("maxconn 30000", "maxconn 1000");
    for (i, node) in nodes.iter().enumerate() {
        config = config.replace(&format!("127.0.0.1:808{}", i + 1), &node.to_string());
    }
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, config).unwrap();
    let child = Command::new("haproxy")
        .args(["-db", "-f"])
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("haproxy starts");
    Some(Process(child))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_deployed_set_up_plays_through_its_balancer() {
    let Some(pg) = tokio::task::spawn_blocking(|| Cluster::start("deploy"))
        .await
        .unwrap()
    else {
        return;
    };
    let db = Path::new(&pg.url).to_owned();
    let addrs = [free_addr(), free_addr(), free_addr()];
    let mut nodes = Vec::new();
    for (i, addr) in addrs.iter().enumerate() {
        nodes.push(
            Process::start_with(*addr, &db, |c| {
                c.env("PUNCT_NODE", format!("node-{}", i + 1))
                    .env("PUNCT_ENGINE", "workers");
            })
            .await,
        );
    }
    let _workers: Vec<Process> = (1..=2)
        .map(|i| {
            Process(
                Command::new(env!("CARGO_BIN_EXE_punct-server"))
                    .args(["worker", &pg.url, "1"])
                    .env("PUNCT_WORKER", format!("worker-{i}"))
                    .stdin(Stdio::null())
                    .spawn()
                    .expect("the worker starts"),
            )
        })
        .collect();
    let front = free_addr();
    let dir = temp_db("deploy").parent().unwrap().to_owned();
    let mut proxy = balancer(front, &addrs, &dir);
    let bases: Vec<String> = match &proxy {
        Some(_) => vec![format!("http://{front}")],
        None => addrs.iter().map(|a| format!("http://{a}")).collect(),
    };
    if let Some(Process(haproxy)) = &mut proxy {
        let started = Instant::now();
        // Until its checks of the nodes' /healthz have passed.
        while !reqwest::get(format!("{}/api/games", bases[0]))
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            if let Some(status) = haproxy.try_wait().unwrap() {
                panic!("HAProxy stopped ({status}): its configuration is refused");
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "HAProxy never answered"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let base = |i: usize| bases[i % bases.len()].as_str();

    // A computer game: the workers reply to each move, whichever node it reached.
    let (vs, human) = create(
        base(0),
        json!({ "mode": "computer", "level": 1, "colour": "white" }),
    )
    .await;
    for i in 0..3 {
        let now = game_state(base(i), &vs).await;
        let mv = pick_move(base(i), now["position"].as_str().unwrap(), i).await;
        let (status, v) = play_move(base(i + 1), &vs, &human, &mv).await;
        assert_eq!(status, 200, "{v}");
        let plies = 2 * (i + 1);
        game_until(base(i + 2), &vs, "the computer's reply", |v| {
            v["moves"].as_array().map_or(0, Vec::len) == plies
        })
        .await;
    }

    // A watcher sees a friend game's moves, made through any node, in order.
    let nodes_moves = || async {
        let mut made = Vec::new();
        for addr in &addrs {
            made.push(metric(&format!("http://{addr}"), "punct_moves_total").await);
        }
        made
    };
    let before = nodes_moves().await;
    let (id, white, black) = friend_game(base(0), None).await;
    let mut watcher = connect(base(1), &id, None).await;
    let first = next_json(&mut watcher, 5).await.expect("the state");
    let first_seq = first["seq"].as_u64().unwrap();
    for (i, seq) in (0..6).zip(first_seq..) {
        let token = if i % 2 == 0 { &white } else { &black };
        let position = game_state(base(i), &id).await["position"]
            .as_str()
            .unwrap()
            .to_owned();
        let mv = pick_move(base(i), &position, i).await;
        let (status, v) = play_move(base(i + 2), &id, token, &mv).await;
        assert_eq!(status, 200, "{v}");
        let heard = wait_for(&mut watcher, 10, |v| v["seq"].as_u64() > Some(seq)).await;
        assert_eq!(heard["seq"].as_u64(), Some(seq + 1), "{heard}");
        assert_eq!(heard["detail"]["move"], mv.as_str(), "{heard}");
    }
    // Through the balancer, a game's requests all reach the node its id is hashed to.
    if proxy.is_some() {
        let made: Vec<f64> = nodes_moves()
            .await
            .iter()
            .zip(&before)
            .map(|(after, before)| after.unwrap_or(0.0) - before.unwrap_or(0.0))
            .collect();
        let mut sorted = made.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(sorted, [0.0, 0.0, 6.0], "moves made by each node: {made:?}");
    }
    drop(proxy);
    drop(nodes);
}
