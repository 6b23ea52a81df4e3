//! The signed-in account's own routes (API.md, "Accounts"): who am I, the password, the
//! account's deletion ([`profile`]), its personal API tokens ([`tokens`]), the export of its
//! data ([`export`]) the games played here before signing in ([`claim`]) and the
//! site's settings kept with it ([`settings`]); whom it blocked ([`blocks`]); its turning
//! into a bot account ([`bot`]).

pub(super) mod blocks;
pub(super) mod bot;
pub(super) mod claim;
pub(super) mod export;
pub(super) mod profile;
pub(super) mod settings;
pub(super) mod tokens;

use axum::response::{IntoResponse, Response};

use super::auth::refusal::answer;
use crate::players::auth::AuthError;

/// A database error in an account route, as its answer.
fn failed(e: impl Into<AuthError>) -> Response {
    answer(e.into())
}

/// A refusal of the API as a response.
fn refused(e: super::error::ApiError) -> Response {
    e.into_response()
}
