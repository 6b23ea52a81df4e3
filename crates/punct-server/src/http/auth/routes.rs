//! The routes that begin and end sessions (API.md, "Accounts"): sign up
//! (`POST /api/account`), sign in (`POST /api/session`), sign out (`DELETE /api/session`)
//! and recovery with a code (`POST /api/account/recover`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::cookies;
use super::proxy::Client;
use super::refusal::answer;
use super::viewer::Viewer;
use crate::games::Hub;
use crate::http::error::ApiError;
use crate::http::extract::parse;
use crate::players::accounts::AccountId;
use crate::players::auth::{Auth, AuthError};
use crate::players::sessions::NewSession;
use crate::wire::account::{AccountView, Credentials, Recovery, SignUp, SignedIn, SignedUp};

/// The view of account `id`, just signed in.
async fn view(auth: &Auth, id: &AccountId) -> Result<AccountView, Response> {
    match auth.account(id).await {
        Ok(Some(account)) => Ok(AccountView::of(&account)),
        Ok(None) => Err(answer(AuthError::Wrong)),
        Err(e) => Err(answer(e)),
    }
}

/// `body` with `status` and the cookies of `session`.
fn with_session(
    status: StatusCode,
    body: impl serde::Serialize,
    session: &NewSession,
    client: Client,
) -> Response {
    let mut response = (status, Json(body)).into_response();
    cookies::begin(response.headers_mut(), session, client.https);
    response
}

pub(in crate::http) async fn sign_up(
    State(hub): State<Hub>,
    Extension(auth): Extension<Auth>,
    client: Client,
    body: Bytes,
) -> Result<Response, Response> {
    let req: SignUp = parse(&body).map_err(IntoResponse::into_response)?;
    let made = auth
        .sign_up_as(&req.username, &req.password, req.bot, hub.time().now_ms())
        .await
        .map_err(answer)?;
    let body = SignedUp {
        account: view(&auth, &made.account).await?,
        csrf: made.session.csrf.expose().to_owned(),
        recovery_codes: made
            .recovery_codes
            .iter()
            .map(|c| c.expose().to_owned())
            .collect(),
    };
    Ok(with_session(
        StatusCode::CREATED,
        body,
        &made.session,
        client,
    ))
}

pub(in crate::http) async fn sign_in(
    State(hub): State<Hub>,
    Extension(auth): Extension<Auth>,
    client: Client,
    body: Bytes,
) -> Result<Response, Response> {
    let req: Credentials = parse(&body).map_err(IntoResponse::into_response)?;
    let now = hub.time().now_ms();
    let signed = auth
        .sign_in(&req.username, &req.password, client.address, now)
        .await
        .map_err(answer)?;
    signed_in(&auth, signed, client).await
}

pub(in crate::http) async fn sign_out(
    Extension(auth): Extension<Auth>,
    viewer: Viewer,
    client: Client,
    headers: axum::http::HeaderMap,
) -> Result<Response, Response> {
    if viewer.session().is_none() {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "not signed in").into_response());
    }
    if let Some(cookie) = cookies::read(&headers, cookies::SESSION) {
        auth.sign_out(cookie).await.map_err(answer)?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    cookies::end(response.headers_mut(), client.https);
    Ok(response)
}

pub(in crate::http) async fn recover(
    State(hub): State<Hub>,
    Extension(auth): Extension<Auth>,
    client: Client,
    body: Bytes,
) -> Result<Response, Response> {
    let req: Recovery = parse(&body).map_err(IntoResponse::into_response)?;
    let now = hub.time().now_ms();
    let signed = auth
        .recover(
            &req.username,
            &req.code,
            &req.new_password,
            client.address,
            now,
        )
        .await
        .map_err(answer)?;
    signed_in(&auth, signed, client).await
}

/// The answer to a sign-in or a recovery: the account and its CSRF token, the session's
/// cookies set.
async fn signed_in(
    auth: &Auth,
    signed: crate::players::auth::SignedIn,
    client: Client,
) -> Result<Response, Response> {
    let body = SignedIn {
        account: view(auth, &signed.account).await?,
        csrf: signed.session.csrf.expose().to_owned(),
    };
    Ok(with_session(StatusCode::OK, body, &signed.session, client))
}
