//! The WebSocket of a game: its state at once, then every event in sequence order; actions
//! may be sent over it too.
//!
//! Server messages: `{"type":"state","seq":N,"state":…}` (on connecting, on `hello` and
//! `sync`, and when the client fell too far behind), `{"type":"event","seq":N,"event":…,"state":…}`,
//! `{"type":"ok","seq":N}` after an action, `{"type":"error","status":…,"error":…}`, `{"type":"pong"}`.
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

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::time::{Instant, MissedTickBehavior};

use crate::error::Error;
use crate::games::{Following, Hub, RoomCell};
use crate::http::bearer;
use crate::http::error::ApiError;
use crate::room::{Request, colour_name};

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

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

/// A message from the client: `{"type":"hello","token":…}`, `{"type":"sync"}`,
/// `{"type":"ping"}`, or `{"type":"action","action":…}` with the fields of a [`Request`].
///
/// `sync` and `ping` are variants with no fields rather than unit variants, which serde lets
/// ignore any fields they are sent.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    /// This socket's seat token (none: a watcher); answered with the state as it sees it.
    Hello { token: Option<String> },
    /// Send the current state again.
    Sync {},
    /// Keep-alive.
    Ping {},
    /// Carry out an action for the connection's token.
    Action(Request),
}

/// Reads a client message straight into its type (a move is read for every move played);
/// only a message that fails is read again, as a JSON value, to say what is wrong with it.
fn parse_message(text: &str) -> Result<ClientMessage, String> {
    serde_json::from_str(text).map_err(|e| {
        refusal(text)
            .err()
            .unwrap_or_else(|| format!("bad message: {e}"))
    })
}

/// What is wrong with `text` as a client message, read as a JSON value.
fn refusal(text: &str) -> Result<(), String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(mut fields) = value else {
        return Err("a message must be a JSON object with a `type`".into());
    };
    let kind = fields.remove("type");
    match kind.as_ref().and_then(Value::as_str) {
        Some(kind @ ("sync" | "ping")) => match fields.keys().next() {
            Some(field) => Err(format!("a `{kind}` message has no field `{field}`")),
            None => Ok(()),
        },
        Some("hello") => match fields.iter().find(|(field, value)| {
            field.as_str() != "token" || !(value.is_string() || value.is_null())
        }) {
            Some((field, _)) if field == "token" => {
                Err("the `token` of a `hello` message must be a string".into())
            }
            Some((field, _)) => Err(format!("a `hello` message has no field `{field}`")),
            None => Ok(()),
        },
        Some("action") => serde_json::from_value::<Request>(Value::Object(fields))
            .map(drop)
            .map_err(|e| format!("bad action: {e}")),
        Some(other) => Err(format!(
            "unknown message type `{other}`: expected hello, sync, ping or action"
        )),
        None => Err("a message needs a string `type`".into()),
    }
}

pub(crate) async fn upgrade(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    Extension(limits): Extension<WsLimits>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Refuse unknown games before upgrading, with a proper HTTP status.
    hub.room(&id).await.map_err(ApiError::from)?;
    let token = bearer(&headers).or(q.token);
    // Clients send only short JSON messages: small buffers keep thousands of sockets cheap
    // (the library's defaults are 128 KiB per socket for reading alone), and the library
    // zeroes the read buffer before every read (4 KiB of zeroes per move was 1.6% of the
    // server's CPU under load). The frame limit matters as much as the message limit: a
    // frame is kept whole until it ends.
    Ok(ws
        .read_buffer_size(1024)
        .write_buffer_size(16 * 1024)
        .max_message_size(limits.max_message)
        .max_frame_size(limits.max_message)
        .on_upgrade(move |socket| run(socket, hub, id, token, limits))
        .into_response())
}

fn error_message(e: &ApiError) -> String {
    json!({ "type": "error", "status": e.status.as_u16(), "error": e.reason }).to_string()
}

/// A socket's place in its game: whose seat it speaks for and the events it follows.
struct Session {
    hub: Hub,
    id: String,
    token: Option<String>,
    /// `"you":[…]` with the token's colours, or empty for a watcher.
    you: String,
    events: Receiver<Utf8Bytes>,
    /// Held so that the game's channel stays open while the socket follows it.
    _cell: Arc<RoomCell>,
    /// Once a game's channel closes the socket stays open for pings and syncs, so that
    /// pages do not reconnect again and again.
    live: bool,
}

impl Session {
    /// Follows game `id` for `token`; returns the session and its first state message.
    async fn open(hub: Hub, id: String, token: Option<String>) -> Result<(Session, String), Error> {
        let Following {
            state,
            you,
            events,
            cell,
        } = hub.subscribe(&id, token.as_deref()).await?;
        let session = Session {
            hub,
            id,
            token,
            you: you_field(you),
            events,
            _cell: cell,
            live: true,
        };
        Ok((session, state))
    }

    /// Speaks for `token` from now on: the state and the events that follow it are seen
    /// with its seat.
    async fn hello(&mut self, token: Option<String>) -> Result<String, Error> {
        let Following {
            state,
            you,
            events,
            cell,
        } = self.hub.subscribe(&self.id, token.as_deref()).await?;
        self.token = token;
        self.you = you_field(you);
        self.events = events;
        self._cell = cell;
        self.live = true;
        Ok(state)
    }
}

fn you_field(you: Vec<punct_core::Colour>) -> String {
    if you.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = you.into_iter().map(colour_name).collect();
    format!("\"you\":{}", json!(names))
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

async fn run(mut socket: WebSocket, hub: Hub, id: String, token: Option<String>, limits: WsLimits) {
    let _open = hub.metrics().socket_opened();
    let mut heard = Instant::now();
    let named = token.is_some();
    // Followed at once, as a watcher if no token came with the request, so that no event
    // is missed while a `hello` is waited for.
    let Ok((mut session, mut state)) = Session::open(hub, id, token).await else {
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
    if socket.send(Message::Text(state.into())).await.is_err() {
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
            got = session.events.recv(), if session.live => match session.event_text(got).await {
                Outgoing::Send(text) => text,
                Outgoing::Closed => {
                    session.live = false;
                    continue;
                }
                Outgoing::Stop => return,
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
            let text = match session.events.try_recv() {
                Ok(text) => Ok(text),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                Err(TryRecvError::Closed) => Err(RecvError::Closed),
            };
            match session.event_text(text).await {
                Outgoing::Send(text) => {
                    if socket.feed(Message::Text(text)).await.is_err() {
                        return;
                    }
                }
                Outgoing::Closed => session.live = false,
                Outgoing::Stop => return,
            }
        }
        if socket.flush().await.is_err() {
            return;
        }
    }
}

/// Closes `socket` after a read error, saying why where the client is to blame: a message
/// over the limit (1009) or a broken protocol (1002).
async fn refuse(socket: &mut WebSocket, error: &axum::Error, limits: &WsLimits) {
    let Some(error) =
        std::error::Error::source(error).and_then(|e| e.downcast_ref::<tungstenite::Error>())
    else {
        return;
    };
    let (code, reason) = match error {
        tungstenite::Error::Capacity(_) => (
            close_code::SIZE,
            format!(
                "a message may be at most {} bytes; the socket is closed",
                limits.max_message
            ),
        ),
        tungstenite::Error::Protocol(e) => (close_code::PROTOCOL, e.to_string()),
        _ => return,
    };
    close(socket, code, reason).await;
}

async fn close(socket: &mut WebSocket, code: u16, reason: String) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
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

impl Session {
    async fn event_text(&mut self, event: Result<Utf8Bytes, RecvError>) -> Outgoing {
        match event {
            // Events are broadcast without the viewer's colours (`"you":[]`, a key that string
            // values cannot imitate since their quotes are escaped); seat holders get theirs
            // put back.
            Ok(text) if self.you.is_empty() => Outgoing::Send(text),
            Ok(text) => Outgoing::Send(with_colours(&text, &self.you).into()),
            // A client that fell too far behind gets the whole state instead, and follows
            // the events from it on: the lagging receiver still holds events older than that
            // state, which would reach the client after it, out of order.
            Err(RecvError::Lagged(_)) => match self.hello(self.token.clone()).await {
                Ok(state) => Outgoing::Send(state.into()),
                Err(_) => Outgoing::Stop,
            },
            Err(RecvError::Closed) => Outgoing::Closed,
        }
    }

    /// The answer to a client's message, if it gets one.
    async fn answer(&mut self, message: Message) -> Option<Utf8Bytes> {
        match message {
            Message::Text(text) => Some(self.handle(&text).await.into()),
            Message::Binary(_) => Some(
                error_message(&ApiError::bad_request(
                    "binary messages are not understood; send JSON text",
                ))
                .into(),
            ),
            _ => None,
        }
    }

    async fn handle(&mut self, text: &str) -> String {
        let msg = match parse_message(text) {
            Ok(m) => m,
            Err(e) => return error_message(&ApiError::bad_request(e)),
        };
        let (hub, id, token) = (&self.hub, self.id.as_str(), self.token.as_deref());
        let answer = match msg {
            ClientMessage::Ping {} => return json!({ "type": "pong" }).to_string(),
            ClientMessage::Hello { token } => self.hello(token).await,
            ClientMessage::Sync {} => hub.state_message(id, token).await,
            ClientMessage::Action(request) => hub
                .act(id, token, request, false)
                .await
                .map(|(seq, _)| format!(r#"{{"type":"ok","seq":{seq}}}"#)),
        };
        answer.unwrap_or_else(|e| error_message(&e.into()))
    }
}

/// The empty colour list that broadcast events carry.
const NO_COLOURS: &str = "\"you\":[]";

/// `event` with `you` (`"you":[…]`) in place of its empty colour list. The list is near the
/// end of the event, so it is sought from there, and the copy is made at its final size:
/// a search from the start and a growing copy were 3% of the server's CPU under load.
fn with_colours(event: &str, you: &str) -> String {
    let Some(at) = event.rfind(NO_COLOURS) else {
        return event.to_owned();
    };
    let mut out = String::with_capacity(event.len() + you.len() - NO_COLOURS.len());
    out.push_str(&event[..at]);
    out.push_str(you);
    out.push_str(&event[at + NO_COLOURS.len()..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::Action;
    use proptest::prelude::*;

    fn refused(text: &str) -> String {
        match parse_message(text) {
            Ok(_) => panic!("{text} was accepted"),
            Err(why) => why,
        }
    }

    #[test]
    fn messages_are_read_into_their_type() {
        assert!(matches!(
            parse_message(r#"{"type":"sync"}"#),
            Ok(ClientMessage::Sync {})
        ));
        assert!(matches!(
            parse_message(r#"{"type":"ping"}"#),
            Ok(ClientMessage::Ping {})
        ));
        assert!(matches!(
            parse_message(r#"{"type":"hello","token":"abc"}"#),
            Ok(ClientMessage::Hello { token: Some(t) }) if t == "abc"
        ));
        assert!(matches!(
            parse_message(r#"{"type":"hello"}"#),
            Ok(ClientMessage::Hello { token: None })
        ));
        let Ok(ClientMessage::Action(Request { action, seq: None })) =
            parse_message(r#"{"type":"action","action":"move","move":"TE4:0"}"#)
        else {
            panic!("a move was refused");
        };
        assert_eq!(
            action,
            Action::Move {
                text: "TE4:0".into()
            }
        );
        assert!(matches!(
            parse_message(r#"{"action":"resign","type":"action"}"#),
            Ok(ClientMessage::Action(Request {
                action: Action::Resign,
                seq: None
            }))
        ));
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        assert!(refused("garbage").starts_with("not JSON"));
        assert!(refused("[1]").contains("must be a JSON object"));
        assert!(refused(r#"{"action":"resign"}"#).contains("needs a string `type`"));
        assert!(refused(r#"{"type":"dance"}"#).contains("unknown message type `dance`"));
        assert!(refused(r#"{"type":"action","action":"fly"}"#).starts_with("bad action"));
        assert!(
            refused(r#"{"type":"action","action":"move","move":"TE4:0","to":1}"#)
                .starts_with("bad action")
        );
        assert_eq!(
            refused(r#"{"type":"action","action":"resign","move":"TE4:0"}"#),
            "bad action: only a `move` action has the field `move`"
        );
        assert_eq!(
            refused(r#"{"type":"ping","seq":3}"#),
            "a `ping` message has no field `seq`"
        );
        assert_eq!(
            refused(r#"{"type":"hello","token":7}"#),
            "the `token` of a `hello` message must be a string"
        );
        assert_eq!(
            refused(r#"{"type":"hello","seat":"white"}"#),
            "a `hello` message has no field `seat`"
        );
    }

    #[test]
    fn seat_holders_get_their_colours_in_place_of_the_empty_list() {
        let event =
            r#"{"type":"event","seq":3,"state":{"name":"\"you\":[]","you":[],"updated_ms":5}}"#;
        assert_eq!(
            with_colours(event, r#""you":["white"]"#),
            r#"{"type":"event","seq":3,"state":{"name":"\"you\":[]","you":["white"],"updated_ms":5}}"#
        );
        assert_eq!(with_colours("{}", r#""you":["black"]"#), "{}");
    }

    proptest! {
        /// The typed reading and the value reading accept the same messages, a message is
        /// accepted only with exactly its kind's fields, and anything else is refused with a
        /// reason, never a panic.
        #[test]
        fn both_readings_agree(text in prop_oneof![
            ".*",
            r#"\{"type":"(sync|ping|action|hello|x)"(,"action":"(move|resign|offer_draw|takeback|fly)")?(,"move":("[A-Z0-9:-]{0,8}"|null))?(,"token":("[a-f0-9]{0,4}"|null|7))?(,"extra":1)?\}"#,
        ]) {
            let typed = parse_message(&text);
            prop_assert_eq!(typed.is_ok(), refusal(&text).is_ok(), "{}", text);
            match typed {
                Ok(msg) => {
                    let value: Value = serde_json::from_str(&text).unwrap();
                    let fields = match msg {
                        ClientMessage::Hello { .. } => 1 + usize::from(value.get("token").is_some()),
                        ClientMessage::Sync {} | ClientMessage::Ping {} => 1,
                        ClientMessage::Action(Request { action: Action::Move { .. }, .. }) => 3,
                        ClientMessage::Action(_) => 2,
                    };
                    prop_assert_eq!(value.as_object().map(|o| o.len()), Some(fields), "{}", text);
                }
                Err(why) => prop_assert!(!why.is_empty()),
            }
        }
    }
}
