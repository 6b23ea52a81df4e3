//! `GET /api/stream/events`: the signed-in account's events as newline-delimited JSON
//! (API.md, "Bots"), one [`AccountEvent`] a line, and an empty line when nothing happened
//! for a while, so that the client knows the stream is alive and a client gone is noticed;
//! it ends once its session or token no longer holds.

use std::time::{Duration, Instant};

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;

use super::auth::Viewer;
use super::error::ApiError;
use crate::games::Hub;
use crate::lobby::Lobby;
use crate::wire::events::AccountEvent;

/// A stream's state: its events, and who it is for, asked again now and then.
struct Watch {
    events: tokio::sync::mpsc::Receiver<AccountEvent>,
    hub: Hub,
    viewer: Viewer,
    /// When the viewer's session or token was last found live.
    checked: Instant,
}

impl Watch {
    /// Whether the stream's session or token still holds, asked at most every
    /// [`KEEP_ALIVE`]: revoked or signed out, the stream ends, and the client's next
    /// request is refused (401). A database that does not answer ends nothing.
    async fn still_signed_in(&mut self) -> bool {
        if self.checked.elapsed() < KEEP_ALIVE {
            return true;
        }
        self.checked = Instant::now();
        let now = self.hub.time().now_ms();
        match self.viewer.still_holds(self.hub.database(), now).await {
            Ok(holds) => holds,
            Err(e) => {
                tracing::warn!("cannot check an event stream's credentials: {e}");
                true
            }
        }
    }
}

/// The longest silence on the stream: well inside the server's idle timeout and a
/// client's or proxy's.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

pub(super) async fn events(
    State(hub): State<Hub>,
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let account = viewer.signed_in()?.clone();
    let watch = Watch {
        events: lobby.events(account),
        hub,
        viewer,
        checked: Instant::now(),
    };
    let lines = stream::unfold(watch, |mut watch| async move {
        let line = match tokio::time::timeout(KEEP_ALIVE, watch.events.recv()).await {
            Ok(Some(event)) => {
                let mut line = serde_json::to_vec(&event).expect("an event is always JSON");
                line.push(b'\n');
                Bytes::from(line)
            }
            // The lobby is going: the stream ends, and the client connects again.
            Ok(None) => return None,
            Err(_) => Bytes::from_static(b"\n"),
        };
        if !watch.still_signed_in().await {
            return None;
        }
        Some((Ok::<_, std::convert::Infallible>(line), watch))
    });
    let mut response = Body::from_stream(lines).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
