//! HTTP/1.1 written by hand on a raw TCP stream, so that the client can hang up at the
//! moment it chooses: part way through its request, right after sending all of it, or a
//! little later while the server works on it; with a FIN or with a reset (RST).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// How long a client waits to connect, and for a whole answer.
const CONNECT: Duration = Duration::from_secs(5);
const ANSWER: Duration = Duration::from_secs(30);

/// How a client closes a connection it gives up on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Close {
    /// An orderly close: the client's FIN.
    Fin,
    /// An abortive close: zero linger, so the kernel sends RST.
    Rst,
}

/// When a client hangs up.
#[derive(Clone, Copy, Debug)]
pub enum HangUp {
    /// After sending this fraction (0..1) of its request.
    Partial(f64),
    /// Right after sending all of its request.
    AfterSend,
    /// A while after sending all of it, without reading the answer.
    AfterDelay(Duration),
}

/// What became of a request.
#[derive(Debug)]
pub enum Reply {
    /// An answer: its status and body.
    Answer(u16, String),
    /// The client hung up as planned, not knowing the outcome.
    HungUp,
    /// No answer: the server could not be reached or the connection broke.
    Failed(String),
}

/// Closes `stream` as `close` says.
pub async fn hang_up(mut stream: TcpStream, close: Close) {
    match close {
        Close::Fin => {
            let _ = stream.shutdown().await;
        }
        Close::Rst => {
            // A zero linger makes close() send RST at once (it never blocks then).
            let _ = socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO));
        }
    }
    drop(stream);
}

/// Sends one request to `addr` and reads its answer, or hangs up as `plan` says.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
    plan: Option<(HangUp, Close)>,
) -> Reply {
    let mut stream = match tokio::time::timeout(CONNECT, TcpStream::connect(addr)).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Reply::Failed(format!("connect: {e}")),
        Err(_) => return Reply::Failed("connect timed out".into()),
    };
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        text.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    let body = body.unwrap_or("");
    if method == "POST" {
        text.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    text.push_str("\r\n");
    text.push_str(body);
    let bytes = text.as_bytes();
    let sent = match plan {
        Some((HangUp::Partial(fraction), _)) => {
            let cut = ((bytes.len() as f64 * fraction) as usize).clamp(1, bytes.len() - 1);
            stream.write_all(&bytes[..cut]).await
        }
        _ => stream.write_all(bytes).await,
    };
    if let Err(e) = sent {
        return Reply::Failed(format!("send: {e}"));
    }
    if let Some((when, close)) = plan {
        if let HangUp::AfterDelay(d) = when {
            tokio::time::sleep(d).await;
        }
        hang_up(stream, close).await;
        return Reply::HungUp;
    }
    let mut raw = Vec::new();
    match tokio::time::timeout(ANSWER, stream.read_to_end(&mut raw)).await {
        Ok(Ok(_)) => parse(&raw).map_or_else(Reply::Failed, |(s, b)| Reply::Answer(s, b)),
        Ok(Err(e)) => Reply::Failed(format!("read: {e}")),
        Err(_) => Reply::Failed("no answer within 30 s".into()),
    }
}

/// The status and body of a whole answer (`Connection: close`, so it ends at EOF).
fn parse(raw: &[u8]) -> Result<(u16, String), String> {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("a cut answer ({} bytes)", raw.len()))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in `{head}`"))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_owned()
    };
    Ok((status, body))
}

/// The body of a chunked answer.
fn dechunk(mut rest: &str) -> Result<String, String> {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").ok_or("a cut chunk")?;
        let size = usize::from_str_radix(size.trim(), 16).map_err(|e| format!("chunk: {e}"))?;
        if size == 0 {
            return Ok(body);
        }
        body.push_str(after.get(..size).ok_or("a cut chunk")?);
        rest = after.get(size + 2..).ok_or("a cut chunk")?;
    }
}
