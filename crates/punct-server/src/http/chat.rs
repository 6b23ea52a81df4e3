//! A game's chat over HTTP (API.md, "Chat"): read what the asker may see, write a message
//! (what pages do over the game's WebSocket, for programs), and report a message to the
//! operator.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::auth::{Client, Viewer};
use super::error::ApiError;
use super::extract::{bearer, parse};
use crate::error::Error;
use crate::games::{Hub, Reader};
use crate::players::chat::{self, MAX_REASON_CHARS, Refusal};
use crate::wire::chat::{ChatPage, refusal_status};

fn storage(e: impl std::fmt::Display) -> ApiError {
    ApiError::from(Error::storage(e.to_string()))
}

/// `GET /api/games/{id}/chat`: the rooms the asker (their seat token or account) may read,
/// less the messages of those they blocked, and how many watch.
pub(super) async fn read(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewed = hub
        .state(&id, bearer(&headers).as_deref(), viewer.account())
        .await?;
    if let Some(account) = viewer.account()
        && hub.chat_off(account).await?
    {
        return Err(refusal_error(&Refusal::ChatOff));
    }
    let reader = Reader {
        account: viewer.account().cloned(),
        player: viewed.audience.holds_a_seat(),
    };
    let history = hub
        .chat_history(&id, &reader, viewed.snapshot.is_live())
        .await?;
    let watching = hub.watchers(&id).await?;
    Ok(Json(ChatPage::of(&history, watching)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Written {
    text: String,
}

/// The refusal of a message, with its code.
fn refusal_error(refusal: &Refusal) -> ApiError {
    let status = StatusCode::from_u16(refusal_status(refusal)).unwrap_or(StatusCode::BAD_REQUEST);
    ApiError {
        refusal: Some(Box::new(refusal.coded())),
        ..ApiError::new(status, refusal.to_string())
    }
}

/// A refusal of a message, with `Retry-After` when it is the rate limit's.
fn refusal_answer(refusal: &Refusal) -> Response {
    let mut answer = refusal_error(refusal).into_response();
    if let Refusal::TooFast { wait_ms } = refusal
        && let Ok(v) = HeaderValue::from_str(&((wait_ms + 999) / 1000).to_string())
    {
        answer.headers_mut().insert(header::RETRY_AFTER, v);
    }
    answer
}

/// `POST /api/games/{id}/chat` `{"text"}`: writes a message as the asker (their seat token
/// or account): 201 and its id.
pub(super) async fn write(
    State(hub): State<Hub>,
    viewer: Viewer,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let written: Written = parse(&body)?;
    let viewed = hub
        .state(&id, bearer(&headers).as_deref(), viewer.account())
        .await?;
    let answer = hub
        .write_chat(
            &id,
            viewed.audience,
            viewer.account(),
            client.address,
            &written.text,
        )
        .await?;
    Ok(match answer {
        Ok(message) => (
            StatusCode::CREATED,
            Json(serde_json::json!({ "id": message.id })),
        )
            .into_response(),
        Err(refusal) => refusal_answer(&refusal),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Reported {
    reason: String,
}

/// `POST /api/games/{id}/chat/{message}/report` `{"reason"}`: keeps a copy of the message
/// for the operator (`punct admin reports`): 201 and the report's id.
pub(super) async fn report(
    State(hub): State<Hub>,
    viewer: Viewer,
    Path((game, message)): Path<(String, String)>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let reporter = viewer.signed_in()?.clone();
    let reported: Reported = parse(&body)?;
    let reason = reported.reason.trim().to_owned();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(ApiError::bad_request(format!(
            "a report's reason is 1 to {MAX_REASON_CHARS} characters"
        )));
    }
    if reason.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "a report's reason may not hold control characters",
        ));
    }
    let now = hub.time().now_ms();
    let made = hub
        .database()
        .transact(move |db| {
            if chat::by_id(db, &game, &message)?.is_none() {
                return Ok(None);
            }
            chat::report(db, &reporter, &message, &reason, now)
        })
        .await
        .map_err(storage)?;
    let report = made.ok_or_else(|| ApiError::not_found("no such message in this game"))?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "report": report })),
    )
        .into_response())
}
