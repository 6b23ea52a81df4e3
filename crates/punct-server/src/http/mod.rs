//! The HTTP layer: the routes of the whole server, the JSON endpoints (documented in
//! API.md), the accept loop with its limits, and what every request passes through on its
//! way in (bodies read whole, JSON only, rate limits) and out (errors as JSON, security
//! headers).

mod assets;
mod catalogue;
pub mod error;
mod json_only;
pub(crate) mod listener;
pub mod ops;
mod pictures;
mod preview;
pub mod rate_limit;
mod records;
mod request_body;
mod security_headers;

use std::net::SocketAddr;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::handler::Handler as _;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Json, Router};
use punct_core::{Game, Position};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tower_http::compression::CompressionLayer;

use crate::Config;
use crate::games::Hub;
use crate::http::error::ApiError;
use crate::ops::time::TimeSource;
use crate::room::new::NewGame;
use crate::room::{Action, OutcomeView, Request};
use crate::wire::analysis::Analysis;
use crate::ws::{self, WsLimits};
use rate_limit::{Limiter, Rate};
use request_body::BodyLimits;

type ApiResult = Result<Json<Value>, ApiError>;

/// `route` behind the rate limit of `rate` (named `what` in refusals), if there is one.
fn limited(
    route: MethodRouter<Hub>,
    what: &'static str,
    rate: Option<Rate>,
    time: &TimeSource,
) -> MethodRouter<Hub> {
    match rate {
        Some(rate) => route.route_layer(from_fn_with_state(
            Limiter::new(what, rate, time.clone()),
            rate_limit::limit,
        )),
        None => route,
    }
}

/// All routes: the browser app, the JSON API and the WebSocket, with the limits of
/// `config` and the security headers.
pub fn router(hub: Hub, config: &Config) -> Router {
    let rates = config.rate_limits;
    let time = hub.time().clone();
    let ws_limits = WsLimits {
        max_message: config.ws_max_message_bytes,
        hello_timeout: config.ws_hello_timeout,
        silence_timeout: config.ws_silence_timeout,
    };
    let routes = Router::new()
        .route("/api/rules", get(assets::rules))
        .route(
            "/api/games",
            limited(post(create), "new games", rates.map(|r| r.create), &time).get(list),
        )
        .route("/api/games/{id}", get(state))
        .route(
            "/api/games/{id}/join",
            limited(post(join), "joins", rates.map(|r| r.join), &time),
        )
        .route("/api/games/{id}/action", post(action))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/resign", plain(Action::Resign))
        .route("/api/games/{id}/draw", plain(Action::OfferDraw))
        .route("/api/games/{id}/draw/decline", plain(Action::DeclineDraw))
        .route("/api/games/{id}/takeback", plain(Action::Takeback))
        .route(
            "/api/games/{id}/takeback/decline",
            plain(Action::DeclineTakeback),
        )
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route(
            "/api/games/{id}/ws",
            get(ws::upgrade).layer(Extension(ws_limits)),
        )
        // The longest answers the app fetches (a position's legal moves, its own files) are
        // gzipped: repetitive text that shrinks several times over.
        .route("/api/legal", get(legal).layer(CompressionLayer::new()))
        .route(
            "/api/import",
            post(records::import).layer(Extension(records::Readers::new())),
        )
        .route("/api/record", post(records::record))
        .route(
            "/api/analyse",
            limited(post(analyse), "analyses", rates.map(|r| r.analyse), &time),
        )
        .route("/g/{id}", get(pictures::game_page))
        .route("/g/{id}/image.png", get(pictures::game_png))
        .route("/g/{id}/game.gif", get(pictures::game_gif))
        .route("/image.png", get(pictures::position_png))
        .merge(ops::routes())
        .fallback(not_found.layer(CompressionLayer::new()))
        .layer(Extension(crate::pictures::Painters::default()))
        // Bodies are read whole, and bounded, before the handlers (request_body.rs).
        .layer(DefaultBodyLimit::disable())
        .with_state(hub);
    // Wrapped whole rather than layered on each route, so that a refusal for a method the
    // path does not take already names the methods it does take (`Allow`) when it is
    // rewritten.
    let body_limits = BodyLimits {
        max_bytes: config.max_body_bytes,
        max_import_bytes: config.max_import_bytes,
        timeout: config.body_read_timeout,
    };
    let router = Router::new()
        .fallback_service(routes)
        .layer(from_fn_with_state(body_limits, request_body::read_whole))
        .layer(from_fn(json_only::require_json))
        .layer(map_response(json_errors));
    security_headers::add(router)
}

/// Gives every refusal the JSON body API.md promises, `{"error", "status"}`, including
/// those made before a handler runs (a method the path does not take, a body over the size
/// limit, a WebSocket request without the handshake), which come as plain text or empty.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // These bodies are one line written by axum; the limit only guards against surprises.
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let reason = match text.trim() {
        "" if status == StatusCode::METHOD_NOT_ALLOWED => {
            let allowed = parts
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("another method");
            format!("method not allowed here: use {allowed}")
        }
        "" => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
        reason => reason.to_owned(),
    };
    let error = ApiError::new(status, reason).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, error.into_body())
}

/// The app's files and pages (every `GET` outside `/api/`), else 404.
async fn not_found(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    assets::serve(&method, uri.path(), &headers)
        .unwrap_or_else(|| ApiError::not_found("no such page or endpoint").into_response())
}

/// Reads a JSON body, which must be an object (or empty, counting as `{}`), naming what is
/// wrong with it.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body = body.trim_ascii();
    let body = if body.is_empty() { b"{}" } else { body };
    // serde would also read a struct from a JSON array of its fields, in order: `[]` would
    // pass for "no fields" and `["TE4:0"]` for a move.
    if !body.starts_with(b"{") {
        return Err(ApiError::bad_request(
            "bad JSON body: expected a JSON object `{…}`",
        ));
    }
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
}

/// The seat token from `Authorization: Bearer …` (the scheme's name in any case).
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_owned())
}

/// The body of an action that takes no fields of its own: `{}`, nothing, or only the `seq`
/// of the state it was made on. Anything else is refused, so that a garbled request never
/// carries out the action.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeqOnly {
    seq: Option<u64>,
}

async fn create(State(hub): State<Hub>, body: Bytes) -> Result<Response, ApiError> {
    let req: NewGame = parse(&body)?;
    let grant = hub.create(req).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

async fn list(State(hub): State<Hub>) -> ApiResult {
    Ok(Json(hub.list().await?))
}

async fn state(State(hub): State<Hub>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    Ok(Json(hub.state(&id, bearer(&headers).as_deref()).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    name: Option<String>,
    invite: Option<String>,
    /// An id the client makes for this join, so that a repeat of it gets the same seat.
    request: Option<String>,
}

/// The longest id a client may give a request.
const MAX_REQUEST_ID: usize = 64;

async fn join(State(hub): State<Hub>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let req: JoinRequest = parse(&body)?;
    let name = req.name.as_deref().unwrap_or("");
    if let Some(request) = &req.request
        && (request.is_empty() || request.len() > MAX_REQUEST_ID)
    {
        return Err(ApiError::bad_request(format!(
            "`request` must be 1 to {MAX_REQUEST_ID} characters long"
        )));
    }
    let grant = hub
        .join(&id, name, req.invite.as_deref(), req.request.as_deref())
        .await?;
    Ok(Json(serde_json::to_value(grant).unwrap_or(Value::Null)))
}

/// A JSON body already written out.
fn raw_json(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn act(
    hub: &Hub,
    id: &str,
    headers: &HeaderMap,
    request: Request,
) -> Result<Response, ApiError> {
    let (_, state) = hub
        .act(id, bearer(headers).as_deref(), request, true)
        .await?;
    Ok(raw_json(state.unwrap_or_default()))
}

async fn action(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: Request = parse(&body)?;
    act(&hub, &id, &headers, request).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    seq: Option<u64>,
}

async fn play(
    State(hub): State<Hub>,
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
    act(&hub, &id, &headers, request).await
}

/// The route of an action without fields, at a path of its own: its body is `{}` or empty.
fn plain(action: Action) -> MethodRouter<Hub> {
    post(
        move |State(hub): State<Hub>, Path(id): Path<String>, headers: HeaderMap, body: Bytes| {
            let action = action.clone();
            async move {
                let SeqOnly { seq } = parse(&body)?;
                act(&hub, &id, &headers, Request { action, seq }).await
            }
        },
    )
}

async fn record(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = hub.record(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn replay(State(hub): State<Hub>, Path(id): Path<String>) -> ApiResult {
    Ok(Json(hub.replay(&id).await?))
}

#[derive(Deserialize)]
struct PositionQuery {
    position: Option<String>,
    #[serde(rename = "move")]
    mv: Option<String>,
}

fn position_of(text: Option<&str>) -> Result<Position, ApiError> {
    let text = text.ok_or_else(|| ApiError::bad_request("missing `position` (position text)"))?;
    Position::from_text(text.trim())
        .map_err(|e| ApiError::bad_request(format!("bad position text: {e}")))
}

/// The legal moves of a position or, with `move`, whether that move is legal and if not,
/// why (the reason people see when the board refuses an attempt). A legal move's answer
/// also has the position after it and the outcome it brings, so that a page can say whether
/// a move meets a lesson's goal without knowing the rules.
async fn legal(Query(q): Query<PositionQuery>) -> ApiResult {
    let mut pos = position_of(q.position.as_deref())?;
    let Some(text) = q.mv else {
        return Ok(Json(json!({ "moves": pos.legal_move_texts() })));
    };
    let mv = punct_core::Move::parse(text.trim())
        .map_err(|e| ApiError::bad_request(format!("bad move text `{text}`: {e}")))?;
    Ok(Json(match pos.check(mv) {
        Ok(canonical) => {
            pos.make(canonical);
            let outcome = pos.outcome().map(|o| OutcomeView::of(&o, &pos));
            json!({
                "move": text, "legal": true, "canonical": canonical.to_string(),
                "position": pos.to_string(), "outcome": outcome,
            })
        }
        Err(reason) => json!({
            "move": text, "legal": false, "reason": reason.to_string(),
            "why": crate::wire::refusal::details(&reason, &pos),
        }),
    }))
}

/// The body of the endpoints that take one text: `{"text"}` or `{"position"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextRequest {
    text: Option<String>,
    position: Option<String>,
}

/// Analyses a position for the client at `client`: if it hangs up, this future is dropped
/// and the analysis with it.
async fn analyse(
    State(hub): State<Hub>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Result<Json<Analysis>, ApiError> {
    let req: TextRequest = parse(&body)?;
    let pos = position_of(req.position.as_deref())?;
    let move_number = pos.move_number();
    let found = hub
        .engine()
        .analyse(Game::from_position(pos), client.ip())
        .await
        .map_err(ApiError::from)?;
    Ok(Json(Analysis::of(&found, move_number)))
}
