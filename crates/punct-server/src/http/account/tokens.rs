//! Personal API tokens: `POST /api/account/tokens` (made, shown once), `GET` (listed,
//! never shown again), `DELETE /api/account/tokens/{id}` (revoked).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::http::extract::parse;
use crate::players::tokens;
use crate::wire::account::{NewToken, TokenList, TokenMade, TokenView};

pub(in crate::http) async fn create(
    State(hub): State<Hub>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let req: NewToken = parse(&body).map_err(refused)?;
    let now = hub.time().now_ms();
    let name = req.name.trim().to_owned();
    let made = {
        let name = name.clone();
        hub.database()
            .transact(move |db| tokens::create(db, &account, &name, now))
            .await
            .map_err(failed)?
    };
    let (id, token) = made.map_err(|e| refused(ApiError::bad_request(e.to_string())))?;
    let body = TokenMade {
        id,
        name,
        token: token.expose().to_owned(),
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

pub(in crate::http) async fn list(
    State(hub): State<Hub>,
    viewer: Viewer,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let held = hub
        .database()
        .query(move |db| tokens::of_account(db, &account))
        .await
        .map_err(failed)?;
    let tokens = held.iter().map(TokenView::of).collect();
    Ok(Json(TokenList { tokens }).into_response())
}

pub(in crate::http) async fn revoke(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let gone = hub
        .database()
        .transact(move |db| tokens::revoke(db, &account, &id))
        .await
        .map_err(failed)?;
    if !gone {
        return Err(refused(ApiError::not_found("no such token of yours")));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
