//! Load test on loopback: many simultaneous games, each with a watcher, moves sent as fast
//! as the server accepts them. Reports moves per second, the time from a move being sent
//! to its broadcast reaching the watcher (p50, p99, max), and the server's memory per game.
//!
//! ```text
//! cargo build --release -p punct-server --bins --examples
//! target/release/examples/load [GAMES=200] [SECONDS=20] [MOVES_PER_SECOND_PER_GAME|max] [ENGINE_GAMES=0]
//! ```
//!
//! Without a rate (or with `max`) each game sends its next move as soon as the last one was
//! broadcast (the server saturated: latency is then mostly queueing); with a rate, moves are
//! paced. `ENGINE_GAMES` games against the computer at full strength run beside them, each
//! answering the computer at once, so that the engine is busy all along: the people's games
//! must not slow down.
//!
//! It starts target/release/punct-server (beside the examples folder) on a free port with a
//! fresh SQLite database (or the `postgres://` URL in `LOAD_DB`), so the server's memory is
//! measured alone.
//!
//! The generator looks at its sockets every 100 µs rather than sleeping until one is ready
//! (see [`POLL_EVERY`]); `LOAD_POLL_US=0` makes it sleep in epoll as an ordinary client does.
//!
//! `LOAD_SIGNINS=20` signs accounts in beside the games, 20 a second (each sent on time
//! whether or not the last was answered, as many people would), or with `max` as many as
//! the server grants, two at a time: it reports the sign-ins granted per second, their
//! answer times and any refusal. The server checks passwords on a quarter of the cores, at
//! least one: on 2 cores, sign-ins per second on one core. Run it with and without them to
//! compare the moves' latency.

#[path = "common/process.rs"]
mod process;

use std::time::{Duration, Instant};

use futures_util::{FutureExt, SinkExt, StreamExt};
use process::{Server, cpu_seconds, quantile, sign_up};
use punct_core::Move;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

// The same allocator as the server: the load generator shares the machine's two cores with it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

async fn post(client: &reqwest::Client, url: String, body: Value) -> Value {
    client
        .post(url)
        .json(&body)
        .send()
        .await
        .expect("server answers")
        .json()
        .await
        .expect("JSON answer")
}

/// A friend game with both seats: (id, white token, black token).
async fn new_game(client: &reqwest::Client, base: &str) -> (String, String, String) {
    let g = post(
        client,
        format!("{base}/api/games"),
        json!({ "mode": "friend" }),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_owned();
    let invite = json!({ "invite": g["invite"] });
    let j = post(client, format!("{base}/api/games/{id}/join"), invite).await;
    (
        id,
        g["token"].as_str().unwrap().to_owned(),
        j["token"].as_str().unwrap().to_owned(),
    )
}

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// A watcher's WebSocket on game `id`: it says at once, as the browser app does, that it
/// holds no seat, so that the server need not wait for a token.
async fn watch(ws_base: &str, id: &str) -> Socket {
    let mut ws = connect(format!("{ws_base}/api/games/{id}/ws"), WATCHER_READ_BUFFER).await;
    ws.send(Message::Text(r#"{"type":"hello"}"#.into()))
        .await
        .expect("the server takes the hello");
    ws
}

/// A WebSocket to `url` with no Nagle delay, reading up to `read_buffer` bytes at a time (the
/// library zeroes its read buffer before every read, so its default of 128 KiB would make the
/// load generator, not the server, the bottleneck).
async fn connect(url: String, read_buffer: usize) -> Socket {
    let config = WebSocketConfig::default().read_buffer_size(read_buffer);
    connect_async_with_config(url, Some(config), true)
        .await
        .expect("the server accepts the WebSocket")
        .0
}

/// How many moves the players' sockets take between two reads. Players receive every event,
/// as the watcher does, but nothing waits for them: reading them in batches takes one system
/// call per batch rather than one per message (and fewer acknowledgements), which leaves the
/// cores to the server: the generator's CPU per move fell from about 30 to 25 µs. A batch is
/// about 24 messages of up to 2 KiB, well inside a socket's first receive window, so the
/// server never waits for them.
const READ_PLAYERS_EVERY: usize = 16;

/// The players' read buffer: room for a whole batch in one read.
const PLAYER_READ_BUFFER: usize = 64 * 1024;

/// The watcher's read buffer: one message at a time.
const WATCHER_READ_BUFFER: usize = 4 * 1024;

/// Reads, without waiting, every message already received on `socket`.
fn read_waiting(socket: &mut Socket) {
    while let Some(Some(Ok(_))) = socket.next().now_or_never() {}
}

/// How often the generator looks at its sockets when it has nothing to do.
///
/// A client asleep in epoll is woken by the server's send, inside the server's own system
/// call: on loopback the server's thread pays for waking the generator's (an
/// inter-processor interrupt, which on this virtual machine was 13% of the server's busiest
/// thread), a cost that clients on other machines never put on a server. Waking on its own
/// timer instead, as a network card moderates its interrupts, leaves that cost with the
/// generator; a broadcast may be read up to this much later, which only adds to the
/// latency measured.
const POLL_EVERY: Duration = Duration::from_micros(100);

/// Keeps the runtime from sleeping in epoll: the thread sleeps `every` on a timer, then
/// yields, so that the runtime looks at the sockets without waiting and runs whatever is
/// ready before this task sleeps again.
async fn poll_sockets(every: Duration) {
    // Timer slack (50 µs by default) would stretch each sleep by half.
    // SAFETY: PR_SET_TIMERSLACK only sets this thread's timer slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1_u64, 0, 0, 0) };
    loop {
        std::thread::sleep(every);
        tokio::task::yield_now().await;
    }
}

/// The sequence number of a server message, read from its head (`{"type":…,"seq":N,…`)
/// without parsing the rest, so that the load generator takes little of the CPU.
fn seq_of(text: &str) -> Option<u64> {
    let at = text.find("\"seq\":")? + 6;
    let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
    text[at..at + digits].parse().ok()
}

/// The next number of a small generator (Knuth's MMIX constants), from its high bits.
fn next_random(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// Random games to the end, drawn before the clock starts (so that the load generator spends
/// its CPU on the network, as a crowd of browsers would, not on the rules): each is the list
/// of its moves' WebSocket messages.
fn random_games(count: usize) -> Vec<Vec<String>> {
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    (0..count)
        .map(|_| {
            let mut game = punct_core::Game::new(punct_core::Variant::Standard);
            let mut messages = Vec::new();
            while game.outcome().is_none() {
                let pos = game.position();
                let mv: Move = pos
                    .nth_legal_move(next_random(&mut rng) % pos.count_legal_moves())
                    .expect("a move below the count");
                messages.push(
                    json!({ "type": "action", "action": "move", "move": mv.to_string() })
                        .to_string(),
                );
                game.play(mv).unwrap();
            }
            messages
        })
        .collect()
}

/// Plays games in slot `slot` of `slots` until `deadline`, taking its games from `games` in
/// turn; returns the latencies of its moves (µs).
async fn slot(
    base: String,
    ws_base: String,
    (slot, slots): (usize, usize),
    games: std::sync::Arc<Vec<Vec<String>>>,
    deadline: Instant,
    pace: Option<Duration>,
) -> Vec<u64> {
    let client = reqwest::Client::new();
    let mut latencies = Vec::new();
    for moves in games.iter().skip(slot).step_by(slots).cycle() {
        if Instant::now() >= deadline {
            break;
        }
        let (id, white, black) = new_game(&client, &base).await;
        let url = |t: &str| format!("{ws_base}/api/games/{id}/ws?token={t}");
        let mut w = connect(url(&white), PLAYER_READ_BUFFER).await;
        let mut b = connect(url(&black), PLAYER_READ_BUFFER).await;
        let mut watcher = watch(&ws_base, &id).await;
        // The watcher's first message is the state; each move's broadcast carries the next
        // sequence number (nothing else happens in these games).
        let mut seq = match watcher.next().await {
            Some(Ok(Message::Text(t))) => seq_of(&t).expect("the state has a seq"),
            other => panic!("no state for the watcher: {other:?}"),
        };
        for (ply, msg) in moves.iter().enumerate() {
            if Instant::now() >= deadline {
                break;
            }
            if let Some(pace) = pace {
                tokio::time::sleep(pace).await;
            }
            let sent = Instant::now();
            let tx = if ply % 2 == 0 { &mut w } else { &mut b };
            tx.send(Message::Text(msg.as_str().into())).await.unwrap();
            seq += 1;
            loop {
                match watcher.next().await {
                    Some(Ok(Message::Text(t))) if seq_of(&t) == Some(seq) => break,
                    // The server's pings (answered by the library) and other events.
                    Some(Ok(Message::Text(_) | Message::Ping(_) | Message::Pong(_))) => {}
                    other => panic!("the watcher's socket ended: {other:?}"),
                }
            }
            latencies.push(sent.elapsed().as_micros() as u64);
            if ply % READ_PLAYERS_EVERY == READ_PLAYERS_EVERY - 1 {
                read_waiting(&mut w);
                read_waiting(&mut b);
            }
        }
        w.close(None).await.ok();
        b.close(None).await.ok();
        watcher.close(None).await.ok();
    }
    latencies
}

/// Plays games against the computer at full strength until `deadline`, answering each of its
/// moves at once; returns the number of computer moves.
async fn engine_slot(base: String, ws_base: String, seed: u64, deadline: Instant) -> u64 {
    let client = reqwest::Client::new();
    let mut rng = seed.wrapping_mul(6364136223846793005).wrapping_add(7);
    let mut answered = 0;
    while Instant::now() < deadline {
        let g = post(
            &client,
            format!("{base}/api/games"),
            json!({ "mode": "computer", "level": 6 }),
        )
        .await;
        let id = g["id"].as_str().unwrap().to_owned();
        let token = g["token"].as_str().unwrap().to_owned();
        let mut ws = watch(&ws_base, &id).await;
        let mut game = punct_core::Game::new(punct_core::Variant::Standard);
        while game.outcome().is_none() && Instant::now() < deadline {
            let moves = game.position().legal_moves();
            let mv = moves[next_random(&mut rng) as usize % moves.len()];
            let answer = client
                .post(format!("{base}/api/games/{id}/move"))
                .bearer_auth(&token)
                .json(&json!({ "move": mv.to_string() }))
                .send()
                .await
                .expect("server answers");
            if !answer.status().is_success() {
                break;
            }
            game.play(mv).unwrap();
            // Wait for the computer's move (or the end).
            let want = game.moves().len() + 1;
            let reply = loop {
                let Some(Ok(Message::Text(t))) = ws.next().await else {
                    return answered;
                };
                let v: Value = serde_json::from_str(&t).unwrap();
                let moves = v["state"]["moves"].as_array().map_or(0, Vec::len);
                if moves >= want || !v["state"]["outcome"].is_null() {
                    break v;
                }
            };
            if !reply["state"]["outcome"].is_null() {
                break;
            }
            let text = reply["state"]["moves"][want - 1].as_str().unwrap();
            game.play(Move::parse(text).unwrap()).unwrap();
            answered += 1;
        }
        ws.close(None).await.ok();
    }
    answered
}

/// Sign-ins beside the games (`LOAD_SIGNINS`).
#[derive(Clone, Copy)]
enum SignIns {
    /// This many a second, each sent on time.
    Rate(f64),
    /// As many as the server grants, two at a time.
    Max,
}

impl SignIns {
    /// `LOAD_SIGNINS`, if set.
    fn from_env() -> Option<SignIns> {
        let v = std::env::var("LOAD_SIGNINS").ok()?;
        Some(if v == "max" {
            SignIns::Max
        } else {
            SignIns::Rate(
                v.parse()
                    .expect("LOAD_SIGNINS is a number a second, or max"),
            )
        })
    }
}

/// The accounts the sign-ins are for, made before the clock starts.
const SIGNERS: usize = 8;

/// Their password.
const PASSWORD: &str = "a long walk in the hills";

/// Makes the [`SIGNERS`] accounts: their names.
async fn sign_up_signers(client: &reqwest::Client, base: &str) -> Vec<String> {
    let mut names = Vec::new();
    for i in 0..SIGNERS {
        let name = format!("signer_{i}");
        sign_up(client, base, &name, PASSWORD).await;
        names.push(name);
    }
    names
}

/// One sign-in as `name`: its answer's status and the time it took (µs).
async fn sign_in(client: reqwest::Client, base: String, name: String) -> (u16, u64) {
    let sent = Instant::now();
    let status = client
        .post(format!("{base}/api/session"))
        .json(&json!({ "username": name, "password": PASSWORD }))
        .send()
        .await
        .map_or(0, |r| r.status().as_u16());
    (status, sent.elapsed().as_micros() as u64)
}

/// Signs `names` in, in turn, as `how` says until `deadline`: each sign-in's status and time.
async fn sign_ins(
    base: String,
    names: Vec<String>,
    how: SignIns,
    deadline: Instant,
) -> Vec<(u16, u64)> {
    let client = reqwest::Client::new();
    let name = |i: usize| names[i % names.len()].clone();
    match how {
        SignIns::Rate(rate) => {
            let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
            let mut sent = Vec::new();
            while Instant::now() < deadline {
                tick.tick().await;
                let i = sent.len();
                sent.push(tokio::spawn(sign_in(client.clone(), base.clone(), name(i))));
            }
            let mut answers = Vec::new();
            for s in sent {
                answers.push(s.await.unwrap());
            }
            answers
        }
        SignIns::Max => {
            let one_after_another = |first: usize| {
                let (client, base, names) = (client.clone(), base.clone(), names.clone());
                async move {
                    let mut answers = Vec::new();
                    let mut i = first;
                    while Instant::now() < deadline {
                        let who = names[i % names.len()].clone();
                        answers.push(sign_in(client.clone(), base.clone(), who).await);
                        i += 2;
                    }
                    answers
                }
            };
            let (mut a, b) = tokio::join!(one_after_another(0), one_after_another(1));
            a.extend(b);
            a
        }
    }
}

/// Prints what the sign-ins met over `elapsed` seconds.
fn report_sign_ins(how: SignIns, answers: &[(u16, u64)], elapsed: f64) {
    let mut granted: Vec<u64> = answers
        .iter()
        .filter(|(status, _)| *status == 200)
        .map(|&(_, t)| t)
        .collect();
    granted.sort_unstable();
    let mut refused = std::collections::BTreeMap::new();
    for (status, _) in answers.iter().filter(|(status, _)| *status != 200) {
        *refused.entry(*status).or_insert(0) += 1;
    }
    println!(
        "sign-ins beside them ({}): {} granted in {elapsed:.1} s = {:.1}/s, refused {refused:?} (status: count)",
        match how {
            SignIns::Rate(rate) => format!("{rate} a second asked"),
            SignIns::Max => "as many as granted, two at a time".to_owned(),
        },
        granted.len(),
        granted.len() as f64 / elapsed,
    );
    if !granted.is_empty() {
        println!(
            "sign-in answered in: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            quantile(&granted, 0.50) as f64 / 1000.0,
            quantile(&granted, 0.99) as f64 / 1000.0,
            *granted.last().unwrap() as f64 / 1000.0
        );
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args
        .next()
        .map_or(200, |a| a.parse().expect("GAMES is a number"));
    let seconds: u64 = args
        .next()
        .map_or(20, |a| a.parse().expect("SECONDS is a number"));
    let pace = args.next().filter(|a| a != "max" && a != "0").map(|a| {
        let rate: f64 = a.parse().expect("MOVES_PER_SECOND_PER_GAME is a number");
        Duration::from_secs_f64(1.0 / rate)
    });
    let engine_games: usize = args
        .next()
        .map_or(0, |a| a.parse().expect("ENGINE_GAMES is a number"));
    let signing_in = SignIns::from_env();
    let server = Server::start("load").await;
    let (base, ws_base) = (server.base.clone(), server.ws_base.clone());
    let signers = match signing_in {
        Some(_) => sign_up_signers(&reqwest::Client::new(), &base).await,
        None => Vec::new(),
    };
    let rss_before = server.rss_kib();

    let drawn = std::sync::Arc::new(random_games(games * 8));
    let poll_every = std::env::var("LOAD_POLL_US").map_or(POLL_EVERY, |us| {
        Duration::from_micros(us.parse().expect("LOAD_POLL_US is a number of µs"))
    });
    if !poll_every.is_zero() {
        tokio::spawn(poll_sockets(poll_every));
    }
    let server_cpu = server.cpu_seconds();
    let own_cpu = cpu_seconds("self");
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..games)
        .map(|i| {
            tokio::spawn(slot(
                base.clone(),
                ws_base.clone(),
                (i, games),
                drawn.clone(),
                deadline,
                pace,
            ))
        })
        .collect();
    let engine_tasks: Vec<_> = (0..engine_games)
        .map(|i| {
            tokio::spawn(engine_slot(
                base.clone(),
                ws_base.clone(),
                i as u64 + 1000,
                deadline,
            ))
        })
        .collect();
    let sign_in_task =
        signing_in.map(|how| tokio::spawn(sign_ins(base.clone(), signers, how, deadline)));
    // Memory with every game open and connected, a moment after start.
    tokio::time::sleep(Duration::from_secs(seconds.min(5))).await;
    let rss_during = server.rss_kib();
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    let elapsed = start.elapsed().as_secs_f64();
    let mut computer_moves = 0;
    for t in engine_tasks {
        computer_moves += t.await.unwrap();
    }
    let signed_in = match sign_in_task {
        Some(t) => t.await.unwrap(),
        None => Vec::new(),
    };
    latencies.sort_unstable();
    let pct = |p: f64| quantile(&latencies, p);
    println!(
        "games in parallel: {games} (each: 2 players + 1 watcher on WebSocket), pace: {}, sockets {}",
        pace.map_or("as fast as accepted".to_owned(), |p| format!(
            "one move per {p:?} per game"
        )),
        if poll_every.is_zero() {
            "waited on in epoll".to_owned()
        } else {
            format!("looked at every {poll_every:?}")
        }
    );
    if engine_games > 0 {
        println!(
            "beside them: {engine_games} games against the computer at full strength, \
             {computer_moves} computer moves (the engine busy throughout)"
        );
    }
    println!(
        "moves: {} in {elapsed:.1} s = {:.0} moves/s",
        latencies.len(),
        latencies.len() as f64 / elapsed
    );
    println!(
        "move sent -> broadcast received at the watcher: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50) as f64 / 1000.0,
        pct(0.90) as f64 / 1000.0,
        pct(0.99) as f64 / 1000.0,
        *latencies.last().unwrap() as f64 / 1000.0
    );
    println!(
        "server memory: {} KiB before, {} KiB with {games} games open: {:.1} KiB per game",
        rss_before,
        rss_during,
        (rss_during.saturating_sub(rss_before)) as f64 / games as f64
    );
    println!(
        "CPU seconds: server {:.1}, load generator {:.1} (2 cores = {:.0} available)",
        server.cpu_seconds() - server_cpu,
        cpu_seconds("self") - own_cpu,
        2.0 * elapsed
    );
    if let Some(how) = signing_in {
        report_sign_ins(how, &signed_in, elapsed);
    }
    // SQLite's log starts again after each checkpoint: its size stays that of a second or
    // two of writes however long the server runs.
    if let Ok(meta) = std::fs::metadata(format!("{}-wal", server.db())) {
        println!(
            "SQLite log (WAL) at the end: {:.1} MB",
            meta.len() as f64 / 1e6
        );
    }
}
