//! An account flow's refusal as an HTTP answer (docs/players.md): 400 for a name or
//! password not allowed, 409 for a name taken, 401 for wrong credentials, 429 with
//! `Retry-After` while guessing is throttled, 403 for a closed account, 503 when too many
//! sign-ins wait, 500 (logged, with no secret in it) when the database or hashing failed.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;
use crate::players::auth::AuthError;

/// The answer for `error`.
pub fn answer(error: AuthError) -> Response {
    let status = match &error {
        AuthError::Username(_) | AuthError::Password(_) => StatusCode::BAD_REQUEST,
        AuthError::Taken(_) => StatusCode::CONFLICT,
        AuthError::Wrong | AuthError::WrongCode => StatusCode::UNAUTHORIZED,
        AuthError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
        AuthError::Closed => StatusCode::FORBIDDEN,
        AuthError::Busy => StatusCode::SERVICE_UNAVAILABLE,
        AuthError::Failed(why) => {
            tracing::error!("an account flow failed: {why}");
            StatusCode::INTERNAL_SERVER_ERROR
        }
    };
    let reason = match &error {
        AuthError::Failed(_) => {
            "internal error: the account could not be read or written".to_owned()
        }
        other => other.to_string(),
    };
    let mut response = ApiError::new(status, reason).into_response();
    if let AuthError::Throttled(wait) = error
        && let Ok(seconds) = HeaderValue::from_str(&wait.retry_after_s().to_string())
    {
        response.headers_mut().insert(header::RETRY_AFTER, seconds);
    }
    response
}
