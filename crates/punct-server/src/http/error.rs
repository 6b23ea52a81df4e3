//! The web layer's refusal: an HTTP status and a reason people can read. Domain errors
//! ([`crate::error::Error`]) become one here, with the status of their kind
//! ([`crate::wire::error::status_of`]).

use std::borrow::Cow;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::Error;
use crate::wire::error::{ErrorBody, Refusal, status_of};

/// A refused request, as the client is told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct ApiError {
    /// The HTTP status that fits the refusal.
    pub status: StatusCode,
    /// What was wrong, for people.
    pub reason: String,
    /// What kind of refusal it is, where the domain named it.
    pub refusal: Option<Box<Refusal>>,
}

impl ApiError {
    /// A refusal with `status` and `reason`.
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError {
            status,
            reason: reason.into(),
            refusal: None,
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

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        let status =
            StatusCode::from_u16(status_of(e.kind)).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError {
            refusal: e.refusal,
            ..ApiError::new(status, e.reason)
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status.as_u16();
        let body = match self.refusal {
            Some(refusal) => ErrorBody::refused(status, self.reason, Cow::Owned(*refusal)),
            None => ErrorBody::new(status, self.reason),
        };
        (self.status, Json(body)).into_response()
    }
}
