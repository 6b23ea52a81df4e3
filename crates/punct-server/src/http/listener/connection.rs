//! One client connection: HTTP/1.1 served by hyper (upgrades to WebSocket included), the
//! client's address handed to the handlers, and cut off when it outstays its timeouts.

use std::net::SocketAddr;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tower::Service;

use super::ConnectionLimits;
use super::activity::{Activity, Tracked};

/// Serves `stream` until the client is done with it, it outstays a timeout, or it is
/// upgraded (the WebSocket then owns the socket, and `place` with it).
pub(super) async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: ConnectionLimits,
    place: OwnedSemaphorePermit,
) {
    let activity = Activity::new();
    let io = TokioIo::new(Tracked {
        stream,
        activity: activity.clone(),
        _place: place,
    });
    let requests = activity.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let in_flight = requests.request();
        let response = router.clone().call(request);
        async move {
            let response = response.await;
            drop(in_flight);
            response
        }
    });
    let connection = http1::Builder::new()
        .max_header_size(limits.max_header_bytes)
        .serve_connection(io, service)
        .with_upgrades();
    // Dropping the connection closes it: it is either idle or still reading a request's
    // head, so no answer is cut short.
    tokio::select! {
        served = connection => {
            if let Err(e) = served {
                tracing::debug!("connection from {peer}: {e}");
            }
        }
        () = activity.expired(limits.header_read_timeout, limits.idle_timeout) => {
            tracing::debug!("connection from {peer} closed: timed out");
        }
    }
}
