//! The web layer's refusal: an HTTP status and a reason people can read. Domain errors
//! ([`crate::error::Error`]) become one here, each kind mapped to its status in one place.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::{Error, ErrorKind};

/// A refused request, as the client is told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct ApiError {
    /// The HTTP status that fits the refusal.
    pub status: StatusCode,
    /// What was wrong, for people.
    pub reason: String,
}

impl ApiError {
    /// A refusal with `status` and `reason`.
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError {
            status,
            reason: reason.into(),
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, reason)
    }

    /// 404: no such game.
    pub fn not_found(reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, reason)
    }
}

/// The status of each kind of domain error: the one place where the domain meets HTTP.
pub fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::Illegal => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::Busy | ErrorKind::Storage => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::new(status_of(e.kind), e.reason)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.reason, "status": self.status.as_u16() });
        (self.status, Json(body)).into_response()
    }
}
