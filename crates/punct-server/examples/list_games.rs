//! What `GET /api/games` costs with many live games: starts a server in this process with
//! GAMES live games (on one screen, one move each) and times REQUESTS lists, one at a time.
//!
//! ```text
//! cargo run --profile test -p punct-server --example list_games [GAMES=3000] [REQUESTS=200]
//! ```

use std::time::{Duration, Instant};

use serde_json::json;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(Ok(3000), |a| a.parse())?;
    let requests: usize = args.next().map_or(Ok(200), |a| a.parse())?;
    let dir = std::env::temp_dir().join(format!("punct-list-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let config = punct_server::Config {
        db: dir.join("punct.db"),
        ..punct_server::Config::default()
    };
    tokio::spawn(punct_server::serve_on(listener, config));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let client = reqwest::Client::new();
    for _ in 0..games {
        let created: serde_json::Value = client
            .post(format!("{base}/api/games"))
            .json(&json!({ "mode": "local" }))
            .send()
            .await?
            .json()
            .await?;
        let (id, token) = (&created["id"], created["token"].as_str().unwrap_or(""));
        client
            .post(format!(
                "{base}/api/games/{}/move",
                id.as_str().unwrap_or("")
            ))
            .bearer_auth(token)
            .json(&json!({ "move": "TE4:0" }))
            .send()
            .await?;
    }
    let mut times = Vec::with_capacity(requests);
    for _ in 0..requests {
        let started = Instant::now();
        let body = client
            .get(format!("{base}/api/games"))
            .send()
            .await?
            .bytes()
            .await?;
        times.push(started.elapsed());
        assert!(body.len() > 2);
    }
    times.sort();
    let mean = times.iter().sum::<Duration>() / requests as u32;
    println!(
        "{games} live games, {requests} lists: mean {mean:?}, p50 {:?}, p99 {:?}",
        times[requests / 2],
        times[requests * 99 / 100]
    );
    std::fs::remove_dir_all(&dir).ok();
    Ok(())
}
