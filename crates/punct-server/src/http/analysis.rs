//! The routes of a whole game's computer analysis (API.md, "A game's analysis"): ask for it,
//! see where it stands (the page asks again until it is done), and the record with the
//! evaluations as comments.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::error::ApiError;
use crate::analysis::{Analyses, Progress};
use crate::wire::analysis::GameAnalysisView;

/// `POST /api/games/{id}/analysis`: starts the analysis of a finished game (202) unless it
/// runs or is kept already (200), answering where it stands.
pub(super) async fn request(
    Extension(analyses): Extension<Analyses>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let before = analyses.progress(&id).await?;
    let progress = analyses.request(&id, client.ip()).await?;
    let started = matches!(before, Progress::None | Progress::Failed(_));
    let status = if started {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(GameAnalysisView::of(&progress))).into_response())
}

/// `GET /api/games/{id}/analysis`: where the game's analysis stands, and once done, all of it.
pub(super) async fn progress(
    Extension(analyses): Extension<Analyses>,
    Path(id): Path<String>,
) -> Result<Json<GameAnalysisView>, ApiError> {
    let progress = analyses.progress(&id).await?;
    Ok(Json(GameAnalysisView::of(&progress)))
}

/// `GET /api/games/{id}/analysis/record`: the game's record with its evaluations.
pub(super) async fn record(
    Extension(analyses): Extension<Analyses>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = analyses.record(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
