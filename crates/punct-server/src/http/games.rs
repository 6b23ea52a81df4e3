//! The game endpoints (API.md, "Endpoints"): create, list, read, join and act in games,
//! their records and replays, and the upgrade to a game's WebSocket.

use axum::body::Bytes;
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use axum::{Extension, Json};
use serde::Deserialize;

use super::auth::Viewer;
use super::error::ApiError;
use super::extract::{SocketToken, bearer, parse};
use crate::games::{Hub, Viewed};
use crate::players::accounts;
use crate::room::new::{Creator, NewGame};
use crate::room::{Action, Request};
use crate::wire::list::GameList;
use crate::wire::replay::Replay;
use crate::wire::seat::SeatGrant;
use crate::wire::view::GameState;
use crate::ws::{self, WsLimits};

/// `viewed` as the answer's body.
fn state_answer(viewed: &Viewed) -> Response {
    Json(GameState::of(&viewed.snapshot, viewed.audience, viewed.now)).into_response()
}

/// The signed-in player asking, with their account's name, if anyone is signed in.
pub(super) async fn creator(hub: &Hub, viewer: &Viewer) -> Result<Option<Creator>, ApiError> {
    let Some(account) = viewer.account().cloned() else {
        return Ok(None);
    };
    let id = account.clone();
    let found = hub
        .database()
        .query(move |db| accounts::by_id(db, &id))
        .await
        .map_err(|e| ApiError::from(crate::error::Error::storage(e.to_string())))?;
    let name = found
        .filter(accounts::Account::is_open)
        .map(|a| a.shown_name().to_owned())
        .ok_or_else(|| ApiError::bad_request("this account is closed"))?;
    Ok(Some(Creator { account, name }))
}

pub(super) async fn create(
    State(hub): State<Hub>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: NewGame = parse(&body)?;
    let creator = creator(&hub, &viewer).await?;
    let seated = hub.create(req, creator).await?;
    Ok((StatusCode::CREATED, Json(SeatGrant::of(&seated))).into_response())
}

pub(super) async fn list(State(hub): State<Hub>) -> Result<Response, ApiError> {
    let games = hub.list().await?;
    Ok(Json(GameList::of(&games)).into_response())
}

pub(super) async fn state(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewed = hub
        .state(&id, bearer(&headers).as_deref(), viewer.account())
        .await?;
    Ok(state_answer(&viewed))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinRequest {
    name: Option<String>,
    invite: Option<String>,
    /// An id the client makes for this join, so that a repeat of it gets the same seat.
    request: Option<String>,
}

/// The longest id a client may give a request.
const MAX_REQUEST_ID: usize = 64;

pub(super) async fn join(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: JoinRequest = parse(&body)?;
    let player = creator(&hub, &viewer).await?;
    let name = match &player {
        Some(p) => p.name.as_str(),
        None => req.name.as_deref().unwrap_or(""),
    };
    if let Some(request) = &req.request
        && (request.is_empty() || request.len() > MAX_REQUEST_ID)
    {
        return Err(ApiError::bad_request(format!(
            "`request` must be 1 to {MAX_REQUEST_ID} characters long"
        )));
    }
    let seated = hub
        .join(
            &id,
            name,
            player.as_ref().map(|p| p.account.clone()),
            req.invite.as_deref(),
            req.request.as_deref(),
        )
        .await?;
    Ok(Json(SeatGrant::of(&seated)).into_response())
}

/// Carries out `request` for the bearer of the request's token: the answer is the state.
async fn act(
    hub: &Hub,
    id: &str,
    viewer: &Viewer,
    headers: &HeaderMap,
    request: Request,
) -> Result<Response, ApiError> {
    let acted = hub
        .act(
            id,
            bearer(headers).as_deref(),
            viewer.account(),
            request,
            true,
        )
        .await?;
    let viewed = acted.state.ok_or_else(|| {
        ApiError::from(crate::error::Error::internal("an action without its state"))
    })?;
    Ok(state_answer(&viewed))
}

pub(super) async fn action(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: Request = parse(&body)?;
    act(&hub, &id, &viewer, &headers, request).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    seq: Option<u64>,
}

pub(super) async fn play(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: MoveRequest = parse(&body)?;
    let action = Action::Move { text: req.text };
    let request = Request {
        action,
        seq: req.seq,
    };
    act(&hub, &id, &viewer, &headers, request).await
}

/// The body of an action that takes no fields of its own: `{}`, nothing, or only the `seq`
/// of the state it was made on. Anything else is refused, so that a garbled request never
/// carries out the action.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeqOnly {
    seq: Option<u64>,
}

/// The route of an action without fields, at a path of its own: its body is `{}` or empty.
pub(super) fn plain(action: Action) -> MethodRouter<Hub> {
    post(
        move |State(hub): State<Hub>,
              viewer: Viewer,
              Path(id): Path<String>,
              headers: HeaderMap,
              body: Bytes| {
            let action = action.clone();
            async move {
                let SeqOnly { seq } = parse(&body)?;
                act(&hub, &id, &viewer, &headers, Request { action, seq }).await
            }
        },
    )
}

pub(super) async fn record(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = hub.record(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

pub(super) async fn replay(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = hub.game(&id).await?;
    Ok(Json(Replay::of(&game)).into_response())
}

/// The upgrade to game `id`'s WebSocket, for the token of the request's `Authorization`
/// header or (for old clients) its `?token=`.
pub(super) async fn socket(
    State(hub): State<Hub>,
    viewer: Viewer,
    client: super::auth::Client,
    Path(id): Path<String>,
    SocketToken(token): SocketToken,
    Extension(limits): Extension<WsLimits>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Refuse unknown games before upgrading, with a proper HTTP status.
    hub.room(&id).await.map_err(ApiError::from)?;
    let account = viewer.account().cloned();
    Ok(ws::upgrade(
        upgrade,
        hub,
        id,
        token,
        account,
        client.address,
        limits,
    ))
}
