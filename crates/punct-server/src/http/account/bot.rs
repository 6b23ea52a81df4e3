//! `POST /api/account/bot`: the signed-in account becomes a bot account, played by a
//! program through the API (API.md, "Bots"). Refused once it has a game: a bot's games and
//! rating are a program's from the first.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::players::accounts::{self, NotBot};
use crate::wire::account::AccountView;

pub(in crate::http) async fn upgrade(
    State(hub): State<Hub>,
    viewer: Viewer,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let made = hub
        .database()
        .transact(move |db| {
            Ok(match accounts::make_bot(db, &account)? {
                Ok(()) => Ok(accounts::by_id(db, &account)?),
                Err(why) => Err(why),
            })
        })
        .await
        .map_err(failed)?;
    match made {
        Ok(Some(account)) => Ok(Json(AccountView::of(&account)).into_response()),
        Ok(None) | Err(NotBot::Closed) => Err(refused(ApiError::new(
            StatusCode::FORBIDDEN,
            NotBot::Closed.to_string(),
        ))),
        Err(why) => Err(refused(ApiError::new(
            StatusCode::CONFLICT,
            why.to_string(),
        ))),
    }
}
