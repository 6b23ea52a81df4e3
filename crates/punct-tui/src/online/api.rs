//! The server's JSON API over HTTP, as the terminal uses it: who a token belongs to, a
//! player's games, a game's state, new games, and the sign-in flow of `punct login`.
//!
//! Every failure becomes an [`ApiError`] that says what to do about it: an unreachable
//! server, a token the server does not know (revoked, or from another server), a refusal
//! with the server's reason, or an answer this client cannot read.

use std::fmt;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::wire::{
    AccountEvent, Challenge, ChallengeRequest, Credentials, ErrorBody, GameState, Me, NewGame,
    PlayerGames, SeatGrant, SignedIn, TokenMade,
};

/// How long one request may take, connecting included.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

/// The longest part of an answer quoted in an error.
const QUOTED: usize = 120;

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The server could not be reached (refused, unknown host, timed out, dropped).
    Unreachable(String),
    /// The token is not a live one there: revoked, mistyped, or another server's.
    BadToken,
    /// The server refused the request, with its status and reason.
    Refused(u16, String),
    /// The server's answer was not what this client reads.
    BadAnswer(String),
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Unreachable(why) => write!(f, "cannot reach the server: {why}"),
            ApiError::BadToken => f.write_str(
                "the server does not accept this sign-in (the token was revoked, mistyped or \
                 is another server's): sign in again with `punct login --server URL`",
            ),
            ApiError::Refused(status, why) => write!(f, "the server refused ({status}): {why}"),
            ApiError::BadAnswer(why) => {
                write!(f, "the server's answer does not read as punct's API: {why}")
            }
        }
    }
}

impl std::error::Error for ApiError {}

/// `text` cut to [`QUOTED`] characters, control characters escaped, for an error message.
pub fn quoted(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(QUOTED)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().count() > QUOTED {
        out.push('…');
    }
    out
}

/// A server's API, asked with an API token (or none).
#[derive(Clone)]
pub struct Api {
    base: String,
    token: Option<String>,
    agent: ureq::Agent,
}

impl fmt::Debug for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The token is a secret: never in logs or panics.
        f.debug_struct("Api").field("base", &self.base).finish()
    }
}

/// One answer: its status, its body, and the cookies it set.
struct Answer {
    status: u16,
    body: String,
    cookies: Vec<String>,
}

impl Api {
    /// The API of the server at `base` (`http://host:port`, no trailing `/` needed).
    pub fn new(base: &str, token: Option<String>) -> Result<Api, ApiError> {
        let base = base.trim().trim_end_matches('/').to_owned();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(ApiError::Unreachable(format!(
                "`{}` is not a server's address: give it as http://host:port",
                quoted(&base)
            )));
        }
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(REQUEST_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        Ok(Api { base, token, agent })
    }

    /// The server's address.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The token the requests carry.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The address of game `id`'s WebSocket.
    pub fn socket_url(&self, id: &str) -> String {
        let rest = self
            .base
            .strip_prefix("https://")
            .map(|r| format!("wss://{r}"))
            .or_else(|| {
                self.base
                    .strip_prefix("http://")
                    .map(|r| format!("ws://{r}"))
            })
            .unwrap_or_else(|| self.base.clone());
        format!("{rest}/api/games/{id}/ws")
    }

    fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<String>,
        extra: &[(&str, &str)],
    ) -> Result<Answer, ApiError> {
        let url = format!("{}{path}", self.base);
        let mut request = ureq::http::Request::builder()
            .method(method)
            .uri(&url)
            .header("Accept", "application/json");
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        for (name, value) in extra {
            request = request.header(*name, *value);
        }
        let sent = match body {
            Some(body) => {
                let request = request
                    .header("Content-Type", "application/json")
                    .body(body)
                    .map_err(|e| ApiError::Unreachable(e.to_string()))?;
                self.agent.run(request)
            }
            None => {
                let request = request
                    .body(())
                    .map_err(|e| ApiError::Unreachable(e.to_string()))?;
                self.agent.run(request)
            }
        };
        let mut response = sent.map_err(|e| ApiError::Unreachable(format!("{url}: {e}")))?;
        let status = response.status().as_u16();
        let cookies = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or("").to_owned())
            .collect();
        let body = response
            .body_mut()
            .read_to_string()
            .map_err(|e| ApiError::Unreachable(format!("{url}: the answer broke off: {e}")))?;
        Ok(Answer {
            status,
            body,
            cookies,
        })
    }

    /// The answer read as `T` when it is a success, else the error it is.
    fn read<T: DeserializeOwned>(&self, answer: Answer) -> Result<T, ApiError> {
        checked(answer.status, &answer.body, self.token.is_some())?;
        serde_json::from_str(&answer.body)
            .map_err(|e| ApiError::BadAnswer(format!("{e} in `{}`", quoted(&answer.body))))
    }

    fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, ApiError> {
        let answer = self.send("GET", path, None, &[])?;
        self.read(answer)
    }

    fn post<B: Serialize, T: DeserializeOwned>(&self, path: &str, body: &B) -> Result<T, ApiError> {
        let body = serde_json::to_string(body).map_err(|e| ApiError::BadAnswer(e.to_string()))?;
        let answer = self.send("POST", path, Some(body), &[])?;
        self.read(answer)
    }

    /// The name of the account the token belongs to.
    pub fn whoami(&self) -> Result<String, ApiError> {
        let me: Me = self.get("/api/account")?;
        me.account.map(|a| a.username).ok_or(ApiError::BadToken)
    }

    /// `name`'s games being played, latest first.
    pub fn live_games(&self, name: &str) -> Result<PlayerGames, ApiError> {
        self.get(&format!("/api/players/{}/games?live=true", encoded(name)))
    }

    /// Game `id`'s state as the token sees it.
    pub fn state(&self, id: &str) -> Result<GameState, ApiError> {
        self.get(&format!("/api/games/{}", encoded(id)))
    }

    /// Makes a new game; the token's account takes its seat.
    pub fn create(&self, game: &NewGame) -> Result<SeatGrant, ApiError> {
        self.post("/api/games", game)
    }

    /// Signs in with a name and a password and makes an API token named `token_name` for
    /// this client, ending the session it signed in with: the token alone is kept.
    pub fn make_token(
        &self,
        username: &str,
        password: &str,
        token_name: &str,
    ) -> Result<TokenMade, ApiError> {
        let body = serde_json::to_string(&Credentials { username, password })
            .map_err(|e| ApiError::BadAnswer(e.to_string()))?;
        let answer = self.send("POST", "/api/session", Some(body), &[])?;
        let cookies = answer.cookies.join("; ");
        let signed: SignedIn = match answer.status {
            401 => {
                return Err(ApiError::Refused(
                    401,
                    "wrong username or password".to_owned(),
                ));
            }
            _ => self.read(answer)?,
        };
        // A signed-in change needs the session's CSRF token and this server as its origin.
        let session = [
            ("Cookie", cookies.as_str()),
            ("X-CSRF-Token", signed.csrf.as_str()),
            ("Origin", self.base.as_str()),
        ];
        let body = serde_json::json!({ "name": token_name }).to_string();
        let answer = self.send("POST", "/api/account/tokens", Some(body), &session)?;
        let made: Result<TokenMade, ApiError> = self.read(answer);
        // The session is not needed once the token is made; failing to end it changes nothing
        // for the token.
        let _ = self.send("DELETE", "/api/session", None, &session);
        made
    }

    /// Challenges a player.
    pub fn challenge(&self, request: &ChallengeRequest) -> Result<Challenge, ApiError> {
        self.post("/api/challenges", request)
    }

    /// Accepts (`true`) or declines challenge `id`.
    pub fn answer_challenge(&self, id: &str, accept: bool) -> Result<(), ApiError> {
        let answer = if accept { "accept" } else { "decline" };
        self.act("POST", &format!("/api/challenges/{}/{answer}", encoded(id)))
    }

    /// Resigns game `id`.
    pub fn resign(&self, id: &str) -> Result<(), ApiError> {
        self.act("POST", &format!("/api/games/{}/resign", encoded(id)))
    }

    /// A request whose answer says only whether it was done.
    fn act(&self, method: &str, path: &str) -> Result<(), ApiError> {
        let body = (method == "POST").then(|| "{}".to_owned());
        let answer = self.send(method, path, body, &[])?;
        checked(answer.status, &answer.body, self.token.is_some())
    }

    /// Opens the account's event stream (`GET /api/stream/events`). The stream has no
    /// time limit; the server writes an empty line every 5 s while nothing happens.
    pub fn events(&self) -> Result<EventStream, ApiError> {
        let url = format!("{}/api/stream/events", self.base);
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_connect(Some(REQUEST_TIMEOUT))
            .timeout_recv_response(Some(REQUEST_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        let mut request = ureq::http::Request::builder()
            .method("GET")
            .uri(&url)
            .header("Accept", "application/x-ndjson");
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let request = request
            .body(())
            .map_err(|e| ApiError::Unreachable(e.to_string()))?;
        let mut response = agent
            .run(request)
            .map_err(|e| ApiError::Unreachable(format!("{url}: {e}")))?;
        let status = response.status().as_u16();
        if status != 200 {
            let body = response.body_mut().read_to_string().unwrap_or_default();
            checked(status, &body, self.token.is_some())?;
            return Err(ApiError::BadAnswer(format!(
                "the event stream answered {status}"
            )));
        }
        Ok(EventStream {
            lines: std::io::BufReader::new(Box::new(response.into_body().into_reader())),
        })
    }

    /// Revokes token `id` (the token the requests carry may revoke itself).
    pub fn revoke(&self, id: &str) -> Result<(), ApiError> {
        self.act("DELETE", &format!("/api/account/tokens/{}", encoded(id)))
    }
}

/// An account's event stream, read line by line.
pub struct EventStream {
    lines: std::io::BufReader<Box<dyn std::io::Read + Send>>,
}

/// What the stream brought next.
#[derive(Debug, PartialEq)]
pub enum StreamNews {
    /// An event.
    Event(AccountEvent),
    /// The server's sign of life.
    Alive,
    /// A line this client does not read, and why.
    Unread(String),
}

impl EventStream {
    /// The next line, blocking; an error once the stream ended or broke.
    pub fn read(&mut self) -> Result<StreamNews, ApiError> {
        use std::io::BufRead as _;
        let mut line = String::new();
        // A line is bounded, so that a server gone wrong cannot fill the memory.
        let read = std::io::Read::take(&mut self.lines, MAX_EVENT_LINE)
            .read_line(&mut line)
            .map_err(|e| ApiError::Unreachable(format!("the event stream broke off: {e}")))?;
        if read == 0 {
            return Err(ApiError::Unreachable("the event stream ended".to_owned()));
        }
        Ok(read_event(&line))
    }
}

/// The longest line of the event stream read.
const MAX_EVENT_LINE: u64 = 1 << 20;

/// One line of the event stream, read.
pub fn read_event(line: &str) -> StreamNews {
    let line = line.trim();
    if line.is_empty() {
        return StreamNews::Alive;
    }
    match serde_json::from_str(line) {
        Ok(event) => StreamNews::Event(event),
        Err(e) => StreamNews::Unread(format!("{e} in `{}`", quoted(line))),
    }
}

/// Whether `status` with `body` is a success; the error it is otherwise. A 401 to a request
/// that carried a token means the token is not a live one.
pub fn checked(status: u16, body: &str, with_token: bool) -> Result<(), ApiError> {
    match status {
        200..=299 => Ok(()),
        401 if with_token => Err(ApiError::BadToken),
        _ => {
            let reason = serde_json::from_str::<ErrorBody>(body)
                .map(|b| b.error)
                .unwrap_or_else(|_| quoted(body));
            Err(ApiError::Refused(status, reason))
        }
    }
}

/// `text` as one segment of a path: letters, digits, `-` and `_` as they are, the rest
/// percent-encoded.
fn encoded(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::wire::{AccountEvent, Challenge};

    #[test]
    fn event_lines_read_as_events_signs_of_life_or_refusals() {
        assert_eq!(read_event("\n"), StreamNews::Alive);
        let line = r#"{"type":"challenge","challenge":{"id":"c1","from":"Ada","from_bot":false,
            "to":"Bot","to_bot":true,"clock":{"initial":600,"increment":5},"speed":"rapid",
            "rated":true,"colour":"random","status":"open","game":null,"created_ms":1,
            "expires_ms":2}}"#
            .replace('\n', "");
        assert_eq!(
            read_event(&line),
            StreamNews::Event(AccountEvent::Challenge {
                challenge: Challenge {
                    id: "c1".into(),
                    from: "Ada".into(),
                    from_bot: false,
                    to: "Bot".into(),
                    speed: "rapid".into(),
                    rated: true,
                }
            })
        );
        assert_eq!(
            read_event(r#"{"type":"something_newer","x":1}"#),
            StreamNews::Event(AccountEvent::Other)
        );
        let StreamNews::Unread(why) = read_event("{\"type\":\"challenge\"}\u{7}") else {
            panic!("a broken line was read");
        };
        assert!(why.contains("\\u{7}"), "{why}");
    }

    proptest::proptest! {
        #[test]
        fn no_line_of_the_stream_panics(line in "\\PC{0,200}") {
            let _ = read_event(&line);
        }
    }

    #[test]
    fn refusals_carry_the_servers_reason_and_a_401_means_the_token() {
        assert_eq!(checked(200, "{}", true), Ok(()));
        assert_eq!(checked(401, "{}", true), Err(ApiError::BadToken));
        assert_eq!(
            checked(409, r#"{"error":"not your turn","status":409}"#, true),
            Err(ApiError::Refused(409, "not your turn".into()))
        );
        // A proxy's page instead of JSON is quoted, cut and escaped.
        let page = format!("<html>\n{}</html>", "x".repeat(500));
        let Err(ApiError::Refused(502, why)) = checked(502, &page, false) else {
            panic!("a 502 passed");
        };
        assert!(why.starts_with("<html>\\n") && why.ends_with('…') && why.len() < 200);
    }

    #[test]
    fn addresses_are_checked_and_sockets_follow_the_scheme() {
        assert!(matches!(
            Api::new("localhost:8080", None),
            Err(ApiError::Unreachable(why)) if why.contains("http://host:port")
        ));
        let api = Api::new("http://127.0.0.1:8080/", None).unwrap();
        assert_eq!(
            api.socket_url("ab12"),
            "ws://127.0.0.1:8080/api/games/ab12/ws"
        );
        let api = Api::new("https://punct.example", None).unwrap();
        assert_eq!(api.socket_url("x"), "wss://punct.example/api/games/x/ws");
        assert_eq!(encoded("Ada Lovelace/1"), "Ada%20Lovelace%2F1");
    }

    #[test]
    fn an_unreachable_server_is_said_so() {
        // Port 9 on this machine: nothing listens there.
        let api = Api::new("http://127.0.0.1:9", Some("punct_x".into())).unwrap();
        let e = api.whoami().unwrap_err();
        assert!(matches!(e, ApiError::Unreachable(_)), "{e:?}");
        assert!(e.to_string().starts_with("cannot reach the server"));
    }
}
