//! `GET /api/account` (who am I, with the session's CSRF token), `POST
//! /api/account/password` (change it: every other session ends) and `DELETE /api/account`
//! (its games stay, shown under "deleted").

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::{Client, Viewer, cookies};
use crate::http::extract::parse;
use crate::players::auth::Auth;
use crate::wire::account::{AccountView, Confirmation, Me, PasswordChange};

pub(in crate::http) async fn me(
    Extension(auth): Extension<Auth>,
    viewer: Viewer,
    client: Client,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let Some(id) = viewer.account() else {
        let nobody = Me {
            account: None,
            by: None,
            csrf: None,
        };
        return Ok(Json(nobody).into_response());
    };
    let account = auth.account(id).await.map_err(failed)?;
    let mut renewed = None;
    let csrf = match viewer.session() {
        None => None,
        Some(session) => match cookies::read(&headers, cookies::CSRF) {
            Some(kept) if session.csrf_matches(kept) => Some(kept.to_owned()),
            // The page lost its token (cookies cleared one by one): a new one.
            _ => {
                let csrf = auth.renew_csrf(session).await.map_err(failed)?;
                let token = csrf.expose().to_owned();
                renewed = Some(csrf);
                Some(token)
            }
        },
    };
    let me = Me {
        account: account.as_ref().map(AccountView::of),
        by: Some(if viewer.session().is_some() {
            "session"
        } else {
            "token"
        }),
        csrf,
    };
    let mut response = Json(me).into_response();
    if let Some(csrf) = renewed {
        let cookie = cookies::set(cookies::CSRF, csrf.expose(), false, client.https);
        response
            .headers_mut()
            .append(axum::http::header::SET_COOKIE, cookie);
    }
    Ok(response)
}

pub(in crate::http) async fn change_password(
    State(hub): State<Hub>,
    Extension(auth): Extension<Auth>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, Response> {
    let session = viewer.session().ok_or_else(|| {
        refused(crate::http::error::ApiError::new(
            StatusCode::UNAUTHORIZED,
            "sign in (with the browser, not a token) to change the password",
        ))
    })?;
    let req: PasswordChange = parse(&body).map_err(refused)?;
    auth.change_password(
        session,
        &req.password,
        &req.new_password,
        hub.time().now_ms(),
    )
    .await
    .map_err(failed)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(in crate::http) async fn delete(
    State(hub): State<Hub>,
    Extension(auth): Extension<Auth>,
    viewer: Viewer,
    client: Client,
    body: Bytes,
) -> Result<Response, Response> {
    let id = viewer.signed_in().map_err(refused)?;
    let req: Confirmation = parse(&body).map_err(refused)?;
    auth.delete_account(id, &req.password, hub.time().now_ms())
        .await
        .map_err(failed)?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    if viewer.session().is_some() {
        cookies::end(response.headers_mut(), client.https);
    }
    Ok(response)
}
