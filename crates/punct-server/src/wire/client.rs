//! What clients send on a game's WebSocket (API.md, "WebSocket"), lila-ws's `ClientOut`:
//! read straight into its type, and a message that is not one of them refused with the
//! reason.

use serde::Deserialize;
use serde_json::Value;

use crate::room::Request;

/// A message from the client: `{"type":"hello","token":…}`, `{"type":"sync"}`,
/// `{"type":"ping"}`, `{"type":"action","action":…}` with the fields of a [`Request`],
/// `{"type":"chat_open"}` or `{"type":"chat","text":…}`.
///
/// `sync` and `ping` are variants with no fields rather than unit variants, which serde lets
/// ignore any fields they are sent.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// This socket's seat token (none: a watcher); answered with the state as it sees it.
    Hello {
        /// The seat token.
        token: Option<String>,
    },
    /// Send the current state again.
    Sync {},
    /// Keep-alive.
    Ping {},
    /// Carry out an action for the connection's token.
    Action(Request),
    /// Send the game's chat (the rooms this socket may read) and its count of watchers,
    /// then every new message and change of the count.
    ChatOpen {},
    /// Write a message in the game's chat: the players' for a player, the watchers' for a
    /// watcher.
    Chat {
        /// The text, 1 to 140 characters.
        text: String,
    },
}

/// Reads a client message straight into its type (a move is read for every move played);
/// only a message that fails is read again, as a JSON value, to say what is wrong with it.
pub fn parse_message(text: &str) -> Result<ClientMessage, String> {
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
        Some(kind @ ("sync" | "ping" | "chat_open")) => match fields.keys().next() {
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
        Some("chat") => match fields
            .iter()
            .find(|(field, value)| field.as_str() != "text" || !value.is_string())
        {
            Some((field, _)) if field == "text" => {
                Err("the `text` of a `chat` message must be a string".into())
            }
            Some((field, _)) => Err(format!("a `chat` message has no field `{field}`")),
            None if !fields.contains_key("text") => Err("a `chat` message needs its `text`".into()),
            None => Ok(()),
        },
        Some("action") => serde_json::from_value::<Request>(Value::Object(fields))
            .map(drop)
            .map_err(|e| format!("bad action: {e}")),
        Some(other) => Err(format!(
            "unknown message type `{other}`: expected hello, sync, ping, action, chat_open or chat"
        )),
        None => Err("a message needs a string `type`".into()),
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
        assert!(matches!(
            parse_message(r#"{"type":"chat","text":"gg"}"#),
            Ok(ClientMessage::Chat { text }) if text == "gg"
        ));
        assert!(matches!(
            parse_message(r#"{"type":"chat_open"}"#),
            Ok(ClientMessage::ChatOpen {})
        ));
        assert_eq!(
            refused(r#"{"type":"chat"}"#),
            "a `chat` message needs its `text`"
        );
        assert_eq!(
            refused(r#"{"type":"chat","text":3}"#),
            "the `text` of a `chat` message must be a string"
        );
        assert_eq!(
            refused(r#"{"type":"chat","text":"a","room":"players"}"#),
            "a `chat` message has no field `room`"
        );
    }

    proptest! {
        /// The typed reading and the value reading accept the same messages, a message is
        /// accepted only with exactly its kind's fields, and anything else is refused with a
        /// reason, never a panic.
        #[test]
        fn both_readings_agree(text in prop_oneof![
            ".*",
            r#"\{"type":"(sync|ping|action|hello|chat|chat_open|x)"(,"action":"(move|resign|offer_draw|takeback|fly)")?(,"move":("[A-Z0-9:-]{0,8}"|null))?(,"token":("[a-f0-9]{0,4}"|null|7))?(,"text":("[a-z<>]{0,4}"|null|7))?(,"extra":1)?\}"#,
        ]) {
            let typed = parse_message(&text);
            prop_assert_eq!(typed.is_ok(), refusal(&text).is_ok(), "{}", text);
            match typed {
                Ok(msg) => {
                    let value: Value = serde_json::from_str(&text).unwrap();
                    let fields = match msg {
                        ClientMessage::Hello { .. } => 1 + usize::from(value.get("token").is_some()),
                        ClientMessage::Sync {} | ClientMessage::Ping {} | ClientMessage::ChatOpen {} => 1,
                        ClientMessage::Chat { .. } => 2,
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
