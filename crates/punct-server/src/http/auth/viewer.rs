//! Who is asking: [`Viewer`], which every handler can take as an argument. The gate
//! ([`super::gate`]) decides it once per request, for every route, and puts it in the
//! request; a handler never reads a cookie or a token itself.

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::proxy::Client;
use crate::http::error::ApiError;
use crate::players::accounts::AccountId;
use crate::players::sessions::{self, Session};
use crate::players::tokens;
use crate::store::Store;

/// The request's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Nobody signed in (a seat token may still stand for a seat).
    Anonymous,
    /// A signed-in browser, by its session cookie (its CSRF token checked on every change).
    Session(Session),
    /// A program, by a personal API token (`Authorization: Bearer punct_…`).
    Token {
        /// The token's account.
        account: AccountId,
        /// The token's id, to ask again whether it is live.
        token: String,
    },
}

impl Viewer {
    /// The account asking, if any.
    pub fn account(&self) -> Option<&AccountId> {
        match self {
            Viewer::Anonymous => None,
            Viewer::Session(session) => Some(&session.account),
            Viewer::Token { account, .. } => Some(account),
        }
    }

    /// The session asking, if a browser is.
    pub fn session(&self) -> Option<&Session> {
        match self {
            Viewer::Session(session) => Some(session),
            _ => None,
        }
    }

    /// Whether the session or token this viewer came with still holds at `now_ms` (not
    /// signed out or revoked, its account open): a long request, such as an event stream,
    /// asks again now and then.
    pub async fn still_holds(&self, store: &Store, now_ms: i64) -> anyhow::Result<bool> {
        match self {
            Viewer::Anonymous => Ok(true),
            Viewer::Session(session) => {
                let hash = session.hash.clone();
                store
                    .query(move |db| sessions::is_live(db, &hash, now_ms))
                    .await
            }
            Viewer::Token { token, .. } => {
                let id = token.clone();
                store.query(move |db| tokens::is_live(db, &id)).await
            }
        }
    }

    /// The account asking, or 401 for nobody.
    pub fn signed_in(&self) -> Result<&AccountId, ApiError> {
        self.account()
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "sign in first"))
    }
}

/// What the gate left in the request, or 500 if a route escaped it (which the router's
/// layout prevents: the gate wraps every route).
fn left<T: Clone + Send + Sync + 'static>(parts: &Parts) -> Result<T, ApiError> {
    parts.extensions.get::<T>().cloned().ok_or_else(|| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the request did not pass the identity gate",
        )
    })
}

impl<S: Send + Sync> FromRequestParts<S> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Viewer, ApiError> {
        left(parts)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, ApiError> {
        left(parts)
    }
}
