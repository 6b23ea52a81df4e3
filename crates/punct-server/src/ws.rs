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

use crate::api_error::ApiError;
use crate::hub::Hub;
use crate::room::{Request, colour_name};

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

/// A message from the client: `{"type":"sync"}`, `{"type":"ping"}`, or
/// `{"type":"action","action":…}` with the fields of a [`Request`].
///
/// `sync` and `ping` are variants with no fields rather than unit variants, which serde lets
/// ignore any fields they are sent.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
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
        Some("action") => serde_json::from_value::<Request>(Value::Object(fields))
            .map(drop)
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
    hub.room(&id).await.map_err(ApiError::from)?;
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
    let _open = hub.metrics().socket_opened();
    let Ok((state, you, mut events)) = hub.subscribe(&id, token.as_deref()).await else {
        return;
    };
    let you = if you.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = you.into_iter().map(colour_name).collect();
        format!("\"you\":{}", json!(names))
    };
    if socket.send(Message::Text(state.into())).await.is_err() {
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
        Ok(text) => Outgoing::Send(with_colours(&text, you).into()),
        // A client that fell too far behind gets the whole state instead.
        Err(RecvError::Lagged(_)) => match hub.state_message(id, token).await {
            Ok(state) => Outgoing::Send(state.into()),
            Err(_) => Outgoing::Stop,
        },
        Err(RecvError::Closed) => Outgoing::Closed,
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

async fn handle(hub: &Hub, id: &str, token: Option<&str>, text: &str) -> String {
    let msg = match parse_message(text) {
        Ok(m) => m,
        Err(e) => return error_message(&ApiError::bad_request(e)),
    };
    match msg {
        ClientMessage::Ping {} => json!({ "type": "pong" }).to_string(),
        ClientMessage::Sync {} => match hub.state_message(id, token).await {
            Ok(state) => state,
            Err(e) => error_message(&e.into()),
        },
        ClientMessage::Action(request) => match hub.act(id, token, request, false).await {
            Ok((seq, _)) => format!(r#"{{"type":"ok","seq":{seq}}}"#),
            Err(e) => error_message(&e.into()),
        },
    }
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
            r#"\{"type":"(sync|ping|action|x)"(,"action":"(move|resign|offer_draw|takeback|fly)")?(,"move":("[A-Z0-9:-]{0,8}"|null))?(,"extra":1)?\}"#,
        ]) {
            let typed = parse_message(&text);
            prop_assert_eq!(typed.is_ok(), refusal(&text).is_ok(), "{}", text);
            match typed {
                Ok(msg) => {
                    let fields = match msg {
                        ClientMessage::Sync {} | ClientMessage::Ping {} => 1,
                        ClientMessage::Action(Request { action: Action::Move { .. }, .. }) => 3,
                        ClientMessage::Action(_) => 2,
                    };
                    let value: Value = serde_json::from_str(&text).unwrap();
                    prop_assert_eq!(value.as_object().map(|o| o.len()), Some(fields), "{}", text);
                }
                Err(why) => prop_assert!(!why.is_empty()),
            }
        }
    }
}
