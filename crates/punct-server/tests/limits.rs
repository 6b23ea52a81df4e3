//! What a stranger can make the server hold, and the refusals and timeouts that bound it:
//! WebSocket message sizes, slow heads, idle keep-alive connections, silent WebSockets, the
//! cap on connections, rate limits per address, request sizes; and the rules that keep a
//! seat's token out of URLs and other sites out of the API (tokens by `hello` or header,
//! security headers, JSON-only writes). Every limit is set small here, so that the file
//! runs in seconds.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::*;
use futures_util::StreamExt;
use punct_server::{Config, Rate, RateLimits};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// Starts a server in this process with `config`'s limits; returns its base URL.
async fn start(name: &str, limits: Config) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        addr,
        db: temp_db(name),
        engine_threads: 1,
        engine_queue: 16,
        engine_movetime: Duration::from_millis(50),
        ..limits
    };
    tokio::spawn(punct_server::serve_on(listener, config));
    format!("http://{addr}")
}

fn addr_of(base: &str) -> SocketAddr {
    base.trim_start_matches("http://").parse().unwrap()
}

/// A WebSocket frame as a client sends it (masked), announcing `length` bytes of payload
/// whether or not `payload` is that long.
fn frame(opcode: u8, fin: bool, length: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![if fin { 0x80 | opcode } else { opcode }];
    match length {
        0..126 => out.push(0x80 | length as u8),
        126..65536 => {
            out.push(0x80 | 126);
            out.extend((length as u16).to_be_bytes());
        }
        _ => {
            out.push(0x80 | 127);
            out.extend(length.to_be_bytes());
        }
    }
    let mask = [0x12, 0x34, 0x56, 0x78];
    out.extend(mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// Writes raw bytes on a WebSocket's connection, past the library.
async fn write_raw(ws: &mut Ws, bytes: &[u8]) {
    let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = ws.get_mut() else {
        panic!("a plain connection");
    };
    tcp.write_all(bytes).await.unwrap();
}

/// Reads a socket until the server closes it; returns the close frame's code and reason.
async fn close_frame(ws: &mut Ws, within: Duration) -> (CloseCode, String) {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => panic!("the socket was not closed within {within:?}"),
            Ok(Some(Ok(Message::Close(Some(frame))))) => {
                return (frame.code, frame.reason.to_string());
            }
            Ok(Some(Ok(Message::Close(None)) | Err(_)) | None) => {
                panic!("the socket was closed without a reason")
            }
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// A socket answers a ping: it is open and served.
async fn answers(ws: &mut Ws) {
    send(ws, json!({ "type": "ping" })).await;
    wait_for(ws, 5, |v| v["type"] == "pong").await;
}

fn small_socket_limits() -> Config {
    Config {
        ws_max_message_bytes: 1024,
        ..Config::default()
    }
}

#[tokio::test]
async fn an_unfinished_oversized_frame_closes_the_socket_at_once_with_the_reason() {
    let base = start("ws-frame", small_socket_limits()).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let mut ws = connect(&base, &id, Some(&token)).await;
    next_json(&mut ws, 5).await.unwrap();
    // A frame that says it carries 1 MiB, of which only the start comes: the server closes
    // the socket on reading its length, without waiting for (or keeping) the rest.
    write_raw(&mut ws, &frame(0x1, true, 1 << 20, &[b'x'; 100])).await;
    let (code, reason) = close_frame(&mut ws, Duration::from_secs(2)).await;
    assert_eq!(code, CloseCode::Size);
    assert!(reason.contains("at most 1024 bytes"), "{reason}");
    // The server and the game are fine; a message at the limit is served.
    let mut again = connect(&base, &id, Some(&token)).await;
    next_json(&mut again, 5).await.unwrap();
    let padded = format!(r#"{{"type":"ping"{}}}"#, " ".repeat(1024 - 15));
    assert_eq!(padded.len(), 1024);
    send_text(&mut again, padded).await;
    wait_for(&mut again, 5, |v| v["type"] == "pong").await;
    let (status, _) = get(&format!("{base}/api/games/{id}"), None).await;
    assert_eq!(status, 200);
}

async fn send_text(ws: &mut Ws, text: String) {
    use futures_util::SinkExt;
    ws.send(Message::Text(text.into())).await.unwrap();
}

#[tokio::test]
async fn a_message_over_the_limit_in_small_frames_closes_the_socket() {
    let base = start("ws-message", small_socket_limits()).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let mut ws = connect(&base, &id, Some(&token)).await;
    next_json(&mut ws, 5).await.unwrap();
    let part = [b' '; 600];
    let mut bytes = frame(0x1, false, 600, &part);
    bytes.extend(frame(0x0, false, 600, &part));
    write_raw(&mut ws, &bytes).await;
    let (code, reason) = close_frame(&mut ws, Duration::from_secs(2)).await;
    assert_eq!(code, CloseCode::Size);
    assert!(reason.contains("at most 1024 bytes"), "{reason}");
}

/// Reads from `stream` until the server closes it; returns how long that took from
/// `since`, or panics after `within`.
async fn closed_after(stream: &mut TcpStream, since: Instant, within: Duration) -> Duration {
    let mut buf = [0; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => panic!("the connection was still open after {within:?}"),
            Ok(Ok(0) | Err(_)) => return since.elapsed(),
            Ok(Ok(_)) => {}
        }
    }
}

/// Reads one HTTP response from `stream`: its status and body.
async fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .expect("an answer")
            .unwrap();
        assert!(n > 0, "closed before the answer was whole");
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got).into_owned();
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            continue;
        };
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().unwrap())
            })
            .expect("a content length");
        if body.len() >= length {
            let status = head[9..12].parse().unwrap();
            return (status, body[..length].to_owned());
        }
    }
}

const REQUEST: &[u8] = b"GET /api/rules HTTP/1.1\r\nHost: punct\r\n\r\n";

#[tokio::test]
async fn slow_request_heads_are_cut_off() {
    let base = start(
        "slow-head",
        Config {
            header_read_timeout: Duration::from_millis(400),
            idle_timeout: Duration::from_secs(30),
            ..Config::default()
        },
    )
    .await;
    let addr = addr_of(&base);
    // Half a head, and nothing more.
    let started = Instant::now();
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /api/rules HTTP/1.1\r\nHost: punct\r\n")
        .await
        .unwrap();
    let took = closed_after(&mut slow, started, Duration::from_secs(3)).await;
    assert!(took >= Duration::from_millis(350), "{took:?}");
    // A connection that sends nothing at all is cut off as soon.
    let started = Instant::now();
    let mut mute = TcpStream::connect(addr).await.unwrap();
    let took = closed_after(&mut mute, started, Duration::from_secs(3)).await;
    assert!(took >= Duration::from_millis(350), "{took:?}");
    // A head that comes in pieces within the time is served.
    let mut pieces = TcpStream::connect(addr).await.unwrap();
    for piece in REQUEST.chunks(12) {
        pieces.write_all(piece).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(read_response(&mut pieces).await.0, 200);
}

#[tokio::test]
async fn slow_request_bodies_are_answered_408() {
    let base = start(
        "slow-body",
        Config {
            body_read_timeout: Duration::from_millis(400),
            ..Config::default()
        },
    )
    .await;
    let mut stream = TcpStream::connect(addr_of(&base)).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(
            b"POST /api/import HTTP/1.1\r\nHost: punct\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"text\": ",
        )
        .await
        .unwrap();
    let (status, body) = read_response(&mut stream).await;
    assert!(started.elapsed() >= Duration::from_millis(350));
    assert_eq!(status, 408, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("did not arrive"),
        "{v}"
    );
    closed_after(&mut stream, started, Duration::from_secs(2)).await;
}

#[tokio::test]
async fn idle_keep_alive_connections_are_closed() {
    let base = start(
        "idle",
        Config {
            header_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_millis(500),
            ..Config::default()
        },
    )
    .await;
    let mut stream = TcpStream::connect(addr_of(&base)).await.unwrap();
    stream.write_all(REQUEST).await.unwrap();
    assert_eq!(read_response(&mut stream).await.0, 200);
    // Kept alive for a request that comes within the idle time...
    tokio::time::sleep(Duration::from_millis(250)).await;
    stream.write_all(REQUEST).await.unwrap();
    assert_eq!(read_response(&mut stream).await.0, 200);
    // ... and closed once idle for longer (not at the head timeout, much later).
    let answered = Instant::now();
    let took = closed_after(&mut stream, answered, Duration::from_secs(3)).await;
    assert!(took >= Duration::from_millis(450), "{took:?}");
}

/// The frames the server sends on `ws` from now until it closes the connection, read
/// past the library (which would answer pings): (opcode, payload) of each.
async fn raw_frames_until_closed(ws: &mut Ws, within: Duration) -> Vec<(u8, Vec<u8>)> {
    let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = ws.get_mut() else {
        panic!("a plain connection");
    };
    let mut bytes = Vec::new();
    tokio::time::timeout(within, tcp.read_to_end(&mut bytes))
        .await
        .expect("the server closes the connection")
        .ok();
    let mut frames = Vec::new();
    let mut rest = &bytes[..];
    while rest.len() >= 2 {
        let (length, at) = match rest[1] & 0x7f {
            126 => (u16::from_be_bytes([rest[2], rest[3]]) as usize, 4),
            127 => (
                u64::from_be_bytes(rest[2..10].try_into().unwrap()) as usize,
                10,
            ),
            n => (n as usize, 2),
        };
        frames.push((rest[0] & 0x0f, rest[at..at + length].to_vec()));
        rest = &rest[at + length..];
    }
    frames
}

#[tokio::test]
async fn silent_websockets_are_closed_and_those_that_answer_pings_are_not() {
    let base = start(
        "silent",
        Config {
            ws_silence_timeout: Duration::from_millis(600),
            ..Config::default()
        },
    )
    .await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let mut silent = connect(&base, &id, Some(&token)).await;
    next_json(&mut silent, 5).await.unwrap();
    let mut answering = connect(&base, &id, Some(&token)).await;
    // Reading answers the server's pings (the library sends the pongs).
    let reader = tokio::spawn(async move {
        let until = tokio::time::Instant::now() + Duration::from_millis(1500);
        let mut pings = 0;
        while let Ok(Some(Ok(message))) = tokio::time::timeout_at(until, answering.next()).await {
            if let Message::Ping(_) = message {
                pings += 1;
            }
            assert!(!message.is_close(), "a socket answering pings was closed");
        }
        (answering, pings)
    });
    // The silent one sends nothing, not even a pong: pinged, then closed with the reason.
    let frames = raw_frames_until_closed(&mut silent, Duration::from_secs(3)).await;
    let (close, pings) = frames.split_last().expect("a close frame");
    assert!(
        !pings.is_empty() && pings.iter().all(|(op, _)| *op == 0x9),
        "{frames:?}"
    );
    assert_eq!(close.0, 0x8, "{frames:?}");
    assert_eq!(u16::from_be_bytes([close.1[0], close.1[1]]), 1001);
    let reason = String::from_utf8_lossy(&close.1[2..]);
    assert!(reason.contains("nothing heard"), "{reason}");
    let (mut answering, pings) = reader.await.unwrap();
    assert!(pings >= 2, "{pings} pings");
    answers(&mut answering).await;
}

#[tokio::test]
async fn past_the_connection_cap_new_clients_are_refused_with_503_and_the_rest_keep_working() {
    let base = start(
        "cap",
        Config {
            max_connections: 3,
            ..Config::default()
        },
    )
    .await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    // The places fill (the game's creation may hold one for a moment after it is done).
    let mut sockets = Vec::new();
    let started = Instant::now();
    while sockets.len() < 3 {
        match tokio_tungstenite::connect_async(url.as_str()).await {
            Ok((ws, _)) => sockets.push(ws),
            Err(e) => {
                assert!(started.elapsed() < Duration::from_secs(3), "{e}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    let refused = client
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .expect("a quick answer");
    assert_eq!(refused.status(), 503);
    assert!(refused.headers().contains_key("retry-after"));
    let v: Value = refused.json().await.unwrap();
    assert_eq!(v["status"], 503);
    assert!(
        v["error"].as_str().unwrap().contains("3 connections"),
        "{v}"
    );
    let Err(tokio_tungstenite::tungstenite::Error::Http(response)) =
        tokio_tungstenite::connect_async(url.as_str()).await
    else {
        panic!("a socket past the cap was opened");
    };
    assert_eq!(response.status(), 503);
    // Those open are served as before.
    for ws in &mut sockets {
        answers(ws).await;
    }
    // A place freed is taken again.
    sockets.pop();
    let started = Instant::now();
    loop {
        let resp = client
            .get(format!("{base}/api/games/{id}"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        if resp.status() == 200 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{}",
            resp.status()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A client past the connection cap is answered once its request is read, however slowly
/// it comes within the time a request's head may take (an answer written before the
/// request is read can reach the client as a reset instead); one that sends nothing is
/// answered when that time is up.
#[tokio::test]
async fn past_the_cap_a_slow_client_is_answered_after_its_request_and_a_silent_one_at_the_head_timeout()
 {
    let base = start(
        "cap-slow",
        Config {
            max_connections: 1,
            header_read_timeout: Duration::from_millis(2_500),
            ..Config::default()
        },
    )
    .await;
    let addr = addr_of(&base);
    // The one place is held by a kept-alive connection.
    let mut held = TcpStream::connect(addr).await.unwrap();
    held.write_all(REQUEST).await.unwrap();
    assert_eq!(read_response(&mut held).await.0, 200);
    // A client whose request comes 1.5 s after it connects.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    slow.write_all(REQUEST).await.unwrap();
    let (status, body) = read_response(&mut slow).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("1 connections open"), "{body}");
    // A client that sends nothing is answered when its head's time is up, and closed.
    let started = Instant::now();
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let (status, _) = read_response(&mut silent).await;
    assert_eq!(status, 503);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(2_000) && took < Duration::from_millis(4_000),
        "{took:?}"
    );
    closed_after(&mut silent, started, Duration::from_secs(3)).await;
}

fn tight(burst: u32) -> Rate {
    Rate {
        burst,
        every: Duration::from_secs(60),
    }
}

fn tight_rates() -> Config {
    Config {
        rate_limits: Some(RateLimits {
            create: tight(2),
            join: tight(1),
            analyse: tight(1),
        }),
        ..Config::default()
    }
}

#[tokio::test]
async fn creating_games_past_the_rate_is_429_with_retry_after_for_that_address_alone() {
    let base = start("rate-create", tight_rates()).await;
    create(&base, json!({ "mode": "local" })).await;
    create(&base, json!({ "mode": "local" })).await;
    let resp = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .json(&json!({ "mode": "local" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 429);
    let retry: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((50..=60).contains(&retry), "{retry}");
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["status"], 429);
    assert!(
        v["error"].as_str().unwrap().contains("too many new games"),
        "{v}"
    );
    // Another address is not held back, and reading is not limited.
    let other = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let resp = other
        .post(format!("{base}/api/games"))
        .json(&json!({ "mode": "local" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    for _ in 0..5 {
        let (status, list) = get(&format!("{base}/api/games"), None).await;
        assert_eq!(status, 200);
        // None of the three has begun: none is listed as being played (API.md).
        assert_eq!(list["games"].as_array().unwrap().len(), 0, "{list}");
    }
}

#[tokio::test]
async fn joining_and_analysing_past_the_rate_are_429() {
    let base = start("rate-join", tight_rates()).await;
    let (id, _) = create(&base, json!({ "mode": "local" })).await;
    // The first join is refused by the game (no open seat), the second by the limit.
    let join = format!("{base}/api/games/{id}/join");
    assert_eq!(post(&join, None, json!({})).await.0, 409);
    let (status, v) = post(&join, None, json!({})).await;
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("joins"), "{v}");
    let analyse = format!("{base}/api/analyse");
    // Not the empty board: the local game above is at it, and a live game's position is
    // not analysed (API.md, Fairness).
    let position = json!({ "position": "standard b 1 wTE4:0@1" });
    assert_eq!(post(&analyse, None, position.clone()).await.0, 200);
    let (status, v) = post(&analyse, None, position).await;
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("analyses"), "{v}");
}

fn hello_limits() -> Config {
    Config {
        ws_hello_timeout: Duration::from_secs(1),
        ..Config::default()
    }
}

async fn open(url: &str) -> Ws {
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

#[tokio::test]
async fn a_hello_message_gives_the_seat_and_a_socket_that_says_nothing_watches() {
    let base = start("hello", hello_limits()).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    let both = json!(["white", "black"]);

    let mut ws = open(&url).await;
    send(&mut ws, json!({ "type": "hello", "token": token })).await;
    let first = next_json(&mut ws, 5).await.unwrap();
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"]["you"], both, "{first}");
    send(
        &mut ws,
        json!({ "type": "action", "action": "move", "move": "TE4:0" }),
    )
    .await;
    let ok = wait_for(&mut ws, 5, |v| v["type"] != "event").await;
    assert_eq!(ok["type"], "ok", "{ok}");

    // Nothing said: a watcher, served once the wait for a hello is over; its actions are
    // refused. A hello later still gives the seat.
    let started = Instant::now();
    let mut quiet = open(&url).await;
    let first = next_json(&mut quiet, 5).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert_eq!(first["state"]["you"], json!([]), "{first}");
    send(&mut quiet, json!({ "type": "action", "action": "resign" })).await;
    assert_eq!(next_json(&mut quiet, 5).await.unwrap()["status"], 403);
    send(&mut quiet, json!({ "type": "hello", "token": token })).await;
    let state = next_json(&mut quiet, 5).await.unwrap();
    assert_eq!(state["state"]["you"], both, "{state}");

    // A hello with no token or a wrong one: a watcher, at once.
    let started = Instant::now();
    let mut stranger = open(&url).await;
    send(
        &mut stranger,
        json!({ "type": "hello", "token": "not-a-token" }),
    )
    .await;
    let first = next_json(&mut stranger, 5).await.unwrap();
    assert!(started.elapsed() < Duration::from_millis(700));
    assert_eq!(first["state"]["you"], json!([]), "{first}");
}

#[tokio::test]
async fn a_bearer_header_on_the_upgrade_gives_the_seat_at_once() {
    let base = start("bearer-ws", hello_limits()).await;
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    let mut request = url.as_str().into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let started = Instant::now();
    let mut ws = tokio_tungstenite::connect_async(request).await.unwrap().0;
    let first = next_json(&mut ws, 5).await.unwrap();
    assert!(started.elapsed() < Duration::from_millis(700));
    assert_eq!(first["state"]["you"], json!(["white", "black"]), "{first}");
}

/// The header values every response must carry.
fn assert_security_headers(resp: &reqwest::Response, what: &str) {
    let h = resp.headers();
    let csp = h["content-security-policy"].to_str().unwrap();
    for directive in [
        "default-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
    ] {
        assert!(csp.contains(directive), "{what}: {csp}");
    }
    assert_eq!(h["x-content-type-options"], "nosniff", "{what}");
    assert_eq!(h["x-frame-options"], "DENY", "{what}");
    assert_eq!(h["referrer-policy"], "no-referrer", "{what}");
}

#[tokio::test]
async fn security_headers_are_on_pages_and_api_answers() {
    let base = start("headers", Config::default()).await;
    let client = reqwest::Client::new();
    let (id, _) = create(&base, json!({ "mode": "local" })).await;
    let requests = [
        client.get(format!("{base}/")),
        client.get(format!("{base}/g/{id}")),
        client.get(format!("{base}/js/app.js")),
        client.get(format!("{base}/style.css")),
        client.get(format!("{base}/api/rules")),
        client.get(format!("{base}/api/games/{id}")),
        client.get(format!("{base}/api/nothing")),
        client
            .post(format!("{base}/api/games"))
            .json(&json!({ "mode": "fly" })),
        client.post(format!("{base}/api/games")).body("x"),
    ];
    for request in requests {
        let resp = request.send().await.unwrap();
        let what = format!("{} {}", resp.status(), resp.url());
        assert_security_headers(&resp, &what);
    }
    // The page loads nothing inline that the policy would block.
    let page = client.get(format!("{base}/")).send().await.unwrap();
    let html = page.text().await.unwrap();
    assert!(!html.contains("<script>") && !html.contains("style="));
}

#[tokio::test]
async fn api_writes_that_are_not_json_are_refused_with_415_and_change_nothing() {
    let base = start("json-only", Config::default()).await;
    let client = reqwest::Client::new();
    let url = format!("{base}/api/games");
    let body = r#"{"mode":"local"}"#;
    // What a form on another site can send without asking: text/plain, a form encoding, or
    // a raw body with no type.
    let requests = [
        client
            .post(&url)
            .header("content-type", "text/plain")
            .body(body),
        client
            .post(&url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("mode=local"),
        client
            .post(&url)
            .header("content-type", "multipart/form-data; boundary=x")
            .body("--x--"),
        client.post(&url).body(body),
    ];
    for request in requests {
        let resp = request.send().await.unwrap();
        assert_eq!(resp.status(), 415);
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v["status"], 415);
        assert!(
            v["error"].as_str().unwrap().contains("application/json"),
            "{v}"
        );
    }
    let (_, list) = get(&url, None).await;
    assert_eq!(list["games"], json!([]), "nothing was created");
    // JSON (in any case, with a charset) passes; so does a POST with no body at all.
    let resp = client
        .post(&url)
        .header("content-type", "Application/JSON; charset=utf-8")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    let (id, token) = create(&base, json!({ "mode": "local" })).await;
    let resp = client
        .post(format!("{url}/{id}/resign"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn oversized_heads_and_bodies_are_refused() {
    let base = start(
        "sizes",
        Config {
            max_header_bytes: 8 * 1024,
            max_body_bytes: 1024,
            max_import_bytes: 2048,
            ..Config::default()
        },
    )
    .await;
    let client = reqwest::Client::new();
    let resp = client
        .get(format!("{base}/api/games"))
        .header("x-padding", "x".repeat(9 * 1024))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 431);
    // Imports have a limit of their own; every other body the general one.
    for (path, padding) in [("/api/import", 2048), ("/api/record", 1024)] {
        let text = format!("standard w 0 -{}", " ".repeat(padding));
        let resp = client
            .post(format!("{base}{path}"))
            .json(&json!({ "text": text }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 413, "{path}");
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v["status"], 413, "{v}");
    }
    // Under the limits, the same requests are served.
    let (status, v) = post(
        &format!("{base}/api/import"),
        None,
        json!({ "text": "standard w 0 -" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
}
