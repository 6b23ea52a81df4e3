//! A game's chat, blocks and its count of watchers through the real server, over HTTP and
//! the game's WebSocket, on SQLite and on a real PostgreSQL: 140 characters a message
//! (counted in characters), the rate limit (the server's time moved on by the test's clock
//! file, no sleeping), the watchers' chat kept from the players, a block hiding the blocked
//! one's messages, a muted account refused, markup kept as text, anonymous players chatting
//! as their seat, and the count of watchers as sockets come and go.

mod common;

use std::path::Path;
use std::time::Duration;

use common::browser::{Answer, Browser, PASSWORD};
use common::pg_cluster::databases;
use common::{ClockFile, Ws, next_json, send, start_in_process_with, temp_db};
use punct_server::ops::time::TimeSource;
use punct_server::players::auth::Auth;
use punct_server::players::hashing::Hasher;
use punct_server::players::{accounts, username};
use punct_server::room::Stored;
use punct_server::store::Store;
use reqwest::Method;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A person of the test's: their browser (session cookie and CSRF token) and name.
struct Person {
    browser: Browser,
    name: String,
}

impl Person {
    fn anonymous(base: &str) -> Person {
        Person {
            browser: Browser::anonymous(base),
            name: String::new(),
        }
    }

    async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        self.send_as(method, path, body, None).await
    }

    async fn send_as(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> Answer {
        self.browser.request(method, path, body, token).await
    }

    async fn sign_up(base: &str, name: &str) -> Person {
        let mut p = Person::anonymous(base);
        p.name = name.to_owned();
        let body = json!({ "username": name, "password": PASSWORD });
        let a = p.send(Method::POST, "/api/account", Some(body)).await;
        assert_eq!(a.status, 201, "{}", a.body);
        p
    }

    async fn sign_in(base: &str, name: &str) -> Person {
        let mut p = Person::anonymous(base);
        p.name = name.to_owned();
        let body = json!({ "username": name, "password": PASSWORD });
        let a = p.send(Method::POST, "/api/session", Some(body)).await;
        assert_eq!(a.status, 200, "{}", a.body);
        p
    }

    /// The game's socket, signed in (if so) and holding `token` (if any), with its first
    /// state read and the chat opened: returns it and its `chat_history`.
    async fn socket(&self, id: &str, token: Option<&str>) -> (Ws, Value) {
        let mut url = format!(
            "{}/api/games/{id}/ws",
            self.browser.base.replace("http://", "ws://")
        );
        if let Some(c) = &self.browser.csrf {
            url.push_str(&format!("?csrf={c}"));
        }
        let mut req = url.into_client_request().unwrap();
        req.headers_mut()
            .insert("origin", self.browser.base.parse().unwrap());
        if let Some(s) = &self.browser.session {
            req.headers_mut()
                .insert("cookie", format!("punct_session={s}").parse().unwrap());
        }
        let (mut ws, _) = tokio::time::timeout(
            Duration::from_secs(20),
            tokio_tungstenite::connect_async(req),
        )
        .await
        .expect("the WebSocket opens within 20 s")
        .unwrap();
        send(&mut ws, json!({ "type": "hello", "token": token })).await;
        let mut state = next_json(&mut ws, 10).await.unwrap();
        // Signed in, the socket is served at once and answers the hello with a second state.
        if self.browser.session.is_some() {
            state = next_json(&mut ws, 10).await.unwrap();
        }
        assert_eq!(state["type"], "state", "{state}");
        send(&mut ws, json!({ "type": "chat_open" })).await;
        let history = until(&mut ws, |m| {
            m["type"] == "chat_history" || m["type"] == "chat_refused"
        })
        .await;
        (ws, history)
    }
}

/// Reads messages until one satisfies `pred`, returning it; panics after 10 s.
async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let m = tokio::time::timeout(left, next_json(ws, 10))
            .await
            .ok()
            .flatten()
            .expect("the message awaited came within 10 s");
        if pred(&m) {
            return m;
        }
    }
}

/// The texts of the chat messages read until the message `marker` (which must come), in
/// order.
async fn texts_until(ws: &mut Ws, marker: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let m = until(ws, |m| m["type"] == "chat").await;
        let text = m["message"]["text"].as_str().unwrap().to_owned();
        if text == marker {
            return seen;
        }
        seen.push(text);
    }
}

/// Writes `text` on `ws`, returning the answer (`chat_sent` or `chat_refused`).
async fn say(ws: &mut Ws, text: &str) -> Value {
    send(ws, json!({ "type": "chat", "text": text })).await;
    until(ws, |m| {
        m["type"] == "chat_sent" || m["type"] == "chat_refused"
    })
    .await
}

fn texts(room: &Value) -> Vec<&str> {
    room.as_array()
        .unwrap_or_else(|| panic!("not a room: {room}"))
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect()
}

/// A friend game between `white` (its creator) and `black`: (id, white's token, black's).
async fn friend_game(white: &mut Person, black: &mut Person) -> (String, String, String) {
    let created = white
        .send(
            Method::POST,
            "/api/games",
            Some(json!({ "mode": "friend" })),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let joined = black
        .send(
            Method::POST,
            &format!("/api/games/{id}/join"),
            Some(json!({ "invite": created.body["invite"] })),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    (
        id,
        created.body["token"].as_str().unwrap().to_owned(),
        joined.body["token"].as_str().unwrap().to_owned(),
    )
}

/// Makes account `mia`, muted for a day, before the server starts.
async fn muted_account(db: &Path) {
    let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
    let auth = Auth::new(store.clone(), Hasher::new(1, 4));
    let now = TimeSource::system().now_ms();
    let made = auth.sign_up("mia", PASSWORD, now).await.unwrap();
    store
        .transact(move |db| accounts::mute(db, &made.account, Some(now + 86_400_000)))
        .await
        .unwrap();
    let key = username::key("mia");
    assert!(
        store
            .query(move |db| accounts::by_name(db, &key))
            .await
            .unwrap()
            .unwrap()
            .muted_until_ms
            .is_some()
    );
}

async fn chat_on(db: &Path) {
    muted_account(db).await;
    let dir = temp_db("chat-clock");
    let mut clock = ClockFile::beside(&dir);
    let clock_path = clock.path.clone();
    let base = start_in_process_with(db, move |c| c.clock_file = Some(clock_path)).await;
    let mut ann = Person::sign_up(&base, "ann").await;
    let mut ben = Person::sign_up(&base, "ben").await;
    let cat = Person::sign_up(&base, "cat").await;
    let (id, white, black) = friend_game(&mut ann, &mut ben).await;

    let (mut ann_ws, history) = ann.socket(&id, Some(&white)).await;
    assert_eq!(history["players"], json!([]), "{history}");
    assert!(
        history.get("watchers").is_none(),
        "players never see the watchers' chat: {history}"
    );
    let (mut ben_ws, _) = ben.socket(&id, Some(&black)).await;
    let (mut cat_ws, history) = cat.socket(&id, None).await;
    assert!(history.get("players").is_none(), "{history}");
    assert_eq!(history["watchers"], json!([]), "{history}");
    let nobody = Person::anonymous(&base);
    let (mut anon_ws, _) = nobody.socket(&id, None).await;

    // Two watchers: the players are told.
    let count = until(&mut ann_ws, |m| m["type"] == "watching" && m["count"] == 2).await;
    assert_eq!(count["count"], 2);

    // 140 characters of two bytes each are one message; 141 are refused, saying why.
    let long = "é".repeat(140);
    assert_eq!(say(&mut ann_ws, &long).await["type"], "chat_sent");
    let heard = until(&mut ben_ws, |m| m["type"] == "chat").await;
    assert_eq!(heard["message"]["text"], long.as_str());
    assert_eq!(heard["message"]["author"], "ann");
    assert_eq!(heard["message"]["seat"], "white");
    assert_eq!(heard["message"]["room"], "players");
    let refused = say(&mut ann_ws, &"é".repeat(141)).await;
    assert_eq!(refused["type"], "chat_refused");
    assert_eq!(refused["status"], 400);
    assert_eq!(
        refused["error"],
        "the message is too long: at most 140 characters"
    );
    // Each refusal has its code, for the page to say in its own language.
    assert_eq!(refused["code"], "chat_too_long", "{refused}");
    assert_eq!(refused["max"], 140, "{refused}");
    let empty = say(&mut ann_ws, "   ").await;
    assert_eq!(empty["error"], "the message is empty");
    assert_eq!(empty["code"], "chat_empty");
    let control = say(&mut ann_ws, "a\u{7}b").await;
    assert_eq!(control["code"], "chat_control", "{control}");
    // A bad message is refused by its form.
    send(&mut ann_ws, json!({ "type": "chat", "text": 7 })).await;
    let bad = until(&mut ann_ws, |m| m["type"] == "error").await;
    assert_eq!(
        bad["error"],
        "the `text` of a `chat` message must be a string"
    );

    // Markup is kept as it was typed.
    let markup = "<script>alert('x')</script> & <b>bold</b> ' OR 1=1 --";
    assert_eq!(say(&mut ben_ws, markup).await["type"], "chat_sent");
    let heard = until(&mut ann_ws, |m| {
        m["type"] == "chat" && m["message"]["author"] == "ben"
    })
    .await;
    assert_eq!(heard["message"]["text"], markup);

    // The watchers' chat reaches the watchers, never the players.
    assert_eq!(
        say(&mut cat_ws, "only for watchers").await["type"],
        "chat_sent"
    );
    let heard = until(&mut anon_ws, |m| m["type"] == "chat").await;
    assert_eq!(heard["message"]["text"], "only for watchers");
    assert_eq!(heard["message"]["room"], "watchers");
    // A watcher not signed in may read, not write.
    let refused = say(&mut anon_ws, "hello").await;
    assert_eq!(refused["status"], 401);
    assert_eq!(refused["error"], "sign in to write in the watchers' chat");
    assert_eq!(refused["code"], "chat_sign_in", "{refused}");
    assert_eq!(say(&mut ann_ws, "marker 1").await["type"], "chat_sent");
    for ws in [&mut ann_ws, &mut ben_ws] {
        let seen = texts_until(ws, "marker 1").await;
        assert!(!seen.iter().any(|t| t == "only for watchers"), "{seen:?}");
    }
    let as_ann = ann
        .send(Method::GET, &format!("/api/games/{id}/chat"), None)
        .await;
    assert_eq!(as_ann.status, 200, "{}", as_ann.body);
    assert_eq!(
        texts(&as_ann.body["players"]),
        [long.as_str(), markup, "marker 1"]
    );
    assert!(as_ann.body.get("watchers").is_none(), "{}", as_ann.body);
    assert_eq!(as_ann.body["watching"], 2);
    let mut stranger = Person::anonymous(&base);
    let as_watcher = stranger
        .send(Method::GET, &format!("/api/games/{id}/chat"), None)
        .await;
    assert_eq!(texts(&as_watcher.body["watchers"]), ["only for watchers"]);
    assert!(
        as_watcher.body.get("players").is_none(),
        "{}",
        as_watcher.body
    );
    // The seat token alone makes a player of a request too.
    let by_token = stranger
        .send_as(
            Method::GET,
            &format!("/api/games/{id}/chat"),
            None,
            Some(&black),
        )
        .await;
    assert_eq!(texts(&by_token.body["players"]).len(), 3);

    // Ann blocks Ben: his next message reaches Ben's own socket but not Ann's.
    let blocked = ann
        .send(Method::POST, "/api/account/blocks/Ben", None)
        .await;
    assert_eq!(blocked.status, 204, "{}", blocked.body);
    let list = ann.send(Method::GET, "/api/account/blocks", None).await;
    assert_eq!(list.body, json!({ "blocked": ["ben"] }));
    assert_eq!(
        say(&mut ben_ws, "you cannot hear me").await["type"],
        "chat_sent"
    );
    assert_eq!(say(&mut ann_ws, "marker 2").await["type"], "chat_sent");
    let seen = texts_until(&mut ann_ws, "marker 2").await;
    assert!(!seen.iter().any(|t| t == "you cannot hear me"), "{seen:?}");
    let seen = texts_until(&mut ben_ws, "marker 2").await;
    assert_eq!(seen, ["you cannot hear me"]);
    let as_ann = ann
        .send(Method::GET, &format!("/api/games/{id}/chat"), None)
        .await;
    assert_eq!(
        texts(&as_ann.body["players"]),
        [long.as_str(), "marker 1", "marker 2"]
    );
    // Blocks refused: oneself, nobody, without signing in.
    let me = ann
        .send(Method::POST, "/api/account/blocks/ann", None)
        .await;
    assert_eq!(
        (me.status, me.body["error"].as_str()),
        (400, Some("you cannot block yourself"))
    );
    let none = ann
        .send(Method::POST, "/api/account/blocks/nobody", None)
        .await;
    assert_eq!(none.status, 404, "{}", none.body);
    let out = stranger
        .send(Method::POST, "/api/account/blocks/ben", None)
        .await;
    assert_eq!(out.status, 401, "{}", out.body);
    let unblocked = ann
        .send(Method::DELETE, "/api/account/blocks/ben", None)
        .await;
    assert_eq!(unblocked.status, 204);
    assert_eq!(
        ann.send(Method::GET, "/api/account/blocks", None)
            .await
            .body,
        json!({ "blocked": [] })
    );
    assert_eq!(say(&mut ben_ws, "heard again").await["type"], "chat_sent");
    let heard = until(&mut ann_ws, |m| {
        m["type"] == "chat" && m["message"]["author"] == "ben"
    })
    .await;
    assert_eq!(heard["message"]["text"], "heard again");

    // The rate limit: five messages in ten seconds, then a wait that is named. The
    // server's time moves past the earlier messages first, so that only these count.
    let mut cat_http = Person::sign_in(&base, "cat").await;
    clock.advance(10_001);
    // The server reads its clock file every 10 ms.
    tokio::time::sleep(Duration::from_millis(200)).await;
    for i in 0..5 {
        assert_eq!(
            say(&mut cat_ws, &format!("quick {i}")).await["type"],
            "chat_sent"
        );
    }
    let refused = say(&mut cat_ws, "one too many").await;
    assert_eq!(refused["status"], 429, "{refused}");
    let reason = refused["error"].as_str().unwrap();
    assert!(
        reason.starts_with("too many messages: wait ") && reason.ends_with(" s before the next"),
        "{reason}"
    );
    assert_eq!(refused["code"], "chat_too_fast", "{refused}");
    let seconds = refused["seconds"].as_i64().unwrap();
    assert!((1..=10).contains(&seconds), "{refused}");
    assert_eq!(
        reason,
        format!("too many messages: wait {seconds} s before the next")
    );
    // Over HTTP too, with Retry-After.
    let refused = cat_http
        .send(
            Method::POST,
            &format!("/api/games/{id}/chat"),
            Some(json!({ "text": "hi" })),
        )
        .await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert!(refused.retry_after.is_some());
    assert_eq!(refused.body["code"], "chat_too_fast", "{}", refused.body);
    clock.advance(10_001);
    // A refused message counts nothing: asking until the server has read its clock file
    // is harmless.
    let started = std::time::Instant::now();
    let written = loop {
        let a = cat_http
            .send(
                Method::POST,
                &format!("/api/games/{id}/chat"),
                Some(json!({ "text": "later" })),
            )
            .await;
        if a.status != 429 || started.elapsed() > Duration::from_secs(2) {
            break a;
        }
    };
    assert_eq!(written.status, 201, "{}", written.body);
    let heard = until(&mut anon_ws, |m| {
        m["type"] == "chat" && m["message"]["text"] == "later"
    })
    .await;
    assert_eq!(heard["message"]["author"], "cat");

    // A muted account is refused, saying for how long.
    let mia = Person::sign_in(&base, "mia").await;
    let (mut mia_ws, _) = mia.socket(&id, None).await;
    let refused = say(&mut mia_ws, "let me speak").await;
    assert_eq!(refused["status"], 403, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .starts_with("your account is muted: you may chat again in "),
        "{refused}"
    );
    assert_eq!(refused["code"], "chat_muted", "{refused}");
    // Muted for a day, less the seconds the server's time has moved on since.
    let minutes = refused["minutes"].as_i64().unwrap();
    assert!((24 * 60 - 1..=24 * 60).contains(&minutes), "{refused}");

    // A report keeps a copy of the message.
    let as_ann = ann
        .send(Method::GET, &format!("/api/games/{id}/chat"), None)
        .await;
    let message = as_ann.body["players"][1]["id"].as_str().unwrap().to_owned();
    let report = ann
        .send(
            Method::POST,
            &format!("/api/games/{id}/chat/{message}/report"),
            Some(json!({ "reason": "rude" })),
        )
        .await;
    assert_eq!(report.status, 201, "{}", report.body);
    let missing = ann
        .send(
            Method::POST,
            &format!("/api/games/{id}/chat/nosuch/report"),
            Some(json!({ "reason": "rude" })),
        )
        .await;
    assert_eq!(missing.status, 404);
    let bad = ann
        .send(
            Method::POST,
            &format!("/api/games/{id}/chat/{message}/report"),
            Some(json!({ "reason": "" })),
        )
        .await;
    assert_eq!(bad.status, 400);

    // Chat turned off: the socket gets none, and cannot write.
    let off = ben
        .send(
            Method::PUT,
            "/api/account/settings",
            Some(json!({ "chat": false })),
        )
        .await;
    assert_eq!(off.status, 204, "{}", off.body);
    let settings = ben.send(Method::GET, "/api/account/settings", None).await;
    assert_eq!(settings.body["chat"], false, "{}", settings.body);
    // The look written without it leaves it off.
    ben.send(
        Method::PUT,
        "/api/account/settings",
        Some(json!({ "theme": "dark" })),
    )
    .await;
    let settings = ben.send(Method::GET, "/api/account/settings", None).await;
    assert_eq!(settings.body["chat"], false, "{}", settings.body);
    let refused = say(&mut ben_ws, "still here?").await;
    assert_eq!(refused["error"], "you turned chat off in your settings");
    assert_eq!(refused["code"], "chat_off", "{refused}");
    let (_, history) = ben.socket(&id, Some(&black)).await;
    assert_eq!(history["type"], "chat_refused", "{history}");
    assert_eq!(history["code"], "chat_off", "{history}");
    let read = ben
        .send(Method::GET, &format!("/api/games/{id}/chat"), None)
        .await;
    assert_eq!(read.status, 403, "{}", read.body);
    assert_eq!(read.body["code"], "chat_off", "{}", read.body);

    // Watchers leave: the count goes down.
    anon_ws.close(None).await.unwrap();
    mia_ws.close(None).await.unwrap();
    until(&mut ann_ws, |m| m["type"] == "watching" && m["count"] == 1).await;
    cat_ws.close(None).await.unwrap();
    until(&mut ann_ws, |m| m["type"] == "watching" && m["count"] == 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_blocks_and_watchers_on_sqlite_and_postgresql() {
    let (dbs, _cluster) = databases("chat");
    for db in dbs {
        chat_on(&db).await;
    }
}

/// Anonymous players of a friend game chat as their seats, rate-limited by their address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_players_chat_as_their_seats() {
    let db = temp_db("chat-anonymous");
    let base = start_in_process_with(&db, |_| {}).await;
    let (id, white, black) = common::friend_game(&base, None).await;
    let nobody = Person::anonymous(&base);
    let (mut white_ws, history) = nobody.socket(&id, Some(&white)).await;
    assert_eq!(history["players"], json!([]));
    let (mut black_ws, _) = nobody.socket(&id, Some(&black)).await;
    assert_eq!(
        say(&mut white_ws, "hello from white").await["type"],
        "chat_sent"
    );
    let heard = until(&mut black_ws, |m| m["type"] == "chat").await;
    assert_eq!(heard["message"]["author"], Value::Null);
    assert_eq!(heard["message"]["seat"], "white");
    // Both seats share the test's address: five messages in all, then a wait.
    for i in 0..4 {
        let ws = if i % 2 == 0 {
            &mut black_ws
        } else {
            &mut white_ws
        };
        assert_eq!(say(ws, "again").await["type"], "chat_sent");
    }
    let refused = say(&mut black_ws, "and again").await;
    assert_eq!(refused["status"], 429, "{refused}");
}
