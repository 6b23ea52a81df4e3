//! What a connection is doing, for its timeouts: when it was last heard from or written
//! to, whether a request is being handled, and since when a request's head has been coming
//! in. The socket and the request handler stamp it; the watchdog of [`super::connection`]
//! reads it.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

/// Marks "no head is coming in".
const NONE: u64 = u64::MAX;

/// Timestamps (milliseconds since the connection was accepted) and the requests in hand.
pub(super) struct Activity {
    start: Instant,
    /// The last byte read or written, or the last request begun or finished.
    last: AtomicU64,
    /// The first byte of a request head not yet read whole, or [`NONE`].
    head_from: AtomicU64,
    in_flight: AtomicUsize,
}

impl Activity {
    /// A connection just accepted: the head of its first request is awaited from now.
    pub(super) fn new() -> Arc<Activity> {
        Arc::new(Activity {
            start: Instant::now(),
            last: AtomicU64::new(0),
            head_from: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
        })
    }

    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn read(&self) {
        let now = self.now();
        self.last.store(now, Ordering::Relaxed);
        // Bytes between requests are the start of the next one's head.
        if self.in_flight.load(Ordering::Relaxed) == 0 {
            let _ =
                self.head_from
                    .compare_exchange(NONE, now, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    fn wrote(&self) {
        self.last.store(self.now(), Ordering::Relaxed);
    }

    /// A request's head was read whole and its handler called; the request counts as in
    /// hand until the returned guard is dropped.
    pub(super) fn request(self: &Arc<Activity>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.head_from.store(NONE, Ordering::Relaxed);
        self.last.store(self.now(), Ordering::Relaxed);
        InFlight(self.clone())
    }

    /// Returns once the connection has outstayed a limit: a request head coming in for
    /// longer than `head`, or no request in hand and nothing read or written for `idle`.
    /// Requests in hand have no limit here (their handlers bound their own work).
    ///
    /// It looks again at least every `min(head, idle)`: a change of state sets a deadline
    /// at least that far off, so none is missed, though a deadline can move earlier (from
    /// a head's to an idle connection's).
    pub(super) async fn expired(&self, head: Duration, idle: Duration) {
        let (head, idle) = (head.as_millis() as u64, idle.as_millis() as u64);
        let step = head.min(idle).max(1);
        loop {
            let now = self.now();
            let deadline = if self.in_flight.load(Ordering::Relaxed) > 0 {
                None
            } else {
                match self.head_from.load(Ordering::Relaxed) {
                    NONE => Some(self.last.load(Ordering::Relaxed).saturating_add(idle)),
                    from => Some(from.saturating_add(head)),
                }
            };
            let wake = match deadline {
                Some(at) if at <= now => return,
                Some(at) => at.min(now + step),
                None => now + step,
            };
            tokio::time::sleep_until(self.start + Duration::from_millis(wake)).await;
        }
    }
}

/// A request in hand (see [`Activity::request`]).
pub(super) struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.0.wrote();
    }
}

/// A client's socket that stamps its [`Activity`] and holds the connection's place under
/// the cap for as long as it lives: past an upgrade too, when a WebSocket owns it.
pub(super) struct Tracked {
    pub(super) stream: TcpStream,
    pub(super) activity: Arc<Activity>,
    pub(super) _place: OwnedSemaphorePermit,
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.activity.read();
        }
        polled
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write(cx, buf);
        if let Poll::Ready(Ok(1..)) = polled {
            this.activity.wrote();
        }
        polled
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(1..)) = polled {
            this.activity.wrote();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
