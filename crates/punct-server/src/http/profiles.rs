//! The players' public pages as JSON (API.md, "Players"): a profile (`GET
//! /api/players/{name}`), its rating graph per speed (`…/history?speed=`), its games with
//! filters (`…/games?live=&rated=&result=&speed=&opponent=&before=`), a leaderboard per speed
//! (`GET /api/leaderboard/{speed}`) and the search by name prefix (`GET
//! /api/players?prefix=`).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::auth::refusal::answer;
use super::error::ApiError;
use crate::games::Hub;
use crate::players::accounts::{self, Account};
use crate::players::games::{self as account_games, Filter};
use crate::players::speed::Speed;
use crate::players::{ratings, username};
use crate::wire::profile::{
    Found, GameEntry, GameList, History, Leaderboard, Place, PointView, Profile, RatingView,
};

/// Games a list gives at most.
const GAMES_PAGE: i64 = 50;
/// Places a leaderboard shows.
const BOARD_PLACES: usize = 100;
/// Names a search finds at most.
const FOUND: i64 = 20;

fn failed(e: anyhow::Error) -> Response {
    answer(e.into())
}

fn speed_of(text: &str) -> Result<Speed, ApiError> {
    text.parse::<Speed>()
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

/// The open account named `name`, or 404.
async fn named(hub: &Hub, name: &str) -> Result<Account, Response> {
    let key = username::key(name);
    let found = hub
        .database()
        .query(move |db| accounts::by_name(db, &key))
        .await
        .map_err(failed)?;
    found
        .filter(Account::is_open)
        .ok_or_else(|| ApiError::not_found(format!("no player named {name}")).into_response())
}

/// The public profile of `account`.
pub(super) async fn profile_of(hub: &Hub, account: &Account) -> Result<Profile, Response> {
    let id = account.id.clone();
    let (rated, [wins, draws, losses]) = hub
        .database()
        .query(move |db| Ok((ratings::of(db, &id)?, account_games::record(db, &id)?)))
        .await
        .map_err(failed)?;
    let now = hub.time().now_ms();
    Ok(Profile {
        username: account.shown_name().to_owned(),
        created_ms: account.created_ms,
        bot: account.bot,
        ratings: rated
            .iter()
            .map(|(speed, record)| RatingView::of(*speed, record, now))
            .collect(),
        wins,
        draws,
        losses,
    })
}

pub(super) async fn profile(
    State(hub): State<Hub>,
    Path(name): Path<String>,
) -> Result<Response, Response> {
    let account = named(&hub, &name).await?;
    Ok(Json(profile_of(&hub, &account).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SpeedQuery {
    speed: String,
}

pub(super) async fn history(
    State(hub): State<Hub>,
    Path(name): Path<String>,
    Query(q): Query<SpeedQuery>,
) -> Result<Response, Response> {
    let speed = speed_of(&q.speed).map_err(IntoResponse::into_response)?;
    let id = named(&hub, &name).await?.id;
    let points = hub
        .database()
        .query(move |db| ratings::history(db, &id, speed))
        .await
        .map_err(failed)?;
    let history = History {
        speed: speed.name(),
        points: points.iter().map(PointView::of).collect(),
    };
    Ok(Json(history).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GamesQuery {
    live: Option<bool>,
    rated: Option<bool>,
    result: Option<String>,
    speed: Option<String>,
    opponent: Option<String>,
    before: Option<i64>,
}

pub(super) async fn games(
    State(hub): State<Hub>,
    Path(name): Path<String>,
    Query(q): Query<GamesQuery>,
) -> Result<Response, Response> {
    if let Some(result) = &q.result
        && !["win", "draw", "loss", "aborted"].contains(&result.as_str())
    {
        return Err(
            ApiError::bad_request("`result` must be win, draw, loss or aborted").into_response(),
        );
    }
    let speed = q
        .speed
        .as_deref()
        .map(speed_of)
        .transpose()
        .map_err(IntoResponse::into_response)?;
    let id = named(&hub, &name).await?.id;
    let opponent = match &q.opponent {
        Some(other) => Some(named(&hub, other).await?.id),
        None => None,
    };
    let filter = Filter {
        live: q.live,
        rated: q.rated,
        result: q.result,
        speed,
        opponent,
        before_ms: q.before,
    };
    let entries = hub
        .database()
        .query(move |db| account_games::of_account(db, &id, &filter, GAMES_PAGE))
        .await
        .map_err(failed)?;
    let games = entries.into_iter().map(GameEntry::of).collect();
    Ok(Json(GameList { games }).into_response())
}

pub(super) async fn leaderboard(
    State(hub): State<Hub>,
    Path(speed): Path<String>,
) -> Result<Response, Response> {
    let speed = speed_of(&speed).map_err(IntoResponse::into_response)?;
    let now = hub.time().now_ms();
    let board = hub
        .database()
        .query(move |db| ratings::leaderboard(db, speed, BOARD_PLACES, now))
        .await
        .map_err(failed)?;
    let players = board
        .into_iter()
        .map(|p| Place {
            username: p.username,
            bot: p.bot,
            rating: p.record.rating.rating.round() as i64,
            games: p.record.games,
        })
        .collect();
    Ok(Json(Leaderboard {
        speed: speed.name(),
        players,
    })
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SearchQuery {
    prefix: String,
}

pub(super) async fn search(
    State(hub): State<Hub>,
    Query(q): Query<SearchQuery>,
) -> Result<Response, Response> {
    let prefix = q.prefix.trim().to_owned();
    if prefix.is_empty() || prefix.chars().count() > username::MAX_LEN {
        return Err(ApiError::bad_request(format!(
            "`prefix` must be 1 to {} characters",
            username::MAX_LEN
        ))
        .into_response());
    }
    let found = hub
        .database()
        .query(move |db| accounts::search(db, &prefix, FOUND))
        .await
        .map_err(failed)?;
    let players = found.iter().map(|a| a.shown_name().to_owned()).collect();
    Ok(Json(Found { players }).into_response())
}
