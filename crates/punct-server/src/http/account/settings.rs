//! `GET /api/account/settings` and `PUT /api/account/settings`: the site's settings kept
//! with the account (the board, the pieces, the theme).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::http::extract::parse;
use crate::players::settings::{self, Settings};

pub(in crate::http) async fn read(
    State(hub): State<Hub>,
    viewer: Viewer,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let kept = hub
        .database()
        .query(move |db| settings::of(db, &account))
        .await
        .map_err(failed)?;
    Ok(Json(kept).into_response())
}

pub(in crate::http) async fn write(
    State(hub): State<Hub>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let chosen: Settings = parse(&body).map_err(refused)?;
    chosen
        .check()
        .map_err(|e| refused(ApiError::bad_request(e.to_string())))?;
    let now = hub.time().now_ms();
    hub.database()
        .transact(move |db| settings::store(db, &account, &chosen, now))
        .await
        .map_err(failed)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
