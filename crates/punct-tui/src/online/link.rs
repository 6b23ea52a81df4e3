//! A game's WebSocket on its own thread, kept open: a dropped connection is tried again
//! with growing waits, and every try and loss is reported, so that the screen can show it.
//!
//! The thread only carries text: it knows nothing of the game. What to send again after a
//! reconnection is decided by [`super::remote::RemoteGame`] from the state the server sends
//! first on every new connection (the server is the truth; nothing here needs remembering).

use std::io::ErrorKind;
use std::net::{TcpStream, ToSocketAddrs as _};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use tungstenite::client::IntoClientRequest as _;
use tungstenite::http::HeaderValue;
use tungstenite::{Message, WebSocket};

/// How long connecting may take before the try counts as failed.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How often the thread looks for text to send while it waits for the server.
const POLL: Duration = Duration::from_millis(50);

/// How long the server may say nothing before the connection is taken for dead: it pings
/// every 20 s, so three pings missed.
const SILENCE: Duration = Duration::from_secs(60);

/// The wait before the first try again, doubled after each failure up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(250);

/// The longest wait between tries: a server back after a restart is found within it.
const MAX_WAIT: Duration = Duration::from_secs(8);

/// The wait before try number `attempt` (1 for the first try after a loss).
pub fn backoff(attempt: u32) -> Duration {
    let doubled = FIRST_WAIT.saturating_mul(1 << attempt.saturating_sub(1).min(16));
    doubled.min(MAX_WAIT)
}

/// News from the connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkNews {
    /// Connected (again): the server's first message, the state, follows.
    Connected,
    /// A message from the server.
    Text(String),
    /// The connection was lost or could not be made; the next try is in `retry_in`.
    Lost {
        /// Why.
        why: String,
        /// Tries failed in a row.
        attempt: u32,
        /// The wait before the next.
        retry_in: Duration,
    },
    /// The server refused the connection for good (no such game, the token refused): no
    /// more tries.
    Refused(String),
}

/// What the screen asks of the thread.
enum Command {
    Send(String),
}

/// A handle on a game's connection thread; dropping it closes the connection.
pub struct Link {
    commands: Option<Sender<Command>>,
    news: Receiver<LinkNews>,
    thread: Option<JoinHandle<()>>,
}

/// Why a try to connect failed.
enum Failure {
    /// Worth trying again.
    Passing(String),
    /// Not worth it: the server said no.
    Final(String),
}

impl Link {
    /// Opens the socket at `url` with `token` as the bearer, and keeps it open.
    pub fn open(url: String, token: Option<String>) -> Link {
        let (commands, inbox) = mpsc::channel();
        let (outbox, news) = mpsc::channel();
        let thread = thread::Builder::new()
            .name("punct-link".to_owned())
            .spawn(move || keep_open(&url, token.as_deref(), &inbox, &outbox));
        Link {
            commands: Some(commands),
            news,
            thread: thread.ok(),
        }
    }

    /// Sends `text` if connected; lost otherwise (the state after reconnecting decides
    /// what is sent again).
    pub fn send(&self, text: String) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(Command::Send(text));
        }
    }

    /// The next piece of news, without waiting.
    pub fn poll(&self) -> Option<LinkNews> {
        self.news.try_recv().ok()
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Closing the channel ends the thread within one poll.
        self.commands = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread: connects, carries text both ways, and connects again after a loss, until the
/// handle is dropped or the server refuses for good.
fn keep_open(url: &str, token: Option<&str>, inbox: &Receiver<Command>, outbox: &Sender<LinkNews>) {
    let mut attempt = 0;
    loop {
        let why = match connect(url, token) {
            Ok(mut socket) => {
                attempt = 0;
                if outbox.send(LinkNews::Connected).is_err() {
                    return;
                }
                match carry(&mut socket, inbox, outbox) {
                    Some(why) => why,
                    None => {
                        let _ = socket.close(None);
                        let _ = socket.flush();
                        return;
                    }
                }
            }
            Err(Failure::Final(why)) => {
                let _ = outbox.send(LinkNews::Refused(why));
                return;
            }
            Err(Failure::Passing(why)) => why,
        };
        attempt += 1;
        let retry_in = backoff(attempt);
        let lost = LinkNews::Lost {
            why,
            attempt,
            retry_in,
        };
        if outbox.send(lost).is_err() {
            return;
        }
        // Waiting, but gone at once when the handle is dropped; text sent meanwhile is
        // dropped, since the state on reconnecting decides what is sent again.
        let until = Instant::now() + retry_in;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match inbox.recv_timeout(left) {
                Ok(Command::Send(_)) => {}
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }
}

/// One try to connect.
fn connect(url: &str, token: Option<&str>) -> Result<WebSocket<TcpStream>, Failure> {
    let mut request = url
        .into_client_request()
        .map_err(|e| Failure::Final(format!("bad address {url}: {e}")))?;
    if let Some(token) = token {
        let value = HeaderValue::from_str(&format!("Bearer {token}"))
            .map_err(|_| Failure::Final("the token is not text a header can carry".into()))?;
        request.headers_mut().insert("Authorization", value);
    }
    let uri = request.uri();
    if uri.scheme_str() != Some("ws") {
        return Err(Failure::Final(format!(
            "{url}: this build speaks plain ws:// only (put the server's http:// address)"
        )));
    }
    let host = uri.host().unwrap_or("localhost").to_owned();
    let port = uri.port_u16().unwrap_or(80);
    let addresses = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| Failure::Passing(format!("cannot find {host}: {e}")))?;
    let mut last = format!("{host} has no address");
    for address in addresses {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => {
                // The handshake may take as long as connecting; reading afterwards wakes
                // every POLL to send what the screen has queued.
                let timeouts = stream
                    .set_read_timeout(Some(CONNECT_TIMEOUT))
                    .and_then(|()| stream.set_write_timeout(Some(CONNECT_TIMEOUT)));
                timeouts.map_err(|e| Failure::Passing(e.to_string()))?;
                let _ = stream.set_nodelay(true);
                return match tungstenite::client(request, stream) {
                    Ok((socket, _)) => {
                        socket
                            .get_ref()
                            .set_read_timeout(Some(POLL))
                            .map_err(|e| Failure::Passing(e.to_string()))?;
                        Ok(socket)
                    }
                    Err(tungstenite::HandshakeError::Failure(e)) => Err(refusal(e)),
                    Err(tungstenite::HandshakeError::Interrupted(_)) => Err(Failure::Passing(
                        "the server did not answer the connection in time".into(),
                    )),
                };
            }
            Err(e) => last = format!("{address}: {e}"),
        }
    }
    Err(Failure::Passing(last))
}

/// What a failed handshake means: an HTTP refusal of the game or token is final, anything
/// else (a server starting, a proxy's 502) passes.
fn refusal(e: tungstenite::Error) -> Failure {
    match e {
        tungstenite::Error::Http(response) => {
            let status = response.status().as_u16();
            let body = response
                .body()
                .as_deref()
                .map(String::from_utf8_lossy)
                .unwrap_or_default()
                .into_owned();
            match super::api::checked(status, &body, true) {
                Err(e @ super::api::ApiError::BadToken) => Failure::Final(e.to_string()),
                Err(e) if matches!(status, 400 | 403 | 404) => Failure::Final(e.to_string()),
                Err(e) => Failure::Passing(e.to_string()),
                Ok(()) => Failure::Passing(format!("the server answered {status}")),
            }
        }
        e => Failure::Passing(e.to_string()),
    }
}

/// Carries text both ways until the connection is lost (`Some(why)`) or the handle is
/// dropped (`None`).
fn carry(
    socket: &mut WebSocket<TcpStream>,
    inbox: &Receiver<Command>,
    outbox: &Sender<LinkNews>,
) -> Option<String> {
    let mut heard = Instant::now();
    loop {
        loop {
            match inbox.try_recv() {
                Ok(Command::Send(text)) => {
                    if let Err(e) = socket.send(Message::text(text)) {
                        return Some(format!("sending failed: {e}"));
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return None,
            }
        }
        match socket.read() {
            Ok(Message::Text(text)) => {
                heard = Instant::now();
                if outbox
                    .send(LinkNews::Text(text.as_str().to_owned()))
                    .is_err()
                {
                    return None;
                }
            }
            Ok(Message::Close(frame)) => {
                let why = frame.map_or(String::new(), |f| format!(": {}", f.reason.as_str()));
                return Some(format!("the server closed the connection{why}"));
            }
            Ok(_) => heard = Instant::now(),
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                if heard.elapsed() > SILENCE {
                    return Some(format!(
                        "nothing heard from the server for {} s",
                        SILENCE.as_secs()
                    ));
                }
            }
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                return Some("the connection closed".into());
            }
            Err(e) => return Some(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_a_ceiling() {
        assert_eq!(backoff(1), Duration::from_millis(250));
        assert_eq!(backoff(2), Duration::from_millis(500));
        assert_eq!(backoff(4), Duration::from_secs(2));
        assert_eq!(backoff(6), MAX_WAIT);
        assert_eq!(backoff(u32::MAX), MAX_WAIT);
    }
}
