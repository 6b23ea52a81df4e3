//! The lobby under load on loopback: `SEEKS` correspondence seeks up and `WATCHERS` lobby
//! WebSockets open, then `NEW_SEEKS` seeks posted one at a time. Reports the time from each
//! new seek's `POST` to its `seek_added` reaching the watchers (the median watcher and the
//! last one), how long the watchers took to get the list of every seek on connecting, and
//! the server's memory per watcher.
//!
//! ```text
//! cargo build --release -p punct-server --bins --examples
//! target/release/examples/lobby_load [SEEKS=1000] [WATCHERS=2000] [NEW_SEEKS=20]
//! ```
//!
//! The seeks are made by accounts of 5 seeks each (the most one may have up), the new ones by
//! one more account, each withdrawn once every watcher has it. The watchers are anonymous, as
//! visitors looking at the lobby are; a signed-in socket costs a row in the database besides.
//! The times include the load generator's own reading of every socket: on loopback it shares
//! the machine's cores with the server.

#[path = "common/process.rs"]
mod process;

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use process::{Server, cpu_seconds, quantile};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The accounts' password.
const PASSWORD: &str = "a long walk in the hills";

/// The most seeks an account may have up (`lobby::seeking::MAX_SEEKS`).
const SEEKS_PER_ACCOUNT: usize = 5;

/// How long one new seek may take to reach every watcher before the run gives up.
const REACH_TIMEOUT: Duration = Duration::from_secs(60);

/// A signed-in account of the generator's: its cookie and CSRF token.
struct Account {
    base: String,
    cookie: String,
    csrf: String,
}

impl Account {
    /// Signs up `name`.
    async fn sign_up(client: &reqwest::Client, base: &str, name: &str) -> Account {
        let made = process::sign_up(client, base, name, PASSWORD).await;
        let (mut cookie, mut csrf) = (String::new(), String::new());
        for c in made.headers().get_all(reqwest::header::SET_COOKIE) {
            let (pair, _) = c.to_str().unwrap().split_once(';').unwrap();
            match pair.split_once('=').unwrap() {
                ("punct_session", v) => cookie = format!("punct_session={v}"),
                ("punct_csrf", v) => csrf = v.to_owned(),
                _ => {}
            }
        }
        Account {
            base: base.to_owned(),
            cookie,
            csrf,
        }
    }

    /// Sends `method` `path` with `body` as this account, from one of our pages.
    async fn send(
        &self,
        client: &reqwest::Client,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> (u16, Value) {
        let answer = client
            .request(method, format!("{}{path}", self.base))
            .header("origin", &self.base)
            .header("cookie", &self.cookie)
            .header("x-csrf-token", &self.csrf)
            .json(&body)
            .send()
            .await
            .expect("server answers");
        let status = answer.status().as_u16();
        (status, answer.json().await.unwrap_or(Value::Null))
    }

    /// Puts up a seek of three days a move: its id.
    async fn seek(&self, client: &reqwest::Client) -> String {
        let (status, seek) = self
            .send(
                client,
                reqwest::Method::POST,
                "/api/seeks",
                json!({ "days": 3 }),
            )
            .await;
        assert_eq!(status, 201, "{seek}");
        seek["id"].as_str().expect("a seek has an id").to_owned()
    }
}

/// What a watcher tells the generator.
enum Heard {
    /// Its first list of seeks came, this long after it began to connect, holding so many.
    Listed(Duration, usize),
    /// A seek with this id was added, seen now.
    Added(String, Instant),
}

/// A watcher: connects to the lobby, reports its first list (once all its parts came), then
/// every seek added.
async fn watcher(ws_base: Arc<str>, heard: mpsc::UnboundedSender<Heard>) {
    let began = Instant::now();
    // A small read buffer, as in `load`: the library zeroes it before every read.
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (mut ws, _) =
        connect_async_with_config(format!("{ws_base}/api/lobby/ws"), Some(config), true)
            .await
            .expect("the server accepts the lobby's WebSocket");
    // The list of every seek comes in parts: `seeks`, then `seeks_more` while `more`.
    let mut listed = 0;
    while let Some(Ok(message)) = ws.next().await {
        let Message::Text(text) = message else {
            continue;
        };
        let at = Instant::now();
        let v: Value = serde_json::from_str(&text).expect("the lobby sends JSON");
        let told = match v["type"].as_str() {
            Some(kind @ ("seeks" | "seeks_more")) => {
                let part = v["seeks"].as_array().map_or(0, Vec::len);
                listed = if kind == "seeks" { part } else { listed + part };
                if v["more"] == true {
                    continue;
                }
                Heard::Listed(began.elapsed(), listed)
            }
            Some("seek_added") => match v["seek"]["id"].as_str() {
                Some(id) => Heard::Added(id.to_owned(), at),
                None => continue,
            },
            _ => continue,
        };
        if heard.send(told).is_err() {
            return;
        }
    }
}

/// Raises this process's limit on open files to its hard limit: each watcher is a socket
/// here and one in the server, which inherits the limit.
fn raise_file_limit(wanted: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write `limit`.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
    assert!(
        limit.rlim_cur >= wanted,
        "{wanted} open files are needed, the limit is {}",
        limit.rlim_cur
    );
}

fn ms(d: u64) -> String {
    format!("{:.1} ms", d as f64 / 1000.0)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: usize, name: &str| {
        args.next().map_or(default, |a| {
            a.parse()
                .unwrap_or_else(|_| panic!("{name} is a number, not {a:?}"))
        })
    };
    let seeks = number(1000, "SEEKS");
    let watchers = number(2000, "WATCHERS");
    let new_seeks = number(20, "NEW_SEEKS");
    raise_file_limit(watchers as u64 + 200);

    let server = Server::start("lobby-load").await;
    let client = reqwest::Client::new();
    let made = Instant::now();
    let accounts = seeks.div_ceil(SEEKS_PER_ACCOUNT);
    let mut put_up = 0;
    for i in 0..accounts {
        let account = Account::sign_up(&client, &server.base, &format!("seeker_{i}")).await;
        for _ in 0..SEEKS_PER_ACCOUNT.min(seeks - put_up) {
            account.seek(&client).await;
            put_up += 1;
        }
    }
    let poster = Account::sign_up(&client, &server.base, "poster").await;
    println!(
        "{put_up} correspondence seeks up, by {accounts} accounts, in {:.1} s (database: {})",
        made.elapsed().as_secs_f64(),
        if server.db().starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    );

    let rss_before = server.rss_kib();
    let cpu_before = server.cpu_seconds();
    let (tell, mut heard) = mpsc::unbounded_channel();
    let ws_base: Arc<str> = server.ws_base.clone().into();
    let connecting = Instant::now();
    for _ in 0..watchers {
        tokio::spawn(watcher(ws_base.clone(), tell.clone()));
    }
    drop(tell);
    let mut listed = Vec::with_capacity(watchers);
    while listed.len() < watchers {
        match heard.recv().await {
            Some(Heard::Listed(after, count)) => {
                assert_eq!(count, put_up, "a watcher's first list holds every seek");
                listed.push(after.as_micros() as u64);
            }
            Some(Heard::Added(..)) => {}
            None => panic!("the watchers stopped"),
        }
    }
    let all_listed = connecting.elapsed();
    listed.sort_unstable();
    // The sockets settle (their first lists sent and freed) before the memory is read.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_with = server.rss_kib();
    println!(
        "{watchers} anonymous lobby sockets: every one had the list of {put_up} seeks {:.2} s after \
         the first began to connect (each: p50 {}, p99 {}); server CPU {:.2} s",
        all_listed.as_secs_f64(),
        ms(quantile(&listed, 0.5)),
        ms(quantile(&listed, 0.99)),
        server.cpu_seconds() - cpu_before
    );
    println!(
        "server memory: {rss_before} KiB before the sockets, {rss_with} KiB with them: {:.1} KiB per watcher",
        rss_with.saturating_sub(rss_before) as f64 / watchers as f64
    );

    let (mut medians, mut lasts) = (Vec::new(), Vec::new());
    let cpu_before = server.cpu_seconds();
    let own_before = cpu_seconds("self");
    for _ in 0..new_seeks {
        let sent = Instant::now();
        let id = poster.seek(&client).await;
        let mut reached = Vec::with_capacity(watchers);
        let deadline = tokio::time::Instant::now() + REACH_TIMEOUT;
        while reached.len() < watchers {
            match tokio::time::timeout_at(deadline, heard.recv()).await {
                Ok(Some(Heard::Added(added, at))) if added == id => {
                    reached.push(at.duration_since(sent).as_micros() as u64);
                }
                Ok(Some(_)) => {}
                Ok(None) => panic!("the watchers stopped"),
                Err(_) => panic!(
                    "seek {id} reached {} of {watchers} watchers in {REACH_TIMEOUT:?}",
                    reached.len()
                ),
            }
        }
        reached.sort_unstable();
        medians.push(quantile(&reached, 0.5));
        lasts.push(*reached.last().unwrap());
        let (status, _) = poster
            .send(
                &client,
                reqwest::Method::DELETE,
                &format!("/api/seeks/{id}"),
                Value::Null,
            )
            .await;
        assert_eq!(status, 204, "withdrawing seek {id}");
    }
    medians.sort_unstable();
    lasts.sort_unstable();
    println!(
        "a new seek -> its seek_added at the watchers, over {new_seeks} seeks (each posted, then \
         withdrawn): median watcher p50 {} (max {}); last watcher p50 {}, max {}",
        ms(quantile(&medians, 0.5)),
        ms(*medians.last().unwrap()),
        ms(quantile(&lasts, 0.5)),
        ms(*lasts.last().unwrap()),
    );
    println!(
        "CPU seconds over the new seeks: server {:.2}, load generator {:.2}",
        server.cpu_seconds() - cpu_before,
        cpu_seconds("self") - own_before
    );
}
