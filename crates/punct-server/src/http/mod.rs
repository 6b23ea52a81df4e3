//! The HTTP layer: the routes of the whole server, the JSON endpoints (documented in
//! API.md), the accept loop with its limits, and what every request passes through on its
//! way in (bodies read whole, JSON only, rate limits) and out (errors as JSON, security
//! headers). It speaks HTTP for the games below it and knows no game rule.

mod account;
mod analysis;
mod assets;
pub mod auth;
mod catalogue;
mod chat;
pub mod error;
mod events;
mod extract;
mod games;
mod json_only;
pub(crate) mod listener;
mod lobby;
mod notifications;
pub mod ops;
mod pictures;
mod positions;
mod preview;
mod profiles;
pub mod rate_limit;
mod records;
mod request_body;
mod security_headers;

use axum::extract::DefaultBodyLimit;
use axum::handler::Handler as _;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, delete, get, post};
use axum::{Extension, Router};
use tower_http::compression::CompressionLayer;

use crate::Config;
use crate::games::Hub;
use crate::ops::time::TimeSource;
use crate::room::Action;
use crate::ws::WsLimits;
use error::ApiError;
use rate_limit::{Limiter, Rate};
use request_body::BodyLimits;

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
    let hub_store = hub.database().clone();
    let ws_limits = WsLimits {
        max_message: config.ws_max_message_bytes,
        hello_timeout: config.ws_hello_timeout,
        silence_timeout: config.ws_silence_timeout,
    };
    let routes = Router::new()
        .route("/api/rules", get(assets::rules))
        .route(
            "/api/games",
            limited(
                post(games::create),
                "new games",
                rates.map(|r| r.create),
                &time,
            )
            .get(games::list),
        )
        .route("/api/games/{id}", get(games::state))
        .route(
            "/api/games/{id}/join",
            limited(post(games::join), "joins", rates.map(|r| r.join), &time),
        )
        .route("/api/games/{id}/action", post(games::action))
        .route("/api/games/{id}/move", post(games::play))
        .route("/api/games/{id}/resign", games::plain(Action::Resign))
        .route("/api/games/{id}/draw", games::plain(Action::OfferDraw))
        .route(
            "/api/games/{id}/draw/decline",
            games::plain(Action::DeclineDraw),
        )
        .route("/api/games/{id}/takeback", games::plain(Action::Takeback))
        .route(
            "/api/games/{id}/takeback/decline",
            games::plain(Action::DeclineTakeback),
        )
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/replay", get(games::replay))
        .route(
            "/api/games/{id}/ws",
            get(games::socket).layer(Extension(ws_limits)),
        )
        // The longest answers the app fetches (a position's legal moves, its own files) are
        // gzipped: repetitive text that shrinks several times over.
        .route(
            "/api/legal",
            get(positions::legal).layer(CompressionLayer::new()),
        )
        .route(
            "/api/import",
            post(records::import).layer(Extension(records::Readers::new())),
        )
        .route("/api/record", post(records::record))
        .route(
            "/api/analyse",
            limited(
                post(positions::analyse),
                "analyses",
                rates.map(|r| r.analyse),
                &time,
            ),
        )
        .route(
            "/api/games/{id}/analysis",
            get(analysis::progress).post(analysis::request),
        )
        .route("/api/games/{id}/analysis/record", get(analysis::record))
        .route("/api/games/{id}/chat", get(chat::read).post(chat::write))
        .route("/api/games/{id}/chat/{message}/report", post(chat::report))
        .route("/g/{id}", get(pictures::game_page))
        .route("/g/{id}/image.png", get(pictures::game_png))
        .route("/g/{id}/game.gif", get(pictures::game_gif))
        .route("/image.png", get(pictures::position_png))
        .merge(ops::routes())
        .merge(account_routes())
        .merge(lobby_routes(rates.map(|r| r.create), &time, ws_limits))
        .fallback(not_found.layer(CompressionLayer::new()))
        .layer(Extension(crate::pictures::Painters::default()))
        .layer(Extension(crate::lobby::Lobby::start(hub.clone())))
        .layer(Extension(crate::analysis::Analyses::new(
            hub.clone(),
            config.engine_movetime,
        )))
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
    let gate = auth::Gate {
        auth: crate::players::auth::Auth::new(
            hub_store,
            crate::players::hashing::Hasher::for_this_machine(),
        ),
        time: time.clone(),
        trust_proxy: config.trust_proxy,
    };
    let router = Router::new()
        .fallback_service(routes)
        // Inside the others, so that it sees bodies already read and checked as JSON.
        .layer(from_fn_with_state(gate, auth::gate::gate))
        .layer(from_fn_with_state(body_limits, request_body::read_whole))
        .layer(from_fn(json_only::require_json))
        .layer(map_response(json_errors));
    security_headers::add(router)
}

/// The account routes (API.md, "Accounts").
fn account_routes() -> Router<Hub> {
    Router::new()
        .route(
            "/api/account",
            post(auth::routes::sign_up)
                .get(account::profile::me)
                .delete(account::profile::delete),
        )
        .route(
            "/api/session",
            post(auth::routes::sign_in).delete(auth::routes::sign_out),
        )
        .route("/api/account/recover", post(auth::routes::recover))
        .route(
            "/api/account/password",
            post(account::profile::change_password),
        )
        .route(
            "/api/account/tokens",
            post(account::tokens::create).get(account::tokens::list),
        )
        .route("/api/account/tokens/{id}", delete(account::tokens::revoke))
        .route("/api/account/export", get(account::export::export))
        .route("/api/account/claim", post(account::claim::claim))
        .route("/api/account/bot", post(account::bot::upgrade))
        .route(
            "/api/account/settings",
            get(account::settings::read).put(account::settings::write),
        )
        .route("/api/players", get(profiles::search))
        .route("/api/players/{name}", get(profiles::profile))
        .route("/api/players/{name}/history", get(profiles::history))
        .route("/api/players/{name}/games", get(profiles::games))
        .route("/api/leaderboard/{speed}", get(profiles::leaderboard))
        .route("/api/account/blocks", get(account::blocks::list))
        .route(
            "/api/account/blocks/{name}",
            post(account::blocks::block).delete(account::blocks::unblock),
        )
}

/// The lobby's routes (API.md, "Lobby" and "Notifications"): seeks and challenges are made
/// under the rate of new games, `rate`.
fn lobby_routes(rate: Option<Rate>, time: &TimeSource, ws_limits: WsLimits) -> Router<Hub> {
    Router::new()
        .route(
            "/api/seeks",
            limited(post(lobby::seek), "new seeks", rate, time).get(lobby::seeks),
        )
        .route("/api/seeks/{id}", delete(lobby::withdraw))
        .route("/api/seeks/{id}/accept", post(lobby::accept_seek))
        .route(
            "/api/challenges",
            limited(post(lobby::challenge), "new challenges", rate, time).get(lobby::challenges),
        )
        .route(
            "/api/challenges/{id}/{answer}",
            post(lobby::answer_challenge),
        )
        .route(
            "/api/pool/{slot}",
            post(lobby::join_pool).delete(lobby::leave_pool),
        )
        .route(
            "/api/lobby/ws",
            get(lobby::socket).layer(Extension(ws_limits)),
        )
        .route("/api/stream/events", get(events::events))
        .route("/api/notifications", get(notifications::list))
        .route("/api/notifications/read", post(notifications::read))
        .route("/api/account/your-turn", get(notifications::your_turn))
        .route("/api/users/{name}", get(profiles::profile))
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
