//! The pictures' addresses (API.md): `GET /g/{id}/image.png` (a game's position, `?ply=N`
//! for the one after move N), `GET /g/{id}/game.gif` (the whole game, animated),
//! `GET /image.png?position=…` (any position), and the game's page with its link preview.
//! The drawing is [`crate::pictures`]'s; this is its HTTP: tags, caching, refusals.

use axum::Extension;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use punct_core::{Game, Move, Position};
use serde::Deserialize;

use super::positions::position_of;
use super::{assets, preview};
use crate::games::Hub;
use crate::http::error::ApiError;
use crate::pictures::Painters;

/// A finished game's pictures and any position's never change: kept a year.
const FOREVER: &str = "public, max-age=31536000, immutable";
/// A live game's change with its moves (and takebacks): asked again each time, answered
/// 304 while unchanged.
const REVALIDATE: &str = "no-cache";

#[derive(Deserialize)]
pub(super) struct PlyQuery {
    ply: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct PositionQuery {
    position: Option<String>,
}

/// `GET /g/{id}/image.png`: the game's position now, or after move `ply`.
pub(super) async fn game_png(
    State(hub): State<Hub>,
    Extension(painters): Extension<Painters>,
    Path(id): Path<String>,
    Query(q): Query<PlyQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let ply = match q.ply.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(text.parse::<usize>().map_err(|_| {
            ApiError::bad_request(format!("`ply` is a number of moves, not `{text}`"))
        })?),
    };
    let shared = hub.shared(&id).await?;
    let (pos, last) = shared.at(ply)?;
    let caption = shared.caption(ply);
    let result = caption.outcome.map(|o| o.to_string()).unwrap_or_default();
    let tag = tag(
        "p",
        &[
            &pos.to_string(),
            &last.map(|m| m.to_string()).unwrap_or_default(),
            &caption.names[0],
            &caption.names[1],
            &result,
        ],
    );
    let cache = if shared.live { REVALIDATE } else { FOREVER };
    let drawing = painters.png(pos, last, Some(caption));
    picture(&headers, tag, cache, "image/png", drawing).await
}

/// `GET /g/{id}/game.gif`: the whole game, a frame per move.
pub(super) async fn game_gif(
    State(hub): State<Hub>,
    Extension(painters): Extension<Painters>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let shared = hub.shared(&id).await?;
    let game: Game = shared.game;
    let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
    let tag = tag("g", &[&game.start().to_string(), &moves.join(" ")]);
    let cache = if shared.live { REVALIDATE } else { FOREVER };
    picture(&headers, tag, cache, "image/gif", painters.gif(game)).await
}

/// `GET /image.png?position=…`: any position, for analysis.
pub(super) async fn position_png(
    Extension(painters): Extension<Painters>,
    Query(q): Query<PositionQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let pos: Position = position_of(q.position.as_deref())?;
    let tag = tag("a", &[&pos.to_string()]);
    picture(
        &headers,
        tag,
        FOREVER,
        "image/png",
        painters.png(pos, None, None),
    )
    .await
}

/// The picture's response: 304 without drawing when the browser holds this version
/// (`tag`), else the picture `draw` makes.
async fn picture(
    headers: &HeaderMap,
    tag: String,
    cache: &'static str,
    kind: &'static str,
    draw: impl Future<Output = Result<Vec<u8>, crate::error::Error>>,
) -> Result<Response, ApiError> {
    let cached = [
        (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        (
            header::ETAG,
            HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"\"")),
        ),
    ];
    let held = headers.get(header::IF_NONE_MATCH).is_some_and(|v| {
        v.as_bytes()
            .split(|b| *b == b',')
            .any(|t| t.trim_ascii() == tag.as_bytes())
    });
    if held {
        return Ok((StatusCode::NOT_MODIFIED, cached).into_response());
    }
    let bytes = draw.await?;
    Ok((cached, [(header::CONTENT_TYPE, kind)], bytes).into_response())
}

/// An entity tag naming what a picture shows (and the drawing's version, so that a new
/// look is fetched again).
fn tag(kind: &str, parts: &[&str]) -> String {
    let hash = parts.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, part| {
        part.bytes()
            .chain([0])
            .fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    });
    format!("\"{kind}{}-{hash:016x}\"", env!("CARGO_PKG_VERSION"))
}

/// `GET /g/{id}`: the app's page, with the game's link preview when there is such a game
/// (else the page alone, which says there is none).
pub(super) async fn game_page(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some(page) = assets::page() else {
        return ApiError::not_found("no page").into_response();
    };
    let page = String::from_utf8_lossy(&page).into_owned();
    let page = match hub.shared(&id).await {
        Ok(shared) => {
            let accept = headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok());
            let texts = assets::texts(preview::language(accept));
            preview::page(&page, &shared, &id, &origin(&headers), &texts)
        }
        Err(_) => page,
    };
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        page,
    )
        .into_response()
}

/// The site's origin as the request names it (`Host`, and `X-Forwarded-Proto` from a proxy
/// in front), for the preview's absolute addresses; empty (relative addresses) when the
/// host is not a plain host name.
fn origin(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        });
    let Some(host) = host else {
        return String::new();
    };
    let https = headers
        .get("x-forwarded-proto")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"));
    format!("{}://{host}", if https { "https" } else { "http" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_is_the_requests_host() {
        let mut headers = HeaderMap::new();
        assert_eq!(origin(&headers), "");
        headers.insert(header::HOST, HeaderValue::from_static("punct.example:8080"));
        assert_eq!(origin(&headers), "http://punct.example:8080");
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert_eq!(origin(&headers), "https://punct.example:8080");
        headers.insert(header::HOST, HeaderValue::from_static("evil\"><script>"));
        assert_eq!(origin(&headers), "");
    }

    proptest::proptest! {
        #[test]
        fn any_host_gives_a_plain_origin_or_none(host in ".{0,60}", proto in ".{0,10}") {
            let mut headers = HeaderMap::new();
            if let (Ok(h), Ok(p)) = (HeaderValue::from_str(&host), HeaderValue::from_str(&proto)) {
                headers.insert(header::HOST, h);
                headers.insert("x-forwarded-proto", p);
            }
            let origin = origin(&headers);
            let host = origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                .unwrap_or(&origin);
            proptest::prop_assert!(origin.is_empty() || host.len() < origin.len(), "{origin}");
            proptest::prop_assert!(
                host.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b)),
                "{origin}"
            );
        }
    }

    #[test]
    fn tags_differ_by_what_is_shown() {
        assert_ne!(tag("p", &["a", "b"]), tag("p", &["ab", ""]));
        assert_ne!(tag("p", &["a"]), tag("g", &["a"]));
        assert_eq!(tag("p", &["a"]), tag("p", &["a"]));
    }
}
