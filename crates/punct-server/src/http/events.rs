//! `GET /api/stream/events`: the signed-in account's events as newline-delimited JSON
//! (API.md, "Bots"), one [`AccountEvent`] a line, and an empty line when nothing happened
//! for a while, so that the client knows the stream is alive and a client gone is noticed.
//!
//! [`AccountEvent`]: crate::wire::events::AccountEvent

use std::time::Duration;

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;

use super::auth::Viewer;
use super::error::ApiError;
use crate::lobby::Lobby;

/// The longest silence on the stream: well inside the server's idle timeout and a
/// client's or proxy's.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

pub(super) async fn events(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let account = viewer.signed_in()?.clone();
    let events = lobby.events(account);
    let lines = stream::unfold(events, |mut events| async move {
        let line = match tokio::time::timeout(KEEP_ALIVE, events.recv()).await {
            Ok(Some(event)) => {
                let mut line = serde_json::to_vec(&event).expect("an event is always JSON");
                line.push(b'\n');
                Bytes::from(line)
            }
            // The lobby is going: the stream ends, and the client connects again.
            Ok(None) => return None,
            Err(_) => Bytes::from_static(b"\n"),
        };
        Some((Ok::<_, std::convert::Infallible>(line), events))
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
