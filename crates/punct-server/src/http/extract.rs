//! What the handlers read from a request: a JSON body into its type, naming what is wrong
//! with it, and the seat token of `Authorization: Bearer …` (or, on a WebSocket's request,
//! of `?token=`).

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::error::ApiError;

/// Reads a JSON body, which must be an object (or empty, counting as `{}`), naming what is
/// wrong with it.
pub(super) fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body = body.trim_ascii();
    let body = if body.is_empty() { b"{}" } else { body };
    // serde would also read a struct from a JSON array of its fields, in order: `[]` would
    // pass for "no fields" and `["TE4:0"]` for a move.
    if !body.starts_with(b"{") {
        return Err(ApiError::bad_request(
            "bad JSON body: expected a JSON object `{…}`",
        ));
    }
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
}

/// The seat token from `Authorization: Bearer …` (the scheme's name in any case).
pub(super) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_owned())
}

/// The seat token a WebSocket's request names: its `Authorization` header's or, for old
/// clients, its `?token=`.
pub(super) struct SocketToken(pub Option<String>);

#[derive(Deserialize)]
struct SocketQuery {
    token: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for SocketToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<SocketToken, ApiError> {
        let Query(query) = Query::<SocketQuery>::try_from_uri(&parts.uri)
            .map_err(|e| ApiError::bad_request(format!("bad query: {e}")))?;
        Ok(SocketToken(bearer(&parts.headers).or(query.token)))
    }
}
