//! An account's notifications and turns (API.md, "Notifications"): `GET /api/notifications`
//! (the newest, with the count unread), `POST /api/notifications/read` (all read), and
//! `GET /api/account/your-turn` (the live games where it is the caller's move, the nearest
//! deadline first).

use std::collections::HashMap;

use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::auth::Viewer;
use super::error::ApiError;
use crate::error::Error;
use crate::lobby::Lobby;
use crate::players::lobby_notice::LobbyNotice;
use crate::players::{accounts, games, notifications};
use crate::store::notify::Channel;
use crate::wire::lobby::{Marked, NotificationList, NotificationView, YourTurn, YourTurnGame};
use crate::wire::profile::GameEntry;

/// Notifications listed at most.
const LISTED: i64 = 50;

fn storage(e: impl std::fmt::Display) -> ApiError {
    Error::storage(format!("the database failed: {e}")).into()
}

pub(super) async fn list(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let who = viewer.signed_in()?.clone();
    let answer = lobby
        .hub()
        .database()
        .query(move |db| {
            let found = notifications::list(db, &who, LISTED)?;
            let mut names: HashMap<accounts::AccountId, String> = HashMap::new();
            for other in found.iter().filter_map(|n| n.other.as_ref()) {
                if !names.contains_key(other)
                    && let Some(a) = accounts::by_id(db, other)?
                {
                    names.insert(other.clone(), a.shown_name().to_owned());
                }
            }
            Ok(NotificationList {
                notifications: found
                    .iter()
                    .map(|n| {
                        let other = n.other.as_ref().and_then(|o| names.get(o).cloned());
                        NotificationView::of(n, other)
                    })
                    .collect(),
                unread: notifications::unread(db, &who)?,
            })
        })
        .await
        .map_err(storage)?;
    Ok(Json(answer).into_response())
}

pub(super) async fn read(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let who = viewer.signed_in()?.clone();
    let now = lobby.hub().time().now_ms();
    let key = who.clone();
    let marked = lobby
        .hub()
        .database()
        .transact(move |db| notifications::read_all(db, &key, now))
        .await
        .map_err(storage)?;
    // The account's other pages update their counts.
    let notice = LobbyNotice::Notified {
        accounts: vec![who],
    };
    if let Err(e) = lobby
        .hub()
        .database()
        .notify(Channel::Lobby, notice.payload())
        .await
    {
        tracing::warn!("cannot wake the account's pages: {e}");
    }
    Ok(Json(Marked { read: marked }).into_response())
}

pub(super) async fn your_turn(
    Extension(lobby): Extension<Lobby>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let who = viewer.signed_in()?.clone();
    let entries = lobby
        .hub()
        .database()
        .query(move |db| games::your_turn(db, &who))
        .await
        .map_err(storage)?;
    let games = entries
        .into_iter()
        .map(|e| YourTurnGame {
            deadline_ms: e.deadline_ms,
            game: GameEntry::of(e),
        })
        .collect();
    Ok(Json(YourTurn { games }).into_response())
}
