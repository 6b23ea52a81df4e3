//! `POST /api/account/claim`: the games played in this browser before signing in (their seat
//! tokens kept in its localStorage) become the account's. Each token is checked against its
//! game: only a seat it holds is claimed, once, in `account_games`, with the game's state
//! (its turn, or its end); later changes of a live game update the row as they do any
//! account's. Games on one screen (one token for both seats) are not a player's and are left
//! out; the computer's games and friends' games are claimed, unrated.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use punct_core::{Colour, Termination};

use super::{failed, refused};
use crate::games::Hub;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::http::extract::parse;
use crate::players::games::{self as account_games, Seat};
use crate::players::glicko2::Score;
use crate::players::speed::{Speed, TimeControl};
use crate::room::{Audience, Snapshot};
use crate::store::sql::{Attached, Statement};
use crate::wire::account::{Claim, Claimed};

/// Games one request may claim.
const MOST: usize = 200;

/// The speed a claimed game is listed under: its clock's, or classical for an untimed game
/// (played at leisure, the nearest of the four).
fn speed_of(snapshot: &Snapshot) -> Speed {
    snapshot
        .clock
        .as_ref()
        .and_then(|c| TimeControl::clock(c.initial_ms, c.increment_ms).ok())
        .map_or(Speed::Classical, |t| t.speed())
}

/// The statements that record `colour`'s seat of `snapshot` for the account.
fn statements(snapshot: &Snapshot, seat: Seat) -> Vec<Statement> {
    let mut all = vec![account_games::joined(&seat)];
    match &snapshot.ending {
        None => all.push(account_games::turn(&snapshot.id, snapshot.turn, None)),
        Some(ending) => {
            let white = match (ending.outcome.termination, ending.outcome.winner) {
                (Termination::Aborted, _) => None,
                (_, None) => Some(Score::Draw),
                (_, Some(Colour::White)) => Some(Score::Win),
                (_, Some(Colour::Black)) => Some(Score::Loss),
            };
            all.push(account_games::ended(
                &snapshot.id,
                white,
                snapshot.updated_ms,
            ));
        }
    }
    all
}

pub(in crate::http) async fn claim(
    State(hub): State<Hub>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, Response> {
    let account = viewer.signed_in().map_err(refused)?.clone();
    let req: Claim = parse(&body).map_err(refused)?;
    let who = account.clone();
    let bot = hub
        .database()
        .query(move |db| crate::players::accounts::is_bot(db, &who))
        .await
        .map_err(failed)?;
    if bot {
        return Err(refused(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "a bot account claims no games played by a person",
        )));
    }
    if req.games.len() > MOST {
        return Err(refused(ApiError::bad_request(format!(
            "at most {MOST} games at once"
        ))));
    }
    let mut work = Vec::new();
    let mut claimed = Vec::new();
    for game in &req.games {
        let Ok(viewed) = hub.state(&game.id, Some(&game.token), None).await else {
            continue;
        };
        let Audience::Seat(colour) = viewed.audience else {
            continue;
        };
        let snapshot = &viewed.snapshot;
        let seat = Seat {
            game: snapshot.id.clone(),
            colour,
            account: account.clone(),
            opponent: None,
            speed: speed_of(snapshot),
            rated: false,
            started_ms: snapshot.created_ms,
        };
        work.extend(statements(snapshot, seat));
        claimed.push(snapshot.id.clone());
    }
    hub.database()
        .transact(move |db| work.iter().try_for_each(|s| s.apply(db)))
        .await
        .map_err(failed)?;
    Ok(Json(Claimed { games: claimed }).into_response())
}
