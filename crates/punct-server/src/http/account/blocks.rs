//! `POST /api/account/blocks/{name}`, `DELETE /api/account/blocks/{name}` and
//! `GET /api/account/blocks`: whom the signed-in account blocked. A block hides the blocked
//! one's chat messages from the blocker and stops their challenges; every server's sockets
//! of the blocker take it at once.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::players::{accounts, blocks};
use crate::wire::chat::Blocked;

/// The open account named `name`, or 404.
async fn named(hub: &Hub, name: &str) -> Result<accounts::AccountId, Response> {
    let key = name.to_owned();
    let found = hub
        .database()
        .query(move |db| accounts::by_name(db, &key))
        .await
        .map_err(failed)?;
    found
        .filter(|a| a.deleted_ms.is_none())
        .map(|a| a.id)
        .ok_or_else(|| refused(ApiError::not_found(format!("no player named {name:?}"))))
}

pub(in crate::http) async fn block(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let whom = named(&hub, &name).await?;
    if whom == account {
        return Err(refused(ApiError::bad_request("you cannot block yourself")));
    }
    let now = hub.time().now_ms();
    let by = account.clone();
    hub.database()
        .transact(move |db| blocks::block(db, &by, &whom, now))
        .await
        .map_err(failed)?;
    hub.blocks_changed(&account).await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(in crate::http) async fn unblock(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let whom = named(&hub, &name).await?;
    let by = account.clone();
    hub.database()
        .transact(move |db| blocks::unblock(db, &by, &whom))
        .await
        .map_err(failed)?;
    hub.blocks_changed(&account).await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(in crate::http) async fn list(
    State(hub): State<Hub>,
    viewer: Viewer,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let blocked = hub
        .database()
        .query(move |db| blocks::blocked_names(db, &account))
        .await
        .map_err(failed)?;
    Ok(Json(Blocked { blocked }).into_response())
}
