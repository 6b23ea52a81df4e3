//! A refusal as the client is told it (API.md, "Conventions"): `{"error", "status"}` in the
//! body of an HTTP answer and in a WebSocket `error` message, with the HTTP status of each
//! kind of the domain's errors decided here, once.

use std::borrow::Cow;

use serde::Serialize;

use crate::error::ErrorKind;

/// The body of a refusal.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody<'a> {
    /// What was wrong, for people.
    pub error: Cow<'a, str>,
    /// The HTTP status that fits the refusal.
    pub status: u16,
}

impl<'a> ErrorBody<'a> {
    /// The refusal with `status` and `reason`.
    pub fn new(status: u16, reason: impl Into<Cow<'a, str>>) -> ErrorBody<'a> {
        ErrorBody {
            error: reason.into(),
            status,
        }
    }
}

/// The HTTP status of each kind of domain error.
pub fn status_of(kind: ErrorKind) -> u16 {
    match kind {
        ErrorKind::BadRequest => 400,
        ErrorKind::Forbidden => 403,
        ErrorKind::NotFound => 404,
        ErrorKind::Conflict => 409,
        ErrorKind::Illegal => 422,
        ErrorKind::Busy | ErrorKind::Storage => 503,
        ErrorKind::Internal => 500,
    }
}
