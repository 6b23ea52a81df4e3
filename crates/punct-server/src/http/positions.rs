//! The endpoints about positions rather than games: whether moves are legal there, and the
//! engine's analysis.

use std::net::SocketAddr;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Query, State};
use axum::response::{IntoResponse, Response};
use punct_core::{Game, Position};
use serde::Deserialize;

use super::error::ApiError;
use super::extract::parse;
use crate::error::Error;
use crate::error::why::Why;
use crate::games::Hub;
use crate::wire::analysis::Analysis;
use crate::wire::error::Refusal;
use crate::wire::legal::{LegalMoves, MoveChecked};
use crate::wire::view::OutcomeView;

#[derive(Deserialize)]
pub(super) struct PositionQuery {
    position: Option<String>,
    #[serde(rename = "move")]
    mv: Option<String>,
}

/// The position `text` names, or the refusal that says what is wrong with it.
pub(super) fn position_of(text: Option<&str>) -> Result<Position, ApiError> {
    let text = text.ok_or_else(|| ApiError::bad_request("missing `position` (position text)"))?;
    Position::from_text(text.trim())
        .map_err(|e| ApiError::bad_request(format!("bad position text: {e}")))
}

/// The legal moves of a position or, with `move`, whether that move is legal and if not,
/// why (the reason people see when the board refuses an attempt). A legal move's answer
/// also has the position after it and the outcome it brings, so that a page can say whether
/// a move meets a lesson's goal without knowing the rules.
pub(super) async fn legal(Query(q): Query<PositionQuery>) -> Result<Response, ApiError> {
    let mut pos = position_of(q.position.as_deref())?;
    let Some(text) = q.mv else {
        let moves = LegalMoves {
            moves: pos.legal_move_texts(),
        };
        return Ok(Json(moves).into_response());
    };
    let mv = punct_core::Move::parse(text.trim())
        .map_err(|e| ApiError::bad_request(format!("bad move text `{text}`: {e}")))?;
    let checked = match pos.check(mv) {
        Ok(canonical) => {
            pos.make(canonical);
            MoveChecked::Legal {
                asked: text,
                legal: true,
                canonical: canonical.to_string(),
                position: pos.to_string(),
                outcome: pos.outcome().map(|o| OutcomeView::of(&o, &pos)),
            }
        }
        Err(reason) => MoveChecked::Refused {
            asked: text,
            legal: false,
            reason: reason.to_string(),
            why: Why::of(&reason, &pos),
        },
    };
    Ok(Json(checked).into_response())
}

/// Refuses (403) when one of `positions` occurs in a live game: the engine helps nobody
/// playing one (`games::fairness`, API.md "Fairness").
pub(super) async fn refuse_live(hub: &Hub, positions: &[Position]) -> Result<(), ApiError> {
    match hub.withheld(positions).await? {
        None => Ok(()),
        Some((i, _)) => Err(ApiError::from(Error::refused(Refusal::Withheld {
            position: (positions.len() > 1).then_some(i),
        }))),
    }
}

/// The body of the endpoints that take one text: `{"text"}` or `{"position"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TextRequest {
    pub(super) text: Option<String>,
    pub(super) position: Option<String>,
}

/// Analyses a position for the client at `client`: if it hangs up, this future is dropped
/// and the analysis with it.
pub(super) async fn analyse(
    State(hub): State<Hub>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Result<Json<Analysis>, ApiError> {
    let req: TextRequest = parse(&body)?;
    let pos = position_of(req.position.as_deref())?;
    refuse_live(&hub, std::slice::from_ref(&pos)).await?;
    let move_number = pos.move_number();
    let found = hub
        .engine()
        .analyse(Game::from_position(pos), client.ip())
        .await
        .map_err(ApiError::from)?;
    Ok(Json(Analysis::of(&found, move_number)))
}
