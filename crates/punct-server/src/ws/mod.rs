//! The WebSocket of a game: its state at once, then every event in sequence order; actions
//! may be sent over it too.
//!
//! The messages both ways are the wire layer's types ([`crate::wire::client`],
//! [`crate::wire::server`]); each announced change is sent in the form of the socket's
//! audience, written once for all the sockets of that audience.
//!
//! The socket's seat token comes in `Authorization: Bearer …` on the upgrade request, in a
//! first message `{"type":"hello","token":…}` (what browsers can send: they set no headers
//! on a WebSocket, and a token in the URL ends up in proxies' logs), or, for old clients, as
//! `?token=` in the URL. A socket whose request named no token is sent its first state once
//! its first message came or [`WsLimits::hello_timeout`] passed, so that state already
//! shows the seat a `hello` names (and the events since then follow it).
//!
//! A socket is closed, with a close frame saying why, when a client's message is over
//! [`WsLimits::max_message`] (the frame's header says its length, so nothing of it is kept)
//! or when it has sent nothing, not even a pong to the server's pings, for
//! [`WsLimits::silence_timeout`].

mod close;
pub(crate) mod lobby;
mod session;

use std::net::IpAddr;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade, close_code};
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use tokio::time::{Instant, MissedTickBehavior};

use crate::games::Hub;
use crate::players::accounts::AccountId;
use crate::wire::client::{ClientMessage, parse_message};
use close::{close, refuse};
use session::{Next, Outgoing, Session};

/// What one socket may send and how long it may keep quiet (from [`crate::Config`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WsLimits {
    /// The largest message (and frame) a client may send.
    pub(crate) max_message: usize,
    /// How long a socket whose request named no token is waited for before it is served
    /// as a watcher.
    pub(crate) hello_timeout: Duration,
    /// How long a socket may send nothing before it is closed; it is pinged at a third of
    /// that.
    pub(crate) silence_timeout: Duration,
}

/// Upgrades the request to game `id`'s WebSocket, speaking for `token` (from the request's
/// `Authorization` header or its `?token=`, if it named one).
pub(crate) fn upgrade(
    ws: WebSocketUpgrade,
    hub: Hub,
    id: String,
    token: Option<String>,
    account: Option<AccountId>,
    address: Option<IpAddr>,
    limits: WsLimits,
) -> Response {
    // Clients send only short JSON messages: small buffers keep thousands of sockets cheap
    // (the library's defaults are 128 KiB per socket for reading alone), and the library
    // zeroes the read buffer before every read (4 KiB of zeroes per move was 1.6% of the
    // server's CPU under load). The frame limit matters as much as the message limit: a
    // frame is kept whole until it ends.
    ws.read_buffer_size(1024)
        .write_buffer_size(16 * 1024)
        .max_message_size(limits.max_message)
        .max_frame_size(limits.max_message)
        .on_upgrade(move |socket| run(socket, hub, id, token, account, address, limits))
        .into_response()
}

/// What came first on a socket whose request named no token.
enum First {
    /// A `hello`, with the token it names.
    Hello(Option<String>),
    /// Another message, answered once the socket is served.
    Other(Message),
    /// Nothing within the time allowed.
    Nothing,
    /// The client left or broke the protocol.
    Gone,
}

/// Waits up to `limits.hello_timeout` for the first message of `socket`.
async fn first_message(socket: &mut WebSocket, limits: &WsLimits, heard: &mut Instant) -> First {
    let deadline = Instant::now() + limits.hello_timeout;
    loop {
        let Ok(incoming) = tokio::time::timeout_at(deadline, socket.recv()).await else {
            return First::Nothing;
        };
        *heard = Instant::now();
        match incoming {
            Some(Ok(Message::Text(text))) => match parse_message(&text) {
                Ok(ClientMessage::Hello { token }) => return First::Hello(token),
                _ => return First::Other(Message::Text(text)),
            },
            Some(Ok(message @ Message::Binary(_))) => return First::Other(message),
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                refuse(socket, &e, limits).await;
                return First::Gone;
            }
            None => return First::Gone,
        }
    }
}

async fn run(
    mut socket: WebSocket,
    hub: Hub,
    id: String,
    token: Option<String>,
    account: Option<AccountId>,
    address: Option<IpAddr>,
    limits: WsLimits,
) {
    let _open = hub.metrics().socket_opened();
    let mut heard = Instant::now();
    let named = token.is_some() || account.is_some();
    // Followed at once, as a watcher if no token came with the request, so that no event
    // is missed while a `hello` is waited for.
    let Ok((mut session, mut state)) = Session::open(hub, id, token, account, address).await else {
        return;
    };
    let mut first = None;
    if !named {
        match first_message(&mut socket, &limits, &mut heard).await {
            First::Hello(Some(token)) => match session.hello(Some(token)).await {
                Ok(seen) => state = seen,
                Err(_) => return,
            },
            First::Hello(None) | First::Nothing => {}
            First::Other(message) => first = Some(message),
            First::Gone => return,
        }
    }
    if socket.send(Message::Text(state)).await.is_err() {
        return;
    }
    if let Some(message) = first
        && let Some(answer) = session.answer(message).await
        && socket.send(Message::Text(answer)).await.is_err()
    {
        return;
    }
    let every = (limits.silence_timeout / 3).max(Duration::from_millis(1));
    let mut pings = tokio::time::interval_at(Instant::now() + every, every);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        // Each turn queues one message, then whatever events are already waiting (after a
        // move, its own broadcast), and writes them all at once: one system call instead
        // of one per message.
        let first = tokio::select! {
            got = session.next() => match got {
                Next::Game(got) => match session.outgoing(got).await {
                    Outgoing::Send(text) => text,
                    Outgoing::Skip => continue,
                    Outgoing::Closed => {
                        session.live = false;
                        continue;
                    }
                    Outgoing::Stop => return,
                },
                Next::Chat(event) => match session.chat_outgoing(event).await {
                    Some(text) => text,
                    None => continue,
                },
            },
            incoming = socket.recv() => {
                heard = Instant::now();
                match incoming {
                    Some(Ok(message)) => match session.answer(message).await {
                        Some(answer) => answer,
                        None => continue,
                    },
                    Some(Err(e)) => {
                        refuse(&mut socket, &e, &limits).await;
                        return;
                    }
                    None => return,
                }
            },
            _ = pings.tick() => {
                if heard.elapsed() >= limits.silence_timeout {
                    let reason = format!(
                        "nothing heard for {} s, not even a pong",
                        limits.silence_timeout.as_secs_f64()
                    );
                    close(&mut socket, close_code::AWAY, reason).await;
                    return;
                }
                if socket.send(Message::Ping(Bytes::new())).await.is_err() {
                    return;
                }
                continue;
            },
        };
        if socket.feed(Message::Text(first)).await.is_err() {
            return;
        }
        while session.live {
            let Some(waiting) = session.waiting() else {
                break;
            };
            match session.outgoing(waiting).await {
                Outgoing::Send(text) => {
                    if socket.feed(Message::Text(text)).await.is_err() {
                        return;
                    }
                }
                Outgoing::Skip => {}
                Outgoing::Closed => session.live = false,
                Outgoing::Stop => return,
            }
        }
        if socket.flush().await.is_err() {
            return;
        }
    }
}
