//! The gate every request passes (one layer around the whole router, so that no route can
//! forget it): it finds who is asking ([`Viewer`]) from an API token or the session cookie,
//! refuses cross-site changes ([`super::csrf`]), and clears the cookies of a session that has
//! ended.

use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::cookies;
use super::csrf;
use super::proxy::{self, Client};
use super::viewer::Viewer;
use crate::http::error::ApiError;
use crate::http::extract::bearer;
use crate::ops::time::TimeSource;
use crate::players::auth::Auth;
use crate::players::secrets::TOKEN_PREFIX;

/// What the gate needs: the account flows, the time, and whether to believe a proxy.
#[derive(Clone)]
pub struct Gate {
    /// The account flows (also handed to the account routes).
    pub auth: Auth,
    /// The server's time source.
    pub time: TimeSource,
    /// Whether `X-Forwarded-Proto` / `X-Forwarded-For` are believed ([`proxy`]).
    pub trust_proxy: bool,
}

fn forbidden(why: &str) -> Response {
    ApiError::new(StatusCode::FORBIDDEN, why).into_response()
}

/// The personal API token of `headers`, if their bearer token is one (seat tokens, the
/// other bearer tokens, are left to the game routes).
fn api_token(headers: &HeaderMap) -> Option<String> {
    bearer(headers).filter(|t| t.starts_with(TOKEN_PREFIX))
}

/// Who `parts` is from, or the refusal to answer instead; and whether its session cookie
/// named a session that has ended.
async fn identify(gate: &Gate, parts: &Parts) -> Result<(Viewer, bool), Response> {
    if let Some(why) = csrf::foreign(parts) {
        return Err(forbidden(why));
    }
    let now = gate.time.now_ms();
    let store_down = |e| {
        tracing::warn!("cannot read the request's credentials: {e}");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database does not answer: try again in a moment",
        )
        .into_response()
    };
    if let Some(token) = api_token(&parts.headers) {
        return match gate.auth.bearer(&token, now).await {
            Ok(Some((account, token))) => Ok((Viewer::Token { account, token }, false)),
            Ok(None) => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this API token is not valid: revoked, or its account closed",
            )
            .into_response()),
            Err(e) => Err(store_down(e)),
        };
    }
    let Some(cookie) = cookies::read(&parts.headers, cookies::SESSION) else {
        return Ok((Viewer::Anonymous, false));
    };
    match gate.auth.session(cookie, now).await {
        Ok(Some(session)) => match csrf::refusal(parts, &session) {
            Some(why) => Err(forbidden(why)),
            None => Ok((Viewer::Session(session), false)),
        },
        Ok(None) => Ok((Viewer::Anonymous, true)),
        // Reads go on as anybody's while the database is away (games answer from memory);
        // a change cannot be told apart from a forged one, so it waits.
        Err(_) if !csrf::is_unsafe(parts) => Ok((Viewer::Anonymous, false)),
        Err(e) => Err(store_down(e)),
    }
}

/// The middleware.
pub async fn gate(State(gate): State<Gate>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let (viewer, ended) = match identify(&gate, &parts).await {
        Ok(found) => found,
        Err(refusal) => return refusal,
    };
    let client: Client = proxy::of(&parts, gate.trust_proxy);
    parts.extensions.insert(viewer);
    parts.extensions.insert(client);
    parts.extensions.insert(gate.auth.clone());
    let mut response = next.run(Request::from_parts(parts, body)).await;
    if ended && !response.headers().contains_key(header::SET_COOKIE) {
        cookies::end(response.headers_mut(), client.https);
    }
    response
}
