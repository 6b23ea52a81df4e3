//! The server's accept loop, in place of `axum::serve`, for the limits a stranger must not
//! get past: a cap on open connections (past it a new one is answered 503 once its request
//! is read, and closed, rather than left hanging), a time limit for a request's head and for an idle
//! keep-alive connection ([`connection`]), and a bound on the head's size. hyper's own
//! `header_read_timeout` starts when it waits for a request, idle or not, so it cannot tell
//! a slow head from an idle keep-alive: both are timed here, from what the socket does.

mod activity;
mod connection;

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::Config;
use crate::wire::error::ErrorBody;

/// Refusals being written at once; connections past these are closed without a word.
const REFUSALS_AT_ONCE: usize = 32;
/// How long a refused connection is kept after the refusal, to read what else the client
/// sends: closing it with that unread would reset the connection, and the client could
/// lose the refusal.
const REFUSAL_LINGER: Duration = Duration::from_secs(1);
/// Descriptors kept for everything but client connections: the database, the listener,
/// refusals, logs.
const DESCRIPTORS_KEPT: usize = 128;
/// The wait before accepting again after an error such as a full descriptor table.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// The limits of each connection, from [`Config`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConnectionLimits {
    max_connections: usize,
    header_read_timeout: Duration,
    idle_timeout: Duration,
    max_header_bytes: usize,
}

impl ConnectionLimits {
    pub(crate) fn of(config: &Config) -> ConnectionLimits {
        ConnectionLimits {
            max_connections: config.max_connections.max(1),
            header_read_timeout: config.header_read_timeout,
            idle_timeout: config.idle_timeout,
            max_header_bytes: config.max_header_bytes,
        }
    }
}

/// Accepts connections on `listener` and serves `router` on each, forever.
pub(crate) async fn serve(listener: TcpListener, router: Router, limits: ConnectionLimits) {
    let limits = ConnectionLimits {
        max_connections: within_descriptor_limit(limits.max_connections),
        ..limits
    };
    let places = Arc::new(Semaphore::new(limits.max_connections));
    let refusals = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let full = AtomicBool::new(false);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                tracing::error!("cannot accept a connection: {e}");
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        // Moves are small messages sent one at a time: without TCP_NODELAY, Nagle's
        // algorithm holds a move back until the previous message on that socket is
        // acknowledged, which a watcher's delayed acknowledgement can put off for tens of
        // milliseconds.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
        match places.clone().try_acquire_owned() {
            Ok(place) => {
                full.store(false, Ordering::Relaxed);
                tokio::spawn(connection::serve(
                    stream,
                    peer,
                    router.clone(),
                    limits,
                    place,
                ));
            }
            Err(_) => {
                if !full.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "{} connections open, the limit: refusing new ones",
                        limits.max_connections
                    );
                }
                if let Ok(slot) = refusals.clone().try_acquire_owned() {
                    tokio::spawn(refuse(stream, limits, slot));
                }
            }
        }
    }
}

/// Errors of one connection that came and went before it was accepted.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Answers a connection past the cap with 503 and a JSON reason, then closes it. The answer
/// follows the request's head: a client takes an answer that comes before its request for
/// a broken connection, and a connection closed with its request unread is reset, the
/// answer lost. So the head is waited for as long as a head may take (a client that sends
/// none by then is answered all the same), and what comes after the answer is read and
/// dropped for a moment, so that the connection closes cleanly.
async fn refuse(mut stream: TcpStream, limits: ConnectionLimits, _slot: OwnedSemaphorePermit) {
    let reason = format!(
        "the server has {} connections open, its limit; try again shortly",
        limits.max_connections
    );
    let body = serde_json::to_string(&ErrorBody::new(503, reason)).unwrap_or_default();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let head = read_head(&mut stream, limits.max_header_bytes);
    let _ = tokio::time::timeout(limits.header_read_timeout, head).await;
    let answer = async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, io::Error>(())
    };
    let _ = tokio::time::timeout(REFUSAL_LINGER, answer).await;
}

/// Reads `stream` up to the end of a request's head (an empty line), the end of the
/// stream, or `max` bytes.
async fn read_head(stream: &mut TcpStream, max: usize) -> io::Result<()> {
    let mut buf = [0; 1024];
    let mut last = [0; 4];
    let mut read = 0;
    while read < max {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        read += n;
        for &byte in &buf[..n] {
            last = [last[1], last[2], last[3], byte];
            if last == *b"\r\n\r\n" {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Raises the soft limit on open descriptors to the hard one, and returns `wanted` or, if
/// the limit cannot hold that many connections, as many as it can (saying so): past the
/// descriptor limit, new clients would hang unanswered rather than be refused.
fn within_descriptor_limit(wanted: usize) -> usize {
    let limit = raise_descriptor_limit();
    let fits = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .saturating_sub(DESCRIPTORS_KEPT)
        .max(1);
    if wanted > fits {
        tracing::warn!(
            "the limit on open files ({limit}) holds {fits} connections, not the {wanted} \
             configured: connections are capped at {fits}"
        );
        return fits;
    }
    wanted
}

/// The soft limit on open descriptors after raising it to the hard limit where allowed.
fn raise_descriptor_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return u64::MAX;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    limit.rlim_cur
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_descriptor_limit_is_raised_to_the_hard_one_and_the_cap_fits_under_it() {
        let limit = raise_descriptor_limit();
        let mut now = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct passed.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) }, 0);
        assert_eq!((now.rlim_cur, now.rlim_max), (limit, limit));
        let fits = usize::try_from(limit).unwrap_or(usize::MAX) - DESCRIPTORS_KEPT;
        assert_eq!(within_descriptor_limit(usize::MAX), fits);
        assert_eq!(within_descriptor_limit(10), 10);
    }
}
