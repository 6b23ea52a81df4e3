//! `GET /api/account/export`: what the server keeps of the account, to take away: its
//! profile as JSON and its games as one record file (each game's record, as
//! `GET /api/games/{id}/record` gives it, one after another).

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::Viewer;
use crate::http::profiles::profile_of;
use crate::players::accounts;
use crate::players::games::{self as account_games, Filter};
use crate::wire::account::Export;

/// Games an export holds at most (the latest).
const MOST_GAMES: i64 = 5000;

pub(in crate::http) async fn export(
    State(hub): State<Hub>,
    viewer: Viewer,
) -> Result<Response, Response> {
    let id = viewer.signed_in().map_err(refused)?.clone();
    let (account, games) = hub
        .database()
        .query(move |db| {
            let account = accounts::by_id(db, &id)?;
            let games = account_games::of_account(db, &id, &Filter::default(), MOST_GAMES)?;
            Ok((account, games))
        })
        .await
        .map_err(failed)?;
    let account = account
        .ok_or_else(|| refused(crate::http::error::ApiError::not_found("no such account")))?;
    let profile = profile_of(&hub, &account).await?;
    let mut records = String::new();
    // Oldest first, as a record file reads.
    for game in games.iter().rev() {
        if let Ok(text) = hub.record(&game.game).await {
            records.push_str(text.trim_end());
            records.push_str("\n\n");
        }
    }
    let export = Export {
        profile,
        games: games.len(),
        records,
    };
    Ok(Json(export).into_response())
}
