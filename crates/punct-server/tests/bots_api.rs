//! Bot accounts and the account's event stream through real servers: refused without a
//! sign-in; on two nodes sharing a real PostgreSQL (skipped with a message without
//! Debian's `postgresql`), a stream open on node B is told of a challenge made on node A,
//! of its acceptance there and of the game's start and end; a stream opened again is told
//! what is still open.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::browser::{Browser, PASSWORD};
use common::pg_cluster::Cluster;
use common::*;
use reqwest::Method;
use serde_json::{Value, json};

/// An event stream as a program reads it: lines, split from the body's chunks.
struct Stream {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Stream {
    async fn open(base: &str, b: &Browser) -> Stream {
        let mut req = reqwest::Client::new().get(format!("{base}/api/stream/events"));
        if let Some(s) = &b.session {
            req = req.header("cookie", format!("punct_session={s}"));
        }
        Stream::of(req).await
    }

    /// The stream of API token `token`.
    async fn with_token(base: &str, token: &str) -> Stream {
        let req = reqwest::Client::new()
            .get(format!("{base}/api/stream/events"))
            .bearer_auth(token);
        Stream::of(req).await
    }

    async fn of(req: reqwest::RequestBuilder) -> Stream {
        let response = req.send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(
            response.headers()["content-type"],
            "application/x-ndjson",
            "{:?}",
            response.headers()
        );
        Stream {
            response,
            buffer: Vec::new(),
        }
    }

    /// Whether the stream ends within `secs` (keep-alive lines and events read past).
    async fn ends_within(&mut self, secs: u64) -> bool {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.response.chunk()).await {
                Err(_) => return false,
                Ok(Ok(None) | Err(_)) => return true,
                Ok(Ok(Some(_))) => {}
            }
        }
    }

    /// The next event of `kind` (keep-alive lines and other events skipped), within 20 s.
    async fn next(&mut self, kind: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            while let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8(line).unwrap();
                if text.trim().is_empty() {
                    continue;
                }
                let event: Value = serde_json::from_str(&text).unwrap();
                if event["type"] == kind {
                    return event;
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no {kind} event within 20 s"))
                .unwrap()
                .expect("the stream stays open");
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

async fn bot_signed_up(base: &str, name: &str) -> Browser {
    let mut b = Browser::anonymous(base);
    let body = json!({ "username": name, "password": PASSWORD, "bot": true });
    let (status, made) = b.send(Method::POST, "/api/account", Some(body)).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["account"]["bot"], true, "{made}");
    b
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_needs_an_account() {
    let base = start_in_process(&temp_db("events-anonymous")).await;
    let (status, body) = get(&format!("{base}/api/stream/events"), None).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["error"], "sign in first", "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stream_on_one_node_hears_what_happens_on_another() {
    let Some(pg) = tokio::task::spawn_blocking(|| Cluster::start("bots-events"))
        .await
        .unwrap()
    else {
        return;
    };
    let db = Path::new(&pg.url).to_owned();
    let (addr_a, addr_b) = (free_addr(), free_addr());
    let _a = Process::node(addr_a, &db, "node-a").await;
    let _b = Process::node(addr_b, &db, "node-b").await;
    let (a, b) = (format!("http://{addr_a}"), format!("http://{addr_b}"));

    let mut bot = bot_signed_up(&a, "StreamBot").await;
    let mut ada = Browser::signed_up(&a, "Ada").await;
    let mut stream = Stream::open(&b, &bot).await;

    let (status, made) = ada
        .post("/api/challenges", json!({"to": "StreamBot", "days": 3}))
        .await;
    assert_eq!(status, 201, "{made}");
    let heard = stream.next("challenge").await;
    assert_eq!(heard["challenge"]["id"], made["id"], "{heard}");
    assert_eq!(heard["challenge"]["from"], "Ada", "{heard}");
    assert_eq!(heard["challenge"]["from_bot"], false, "{heard}");
    assert_eq!(heard["challenge"]["to_bot"], true, "{heard}");

    let id = made["id"].as_str().unwrap();
    let (status, started) = bot
        .post(&format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = stream.next("game_start").await;
    assert_eq!(game["game"]["game"], started["game"], "{game}");
    assert_eq!(game["game"]["opponent"], "Ada", "{game}");
    assert_eq!(game["game"]["speed"], "correspondence", "{game}");
    let gone = stream.next("challenge_gone").await;
    assert_eq!(
        gone,
        json!({"type": "challenge_gone", "id": id, "status": "accepted"})
    );

    let game_id = started["game"].as_str().unwrap();
    let (status, body) = ada
        .post(&format!("/api/games/{game_id}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let finish = stream.next("game_finish").await;
    assert_eq!(finish["game"]["game"], game_id, "{finish}");
    assert_eq!(finish["game"]["result"], "win", "{finish}");
    assert_eq!(finish["game"]["live"], false, "{finish}");

    // Declined, it goes as declined; a stream opened again is told what is still open.
    let (_, declined) = ada
        .post("/api/challenges", json!({"to": "StreamBot", "days": 1}))
        .await;
    stream.next("challenge").await;
    let declined = declined["id"].as_str().unwrap();
    let (status, _) = bot
        .post(&format!("/api/challenges/{declined}/decline"), json!({}))
        .await;
    assert_eq!(status, 204);
    let gone = stream.next("challenge_gone").await;
    assert_eq!(gone["status"], "declined", "{gone}");
    let (_, open) = ada
        .post("/api/challenges", json!({"to": "StreamBot", "days": 7}))
        .await;
    drop(stream);
    let mut again = Stream::open(&a, &bot).await;
    let told = again.next("challenge").await;
    assert_eq!(told["challenge"]["id"], open["id"], "{told}");
    // A bot claims no games a person played in a browser.
    let (status, refused) = bot.post("/api/account/claim", json!({"games": []})).await;
    assert_eq!(status, 403, "{refused}");
    // A bot cannot turn into one again, nor Ada, who has played.
    let (status, _) = bot.post("/api/account/bot", json!({})).await;
    assert_eq!(status, 409);
    let (status, refused) = ada.post("/api/account/bot", json!({})).await;
    assert_eq!(status, 409, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("played games"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_ends_once_its_token_is_revoked_or_its_session_signed_out() {
    let base = start_in_process(&temp_db("events-revoked")).await;
    let mut bot = bot_signed_up(&base, "RevokedBot").await;
    let (status, made) = bot
        .post("/api/account/tokens", json!({"name": "engine"}))
        .await;
    assert_eq!(status, 201, "{made}");
    let token = made["token"].as_str().unwrap();
    let mut by_token = Stream::with_token(&base, token).await;
    let mut by_session = Stream::open(&base, &bot).await;

    let (status, _) = bot
        .send(
            Method::DELETE,
            &format!("/api/account/tokens/{}", made["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(status, 204);
    assert!(
        by_token.ends_within(15).await,
        "the revoked token's stream goes on"
    );
    assert!(
        !by_session.ends_within(1).await,
        "the session's stream ended with the token"
    );
    let (status, body) = get(&format!("{base}/api/stream/events"), Some(token)).await;
    assert_eq!(status, 401, "{body}");

    let (status, _) = bot.send(Method::DELETE, "/api/session", None).await;
    assert!(status == 200 || status == 204, "{status}");
    assert!(
        by_session.ends_within(15).await,
        "the signed-out session's stream goes on"
    );
}
