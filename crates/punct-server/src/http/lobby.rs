//! The lobby's endpoints (API.md, "Lobby"): seeks, challenges, quick-pairing pools and the
//! lobby's WebSocket. Every change needs a signed-in account (a session, with its CSRF
//! token, or an API token); the lobby ([`crate::lobby`]) does the rest.

use axum::body::Bytes;
use axum::extract::{Path, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::auth::Viewer;
use super::error::ApiError;
use super::extract::parse;
use crate::lobby::Lobby;
use crate::wire::lobby::{ChallengeRequest, SeekList, SeekRequest};
use crate::ws::WsLimits;

pub(super) async fn seeks(Extension(lobby): Extension<Lobby>) -> Result<Response, ApiError> {
    let seeks = lobby.seeks().await?;
    Ok(Json(SeekList { seeks }).into_response())
}

pub(super) async fn seek(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let account = viewer.signed_in()?;
    let req: SeekRequest = parse(&body)?;
    let made = lobby.seek(account, &req).await?;
    Ok((StatusCode::CREATED, Json(made)).into_response())
}

pub(super) async fn withdraw(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    lobby.withdraw(viewer.signed_in()?, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(super) async fn accept_seek(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let account = viewer.signed_in()?;
    let _: serde_json::Map<String, serde_json::Value> = parse(&body)?;
    Ok(Json(lobby.accept_seek(account, &id).await?).into_response())
}

pub(super) async fn challenge(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let account = viewer.signed_in()?;
    let req: ChallengeRequest = parse(&body)?;
    let made = lobby.challenge(account, &req).await?;
    Ok((StatusCode::CREATED, Json(made)).into_response())
}

pub(super) async fn challenges(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    Ok(Json(lobby.challenges(viewer.signed_in()?).await?).into_response())
}

pub(super) async fn answer_challenge(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let account = viewer.signed_in()?;
    match answer.as_str() {
        "accept" => Ok(Json(lobby.accept_challenge(account, &id).await?).into_response()),
        "decline" | "cancel" => {
            lobby.close_challenge(account, &id).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        other => Err(ApiError::not_found(format!(
            "no answer `{other}` to a challenge: accept, decline or cancel"
        ))),
    }
}

pub(super) async fn join_pool(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    Path(slot): Path<String>,
) -> Result<Response, ApiError> {
    Ok(Json(lobby.join_pool(viewer.signed_in()?, &slot).await?).into_response())
}

pub(super) async fn leave_pool(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
    Path(slot): Path<String>,
) -> Result<Response, ApiError> {
    lobby.leave_pool(viewer.signed_in()?, &slot).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(super) async fn socket(
    Extension(lobby): Extension<Lobby>,
    Extension(limits): Extension<WsLimits>,
    viewer: Viewer,
    ws: WebSocketUpgrade,
) -> Response {
    crate::ws::lobby::upgrade(ws, lobby, viewer.account().cloned(), limits)
}
