//! The WebSocket of a game: its state at once, then every event in sequence order; actions
//! may be sent over it too.
//!
//! Server messages: `{"type":"state","seq":N,"state":…}` (on connecting, on `sync`, and
//! when the client fell too far behind), `{"type":"event","seq":N,"event":…,"state":…}`,
//! `{"type":"ok","seq":N}` after an action, `{"type":"error","status":…,"error":…}`, `{"type":"pong"}`.

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::error::ApiError;
use crate::hub::Hub;
use crate::room::Action;

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

/// A message from the client: `{"type":"sync"}`, `{"type":"ping"}`, or
/// `{"type":"action","action":…}` with the fields of an [`Action`].
enum ClientMessage {
    /// Send the current state again.
    Sync,
    /// Keep-alive.
    Ping,
    /// Carry out an action for the connection's token.
    Action(Action),
}

fn parse_message(text: &str) -> Result<ClientMessage, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(mut fields) = value else {
        return Err("a message must be a JSON object with a `type`".into());
    };
    let kind = fields.remove("type");
    match kind.as_ref().and_then(Value::as_str) {
        Some("sync") => Ok(ClientMessage::Sync),
        Some("ping") => Ok(ClientMessage::Ping),
        Some("action") => serde_json::from_value(Value::Object(fields))
            .map(ClientMessage::Action)
            .map_err(|e| format!("bad action: {e}")),
        Some(other) => Err(format!(
            "unknown message type `{other}`: expected sync, ping or action"
        )),
        None => Err("a message needs a string `type`".into()),
    }
}

pub(crate) async fn upgrade(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Refuse unknown games before upgrading, with a proper HTTP status.
    hub.room(&id).await?;
    // Clients send only short JSON messages: small buffers keep thousands of sockets cheap
    // (the library's defaults are 128 KiB per socket for reading alone), and the library
    // zeroes the read buffer before every read (4 KiB of zeroes per move was 1.6% of the
    // server's CPU under load).
    Ok(ws
        .read_buffer_size(1024)
        .write_buffer_size(16 * 1024)
        .max_message_size(64 * 1024)
        .on_upgrade(move |socket| run(socket, hub, id, q.token))
        .into_response())
}

fn error_message(e: &ApiError) -> String {
    json!({ "type": "error", "status": e.status.as_u16(), "error": e.reason }).to_string()
}

async fn run(mut socket: WebSocket, hub: Hub, id: String, token: Option<String>) {
    let Ok((state, mut events)) = hub.subscribe(&id, token.as_deref()).await else {
        return;
    };
    let you = format!("\"you\":{}", state["you"]);
    let you = if you == "\"you\":[]" {
        String::new()
    } else {
        you
    };
    if socket
        .send(Message::Text(hello(state).to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let token = token.as_deref();
    // Once a game is over its channel closes (the game leaves memory); the socket stays open
    // for pings and syncs, so that pages do not reconnect again and again.
    let mut live = true;
    loop {
        // Each turn queues one message, then whatever events are already waiting (after a
        // move, its own broadcast), and writes them all at once: one system call instead
        // of one per message.
        let first = tokio::select! {
            got = events.recv(), if live => match event_text(got, &hub, &id, token, &you).await {
                Outgoing::Send(text) => text,
                Outgoing::Closed => {
                    live = false;
                    continue;
                }
                Outgoing::Stop => return,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => handle(&hub, &id, token, &text).await.into(),
                Some(Ok(Message::Binary(_))) => error_message(&ApiError::bad_request(
                    "binary messages are not understood; send JSON text",
                ))
                .into(),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return,
            },
        };
        if socket.feed(Message::Text(first)).await.is_err() {
            return;
        }
        while live {
            let text = match events.try_recv() {
                Ok(text) => Ok(text),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                Err(TryRecvError::Closed) => Err(RecvError::Closed),
            };
            match event_text(text, &hub, &id, token, &you).await {
                Outgoing::Send(text) => {
                    if socket.feed(Message::Text(text)).await.is_err() {
                        return;
                    }
                }
                Outgoing::Closed => live = false,
                Outgoing::Stop => return,
            }
        }
        if socket.flush().await.is_err() {
            return;
        }
    }
}

/// What a broadcast event becomes on one socket.
enum Outgoing {
    /// This text is sent.
    Send(Utf8Bytes),
    /// The game is over and its channel closed: nothing more will come.
    Closed,
    /// The game is gone: the socket closes.
    Stop,
}

async fn event_text(
    event: Result<Utf8Bytes, RecvError>,
    hub: &Hub,
    id: &str,
    token: Option<&str>,
    you: &str,
) -> Outgoing {
    match event {
        // Events are broadcast without the viewer's colours (`"you":[]`, a key that string
        // values cannot imitate since their quotes are escaped); seat holders get theirs put
        // back.
        Ok(text) if you.is_empty() => Outgoing::Send(text),
        Ok(text) => Outgoing::Send(text.as_str().replacen("\"you\":[]", you, 1).into()),
        // A client that fell too far behind gets the whole state instead.
        Err(RecvError::Lagged(_)) => match hub.state(id, token).await {
            Ok(state) => Outgoing::Send(hello(state).to_string().into()),
            Err(_) => Outgoing::Stop,
        },
        Err(RecvError::Closed) => Outgoing::Closed,
    }
}

fn hello(state: Value) -> Value {
    json!({ "type": "state", "seq": state["seq"], "state": state })
}

async fn handle(hub: &Hub, id: &str, token: Option<&str>, text: &str) -> String {
    let msg = match parse_message(text) {
        Ok(m) => m,
        Err(e) => return error_message(&ApiError::bad_request(e)),
    };
    match msg {
        ClientMessage::Ping => json!({ "type": "pong" }).to_string(),
        ClientMessage::Sync => match hub.state(id, token).await {
            Ok(state) => hello(state).to_string(),
            Err(e) => error_message(&e),
        },
        ClientMessage::Action(action) => match hub.act(id, token, action, false).await {
            Ok((seq, _)) => json!({ "type": "ok", "seq": seq }).to_string(),
            Err(e) => error_message(&e),
        },
    }
}
