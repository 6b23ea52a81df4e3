//! Request bodies are read whole before any handler runs, within a size and a time: a
//! client that sends its body a byte at a time holds its connection no longer than the
//! time allowed, and no handler waits on it.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;

/// How large a body may be and how long it may take to arrive (from [`crate::Config`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyLimits {
    pub(crate) max_bytes: usize,
    /// The limit of `POST /api/import`, which takes whole files and archives of games.
    pub(crate) max_import_bytes: usize,
    pub(crate) timeout: Duration,
}

/// The path whose bodies may be as large as [`BodyLimits::max_import_bytes`].
pub(crate) const IMPORT_PATH: &str = "/api/import";

/// The middleware: reads the body whole, or refuses with 413 (too large) or 408 (too slow).
pub(crate) async fn read_whole(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let max_bytes = if parts.uri.path() == IMPORT_PATH {
        limits.max_import_bytes
    } else {
        limits.max_bytes
    };
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a request body here may be at most {max_bytes} bytes"),
        )
        .into_response()
    };
    let announced = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|length| length > max_bytes as u64) {
        return too_large();
    }
    let read = tokio::time::timeout(limits.timeout, axum::body::to_bytes(body, max_bytes)).await;
    match read {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(e)) if is_length_limit(&e) => too_large(),
        Ok(Err(_)) => ApiError::bad_request("the request body could not be read").into_response(),
        Err(_) => {
            let mut refusal = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    limits.timeout.as_secs_f64()
                ),
            )
            .into_response();
            // The rest of the body may still be coming: the connection cannot be reused.
            refusal
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            refusal
        }
    }
}

/// Whether reading a body failed because it was over the limit (the limit's error comes
/// wrapped in axum's, once or twice).
fn is_length_limit(error: &axum::Error) -> bool {
    let mut source = std::error::Error::source(error);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}
